"""Judges: one provider class per file behind one protocol, found through one registry (``_registry.PROVIDERS``).

A provider class carries its capabilities as class attributes (``Provider``); see docs/contributing.md to add one.
The offline reference judge lives in `grader.judges.reference`.
"""

from ._endpoint_policy import (
    MissingApiKey,
    RealApiCallsNotAllowed,
    is_local_endpoint,
    make_judge,
    missing_api_keys,
)
from ._outcome import (
    INVALID_OUTPUT_KINDS,
    MAX_REPLY_CHARS,
    RETRYABLE_ERROR_KINDS,
    CallOutcome,
    ErrorKind,
    is_retryable,
    strict_json_loads,
)
from ._protocol import BatchApiError, BatchItem, BatchJudge, BatchResult, BatchState, ProviderJudge
from ._ratelimits import LIMIT_KINDS, LimitState, RateLimits, RateLimitSnapshot, snapshot_from_headers
from ._redaction import scrub_outcome
from ._registry import (
    PROVIDERS,
    Provider,
    StructuredOutput,
    UnknownProvider,
    provider_class,
    provider_labels,
    providers_with,
)
from ._spec import JudgeSpec, Pricing

__all__ = [
    "INVALID_OUTPUT_KINDS",
    "LIMIT_KINDS",
    "MAX_REPLY_CHARS",
    "RETRYABLE_ERROR_KINDS",
    "BatchApiError",
    "BatchItem",
    "BatchJudge",
    "BatchResult",
    "BatchState",
    "CallOutcome",
    "ErrorKind",
    "JudgeSpec",
    "LimitState",
    "MissingApiKey",
    "PROVIDERS",
    "Pricing",
    "Provider",
    "ProviderJudge",
    "RateLimitSnapshot",
    "RateLimits",
    "RealApiCallsNotAllowed",
    "StructuredOutput",
    "UnknownProvider",
    "is_local_endpoint",
    "is_retryable",
    "make_judge",
    "missing_api_keys",
    "provider_class",
    "provider_labels",
    "providers_with",
    "scrub_outcome",
    "snapshot_from_headers",
    "strict_json_loads",
]
