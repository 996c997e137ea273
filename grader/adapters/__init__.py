"""Importers of other formats into season bundle v1 (CapitalBench rounds)."""

from grader.adapters._capitalbench import (
    ATTRIBUTION,
    ImportSummary,
    compose_rationale,
    display_name_for,
    import_capitalbench,
    import_capitalbench_with_summary,
)
from grader.adapters._capitalbench_source import CapitalBenchError, CapitalBenchIssue

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
