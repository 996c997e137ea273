"""What a fake provider is asked (`FakeRequest`), what it answers (`FakeReply`), and scripts that decide.

A script is any callable `FakeRequest -> FakeReply`. The fake servers call it once per request they
receive (after the API-key check), then render the reply in the provider's own wire format.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

ReplyKind = Literal["ok", "malformed", "truncated", "refused", "rate_limited", "server_error", "slow", "hang"]

_SECRET_HEADERS = frozenset({"authorization", "x-api-key", "api-key", "proxy-authorization"})


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Headers with every credential-bearing value replaced, safe to print or log."""
    return {name: ("[redacted]" if name.lower() in _SECRET_HEADERS else value) for name, value in headers.items()}


def credential_of(headers: Mapping[str, str]) -> str | None:
    """The credential in lower-cased request headers (x-api-key, or a Bearer token), if any."""
    if "x-api-key" in headers:
        return headers["x-api-key"]
    authorization = headers.get("authorization", "")
    if authorization.lower().startswith("bearer "):
        return authorization[len("bearer ") :]
    return None


@dataclass(frozen=True)
class FakeRequest:
    """One request a fake server received, as the script (and later the test) sees it.

    `headers` keeps the real values (lower-case names) so a test can assert the API key arrived;
    `repr()` redacts them so a failing assertion never prints a key.
    """

    provider: str
    """'openai', 'anthropic' or 'xai'."""
    endpoint: str
    """'responses', 'chat.completions', 'messages' or 'Chat/GetCompletion'."""
    model: str
    system: str
    user: str
    schema: dict[str, Any] | None
    """The JSON schema the client asked the output to follow, if any."""
    schema_name: str | None
    strict: bool | None
    """The `strict` flag sent with the schema (OpenAI wire formats); None when the format has none."""
    max_output_tokens: int | None
    temperature: float | None
    headers: Mapping[str, str] = field(repr=False)
    body: Mapping[str, Any] = field(repr=False)
    """The whole request body as JSON (gRPC: the request message through json_format)."""
    attempt: int = 1
    """1 for the first time this (model, system, user) prompt reached this server, 2 for the next, ..."""
    received_at: float = 0.0

    @property
    def api_key(self) -> str | None:
        """The credential the client sent (Bearer token or x-api-key), for assertions only."""
        return credential_of(self.headers)

    def redacted_headers(self) -> dict[str, str]:
        return redact_headers(self.headers)

    def __repr__(self) -> str:
        return (
            f"FakeRequest(provider={self.provider!r}, endpoint={self.endpoint!r}, model={self.model!r}, "
            f"attempt={self.attempt}, schema_name={self.schema_name!r}, user={self.user[:60]!r}, "
            f"headers={self.redacted_headers()!r})"
        )


@dataclass(frozen=True)
class FakeReply:
    """What the fake should answer. Build with the class methods, e.g. `FakeReply.rate_limited(2.0)`.

    `json_text=None` on a content reply means "a valid instance generated from the request's schema".
    """

    kind: ReplyKind
    json_text: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    retry_after_s: float | None = None
    status: int = 200
    delay_s: float = 0.0
    message: str = ""

    @classmethod
    def ok(
        cls,
        payload: str | Mapping[str, Any] | None = None,
        *,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
    ) -> FakeReply:
        """A completed answer whose text is `payload` (a JSON string or an object to dump)."""
        return cls("ok", _as_json_text(payload), input_tokens, output_tokens)

    @classmethod
    def malformed(cls, text: str | None = None) -> FakeReply:
        """A completed answer whose text is not valid JSON (the stop reason says all is well)."""
        return cls("malformed", text if text is not None else 'Here is my grade: {"score": 7,, "notes": }')

    @classmethod
    def truncated(cls, payload: str | Mapping[str, Any] | None = None) -> FakeReply:
        """The answer cut mid-way, with the provider's max-tokens / incomplete stop reason."""
        return cls("truncated", _as_json_text(payload))

    @classmethod
    def refused(cls, message: str = "I can't help with that request.") -> FakeReply:
        """The model declines (OpenAI refusal content part, Anthropic stop_reason 'refusal')."""
        return cls("refused", message=message)

    @classmethod
    def rate_limited(cls, retry_after_s: float | None = 1.0) -> FakeReply:
        """HTTP 429 with a Retry-After header (gRPC: RESOURCE_EXHAUSTED with retry-after metadata)."""
        return cls("rate_limited", status=429, retry_after_s=retry_after_s)

    @classmethod
    def server_error(cls, status: int = 500) -> FakeReply:
        """HTTP 5xx (gRPC: 503 -> UNAVAILABLE, anything else -> INTERNAL)."""
        if not 500 <= status <= 599:
            raise ValueError(f"server_error status must be 5xx, got {status}")
        return cls("server_error", status=status)

    @classmethod
    def overloaded(cls) -> FakeReply:
        """Anthropic's 529 ``overloaded_error`` (the API, not the key, is at capacity; other fakes answer 529)."""
        return cls.server_error(529)

    @classmethod
    def slow(
        cls,
        delay_s: float,
        payload: str | Mapping[str, Any] | None = None,
        *,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
    ) -> FakeReply:
        """Wait `delay_s` (on top of the server latency), then answer like `ok`."""
        return cls("slow", _as_json_text(payload), input_tokens, output_tokens, delay_s=delay_s)

    @classmethod
    def hang(cls) -> FakeReply:
        """Never answer while the client waits (released when the server stops)."""
        return cls("hang")


