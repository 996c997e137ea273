"""What the fakes keep of submitted batches: each request answered through the same script as a synchronous one
when the batch is created, the batch "ending" ``batch_latency_s`` later (so a client sees it in progress first).

A request the script leaves hanging never finishes: it is reported expired when the batch ends, as a provider
reports requests its batch window did not reach.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class FakeBatch:
    """One submitted batch: its results in request order (None: the request expired)."""

    id: str
    created_at: float
    ends_at: float
    results: list[tuple[str, Any]]
    """(custom id, provider-rendered result or None)."""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def ended(self) -> bool:
        return time.time() >= self.ends_at

    def counts(self) -> dict[str, int]:
        """How many requests are processing, succeeded, errored, expired (all processing until the batch ends)."""
        if not self.ended:
            return {"processing": len(self.results), "succeeded": 0, "errored": 0, "expired": 0}
        expired = sum(1 for _, r in self.results if r is None)
        errored = sum(1 for _, r in self.results if r is not None and not _succeeded(r))
        return {
            "processing": 0,
            "succeeded": len(self.results) - expired - errored,
            "errored": errored,
            "expired": expired,
        }


def _succeeded(result: Any) -> bool:
    ok = getattr(result, "ok", None)
    return bool(ok) if ok is not None else bool(result.get("ok")) if isinstance(result, dict) else True


class BatchStore:
    """The batches (and, for OpenAI, the uploaded files) one fake server holds in memory."""

    def __init__(self, latency_s: float = 0.0) -> None:
        self.latency_s = latency_s
        self._lock = threading.Lock()
        self._batches: dict[str, FakeBatch] = {}
        self.files: dict[str, bytes] = {}

    def add(self, prefix: str, results: list[tuple[str, Any]], **meta: Any) -> FakeBatch:
        now = time.time()
        batch = FakeBatch(f"{prefix}{secrets.token_hex(12)}", now, now + self.latency_s, results, dict(meta))
        with self._lock:
            self._batches[batch.id] = batch
        return batch

    def get(self, batch_id: str) -> FakeBatch | None:
        with self._lock:
            return self._batches.get(batch_id)

    def all(self) -> list[FakeBatch]:
        with self._lock:
            return list(self._batches.values())

    def add_file(self, content: bytes) -> str:
        file_id = f"file-{secrets.token_hex(12)}"
        with self._lock:
            self.files[file_id] = content
        return file_id

    def file(self, file_id: str) -> bytes | None:
        with self._lock:
            return self.files.get(file_id)

    def clear(self) -> None:
        with self._lock:
            self._batches.clear()
            self.files.clear()
