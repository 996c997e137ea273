"""openai-compatible judge: Chat Completions with a strict json_schema `response_format`, any base URL.

For open-weight judges behind vLLM, llama.cpp's server, Ollama, LM Studio... Uses the `openai` SDK
(`chat.completions.with_raw_response.create`) so the raw body is kept before parsing.
"""

from __future__ import annotations

from typing import Any

from openai import AsyncOpenAI

from ._base import CallOutcome, JudgeSpec, SdkJudge, outcome_from_text, redact
from .openai import send_with_openai_sdk

__all__ = ["OpenAICompatibleJudge"]


class OpenAICompatibleJudge(SdkJudge[AsyncOpenAI]):
    """A judge on any Chat Completions server (json_schema response_format, SDK retries off)."""

    def __init__(self, spec: JudgeSpec, *, api_key: str) -> None:
        super().__init__(spec, api_key=api_key, factory=lambda: AsyncOpenAI(
            api_key=api_key,
            base_url=spec.endpoint,
            timeout=spec.timeout_s,
            max_retries=0,
        ))

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> dict[str, Any]:
        """The Chat Completions body. `max_tokens` (not max_completion_tokens): what local servers all read."""
        params: dict[str, Any] = {
            "model": self.spec.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            },
            "max_tokens": self.spec.max_output_tokens,
        }
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        return params

    async def call(self, system: str, user: str, schema: dict[str, Any], schema_name: str, *,
                   cache_prefix_chars: int = 0) -> CallOutcome:
        client = self._clients.get()
        params = self.request_params(system, user, schema, schema_name)
        sent = await send_with_openai_sdk(
            lambda: client.chat.completions.with_raw_response.create(**params), self.spec, self._secret
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
            completion = raw.parse()
            if completion.usage is not None:
                fields["input_tokens"] = completion.usage.prompt_tokens
                fields["output_tokens"] = completion.usage.completion_tokens
                details = completion.usage.prompt_tokens_details
                fields["cached_input_tokens"] = getattr(details, "cached_tokens", None) if details else None
            choice = completion.choices[0]
            fields["stop_reason"] = choice.finish_reason
            refusal = choice.message.refusal
            if choice.finish_reason == "content_filter" and refusal is None:
                refusal = "stopped by the content filter"
            text = choice.message.content or ""
        except Exception as error:  # not a chat.completion body (or no choices): keep it, a format failure
            return CallOutcome(
                False,
                body,
                error_kind="format",
                error_message=f"unreadable Chat Completions body: {error!r}",
                **fields,
            )
        truncated = choice.finish_reason == "length"
        return outcome_from_text(text, raw_reply=body, truncated=truncated, refusal=refusal, **fields)