Script = Callable[[FakeRequest], FakeReply]
"""Decides the reply to one request. Called on the server's thread; keep it quick."""

ReplyOrScript = FakeReply | Script


def _as_json_text(payload: str | Mapping[str, Any] | None) -> str | None:
    if payload is None or isinstance(payload, str):
        return payload
    return json.dumps(payload)


def _resolve(choice: ReplyOrScript, request: FakeRequest) -> FakeReply:
    return choice if isinstance(choice, FakeReply) else choice(request)


def always(reply: FakeReply) -> Script:
    """Answer every request with `reply`."""

    def script(request: FakeRequest) -> FakeReply:
        return reply

    return script


def valid_grades(request: FakeRequest) -> FakeReply:
    """The default script: a schema-valid answer to every request."""
    return FakeReply.ok()


def sequence(*replies: ReplyOrScript, then: ReplyOrScript | None = None) -> Script:
    """A queue per prompt: attempt 1 gets replies[0], attempt 2 replies[1], ...; afterwards `then`.

    Attempts are counted by the server per (model, system, user), so "first a 429, then ok" is
    `sequence(FakeReply.rate_limited(1), then=FakeReply.ok())` and holds for every prompt separately.
    """
    after: ReplyOrScript = then if then is not None else valid_grades

    def script(request: FakeRequest) -> FakeReply:
        if request.attempt <= len(replies):
            return _resolve(replies[request.attempt - 1], request)
        return _resolve(after, request)

    return script


def storm(count: int, *, retry_after_s: float | None = 1.0, then: ReplyOrScript | None = None) -> Script:
    """A 429 storm: the first `count` requests this script sees (all prompts together) get 429."""
    after: ReplyOrScript = then if then is not None else valid_grades
    lock = threading.Lock()
    seen = 0

    def script(request: FakeRequest) -> FakeReply:
        nonlocal seen
        with lock:
            seen += 1
            in_storm = seen <= count
        return FakeReply.rate_limited(retry_after_s) if in_storm else _resolve(after, request)

    return script


def by_prompt(rules: Mapping[str, ReplyOrScript], *, default: ReplyOrScript | None = None) -> Script:
    """Pick the reply by the first rule whose key occurs in the user text (else `default`)."""
    fallback: ReplyOrScript = default if default is not None else valid_grades

    def script(request: FakeRequest) -> FakeReply:
        for needle, choice in rules.items():
            if needle in request.user:
                return _resolve(choice, request)
        return _resolve(fallback, request)

    return script


def script_from_spec(spec: str) -> Script:
    """A script from a command-line word.

    `ok`, `malformed`, `truncated`, `refused`, `hang`, `overloaded` (529), `rate-limited[:SECONDS]`,
    `server-error[:STATUS]`,
    `slow:SECONDS`, `storm:COUNT[:SECONDS]`, or `package.module:attribute` naming a script or a
    `FakeReply`.
    """
    name, _, argument = spec.partition(":")
    simple: dict[str, Callable[[], FakeReply]] = {
        "ok": FakeReply.ok,
        "malformed": FakeReply.malformed,
        "truncated": FakeReply.truncated,
        "refused": FakeReply.refused,
        "hang": FakeReply.hang,
        "overloaded": FakeReply.overloaded,
    }
    try:
        if name in simple and not argument:
            return always(simple[name]())
        if name == "rate-limited":
            return always(FakeReply.rate_limited(float(argument) if argument else 1.0))
        if name == "server-error":
            return always(FakeReply.server_error(int(argument) if argument else 500))
        if name == "slow" and argument:
            return always(FakeReply.slow(float(argument)))
        if name == "storm" and argument:
            count, _, seconds = argument.partition(":")
            return storm(int(count), retry_after_s=float(seconds) if seconds else 1.0)
    except ValueError as error:
        raise ValueError(f"bad fake script {spec!r}: {error}") from error
    if "." in name and argument:
        target = getattr(importlib.import_module(name), argument)
        if isinstance(target, FakeReply):
            return always(target)
        if callable(target):
            return target
        raise ValueError(f"fake script {spec!r} names neither a script nor a FakeReply")
    raise ValueError(
        f"unknown fake script {spec!r}: use ok, malformed, truncated, refused, hang, overloaded, rate-limited[:S], "
        "server-error[:STATUS], slow:S, storm:N[:S] or package.module:attribute"
    )


