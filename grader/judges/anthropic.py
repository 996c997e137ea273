"""Anthropic judge: the Messages API with native structured output (`output_config.format` json_schema).

Sends what `messages.parse(output_format=...)` sends (the schema through the SDK's own
`transform_schema`), via `messages.with_raw_response.create` so the raw body is kept before parsing.
"""

from __future__ import annotations

import asyncio
from typing import Any

import anthropic
import httpx2
from anthropic import AsyncAnthropic, transform_schema
from anthropic.types import Message

from ._outcome import CallOutcome, outcome_from_text
from ._protocol import BatchApiError, BatchItem, BatchResult, BatchState
from ._ratelimits import snapshot_from_headers
from ._redaction import redact
from ._registry import Provider
from ._sdk_judge import SdkJudge, Stopwatch, backstop_timeout, http_failure, jsonl_results, no_reply_failure
from ._spec import JudgeSpec

__all__ = ["AnthropicJudge", "outcome_of_message"]

_TRUNCATING_STOPS = frozenset({"max_tokens", "model_context_window_exceeded"})

SAMPLE_MESSAGE: dict[str, Any] = {
    "id": "msg_sample",
    "type": "message",
    "role": "assistant",
    "model": "sample",
    "content": [{"type": "text", "text": "{}"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "stop_details": None,
    "usage": {
        "input_tokens": 1,
        "output_tokens": 1,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
        "service_tier": "standard",
    },
}
"""A Messages body of the shape a judge's reply has, read once ahead by ``prepare_replies`` (never sent)."""


class AnthropicJudge(SdkJudge[AsyncAnthropic], Provider):
    """A judge on the Anthropic Messages API (json_schema output_config, SDK retries off)."""

    label = "Anthropic"
    default_endpoint = "https://api.anthropic.com"
    key_env = "ANTHROPIC_API_KEY"
    max_temperature = 1.0
    batch_api = True
    prompt_cache = "breakpoints"  # cache_control after the instructions and the shared records; writes billed
    fake = "anthropic"

    def __init__(self, spec: JudgeSpec, *, api_key: str) -> None:
        super().__init__(
            spec,
            api_key=api_key,
            factory=lambda: AsyncAnthropic(
                api_key=api_key,
                base_url=spec.endpoint,
                timeout=spec.timeout_s,
                max_retries=0,
            ),
        )

    def prepare_replies(self) -> None:
        Message.model_construct(**SAMPLE_MESSAGE)  # the SDK's own reading of a reply, on a sample (no call)

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> dict[str, Any]:
        """The Messages API body. The Messages API has no schema name: `schema_name` is not sent. Cache
        breakpoints: after the instructions, and after the first ``cache_prefix_chars`` of ``user`` (what
        contestants of the same rounds share), which then goes as a text block of its own."""
        params: dict[str, Any] = {
            "model": self.spec.model,
            "max_tokens": self.spec.max_output_tokens,
            # the rubric instructions are shared by every contestant: a cache breakpoint after them
            "system": [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
            "messages": [{"role": "user", "content": _user_content(user, cache_prefix_chars)}],
            "output_config": {"format": {"type": "json_schema", "schema": transform_schema(schema)}},
        }
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        return params

    async def call(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> CallOutcome:
        client = self._clients.get()
        params = self.request_params(system, user, schema, schema_name, cache_prefix_chars=cache_prefix_chars)
        secret = self._secret
        watch = Stopwatch()
        try:
            async with asyncio.timeout(backstop_timeout(self.spec)):
                raw = await client.messages.with_raw_response.create(**_sdk_arguments(params))
                body = redact(await raw.text(), secret) or ""
        except anthropic.APIStatusError as error:
            return http_failure(
                status=error.status_code,
                body=error.response.text,
                headers=error.response.headers,
                request_id=error.request_id,
                message=error.message,
                latency_s=watch.elapsed,
                secret=secret,
            )
        except (anthropic.APITimeoutError, TimeoutError):
            return no_reply_failure(
                "timeout",
                f"no reply within {self.spec.timeout_s:g} s",
                latency_s=watch.elapsed,
                secret=secret,
            )
        except anthropic.APIConnectionError as error:
            cause = f"{error.message} ({error.__cause__!r})" if error.__cause__ else error.message
            return no_reply_failure("transport", cause, latency_s=watch.elapsed, secret=secret)
        fields: dict[str, Any] = {
            "http_status": raw.status_code,
            "request_id": raw.request_id,
            "latency_s": watch.elapsed,
            "rate_limits": snapshot_from_headers(raw.headers),
        }
        try:
            message = await raw.parse()
        except Exception as error:  # not a Message body: keep it, a format failure
            return CallOutcome(
                False, body, error_kind="format", error_message=f"unreadable Messages body: {error!r}", **fields
            )
        return outcome_of_message(message, body, fields)

    # -- Message Batches API ---------------------------------------------------------------------------------

    async def batch_submit(self, items: list[BatchItem], schema: dict[str, Any], schema_name: str) -> BatchState:
        requests = [
            {
                "custom_id": item.custom_id,
                "params": self.request_params(
                    item.system, item.user, schema, schema_name, cache_prefix_chars=item.cache_prefix_chars
                ),
            }
            for item in items
        ]
        async with self._batch_errors("submit"):
            # the bodies are request_params, as for a direct call: the SDK's Request type lists no temperature,
            # which the Message Batches API reads (anthropic 2.x dropped it from its signatures, not the API)
            batch = await self._clients.get().messages.batches.create(requests=requests)  # type: ignore[arg-type]
            return self._state(batch)

    async def batch_state(self, batch_id: str) -> BatchState:
        async with self._batch_errors("status"):
            return self._state(await self._clients.get().messages.batches.retrieve(batch_id))

    async def batch_results(self, batch_id: str) -> list[BatchResult]:
        client = self._clients.get()
        async with self._batch_errors("results"):
            batch = await client.messages.batches.retrieve(batch_id)
            if not batch.results_url:
                raise BatchApiError(f"Anthropic batch {batch_id} has no results yet ({batch.processing_status})")
            # the JSONL exactly as served (each line is a result's raw reply), not the SDK's re-decoded objects
            response = await client.get(
                batch.results_url, cast_to=httpx2.Response, options={"headers": {"Accept": "application/binary"}}
            )
            text = response.text
        return jsonl_results(text, self._line_outcome)

    def _batch_errors(self, what: str):  # noqa: ANN202
        return self.batch_errors(what, anthropic.APIError, anthropic.NotFoundError)

    @staticmethod
    def _state(batch: Any) -> BatchState:
        c = batch.request_counts
        return BatchState(
            batch.id,
            batch.processing_status == "ended",
            batch.processing_status,
            {
                "processing": c.processing,
                "succeeded": c.succeeded,
                "errored": c.errored,
                "canceled": c.canceled,
                "expired": c.expired,
            },
            batch.model_dump_json(),
        )

    def _line_outcome(self, item: dict[str, Any], line: str) -> CallOutcome:
        raw = redact(line, self._secret) or ""
        result = item.get("result") or {}
        kind = result.get("type")
        if kind == "succeeded":
            try:
                message = Message.model_validate(result.get("message"))
            except Exception as error:  # noqa: BLE001 - not a Message: kept, a format failure
                return CallOutcome(
                    False, raw, error_kind="format", error_message=f"unreadable Messages body: {error!r}"
                )
            return outcome_of_message(message, raw, {"request_id": None})
        if kind == "errored":
            failure = ((result.get("error") or {}).get("error")) or {}
            error_kind = _BATCH_ERROR_KINDS.get(str(failure.get("type")), "request")
            # the status the same error has on a synchronous call: a 529 overloaded is a refusal for capacity too
            return CallOutcome(
                False,
                raw,
                error_kind=error_kind,
                http_status=_BATCH_ERROR_STATUS.get(str(failure.get("type"))),
                error_message=f"batch: {failure.get('type')}: {failure.get('message')}",
            )
        # expired or canceled: the request never ran
        return CallOutcome(False, raw, error_kind="timeout", error_message=f"batch: the request {kind}")


def _user_content(user: str, shared: int) -> str | list[dict[str, Any]]:
    """The user message: one string, or (a shared prefix given) two text blocks, a cache breakpoint after the
    first. Anthropic reads consecutive text blocks as one text: nothing is added between them."""
    if not 0 < shared < len(user):
        return user
    return [
        {"type": "text", "text": user[:shared], "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": user[shared:]},
    ]


_BATCH_ERROR_KINDS: dict[str, Any] = {
    "rate_limit_error": "rate_limited",
    "overloaded_error": "server",
    "api_error": "server",
    "timeout_error": "timeout",
    "authentication_error": "auth",
    "permission_error": "auth",
}
_BATCH_ERROR_STATUS: dict[str, int] = {"rate_limit_error": 429, "overloaded_error": 529}


def outcome_of_message(message: Any, body: str, fields: dict[str, Any]) -> CallOutcome:
    """The outcome of a Message (synchronous reply or a batch result)."""
    fields = dict(fields)
    try:
        fields["stop_reason"] = message.stop_reason
        usage = message.usage
        read = usage.cache_read_input_tokens or 0
        written = usage.cache_creation_input_tokens or 0
        fields["input_tokens"] = usage.input_tokens + read + written  # Anthropic counts these apart
        fields["output_tokens"] = usage.output_tokens
        fields["cached_input_tokens"], fields["cache_write_tokens"] = read, written
        text = "".join(block.text for block in message.content if block.type == "text")
    except Exception as error:  # not a Message body: keep it, a format failure
        return CallOutcome(
            False, body, error_kind="format", error_message=f"unreadable Messages body: {error!r}", **fields
        )
    refusal = None
    if message.stop_reason == "refusal":
        details = message.stop_details
        refusal = (details.explanation if details is not None else None) or text or "stop_reason=refusal"
    truncated = message.stop_reason in _TRUNCATING_STOPS
    return outcome_from_text(text, raw_reply=body, truncated=truncated, refusal=refusal, **fields)


_BODY_ONLY = ("temperature",)
"""Body fields the installed SDK's ``messages.create`` does not name (anthropic 2.x dropped ``temperature`` from its
signature; the Messages API still reads it): sent through ``extra_body``, so the body is still ``request_params``."""


def _sdk_arguments(params: dict[str, Any]) -> dict[str, Any]:
    args = {k: v for k, v in params.items() if k not in _BODY_ONLY}
    extra = {k: params[k] for k in _BODY_ONLY if k in params}
    return {**args, "extra_body": extra} if extra else args
