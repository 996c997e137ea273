"""The outcome of one provider call (`CallOutcome`) and how it is classified: error kinds and which are worth a
retry, an HTTP status's kind, the provider's retry-after, and the model's text read as a JSON object (refused,
truncated, invalid or ok)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Literal

from ._ratelimits import RateLimitSnapshot

ErrorKind = Literal["transport", "timeout", "rate_limited", "server", "format", "schema", "refused", "auth", "request"]
"""Why a call failed. Retryable (infrastructure or format): transport, timeout, rate_limited, server,
format, schema. Not retryable: refused (the model declined), auth (401/403), request (any other 4xx:
the request itself was rejected)."""

RETRYABLE_ERROR_KINDS: frozenset[str] = frozenset(
    {"transport", "timeout", "rate_limited", "server", "format", "schema"}
)
INVALID_OUTPUT_KINDS: frozenset[str] = frozenset({"format", "schema"})
"""The kinds that mean the model answered but its output is unusable (a call stored as ``invalid``, not ``error``)."""


def is_retryable(kind: str | None) -> bool:
    """Whether a failure of this kind is worth another attempt of the same prompt (``RETRYABLE_ERROR_KINDS``)."""
    return kind in RETRYABLE_ERROR_KINDS


@dataclass
class CallOutcome:
    """Everything one provider call produced; `raw_reply` is stored by the caller before anything else.

    `raw_reply` is the HTTP body text exactly as received (error bodies too), or for gRPC the response
    message (or the error status) as JSON; empty when nothing came back (timeout, transport).
    """

    ok: bool
    raw_reply: str
    parsed: dict[str, Any] | None = None
    error_kind: ErrorKind | None = None
    error_message: str | None = None
    http_status: int | None = None
    retry_after_s: float | None = None
    input_tokens: int | None = None
    """Every input token of the call, including those read from or written to the prompt cache."""
    output_tokens: int | None = None
    cached_input_tokens: int | None = None
    """Of ``input_tokens``, read from the provider's prompt cache."""
    cache_write_tokens: int | None = None
    """Of ``input_tokens``, written to the prompt cache (billed apart by Anthropic)."""
    latency_s: float = 0.0
    request_id: str | None = None
    stop_reason: str | None = None
    """The provider's own word for why generation stopped (e.g. 'completed', 'max_tokens', 'length')."""
    rate_limits: RateLimitSnapshot | None = None
    """What the reply's rate-limit headers (gRPC: metadata) said of the key's limits, if anything."""

    @property
    def retryable(self) -> bool:
        return is_retryable(self.error_kind)


def retry_after_seconds(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms`, `retry-after` (seconds or HTTP date), if present."""
    if headers is None:
        return None
    milliseconds = headers.get("retry-after-ms")
    if milliseconds:
        try:
            return max(0.0, float(milliseconds) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def error_kind_for_status(status: int) -> ErrorKind:
    if status == 429:
        return "rate_limited"
    if status in (401, 403):
        return "auth"
    if status == 408:
        return "timeout"
    if status >= 500:
        return "server"
    return "request"


MAX_REPLY_CHARS = 262_144
"""The longest model text accepted as a grade (256 Ki characters; a 16,000-token reply is about 64,000). A longer
one is an invalid attempt (``format``): kept as received, never parsed or scored."""


class DuplicateKey(ValueError):
    """A JSON object names the same key twice (refused: which value the model meant is unknowable)."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKey(key)
        seen[key] = value
    return seen


def strict_json_loads(text: str) -> Any:
    """``json.loads`` that refuses an object with a duplicate key (``DuplicateKey``) instead of keeping the last
    value."""
    return json.loads(text, object_pairs_hook=_no_duplicate_keys)


def parse_model_json(text: str) -> tuple[dict[str, Any] | None, ErrorKind | None, str | None]:
    """The JSON object the model wrote; ('format', why) when it is not JSON, is over ``MAX_REPLY_CHARS`` or names a
    key twice in one object; ('schema', why) when it is not an object."""
    if not text.strip():
        return None, "format", "the model returned no text"
    if len(text) > MAX_REPLY_CHARS:
        return (
            None,
            "format",
            (f"the model's text is {len(text):,} characters, over the limit of {MAX_REPLY_CHARS:,}: not parsed"),
        )
    try:
        value = strict_json_loads(text)
    except DuplicateKey as error:
        return None, "format", f"the model's JSON names the key {str(error)[:100]!r} twice in one object (refused)"
    except json.JSONDecodeError as error:
        return None, "format", f"the model's text is not valid JSON: {error}"
    if not isinstance(value, dict):
        return None, "schema", f"the model's JSON is a {type(value).__name__}, not an object"
    return value, None, None


def outcome_from_text(
    text: str,
    *,
    raw_reply: str,
    truncated: bool,
    refusal: str | None,
    **fields: Any,
) -> CallOutcome:
    """Classify the model's text once the transport succeeded: refused, truncated, invalid, or ok."""
    if refusal is not None:
        return CallOutcome(
            False, raw_reply, error_kind="refused", error_message=f"the model refused: {refusal}", **fields
        )
    if truncated:
        return CallOutcome(
            False,
            raw_reply,
            error_kind="format",
            error_message=f"the output was cut off ({fields.get('stop_reason')}) before the JSON was complete",
            **fields,
        )
    parsed, kind, message = parse_model_json(text)
    if kind is not None:
        return CallOutcome(False, raw_reply, error_kind=kind, error_message=message, **fields)
    return CallOutcome(True, raw_reply, parsed=parsed, **fields)