def example_from_schema(schema: Mapping[str, Any] | None) -> Any:
    """A deterministic instance that satisfies `schema` (midpoints of numeric ranges, first enum value).

    Covers what pydantic's `model_json_schema()` emits: $ref/$defs, anyOf/oneOf/allOf, enum/const,
    objects (every property), arrays (minItems, at least one item when allowed), string lengths and
    common formats, numeric bounds (also those `anthropic.transform_schema` moved into descriptions).
    Without a schema it answers an empty object.
    """
    if not schema:
        return {}
    return _example(schema, schema, depth=0)


_HINTED_BOUNDS = frozenset(
    {
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
    }
)
_DESCRIPTION_HINT = re.compile(r"\{([^{}]*)\}\s*$")


def _with_description_hints(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """Bounds that `anthropic.transform_schema` moved into the description ("{minimum: 0, maximum: 1}")."""
    match = _DESCRIPTION_HINT.search(str(node.get("description", "")))
    if not match:
        return node
    hinted: dict[str, Any] = {}
    for pair in match.group(1).split(", "):
        key, _, value = pair.partition(": ")
        if key in _HINTED_BOUNDS and key not in node:
            try:
                hinted[key] = float(value)
            except ValueError:
                continue
    return {**node, **hinted} if hinted else node


def _example(node: Mapping[str, Any], root: Mapping[str, Any], depth: int) -> Any:
    if depth > 32:
        raise ValueError("schema nests deeper than 32 levels (recursive $ref?)")
    node = _with_description_hints(node)
    if "$ref" in node:
        return _example(_follow_ref(node["$ref"], root), root, depth + 1)
    if "const" in node:
        return node["const"]
    if node.get("enum"):
        return node["enum"][0]
    for combinator in ("anyOf", "oneOf"):
        if node.get(combinator):
            variants = [v for v in node[combinator] if v.get("type") != "null"] or node[combinator]
            return _example(variants[0], root, depth + 1)
    if node.get("allOf"):
        merged: dict[str, Any] = {}
        for part in node["allOf"]:
            merged.update(_follow_ref(part["$ref"], root) if "$ref" in part else part)
        return _example(merged, root, depth + 1)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None and "properties" in node:
        kind = "object"
    if kind == "object":
        return {name: _example(sub, root, depth + 1) for name, sub in node.get("properties", {}).items()}
    if kind == "array":
        minimum = int(node.get("minItems", 0))
        maximum = node.get("maxItems")
        count = max(minimum, 1) if maximum is None or maximum >= 1 else 0
        item_schema = node.get("items", {})
        return [_example(item_schema, root, depth + 1) for _ in range(count)]
    if kind == "string":
        return _example_string(node)
    if kind in ("integer", "number"):
        return _example_number(node, integer=kind == "integer")
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return {}


def _follow_ref(ref: str, root: Mapping[str, Any]) -> Mapping[str, Any]:
    if not ref.startswith("#/"):
        raise ValueError(f"only local $ref are supported, got {ref!r}")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _example_string(node: Mapping[str, Any]) -> str:
    formats = {
        "date": "2022-01-03",
        "date-time": "2022-01-03T16:00:00Z",
        "time": "16:00:00",
        "uuid": "0" * 32,
    }
    text = formats.get(str(node.get("format")), "fake")
    min_length = int(node.get("minLength", 0))
    if len(text) < min_length:
        text = text + "x" * (min_length - len(text))
    if "maxLength" in node:
        text = text[: int(node["maxLength"])]
    return text


def _example_number(node: Mapping[str, Any], *, integer: bool) -> float | int:
    low = node.get("minimum", node.get("exclusiveMinimum"))
    high = node.get("maximum", node.get("exclusiveMaximum"))
    if low is not None and high is not None:
        value = (float(low) + float(high)) / 2
    elif low is not None:
        value = float(low) + 1
    elif high is not None:
        value = float(high) - 1
    else:
        value = 0.0
    if integer:
        rounded = math.floor(value)
        if "exclusiveMinimum" in node and rounded <= node["exclusiveMinimum"]:
            rounded += 1
        return int(rounded)
    return value
