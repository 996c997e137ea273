"""Shared machinery of the fake provider servers: recording, attempt counting, scripts, timing, threads.

Each fake runs on 127.0.0.1 in a background thread (its own event loop or thread pool), so the code
under test talks to it through the real SDK and a real socket. Nothing here logs request headers or
bodies: the API key a client sends is kept in memory for assertions only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, ClassVar, Self

import uvicorn
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ._batches import BatchStore
from ._limits import FakeLimits, LimitWindows, WindowState
from ._script import FakeReply, FakeRequest, Script, credential_of, example_from_schema, valid_grades

logger = logging.getLogger("grader.fakes")

LOCALHOST = "127.0.0.1"


@dataclass(frozen=True)
class RenderedContent:
    """The model text a content reply carries, with token counts, ready for a provider's wire format."""

    text: str
    input_tokens: int
    output_tokens: int
    truncated: bool
    refusal: str | None
    cached_tokens: int = 0
    """Of ``input_tokens``, read from the provider's prompt cache (the system prompt seen before)."""
    cache_write_tokens: int = 0
    """Of ``input_tokens``, written to the cache by this request (Anthropic's explicit breakpoints)."""


def estimate_tokens(text: str) -> int:
    """Roughly four characters a token, at least one: good enough for fake usage figures."""
    return max(1, len(text) // 4)


class FakeServer(ABC):
    """A scripted fake provider on 127.0.0.1. Use as a context manager, or call start()/stop().

    `script` decides each reply (default: schema-valid answers); `latency_s` delays every content
    reply (ok, malformed, truncated, refused, slow); 429 and 5xx replies come back at once, as real
    rate limiters and load balancers answer. A request whose API key is missing (or differs from
    `require_api_key` when that is set) gets the provider's authentication error without consulting
    the script.
    """

    provider: ClassVar[str]

    def __init__(
        self,
        *,
        script: Script | None = None,
        latency_s: float = 0.0,
        port: int = 0,
        require_api_key: str | None = None,
        hang_limit_s: float = 600.0,
        require_strict_schema: bool = True,
        batch_latency_s: float = 0.0,
        limits: FakeLimits | None = None,
    ) -> None:
        if latency_s < 0:
            raise ValueError(f"latency_s must be >= 0, got {latency_s}")
        self.script: Script = script or valid_grades
        self.latency_s = latency_s
        self.require_api_key = require_api_key
        self.hang_limit_s = hang_limit_s
        self.require_strict_schema = require_strict_schema
        """Refuse (400 / INVALID_ARGUMENT) a request without a JSON schema, and on OpenAI's wire formats one
        without ``strict: true``: the grader always sends one, so a regression that drops it fails every test.
        Off only for servers standing in for openai-compatible hosts that have no strict mode."""
        self.batches = BatchStore(batch_latency_s)
        """Submitted batches (provider batch APIs): each request answered by the script at submission, the batch
        ending ``batch_latency_s`` later."""
        self.limits = LimitWindows(limits) if limits is not None else None
        """The rate limits this fake enforces per API key (``grader.fakes._limits``), if any."""
        self._requested_port = port
        self._port: int | None = None
        self._lock = threading.Lock()
        self._requests: list[FakeRequest] = []
        self._attempts: Counter[tuple[str, str, str]] = Counter()
        self._cached_prefixes: set[str] = set()
        self._released = threading.Event()
        self._release_event: asyncio.Event | None = None
        self._release_loop: asyncio.AbstractEventLoop | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    @abstractmethod
    def start(self) -> Self:
        """Bind the port and serve in a background thread; returns once the server accepts calls."""

    @abstractmethod
    def stop(self) -> None:
        """Release hanging replies and shut the server down."""

    @abstractmethod
    def begin_stop(self) -> None:
        """Start shutting down without waiting for it (``stop`` then waits): a caller overlaps the shutdown with
        other work. New requests may be refused from here on."""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError(f"fake {self.provider} server is not started")
        return self._port

    @property
    def host_port(self) -> str:
        """'127.0.0.1:PORT' (what a gRPC client dials)."""
        return f"{LOCALHOST}:{self.port}"

    @property
    @abstractmethod
    def base_url(self) -> str:
        """The base URL to hand to the provider's SDK client."""

    # -- what tests read ---------------------------------------------------------------------------

    @property
    def requests(self) -> list[FakeRequest]:
        """Every request received so far, in arrival order (a copy)."""
        with self._lock:
            return list(self._requests)

    def reset(self, script: Script | None = None) -> None:
        """Forget recorded requests, attempt counts and the prompt cache; optionally install a new script."""
        with self._lock:
            self._requests.clear()
            self._attempts.clear()
            self._cached_prefixes.clear()
        self.batches.clear()
        if script is not None:
            self.script = script

    # -- used by the provider front-ends ------------------------------------------------------------

    def admit(self, *, received_at: float | None = None, **fields: Any) -> FakeRequest:
        """Number the attempt for this prompt and record the request (``received_at``: when it arrived, epoch
        seconds; default now)."""
        key = (fields["model"], fields["system"], fields["user"])
        with self._lock:
            self._attempts[key] += 1
            request = FakeRequest(
                provider=self.provider,
                attempt=self._attempts[key],
                received_at=time.time() if received_at is None else received_at,
                **fields,
            )
            self._requests.append(request)
        return request

    def schema_problem(self, request: FakeRequest) -> str | None:
        """Why this request is refused for want of a strict schema (None: it has one, or none is required)."""
        if not self.require_strict_schema:
            return None
        if request.schema is None:
            return f"this fake {self.provider} server requires structured output: the request carries no JSON schema"
        if request.provider == "openai" and request.strict is not True:
            return "this fake openai server requires a strict JSON schema: `strict: true` is missing"
        return None

    def key_accepted(self, request: FakeRequest) -> bool:
        return self.credential_accepted(request.headers)

    def credential_accepted(self, headers: Any) -> bool:
        """Whether lower-cased request headers carry an accepted key (any non-empty one unless one is required)."""
        key = credential_of({k.lower(): v for k, v in dict(headers).items()})
        if not key:
            return False
        return self.require_api_key is None or key == self.require_api_key

    def over_limit(self, request: FakeRequest) -> FakeReply | None:
        """A 429 (with the seconds until the window has room as Retry-After) when the request would exceed one of
        this fake's limits for its key; None when it is admitted (and counted) or the fake has no limits."""
        if self.limits is None:
            return None
        refused = self.limits.admit(
            request.api_key or "", estimate_tokens(request.system + request.user), request.received_at or None
        )
        if refused is None:
            return None
        kind, wait = refused
        return FakeReply.rate_limited(max(0.001, round(wait + 0.0005, 3)))

    def batch_submission_refused(self, headers: Any) -> float | None:
        """A batch submission counts as one request against its key's requests-per-minute window (its requests
        run later, unpaced); past the window: the seconds until it has room (answered 429 with Retry-After)."""
        if self.limits is None:
            return None
        key = credential_of({k.lower(): v for k, v in dict(headers).items()}) or ""
        refused = self.limits.admit(key, 0)
        return None if refused is None else max(0.001, round(refused[1] + 0.0005, 3))

    def limit_state(self, request: FakeRequest) -> dict[str, WindowState]:
        """What is left of each limit for the request's key (empty: the fake has no limits)."""
        return {} if self.limits is None else self.limits.state(request.api_key or "")

    def decide(self, request: FakeRequest) -> FakeReply:
        """Ask the script; a script that raises answers 500 (and is logged, it is a test bug)."""
        try:
            reply = self.script(request)
        except Exception:
            logger.exception("fake %s script failed on attempt %d", self.provider, request.attempt)
            return FakeReply.server_error(500)
        logger.debug(
            "fake %s %s model=%s attempt=%d -> %s",
            self.provider,
            request.endpoint,
            request.model,
            request.attempt,
            reply.kind,
        )
        return reply

    async def decide_async(self, request: FakeRequest) -> FakeReply:
        """:meth:`decide` on a worker thread: the server keeps taking (and timing) other requests meanwhile, as a
        provider serves requests in parallel."""
        return await asyncio.to_thread(self.decide, request)

    def delay_for(self, reply: FakeReply, request: FakeRequest | None = None) -> float | None:
        """Seconds still to wait before answering; None means hang. The latency counts from the request's
        arrival (``request.received_at``): the time the script took to decide is part of it, as a provider's
        own work is part of its latency."""
        if reply.kind == "hang":
            return None
        if reply.kind in ("rate_limited", "server_error"):
            return 0.0
        spent = 0.0 if request is None else max(0.0, time.time() - request.received_at)
        return max(0.0, self.latency_s + reply.delay_s - spent)

    async def wait_async(self, reply: FakeReply, request: FakeRequest | None = None) -> bool:
        """Sleep as the reply asks; False when a hang was released (the answer no longer matters)."""
        delay = self.delay_for(reply, request)
        if delay == 0:
            return True
        released = self._async_release_event()
        try:
            await asyncio.wait_for(released.wait(), self.hang_limit_s if delay is None else delay)
        except TimeoutError:
            pass
        return delay is not None

    def _async_release_event(self) -> asyncio.Event:
        """The server loop's twin of the `_released` flag (set from `stop()` via call_soon_threadsafe)."""
        with self._lock:
            if self._release_event is None:
                self._release_event = asyncio.Event()
                self._release_loop = asyncio.get_running_loop()
                if self._released.is_set():
                    self._release_event.set()
            return self._release_event

    def release_hangs(self) -> None:
        """Wake every reply that is sleeping or hanging (used when stopping)."""
        self._released.set()
        with self._lock:
            event, loop = self._release_event, self._release_loop
        if event is not None and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(event.set)

    def wait_blocking(
        self, reply: FakeReply, still_wanted: Callable[[], bool] | None = None, request: FakeRequest | None = None
    ) -> bool:
        """Thread-pool twin of `wait_async`; `still_wanted()` lets a hang end when the client left."""
        delay = self.delay_for(reply, request)
        if delay is not None:
            self._released.wait(delay)
            return True
        deadline = time.monotonic() + self.hang_limit_s
        while not self._released.wait(0.05):
            if time.monotonic() > deadline or (still_wanted is not None and not still_wanted()):
                break
        return False

    CACHE_MIN_TOKENS = 1024
    """Prompt caching as the providers do it: a prefix of at least this many tokens, seen before."""

    def cache_eligible(self, request: FakeRequest) -> bool:
        """Whether this provider caches the request's system prompt (OpenAI, xAI: automatically)."""
        return True

    def cache_prefixes(self, request: FakeRequest) -> list[str]:
        """The prefixes of the request a cache can serve, shortest first: the system prompt (what every request of
        a run shares)."""
        return [request.system]

    def cache_usage(self, request: FakeRequest) -> tuple[int, int]:
        """(cached, written) tokens of this request: the longest of its cache prefixes seen before is read; the rest
        up to its longest prefix is written (counted as a write only where the provider bills writes: Anthropic)."""
        if not request.system or not self.cache_eligible(request):
            return 0, 0
        prefixes = [
            p for p in self.cache_prefixes(request) if estimate_tokens(p.replace("\0", "")) >= self.CACHE_MIN_TOKENS
        ]
        if not prefixes:
            return 0, 0
        with self._lock:
            seen = [p for p in prefixes if p in self._cached_prefixes]
            self._cached_prefixes.update(prefixes)
        cached = estimate_tokens(seen[-1].replace("\0", "")) if seen else 0
        written = estimate_tokens(prefixes[-1].replace("\0", "")) - cached
        return cached, (written if self.provider == "anthropic" else 0)

    def content_of(self, reply: FakeReply, request: FakeRequest) -> RenderedContent:
        """The text a content reply puts in the model output, with usage figures (prompt caching included)."""
        from dataclasses import replace

        content = self._content_of(reply, request)
        if self.limits is not None:
            self.limits.record_output(request.api_key or "", content.output_tokens)
        cached, written = self.cache_usage(request)
        return replace(
            content,
            cached_tokens=min(cached, content.input_tokens),
            cache_write_tokens=min(written, content.input_tokens),
        )

    @staticmethod
    def _content_of(reply: FakeReply, request: FakeRequest) -> RenderedContent:
        input_tokens = reply.input_tokens or estimate_tokens(request.system + request.user)
        if reply.kind == "refused":
            return RenderedContent("", input_tokens, reply.output_tokens or 8, False, reply.message)
        if reply.kind == "malformed":
            text = reply.json_text or ""
            return RenderedContent(text, input_tokens, reply.output_tokens or estimate_tokens(text), False, None)
        full = reply.json_text if reply.json_text is not None else _example_json(request)
        if reply.kind == "truncated":
            cut = full[: max(1, len(full) // 2)]
            limit = request.max_output_tokens or estimate_tokens(cut)
            return RenderedContent(cut, input_tokens, reply.output_tokens or limit, True, None)
        return RenderedContent(full, input_tokens, reply.output_tokens or estimate_tokens(full), False, None)


def _example_json(request: FakeRequest) -> str:
    return json.dumps(example_from_schema(request.schema))


async def _client_gone(request: Request, exc: Exception) -> Response:
    """A client that went away while its request was read (its process stopped): nothing to answer, nothing to log."""
    return Response(status_code=499)


class _StoppableUvicorn(uvicorn.Server):
    """uvicorn's server that leaves its main loop as soon as :meth:`request_exit` is called, instead of noticing
    ``should_exit`` at its next 0.1 s tick (a mock run's fakes stop while the run is scored). Its date header is
    set once, at start."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._exit: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

    async def main_loop(self) -> None:
        self._exit = (asyncio.get_running_loop(), asyncio.Event())
        if not self.should_exit and not await self.on_tick(0):
            await self._exit[1].wait()

    def request_exit(self) -> None:
        self.should_exit = True  # seen by main_loop if it has not started waiting yet
        if self._exit is not None:
            loop, event = self._exit
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # its loop already closed: the server is gone
                pass


class HttpFakeServer(FakeServer):
    """A fake served by uvicorn (starlette app) on a pre-bound 127.0.0.1 socket in a daemon thread."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._uvicorn: _StoppableUvicorn | None = None
        self._thread: threading.Thread | None = None

    @abstractmethod
    def routes(self) -> list[BaseRoute]:
        """The provider's endpoints."""

    def start(self) -> Self:
        if self._thread is not None:
            raise RuntimeError(f"fake {self.provider} server already started")
        self._released.clear()
        self._release_event, self._release_loop = None, None
        sock = socket.socket(
            socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP
        )  # proto set: asyncio then turns on TCP_NODELAY
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((LOCALHOST, self._requested_port))
        sock.listen(512)
        self._port = sock.getsockname()[1]
        config = uvicorn.Config(
            Starlette(routes=self.routes(), exception_handlers={ClientDisconnect: _client_gone}),
            log_level="warning",
            access_log=False,
            lifespan="off",
            http="h11",
            ws="none",  # no fake speaks websockets: their protocol modules are not even imported
            loop="asyncio",
            timeout_graceful_shutdown=1,
            backlog=512,
        )
        server = _StoppableUvicorn(config)
        thread = threading.Thread(
            target=server.run, kwargs={"sockets": [sock]}, name=f"fake-{self.provider}", daemon=True
        )
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                sock.close()
                raise RuntimeError(f"fake {self.provider} server failed to start on port {self._port}")
            time.sleep(0.005)
        self._uvicorn, self._thread, self._socket = server, thread, sock
        return self

    def begin_stop(self) -> None:
        if self._thread is None or self._uvicorn is None:
            return
        self.release_hangs()
        self._uvicorn.request_exit()  # uvicorn then closes its connections (a fixed 0.1 s) and stops

    def stop(self) -> None:
        if self._thread is None or self._uvicorn is None:
            return
        self.begin_stop()
        self._thread.join(timeout=10)
        self._socket.close()
        self._thread = None
        self._uvicorn = None
