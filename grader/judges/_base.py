"""What every provider judge shares: its spec, the outcome of one call, the protocol, and `make_judge`.

A provider judge sends one (system, user, JSON schema) prompt through the provider's own async SDK
with SDK retries off, and returns a `CallOutcome` that always carries the provider's raw reply,
captured before any parsing. It never retries and never raises for provider failures: the
orchestrator decides about retries and records every attempt.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import re
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from email.utils import parsedate_to_datetime
from typing import Any, Generic, Literal, Protocol, Self, TypeVar, runtime_checkable
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_serializer, model_validator

from ._ratelimits import RateLimits, RateLimitSnapshot, snapshot_from_headers
from ._registry import PROVIDERS, Provider, StructuredOutput, provider_class, providers_with

ClientT = TypeVar("ClientT")

ErrorKind = Literal[
    "transport", "timeout", "rate_limited", "server", "format", "schema", "refused", "auth", "request"
]
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


LOCAL_PLACEHOLDER_KEY = "local-no-key"
"""Sent to a loopback endpoint when no key variable is set (fakes and local servers accept any key)."""


class RealApiCallsNotAllowed(RuntimeError):
    """A judge would reach a real (non-loopback) provider endpoint without --allow-real-api-calls."""


class MissingApiKey(RuntimeError):
    """The environment variable that should hold a judge's API key is not set (its name is given)."""


class Pricing(BaseModel):
    """USD per million tokens, from the panel file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)
    cached_input_per_mtok: float | None = Field(default=None, ge=0)
    """Input tokens read from the provider's prompt cache (default: the input price, i.e. no discount known)."""
    cache_write_per_mtok: float | None = Field(default=None, ge=0)
    """Input tokens written to the cache where the provider bills writes (Anthropic; default: the input price)."""
    batch_factor: float | None = Field(default=None, gt=0, le=1)
    """What a call through the provider's batch API costs against the same call made synchronously (0.5: half
    price, the discount OpenAI, Anthropic and xAI give batches); unset: batch calls are priced in full."""

    def cost_usd(self, input_tokens: int | None, output_tokens: int | None, cached_input_tokens: int | None = 0,
                 cache_write_tokens: int | None = 0, *, batch: bool = False) -> float:
        """List-price dollars of one call. ``input_tokens`` is every input token, cached and written included;
        ``batch``: sent through the provider's batch API (``batch_factor`` applies)."""
        factor = (self.batch_factor or 1.0) if batch else 1.0
        cached, written = cached_input_tokens or 0, cache_write_tokens or 0
        plain = max(0, (input_tokens or 0) - cached - written)
        cached_price = self.input_per_mtok if self.cached_input_per_mtok is None else self.cached_input_per_mtok
        write_price = self.input_per_mtok if self.cache_write_per_mtok is None else self.cache_write_per_mtok
        return factor * (plain * self.input_per_mtok + cached * cached_price + written * write_price
                         + (output_tokens or 0) * self.output_per_mtok) / 1e6


