"""Season bundle v1: typed models, loader and validator."""

from grader.season._loader import (
    BundleError,
    BundleIssue,
    SeasonBundle,
    hash_bundle_files,
    load_bundle,
    parse_aware,
    refused_entries,
)
from grader.season._models import (
    AllocationItem,
    Contestant,
    Decision,
    InvestorProfile,
    Round,
    SeasonInfo,
    Trade,
    UniverseEntry,
)

__all__ = [
    "AllocationItem",
    "BundleError",
    "BundleIssue",
    "Contestant",
    "Decision",
    "InvestorProfile",
    "Round",
    "SeasonBundle",
    "SeasonInfo",
    "Trade",
    "UniverseEntry",
    "hash_bundle_files",
    "load_bundle",
    "parse_aware",
    "refused_entries",
]
