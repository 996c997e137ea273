"""OpenAI judge: the Responses API with a strict `json_schema` text format (native structured output).

The raw HTTP body is taken from `responses.with_raw_response.create(...)` before the SDK parses it.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

import openai
from openai import AsyncOpenAI

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

__all__ = ["OpenAIJudge", "send_with_openai_sdk"]


async def send_with_openai_sdk(
    request: Callable[[], Awaitable[Any]], spec: JudgeSpec, secret: str
) -> tuple[Any, Stopwatch] | CallOutcome:
    """Run one `with_raw_response` call; the raw response, or the failure outcome (never raises for the API)."""
    watch = Stopwatch()
    try:
        async with asyncio.timeout(backstop_timeout(spec)):
            raw = await request()
    except openai.APIStatusError as error:
        return http_failure(
            status=error.status_code,
            body=error.response.text,
            headers=error.response.headers,
            request_id=error.request_id,
            message=error.message,
            latency_s=watch.elapsed,
            secret=secret,
        )
    except (openai.APITimeoutError, TimeoutError):
        return no_reply_failure(
            "timeout", f"no reply within {spec.timeout_s:g} s", latency_s=watch.elapsed, secret=secret
        )
    except openai.APIConnectionError as error:
        cause = f"{error.message} ({error.__cause__!r})" if error.__cause__ else error.message
        return no_reply_failure("transport", cause, latency_s=watch.elapsed, secret=secret)
    return raw, watch


def prompt_cache_key(system: str) -> str:
    """OpenAI's ``prompt_cache_key``: the same for every request sharing these instructions (routes them to one
    cache); a hash, so nothing of the prompt is sent twice."""
    return "grader-" + hashlib.sha256(system.encode()).hexdigest()[:32]


class OpenAIJudge(SdkJudge[AsyncOpenAI]):
    """A judge on the OpenAI Responses API (strict json_schema structured output, SDK retries off)."""

    def __init__(self, spec: JudgeSpec, *, api_key: str) -> None:
        super().__init__(spec, api_key=api_key, factory=lambda: AsyncOpenAI(
            api_key=api_key,
            base_url=spec.endpoint,
            timeout=spec.timeout_s,
            max_retries=0,
        ))

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> dict[str, Any]:
        """The Responses API body (without transport options)."""
        params: dict[str, Any] = {
            "model": self.spec.model,
            "instructions": system,
            "input": [{"role": "user", "content": user}],
            "text": {
                "format": {"type": "json_schema", "name": schema_name, "schema": schema, "strict": True}
            },
            "max_output_tokens": self.spec.max_output_tokens,
            "store": False,
            # the instructions (rubric) are the prefix every contestant's prompt shares: one cache key for them
            "prompt_cache_key": prompt_cache_key(system),
        }
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        return params

    async def call(self, system: str, user: str, schema: dict[str, Any], schema_name: str) -> CallOutcome:
        client = self._clients.get()
        params = self.request_params(system, user, schema, schema_name)
        sent = await send_with_openai_sdk(
            lambda: client.responses.with_raw_response.create(**params), self.spec, self._secret
        )
        if isinstance(sent, CallOutcome):
            return sent
        raw, watch = sent
        body = redact(raw.http_response.text, self._secret) or ""
        fields: dict[str, Any] = {
            "http_status": raw.status_code,
            "request_id": raw.request_id,
            "latency_s": watch.elapsed,
        }
        try:
            response = raw.parse()
            fields["stop_reason"] = response.status
            if response.usage is not None:
                fields["input_tokens"] = response.usage.input_tokens
                fields["output_tokens"] = response.usage.output_tokens
                details = response.usage.input_tokens_details
                fields["cached_input_tokens"] = getattr(details, "cached_tokens", None) if details else None
            refusal = next(
                (
                    part.refusal
                    for item in response.output
                    if item.type == "message"
                    for part in item.content
                    if part.type == "refusal"
                ),
                None,
            )
            incomplete = response.incomplete_details.reason if response.incomplete_details else None
            if incomplete == "content_filter" and refusal is None:
                refusal = "stopped by the content filter"
            text = response.output_text
        except Exception as error:  # the body is not a Responses object: keep it, call it a format failure
            return CallOutcome(
                False,
                body,
                error_kind="format",
                error_message=f"unreadable Responses body: {error!r}",
                **fields,
            )
        truncated = response.status == "incomplete" and refusal is None
        if truncated and incomplete:
            fields["stop_reason"] = f"incomplete:{incomplete}"
        return outcome_from_text(text, raw_reply=body, truncated=truncated, refusal=refusal, **fields)

