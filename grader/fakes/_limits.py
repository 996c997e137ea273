"""A fake provider's rate limits: requests and tokens per minute per API key, over sliding windows.

A request is admitted when, with it, no limit's window would hold more than its share (``limit x window_s / 60``):
its request and input tokens are counted at arrival (the fake counts four characters a token, as it reports in
usage), its output tokens when the reply is made. One refused is answered 429 (gRPC: RESOURCE_EXHAUSTED) with
the seconds until the window has room as Retry-After; refused requests are not counted. Every reply of a fake with
limits carries the provider's rate-limit headers (what is left, when it is whole again).

``window_s`` is 60 as the providers count; a benchmark whose run is shorter than a minute scales it down (the same
limit per minute, enforced over a shorter window), so that its run spans many windows.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass

__all__ = ["FakeLimits", "LimitWindows", "WindowState"]


@dataclass(frozen=True)
class FakeLimits:
    """Limits per minute a fake enforces per API key (None: none of that kind)."""

    rpm: int | None = None
    tpm: int | None = None
    """Input and output tokens together (OpenAI's and xAI's TPM)."""
    input_tpm: int | None = None
    output_tpm: int | None = None
    window_s: float = 60.0

    def __post_init__(self) -> None:
        for name in ("rpm", "tpm", "input_tpm", "output_tpm"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be > 0, got {value}")
        if self.window_s <= 0:
            raise ValueError(f"window_s must be > 0, got {self.window_s}")

    def per_minute(self) -> dict[str, int]:
        values = {
            "requests": self.rpm,
            "tokens": self.tpm,
            "input_tokens": self.input_tpm,
            "output_tokens": self.output_tpm,
        }
        return {k: v for k, v in values.items() if v is not None}


@dataclass(frozen=True)
class WindowState:
    """One limit as a reply reports it: the limit per minute, what is left of it, seconds until it is whole."""

    limit: int
    remaining: int
    reset_s: float


class _Window:
    """Amounts counted over the last ``span`` seconds, against a ``quota``."""

    def __init__(self, quota: float, span: float) -> None:
        self.quota, self.span = quota, span
        self.entries: deque[tuple[float, int]] = deque()
        self.used = 0

    def expire(self, now: float) -> None:
        while self.entries and self.entries[0][0] <= now - self.span:
            self.used -= self.entries.popleft()[1]

    def add(self, now: float, amount: int) -> None:
        if amount > 0:
            self.entries.append((now, amount))
            self.used += amount

    def wait_for(self, now: float, amount: int) -> float:
        """Seconds until ``amount`` more fits (0: now). An amount over the whole quota fits once the window is empty
        (the providers answer such a request too, once; it is never refused forever)."""
        need = self.used + amount - self.quota
        if need <= 0 or not self.entries:
            return 0.0
        freed = 0
        for at, size in self.entries:
            freed += size
            if freed >= need:
                return max(0.0, at + self.span - now)
        return max(0.0, self.entries[-1][0] + self.span - now)

    def state(self, limit: int, now: float) -> WindowState:
        reset = max(0.0, self.entries[-1][0] + self.span - now) if self.entries else 0.0
        return WindowState(limit, max(0, int(self.quota - self.used)), reset)


class LimitWindows:
    """Per API key, one sliding window per limit; thread-safe (the fakes serve requests in parallel)."""

    def __init__(self, limits: FakeLimits) -> None:
        self.limits = limits
        self._per_minute = limits.per_minute()
        self._lock = threading.Lock()
        self._keys: dict[str, dict[str, _Window]] = {}
        self.refused = 0
        """How many requests were refused for a limit (all keys)."""

    def _windows(self, key: str) -> dict[str, _Window]:
        windows = self._keys.get(key)
        if windows is None:
            share = self.limits.window_s / 60.0
            windows = {kind: _Window(limit * share, self.limits.window_s) for kind, limit in self._per_minute.items()}
            self._keys[key] = windows
        return windows

    def admit(self, key: str, input_tokens: int, now: float | None = None) -> tuple[str, float] | None:
        """Count a request and its input tokens, or refuse it: (the limit it would exceed, seconds to wait)."""
        now = time.time() if now is None else now
        wanted = {"requests": 1, "tokens": input_tokens, "input_tokens": input_tokens, "output_tokens": 0}
        with self._lock:
            windows = self._windows(key)
            waits = {}
            for kind, window in windows.items():
                window.expire(now)
                if kind == "output_tokens":  # output is unknown at arrival: refused only once the window is spent
                    wait = window.wait_for(now, 1) if window.used >= window.quota else 0.0
                else:
                    wait = window.wait_for(now, wanted[kind])
                if wait > 0:
                    waits[kind] = wait
            if waits:
                self.refused += 1
                kind = max(waits, key=waits.__getitem__)
                return kind, waits[kind]
            for kind, window in windows.items():
                window.add(now, wanted[kind])
        return None

    def record_output(self, key: str, output_tokens: int, now: float | None = None) -> None:
        """Count the output tokens of a reply (made now)."""
        now = time.time() if now is None else now
        with self._lock:
            windows = self._windows(key)
            for kind in ("tokens", "output_tokens"):
                if kind in windows:
                    windows[kind].expire(now)
                    windows[kind].add(now, output_tokens)

    def state(self, key: str, now: float | None = None) -> dict[str, WindowState]:
        """kind -> what is left of each limit for ``key``."""
        now = time.time() if now is None else now
        with self._lock:
            windows = self._windows(key)
            out = {}
            for kind, window in windows.items():
                window.expire(now)
                out[kind] = window.state(self._per_minute[kind], now)
            return out
