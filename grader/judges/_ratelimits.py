"""Rate limits: what a panel file says a judge may send, and what a provider's reply says is left.

A panel judge may carry ``rate_limits`` (requests, tokens, input and output tokens per minute: the tier's
figures); the call runner paces its requests under them (``grader.panel._pacing``). Every reply may also carry the
provider's own view, read here into a :class:`RateLimitSnapshot`:

- OpenAI: ``x-ratelimit-limit-requests`` / ``-remaining-requests`` / ``-reset-requests`` and the same for
  ``-tokens`` (input and output together); resets are durations such as ``1s``, ``6m0s``, ``20ms``.
- Anthropic: ``anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}``; resets
  are RFC 3339 times.
- xAI (gRPC metadata, trailing on a RESOURCE_EXHAUSTED): the OpenAI names, and ``retry-after``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["LIMIT_KINDS", "LimitState", "RateLimits", "RateLimitSnapshot", "snapshot_from_headers"]

LIMIT_KINDS = ("requests", "tokens", "input_tokens", "output_tokens")
"""What a limit counts: requests, all tokens, input tokens, output tokens (each per minute)."""


class RateLimits(BaseModel):
    """A judge's limits per minute, from the panel file (the provider tier's figures; any may be left out)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rpm: int | None = Field(default=None, gt=0)
    """Requests per minute."""
    tpm: int | None = Field(default=None, gt=0)
    """Tokens per minute, input and output together (OpenAI's and xAI's TPM)."""
    input_tpm: int | None = Field(default=None, gt=0)
    """Input tokens per minute (Anthropic's ITPM)."""
    output_tpm: int | None = Field(default=None, gt=0)
    """Output tokens per minute (Anthropic's OTPM)."""

    @model_validator(mode="after")
    def _something_set(self) -> RateLimits:
        if self.per_minute() == {}:
            raise ValueError("rate_limits names no limit: give rpm, tpm, input_tpm and/or output_tpm")
        return self

    def per_minute(self) -> dict[str, int]:
        """kind (``LIMIT_KINDS``) -> limit per minute, for the limits given."""
        values = {
            "requests": self.rpm,
            "tokens": self.tpm,
            "input_tokens": self.input_tpm,
            "output_tokens": self.output_tpm,
        }
        return {k: v for k, v in values.items() if v is not None}


@dataclass(frozen=True)
class LimitState:
    """One limit as a reply reports it: the limit, what is left, seconds until it is whole again (when said)."""

    limit: int | None
    remaining: int | None
    reset_s: float | None = None


@dataclass(frozen=True)
class RateLimitSnapshot:
    """What one reply said of the key's limits, by kind (``LIMIT_KINDS``)."""

    limits: dict[str, LimitState] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.limits)


_OPENAI_NAMES = {"requests": "requests", "tokens": "tokens"}
_ANTHROPIC_NAMES = {
    "requests": "requests",
    "tokens": "tokens",
    "input_tokens": "input-tokens",
    "output_tokens": "output-tokens",
}
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_DURATION_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}


def _int(value: Any) -> int | None:
    if value is None:
        return None
    try:
        return int(float(str(value).strip()))
    except ValueError:
        return None


def parse_duration(value: Any) -> float | None:
    """OpenAI's reset durations (``1s``, ``6m0s``, ``20ms``, ``1h2m3.5s``), or plain seconds; None if unreadable."""
    if value is None:
        return None
    text = str(value).strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    parts = _DURATION_PART.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    return sum(float(n) * _DURATION_SECONDS[u] for n, u in parts)


def _seconds_until(value: Any, now: float) -> float | None:
    """Seconds from ``now`` until an RFC 3339 time (Anthropic's resets); None if unreadable."""
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        return parse_duration(value)
    return max(0.0, when.timestamp() - now)


def snapshot_from_headers(headers: Any, now: float | None = None) -> RateLimitSnapshot | None:
    """The rate-limit state a reply's headers (or gRPC metadata, as a mapping) report; None when they say nothing."""
    if headers is None:
        return None
    now = time.time() if now is None else now
    get = headers.get
    limits: dict[str, LimitState] = {}
    for kind, name in _ANTHROPIC_NAMES.items():
        prefix = f"anthropic-ratelimit-{name}-"
        state = LimitState(
            _int(get(prefix + "limit")), _int(get(prefix + "remaining")), _seconds_until(get(prefix + "reset"), now)
        )
        if state.limit is not None or state.remaining is not None:
            limits[kind] = state
    for kind, name in _OPENAI_NAMES.items():
        state = LimitState(
            _int(get(f"x-ratelimit-limit-{name}")),
            _int(get(f"x-ratelimit-remaining-{name}")),
            parse_duration(get(f"x-ratelimit-reset-{name}")),
        )
        if state.limit is not None or state.remaining is not None:
            limits.setdefault(kind, state)
    return RateLimitSnapshot(limits) if limits else None
