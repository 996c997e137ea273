"""Judges: one provider client per file (OpenAI, Anthropic, xAI, openai-compatible) behind one protocol.

The offline reference judge lives in `grader.judges.reference`.
"""

from ._base import (
    DEFAULT_API_KEY_ENVS,
    DEFAULT_ENDPOINTS,
    MAX_REPLY_CHARS,
    RETRYABLE_ERROR_KINDS,
    BatchApiError,
    BatchItem,
    BatchJudge,
    BatchResult,
    BatchState,
    CallOutcome,
    ErrorKind,
    JudgeSpec,
    MissingApiKey,
    Pricing,
    Provider,
    ProviderJudge,
    RealApiCallsNotAllowed,
    is_local_endpoint,
    make_judge,
    missing_api_keys,
    scrub_outcome,
    strict_json_loads,
)

__all__ = [
    "DEFAULT_API_KEY_ENVS",
    "DEFAULT_ENDPOINTS",
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
    "MissingApiKey",
    "Pricing",
    "Provider",
    "ProviderJudge",
    "RealApiCallsNotAllowed",
    "is_local_endpoint",
    "make_judge",
    "missing_api_keys",
    "scrub_outcome",
    "strict_json_loads",
]
