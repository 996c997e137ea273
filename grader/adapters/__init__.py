"""Importers of other formats into season bundle v1 (CapitalBench rounds: ``grader.adapters.capitalbench``)."""

from grader.adapters.capitalbench import (
    ATTRIBUTION,
    CapitalBenchError,
    CapitalBenchIssue,
    ImportSummary,
    compose_rationale,
    display_name_for,
    import_capitalbench,
    import_capitalbench_with_summary,
)

__all__ = [
    "ATTRIBUTION",
    "CapitalBenchError",
    "CapitalBenchIssue",
    "ImportSummary",
    "compose_rationale",
    "display_name_for",
    "import_capitalbench",
    "import_capitalbench_with_summary",
]
