"""CapitalBench rounds → season bundle v1 (``format: rounds``).

Four steps, one module each: the source schemas (``_schema``) and readers (``_source``, ``_tables``) validate a
round directory; ``_select`` picks and reads the rounds of one track; ``_assemble`` turns them into the bundle's
files and the import's summary without touching the disk (the rationale text in ``_rationale``, the README and
attribution in ``_summary``); ``_import`` writes the files with :func:`grader.season.write_bundle`.
docs/capitalbench.md documents the mapping.
"""

from grader.adapters.capitalbench._assemble import AssembledBundle, assemble
from grader.adapters.capitalbench._import import import_capitalbench, import_capitalbench_with_summary
from grader.adapters.capitalbench._rationale import compose_rationale, display_name_for
from grader.adapters.capitalbench._schema import (
    TRACKS,
    CapitalBenchError,
    CapitalBenchIssue,
    SourceRound,
    Submission,
    Track,
)
from grader.adapters.capitalbench._select import SelectedRounds, read_selected_rounds
from grader.adapters.capitalbench._summary import ATTRIBUTION, ImportSummary, RoundStatus
from grader.adapters.capitalbench._tables import column_field

__all__ = [
    "ATTRIBUTION",
    "TRACKS",
    "AssembledBundle",
    "CapitalBenchError",
    "CapitalBenchIssue",
    "ImportSummary",
    "RoundStatus",
    "SelectedRounds",
    "SourceRound",
    "Submission",
    "Track",
    "assemble",
    "column_field",
    "compose_rationale",
    "display_name_for",
    "import_capitalbench",
    "import_capitalbench_with_summary",
    "read_selected_rounds",
]
