"""What a judge is to the orchestrator: the `ProviderJudge` protocol (one synchronous call) and, for providers with
a batch API, `BatchJudge` with its items, states, results and `BatchApiError`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ._outcome import CallOutcome
from ._spec import JudgeSpec


@dataclass(frozen=True)
class BatchItem:
    """One request of a provider batch: the id that matches its result, and the prompt."""

    custom_id: str
    system: str
    user: str
    cache_prefix_chars: int = 0
    """Characters at the start of ``user`` shared with other prompts (``ProviderJudge.call``)."""


@dataclass(frozen=True)
class BatchState:
    """What the provider says of a batch: ended or not, counts by outcome, and its status object as received."""

    batch_id: str
    ended: bool
    status: str
    counts: dict[str, int]
    raw: str


@dataclass(frozen=True)
class BatchResult:
    """One request's result; ``outcome.raw_reply`` is the provider's result record exactly as received."""

    custom_id: str
    outcome: CallOutcome


class BatchApiError(RuntimeError):
    """A batch call (submit, status, results) failed at the provider or on the way (message has no key);
    ``lost``: the provider does not know the batch (404 / NOT_FOUND); ``refused``: it refused the call for capacity
    (429 / RESOURCE_EXHAUSTED, 529 overloaded; ``http_status`` when there is one)."""

    def __init__(
        self, message: str, *, lost: bool = False, refused: bool = False, http_status: int | None = None
    ) -> None:
        super().__init__(message)
        self.lost = lost
        self.refused = refused
        self.http_status = http_status


@runtime_checkable
class BatchJudge(Protocol):
    """A judge whose provider has a batch API (OpenAI Batch, Anthropic Message Batches, xAI Batch): half price,
    results within the provider's window. Raises BatchApiError when the provider refuses or cannot be reached."""

    spec: JudgeSpec

    async def batch_submit(self, items: list[BatchItem], schema: dict[str, Any], schema_name: str) -> BatchState: ...

    async def batch_state(self, batch_id: str) -> BatchState: ...

    async def batch_results(self, batch_id: str) -> list[BatchResult]: ...


@runtime_checkable
class ProviderJudge(Protocol):
    """One LLM judge reachable through its provider's SDK."""

    spec: JudgeSpec

    async def call(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> CallOutcome:
        """Send one prompt asking for JSON that follows `schema`; never raises for provider failures.
        ``cache_prefix_chars``: the first characters of ``user`` are shared with other prompts (a provider with
        explicit cache breakpoints gets one after them; automatic prefix caching needs nothing)."""
        ...

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> dict[str, Any]:
        """The provider request body `call` would send (JSON-able, no key): for dry runs and hashing."""
        ...

    async def aclose(self) -> None:
        """Close the SDK clients this judge opened."""
        ...
