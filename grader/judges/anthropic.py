"""Anthropic judge: the Messages API with native structured output (`output_config.format` json_schema).

Sends what `messages.parse(output_format=...)` sends (the schema through the SDK's own
`transform_schema`), via `messages.with_raw_response.create` so the raw body is kept before parsing.
"""

from __future__ import annotations

import asyncio
from typing import Any

import anthropic
from anthropic import AsyncAnthropic, transform_schema

from ._base import (
    CallOutcome,
    JudgeSpec,
    SdkJudge,
    Stopwatch,
    backstop_timeout,
    http_failure,
    no_reply_failure,
    outcome_from_text,
    redact,
)

__all__ = ["AnthropicJudge"]

_TRUNCATING_STOPS = frozenset({"max_tokens", "model_context_window_exceeded"})


class AnthropicJudge(SdkJudge[AsyncAnthropic]):
    """A judge on the Anthropic Messages API (json_schema output_config, SDK retries off)."""

    def __init__(self, spec: JudgeSpec, *, api_key: str) -> None:
        super().__init__(spec, api_key=api_key, factory=lambda: AsyncAnthropic(
            api_key=api_key,
            base_url=spec.endpoint,
            timeout=spec.timeout_s,
            max_retries=0,
        ))

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> dict[str, Any]:
        """The Messages API body. The Messages API has no schema name: `schema_name` is not sent."""
        params: dict[str, Any] = {
            "model": self.spec.model,
            "max_tokens": self.spec.max_output_tokens,
            # the rubric instructions are shared by every contestant: a cache breakpoint after them
            "system": [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
            "messages": [{"role": "user", "content": user}],
            "output_config": {"format": {"type": "json_schema", "schema": transform_schema(schema)}},
        }
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        return params

    async def call(self, system: str, user: str, schema: dict[str, Any], schema_name: str) -> CallOutcome:
        client = self._clients.get()
        params = self.request_params(system, user, schema, schema_name)
        secret = self._secret
        watch = Stopwatch()
        try:
            async with asyncio.timeout(backstop_timeout(self.spec)):
                raw = await client.messages.with_raw_response.create(**params)
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
        }
        try:
            message = await raw.parse()
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
                False,
                body,
                error_kind="format",
                error_message=f"unreadable Messages body: {error!r}",
                **fields,
            )
        refusal = None
        if message.stop_reason == "refusal":
            details = message.stop_details
            refusal = (details.explanation if details is not None else None) or text or "stop_reason=refusal"
        truncated = message.stop_reason in _TRUNCATING_STOPS
        return outcome_from_text(text, raw_reply=body, truncated=truncated, refusal=refusal, **fields)

