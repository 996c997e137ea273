"""What every provider judge shares (the provider files subclass `SdkJudge`): one SDK client per event loop, the
call's wall time and backstop deadline, the outcome of an HTTP error or of no reply at all, batch errors and JSONL
batch results.

A provider judge sends one (system, user, JSON schema) prompt through the provider's own async SDK
with SDK retries off, and returns a `CallOutcome` that always carries the provider's raw reply,
captured before any parsing. It never retries and never raises for provider failures: the
orchestrator decides about retries and records every attempt.
"""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager
from typing import Any, Generic, Protocol, TypeVar

from ._outcome import CallOutcome, ErrorKind, error_kind_for_status, retry_after_seconds
from ._protocol import BatchApiError, BatchResult
from ._ratelimits import snapshot_from_headers
from ._redaction import redact
from ._spec import JudgeSpec


class ClosableClient(Protocol):
    """An async SDK client: all a judge does with it besides its calls is close it."""

    async def close(self) -> None: ...


ClientT = TypeVar("ClientT", bound=ClosableClient)


class Stopwatch:
    """Wall time of one call."""

    def __init__(self) -> None:
        self._start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self._start


def backstop_timeout(spec: JudgeSpec) -> float:
    """An asyncio deadline slightly past the SDK's own, in case a transport never gives up."""
    return spec.timeout_s + min(1.0, 0.1 * spec.timeout_s) + 0.05


class PerLoopClient(Generic[ClientT]):
    """One SDK client per running event loop (async HTTP/gRPC clients must not cross loops)."""

    def __init__(self, factory: Any) -> None:
        self._factory = factory
        self._clients: dict[int, tuple[asyncio.AbstractEventLoop, ClientT]] = {}

    def get(self) -> ClientT:
        loop = asyncio.get_running_loop()
        for key, (owner, _) in list(self._clients.items()):
            if owner.is_closed():
                del self._clients[key]
        entry = self._clients.get(id(loop))
        if entry is None or entry[0] is not loop:
            entry = (loop, self._factory())
            self._clients[id(loop)] = entry
        return entry[1]

    def pop_current(self) -> ClientT | None:
        """Forget and return this loop's client (to close it)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        entry = self._clients.pop(id(loop), None)
        return entry[1] if entry is not None and entry[0] is loop else None


def http_failure(
    *,
    status: int,
    body: str,
    headers: Any,
    request_id: str | None,
    message: str,
    latency_s: float,
    secret: str,
) -> CallOutcome:
    """The outcome of an HTTP error status (the error body is the raw reply)."""
    kind = error_kind_for_status(status)
    return CallOutcome(
        False,
        redact(body, secret) or "",
        error_kind=kind,
        error_message=redact(f"HTTP {status}: {message}", secret),
        http_status=status,
        retry_after_s=retry_after_seconds(headers) if kind in ("rate_limited", "server") else None,
        latency_s=latency_s,
        request_id=request_id,
        rate_limits=snapshot_from_headers(headers),
    )


def no_reply_failure(kind: ErrorKind, message: str, *, latency_s: float, secret: str) -> CallOutcome:
    """The outcome when nothing came back (timeout, connection failure)."""
    return CallOutcome(False, "", error_kind=kind, error_message=redact(message, secret), latency_s=latency_s)


class SdkJudge(Generic[ClientT]):
    """What every provider judge shares: its spec, the key (kept only to redact it from error text), one SDK
    client per event loop, a repr without the key, and closing the client."""

    def __init__(self, spec: JudgeSpec, *, api_key: str, factory: Any) -> None:
        self.spec = spec
        self._secret = api_key
        self._clients: PerLoopClient[ClientT] = PerLoopClient(factory)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(judge_id={self.spec.judge_id!r}, model={self.spec.model!r}, "
            f"endpoint={self.spec.endpoint!r})"
        )

    def prepare_replies(self) -> None:
        """Ready the SDK to read a reply before the first one arrives. The Stainless SDKs (OpenAI, Anthropic)
        build their reply models' validators on first use (0.05-0.13 s for a Responses object here, 0.01 s for a
        Message), and whatever the first reply holds up waits behind it; the call runner calls this while the
        first calls are in flight. A no-op here: a judge whose replies cost nothing to read up front (protobuf)
        keeps it."""

    async def aclose(self) -> None:
        client = self._clients.pop_current()
        if client is not None:
            await client.close()

    @asynccontextmanager
    async def batch_errors(self, what: str, error_type: type[BaseException], not_found: type[BaseException]):
        """A batch call's SDK errors (``error_type``) as BatchApiError, the key blanked out; ``lost`` when the
        provider does not know the batch (``not_found``)."""
        try:
            yield
        except error_type as error:
            status = getattr(error, "status_code", None)
            raise BatchApiError(
                redact(f"{self.spec.provider} batch {what}: {error}", self._secret),
                lost=isinstance(error, not_found),
                refused=status in (429, 529),
                http_status=status,
            ) from None


def jsonl_results(text: str, outcome_of: Any) -> list[BatchResult]:
    """A provider's JSONL batch results, one BatchResult per line: ``outcome_of(record, line)`` reads a record,
    its line kept as the raw reply."""
    out = []
    for line in text.splitlines():
        if line.strip():
            item = json.loads(line)
            out.append(BatchResult(str(item.get("custom_id")), outcome_of(item, line)))
    return out
