"""A judge's key blanked out of any text that may be stored or shown (defence in depth: no error message, raw
reply or parsed reply should carry a key)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, overload

from ._endpoint_policy import LOCAL_PLACEHOLDER_KEY
from ._outcome import CallOutcome


@overload
def redact(text: str, secret: str) -> str: ...
@overload
def redact(text: None, secret: str) -> None: ...
@overload
def redact(text: str | None, secret: str) -> str | None: ...
def redact(text: str | None, secret: str) -> str | None:
    """`text` with `secret` blanked out (defence in depth: no error message should carry a key)."""
    if text is None or not secret or secret == LOCAL_PLACEHOLDER_KEY:
        return text
    return text.replace(secret, "[redacted]")


def redact_value(value: Any, secret: str) -> Any:
    """``value`` (parsed JSON: dicts, lists, strings) with ``secret`` blanked out of every string, keys included."""
    if isinstance(value, str):
        return redact(value, secret)
    if isinstance(value, dict):
        return {redact(k, secret) if isinstance(k, str) else k: redact_value(v, secret) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v, secret) for v in value]
    return value


def scrub_outcome(judge: Any, outcome: CallOutcome) -> CallOutcome:
    """``outcome`` with the judge's key blanked out of every form of the reply that may be stored: the raw reply,
    the parsed reply (an endpoint may echo the request's key into the model's text), the error message. The
    caller stores only what this returns (``SdkJudge`` keeps the key; other judges have none)."""
    secret = getattr(judge, "_secret", "") or ""
    if not secret or secret == LOCAL_PLACEHOLDER_KEY:
        return outcome
    raw = redact(outcome.raw_reply, secret) or ""
    parsed = redact_value(outcome.parsed, secret) if outcome.parsed is not None else None
    message = redact(outcome.error_message, secret)
    if raw == outcome.raw_reply and parsed == outcome.parsed and message == outcome.error_message:
        return outcome
    return replace(outcome, raw_reply=raw, parsed=parsed, error_message=message)
