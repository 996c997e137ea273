"""Anonymizer: neutral aliases for contestants and identity scrubbing of everything a judge sees.

The alias <-> contestant mapping and the per-decision scrub records stay on the grader's side (the
:class:`Anonymizer` object and the ``<out>.mapping.json`` / ``<out>.scrub-log.jsonl`` files written next
to, never inside, the judge's bundle). Rules and decisions: grader/anonymizer/README.md.
"""

from grader.anonymizer._anonymizer import (
    ISSUER_BRANDS,
    Anonymizer,
    alias_label,
    collides_with_aliases,
    universe_allowlist,
)
from grader.anonymizer._bundle import (
    PUBLIC_ROUND_ID,
    AnonymizationLeakError,
    AnonymizedBundle,
    mapping_path_for,
    scrub_log_path_for,
    write_anonymized_bundle,
)
from grader.anonymizer._detector import find_leaks
from grader.anonymizer._guard import LeakGuard, lexicon
from grader.anonymizer._models import (
    MODEL_PLACEHOLDER,
    PROVIDER_PLACEHOLDER,
    SELF_REFERENCE_PLACEHOLDER,
    UNDISCLOSED,
    AliasAssignment,
    Replacement,
    ReplacementKind,
    ScrubRecord,
    ScrubResult,
)
from grader.anonymizer._named_view import NamedView

__all__ = [
    "AliasAssignment",
    "AnonymizationLeakError",
    "AnonymizedBundle",
    "Anonymizer",
    "ISSUER_BRANDS",
    "LeakGuard",
    "MODEL_PLACEHOLDER",
    "NamedView",
    "PROVIDER_PLACEHOLDER",
    "PUBLIC_ROUND_ID",
    "Replacement",
    "ReplacementKind",
    "SELF_REFERENCE_PLACEHOLDER",
    "ScrubRecord",
    "ScrubResult",
    "UNDISCLOSED",
    "alias_label",
    "collides_with_aliases",
    "find_leaks",
    "lexicon",
    "mapping_path_for",
    "scrub_log_path_for",
    "universe_allowlist",
    "write_anonymized_bundle",
]
