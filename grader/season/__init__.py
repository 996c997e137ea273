"""Season bundle v1: typed models, loader and validator, and the one bundle writer."""

from grader.season._cache import cached_bundle, cached_derived
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
from grader.season._writer import BundleFile, csv_text, jsonl_text, write_bundle, yaml_text

__all__ = [
    "AllocationItem",
    "BundleError",
    "BundleFile",
    "BundleIssue",
    "Contestant",
    "Decision",
    "InvestorProfile",
    "Round",
    "SeasonBundle",
    "SeasonInfo",
    "Trade",
    "UniverseEntry",
    "cached_bundle",
    "cached_derived",
    "csv_text",
    "hash_bundle_files",
    "jsonl_text",
    "load_bundle",
    "parse_aware",
    "refused_entries",
    "write_bundle",
    "yaml_text",
]