class JudgeSpec(BaseModel):
    """One judge of a panel: which provider and model, where, how long to wait, what it costs.

    `provider` is a name registered in ``grader.judges._registry.PROVIDERS``; what the spec may hold follows the
    provider class (``Provider``): `base_url` for HTTP providers (required where the class has no default
    endpoint), `host` ("host:port") for gRPC ones, a temperature up to the class's ``max_temperature``, a
    `structured_output` mode among its ``structured_outputs``. `api_key_env` names the environment variable holding
    the key (never the key itself); left empty it defaults to the class's ``key_env``. Validation errors never
    echo input values, so a key pasted by mistake is not printed back.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)

    judge_id: str = Field(min_length=1)
    provider: str
    model: str = Field(min_length=1)
    family: str = Field(min_length=1)
    base_url: str | None = None
    host: str | None = None
    api_key_env: str | None = None
    timeout_s: float = Field(default=120.0, gt=0)
    max_output_tokens: int = Field(default=4096, gt=0)
    temperature: float | None = Field(default=None, ge=0, le=2)
    pricing: Pricing | None = None
    context_window: int | None = Field(default=None, gt=0)
    """The model's context window in tokens (from the panel file): a prompt that would not fit with room for the
    reply (``max_output_tokens``) is refused before any paid call."""
    rate_limits: RateLimits | None = None
    """The provider tier's limits per minute for this judge's key and model (requests, tokens, input and output
    tokens): its requests are paced to approach them, not hit them (``grader.panel._pacing``)."""
    structured_output: StructuredOutput = "strict"
    """How the judge asks for JSON (``StructuredOutput``): ``strict`` unless its provider offers other modes (the
    openai-compatible judge: ``json_object`` or ``tools`` for hosts without strict schemas, through instructor)."""

    @model_serializer(mode="wrap")
    def _without_default_mode(self, handler: Any) -> dict[str, Any]:
        """``structured_output`` left out at its default (``strict``): a panel that does not set it dumps and hashes
        as it did before the field existed (stored ``panel_doc``, ``PanelConfig.content_hash``)."""
        data = handler(self)
        if data.get("structured_output") == "strict":
            data.pop("structured_output")
        return data

    @field_validator("provider")
    @classmethod
    def _registered(cls, value: str) -> str:
        if value not in PROVIDERS:
            raise ValueError(f"unknown provider; registered: {', '.join(PROVIDERS)}")
        return value

    @model_validator(mode="after")
    def _endpoint_fits_provider(self) -> Self:
        provider = self.provider_class
        name = self.provider
        if provider.endpoint_field == "host" and self.base_url is not None:
            raise ValueError(f"an {name} judge is reached over gRPC: give `host` ('host:port'), not `base_url`")
        if provider.endpoint_field != "host" and self.host is not None:
            hosts = " or ".join(providers_with(endpoint_field="host"))
            raise ValueError(f"`host` is only for {hosts} judges; a {name} judge takes `base_url`")
        if provider.calls_provider and provider.default_endpoint is None and not self.endpoint_given:
            raise ValueError(f"an {name} judge needs `{provider.endpoint_field}` (e.g. http://127.0.0.1:8000/v1)")
        if self.temperature is not None and self.temperature > provider.max_temperature:
            raise ValueError(f"an {name} judge takes a temperature in [0, {provider.max_temperature:g}], "
                             f"got {self.temperature}")
        if self.structured_output not in provider.structured_outputs:
            raise ValueError(f"an {name} judge offers structured_output {' | '.join(provider.structured_outputs)}, "
                             f"not {self.structured_output!r}")
        if self.api_key_env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.api_key_env):
            raise ValueError(
                "`api_key_env` must be the NAME of an environment variable (letters, digits, underscore), "
                "not a key"
            )
        return self

    @property
    def provider_class(self) -> type[Provider]:
        """The registered class of this judge's provider: its capabilities as class attributes."""
        return provider_class(self.provider)

    @property
    def endpoint_given(self) -> str | None:
        """The endpoint the panel file gave (``base_url`` or ``host``, as the provider is reached), if any."""
        return self.host if self.provider_class.endpoint_field == "host" else self.base_url

    @property
    def endpoint(self) -> str:
        """Where calls go: the base URL (HTTP) or host:port (gRPC), the provider's default filled in."""
        return self.endpoint_given or self.provider_class.default_endpoint or ""

    @property
    def key_env(self) -> str | None:
        """The environment variable the key is read from (None: no key needed, e.g. openai-compatible)."""
        return self.api_key_env or self.provider_class.key_env


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

    def __init__(self, message: str, *, lost: bool = False, refused: bool = False,
                 http_status: int | None = None) -> None:
        super().__init__(message)
        self.lost = lost
        self.refused = refused
        self.http_status = http_status


@runtime_checkable
class BatchJudge(Protocol):
    """A judge whose provider has a batch API (OpenAI Batch, Anthropic Message Batches, xAI Batch): half price,
    results within the provider's window. Raises BatchApiError when the provider refuses or cannot be reached."""

    spec: JudgeSpec

    async def batch_submit(self, items: list[BatchItem], schema: dict[str, Any], schema_name: str) -> BatchState:
        ...

    async def batch_state(self, batch_id: str) -> BatchState:
        ...

    async def batch_results(self, batch_id: str) -> list[BatchResult]:
        ...


