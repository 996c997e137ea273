"""Claim ledgers: claims, the field registry, the deterministic verifier, cross-checks and grounding.

The verifier re-checks every claim against point-in-time fields (values observed at or before the
decision); see ``ledgers.rules`` and docs/ledgers.md for every rule and threshold. This package imports
no provider SDK.
"""

from ledgers._crosscheck import cross_check
from ledgers._extract import TEMPLATE_MARK, UniverseIndex, claims_at, extract_claims, split_sentences
from ledgers._grounding import GroundingRow, cohen_kappa, grounding_by_judge, grounding_summary
from ledgers._jsonl import ClaimLine, ClaimsFileError, read_claims, verify_claims_jsonl
from ledgers._models import (
    STATUSES,
    Assertion,
    CitedValue,
    Claim,
    CrossCheck,
    Evidence,
    Flag,
    Status,
    Verification,
    VerifierConfig,
)
from ledgers._registry import FIELD_SPECS, FIELDS, KNOWN_FIELDS, FieldSpec, field_spec, resolve_field
from ledgers._structured import structured_assertions, to_structured
from ledgers._units import StatedNumber, format_value, normalise, parse_number
from ledgers._verify import Verifier, claim_assertions, combine, verify, verify_many
from ledgers.reading import parse_assertions
from ledgers.rules import consensus_label

__all__ = [
    "Assertion",
    "CitedValue",
    "Claim",
    "ClaimLine",
    "ClaimsFileError",
    "CrossCheck",
    "Evidence",
    "FIELDS",
    "FIELD_SPECS",
    "FieldSpec",
    "Flag",
    "GroundingRow",
    "KNOWN_FIELDS",
    "STATUSES",
    "StatedNumber",
    "Status",
    "TEMPLATE_MARK",
    "UniverseIndex",
    "Verification",
    "Verifier",
    "VerifierConfig",
    "claim_assertions",
    "claims_at",
    "cohen_kappa",
    "combine",
    "consensus_label",
    "cross_check",
    "extract_claims",
    "field_spec",
    "format_value",
    "grounding_by_judge",
    "grounding_summary",
    "normalise",
    "parse_assertions",
    "parse_number",
    "read_claims",
    "resolve_field",
    "split_sentences",
    "structured_assertions",
    "to_structured",
    "verify",
    "verify_claims_jsonl",
    "verify_many",
]