@runtime_checkable
class ProviderJudge(Protocol):
    """One LLM judge reachable through its provider's SDK."""

    spec: JudgeSpec

    async def call(self, system: str, user: str, schema: dict[str, Any], schema_name: str, *,
                   cache_prefix_chars: int = 0) -> CallOutcome:
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


# -- endpoint policy --------------------------------------------------------------------------------


def endpoint_host(endpoint: str) -> str:
    """The host name of a base URL or a gRPC 'host:port' target."""
    if "://" in endpoint:
        return urlsplit(endpoint).hostname or ""
    target = endpoint.removeprefix("dns:///").removeprefix("ipv4:").removeprefix("ipv6:")
    if target.startswith("["):
        return target[1 : target.index("]")] if "]" in target else target
    return target.rsplit(":", 1)[0] if target.count(":") == 1 else target


def is_local_endpoint(endpoint: str) -> bool:
    """True for loopback only (localhost, 127.0.0.0/8, ::1): fakes and servers on this machine."""
    host = endpoint_host(endpoint).lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve_api_key(spec: JudgeSpec, *, local: bool) -> str:
    """The key from os.environ[spec.key_env]; a placeholder for loopback endpoints (or when no variable is named)."""
    name = spec.key_env
    value = os.environ.get(name, "") if name else ""
    if value:
        return value
    if local or name is None:
        return LOCAL_PLACEHOLDER_KEY
    raise MissingApiKey(
        f"judge {spec.judge_id!r}: environment variable {name} is not set (it must hold the API key)"
    )


def missing_api_keys(specs: list[JudgeSpec]) -> list[str]:
    """"judge: VARIABLE" for every judge of a real (non-loopback) endpoint whose key variable is not set; only
    variable names, never a value."""
    out = []
    for spec in specs:
        if not spec.provider_class.calls_provider or is_local_endpoint(spec.endpoint) or not spec.key_env:
            continue
        if not os.environ.get(spec.key_env):
            out.append(f"{spec.judge_id}: {spec.key_env}")
    return out


def make_judge(spec: JudgeSpec, *, allow_real_api_calls: bool) -> ProviderJudge:
    """Build the provider judge for `spec`.

    Refuses (RealApiCallsNotAllowed) an endpoint that is not loopback unless `allow_real_api_calls`;
    a loopback endpoint (fake server, local vLLM / llama.cpp / Ollama) needs no flag and no key.
    The provider's registered class builds the judge (``Provider.build``); the offline reference judge is not a
    provider client: build it with grader.judges.reference.
    """
    provider = spec.provider_class
    if not provider.calls_provider:
        raise ValueError(
            f"judge {spec.judge_id!r} is the offline {spec.provider} judge; it has no provider client "
            "(use grader.judges.reference)"
        )
    local = is_local_endpoint(spec.endpoint)
    if not local and not allow_real_api_calls:
        raise RealApiCallsNotAllowed(
            f"judge {spec.judge_id!r} ({spec.provider}) would call {endpoint_host(spec.endpoint)}, a real "
            "provider; pass --allow-real-api-calls to allow it (loopback endpoints need no flag)"
        )
    return provider.build(spec, api_key=resolve_api_key(spec, local=local), local=local)


# -- helpers shared by the provider files ----------------------------------------------------------


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
        return None, "format", (f"the model's text is {len(text):,} characters, over the limit of "
                                f"{MAX_REPLY_CHARS:,}: not parsed")
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
        return (f"{type(self).__name__}(judge_id={self.spec.judge_id!r}, model={self.spec.model!r}, "
                f"endpoint={self.spec.endpoint!r})")

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
            raise BatchApiError(redact(f"{self.spec.provider} batch {what}: {error}", self._secret),
                                lost=isinstance(error, not_found), refused=status in (429, 529),
                                http_status=status) from None


def jsonl_results(text: str, outcome_of: Any) -> list[BatchResult]:
    """A provider's JSONL batch results, one BatchResult per line: ``outcome_of(record, line)`` reads a record,
    its line kept as the raw reply."""
    out = []
    for line in text.splitlines():
        if line.strip():
            item = json.loads(line)
            out.append(BatchResult(str(item.get("custom_id")), outcome_of(item, line)))
    return out
