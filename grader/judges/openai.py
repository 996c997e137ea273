"""OpenAI judge: the Responses API with a strict `json_schema` text format (native structured output).

The raw HTTP body is taken from `responses.with_raw_response.create(...)` before the SDK parses it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from ._outcome import CallOutcome, ErrorKind, outcome_from_text
from ._protocol import BatchItem, BatchResult, BatchState
from ._ratelimits import snapshot_from_headers
from ._redaction import redact
from ._registry import Provider, import_without_package_init
from ._sdk_judge import SdkJudge, Stopwatch, backstop_timeout, http_failure, jsonl_results, no_reply_failure
from ._spec import JudgeSpec

__all__ = ["OpenAIJudge", "outcome_of_response", "send_with_openai_sdk"]

# The client and its errors without the ``__init__`` of the packages ``openai`` (which imports every type of the API:
# the evals' graders, the assistants' streams ...), ``openai.types``, ``openai.lib`` and ``openai.lib.streaming``
# (the assistants' event handlers and their types); each runs when something first asks the package for a name
# that is not one of its modules (``from openai import OpenAI``). Then the one resource the judge calls
# (``client.responses``), without every other resource the ``openai.resources`` package's ``__init__`` imports.
import_without_package_init("openai._client", "openai", "openai.types", "openai.lib", "openai.lib.streaming")
import_without_package_init("openai.resources.responses")

from openai._client import AsyncOpenAI  # noqa: E402
from openai._exceptions import APIConnectionError, APIError, APIStatusError, APITimeoutError, NotFoundError  # noqa: E402
from openai._utils._logs import setup_logging  # noqa: E402
from openai.types.responses import Response  # noqa: E402

setup_logging()  # what the package's __init__ does first (``OPENAI_LOG``); it does it again if it runs


async def send_with_openai_sdk(
    request: Callable[[], Awaitable[Any]], spec: JudgeSpec, secret: str
) -> tuple[Any, Stopwatch] | CallOutcome:
    """Run one `with_raw_response` call; the raw response, or the failure outcome (never raises for the API)."""
    watch = Stopwatch()
    try:
        async with asyncio.timeout(backstop_timeout(spec)):
            raw = await request()
    except APIStatusError as error:
        return http_failure(
            status=error.status_code,
            body=error.response.text,
            headers=error.response.headers,
            request_id=error.request_id,
            message=error.message,
            latency_s=watch.elapsed,
            secret=secret,
        )
    except (APITimeoutError, TimeoutError):
        return no_reply_failure(
            "timeout", f"no reply within {spec.timeout_s:g} s", latency_s=watch.elapsed, secret=secret
        )
    except APIConnectionError as error:
        cause = f"{error.message} ({error.__cause__!r})" if error.__cause__ else error.message
        return no_reply_failure("transport", cause, latency_s=watch.elapsed, secret=secret)
    return raw, watch


SAMPLE_RESPONSE: dict[str, Any] = {
    "id": "resp_sample",
    "object": "response",
    "created_at": 0,
    "status": "completed",
    "background": False,
    "completed_at": 0,
    "error": None,
    "incomplete_details": None,
    "instructions": "sample",
    "max_output_tokens": 1,
    "max_tool_calls": None,
    "model": "sample",
    "output": [
        {"id": "rs_sample", "type": "reasoning", "summary": []},
        {
            "id": "msg_sample",
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "{}", "annotations": [], "logprobs": []}],
        },
    ],
    "parallel_tool_calls": True,
    "previous_response_id": None,
    "prompt_cache_key": "sample",
    "reasoning": {"effort": None, "summary": None},
    "safety_identifier": None,
    "service_tier": "default",
    "store": False,
    "temperature": 1.0,
    "text": {
        "format": {"type": "json_schema", "name": "sample", "schema": {"type": "object"}, "strict": True},
        "verbosity": "medium",
    },
    "tool_choice": "auto",
    "tools": [],
    "top_logprobs": 0,
    "top_p": 1.0,
    "truncation": "disabled",
    "usage": {
        "input_tokens": 1,
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": 1,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 2,
    },
    "user": None,
    "metadata": {},
}
"""A Responses body of the shape a judge's reply has, read once ahead by ``prepare_replies`` (never sent)."""


def prompt_cache_key(system: str) -> str:
    """OpenAI's ``prompt_cache_key``: the same for every request sharing these instructions (routes them to one
    cache); a hash, so nothing of the prompt is sent twice."""
    return "grader-" + hashlib.sha256(system.encode()).hexdigest()[:32]


class OpenAIJudge(SdkJudge[AsyncOpenAI], Provider):
    """A judge on the OpenAI Responses API (strict json_schema structured output, SDK retries off)."""

    label = "OpenAI"
    default_endpoint = "https://api.openai.com/v1"
    key_env = "OPENAI_API_KEY"
    batch_api = True
    prompt_cache = "automatic"  # prefixes of 1,024+ tokens, routed by prompt_cache_key
    fake = "openai"

    def __init__(self, spec: JudgeSpec, *, api_key: str) -> None:
        super().__init__(
            spec,
            api_key=api_key,
            factory=lambda: AsyncOpenAI(
                api_key=api_key,
                base_url=spec.endpoint,
                timeout=spec.timeout_s,
                max_retries=0,
            ),
        )

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> dict[str, Any]:
        """The Responses API body (without transport options)."""
        params: dict[str, Any] = {
            "model": self.spec.model,
            "instructions": system,
            "input": [{"role": "user", "content": user}],
            "text": {"format": {"type": "json_schema", "name": schema_name, "schema": schema, "strict": True}},
            "max_output_tokens": self.spec.max_output_tokens,
            "store": False,
            # the instructions (rubric) are the prefix every contestant's prompt shares: one cache key for them
            "prompt_cache_key": prompt_cache_key(system),
        }
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        return params

    def prepare_replies(self) -> None:
        Response.model_construct(**SAMPLE_RESPONSE)  # the SDK's own reading of a reply, on a sample (no call)

    async def call(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> CallOutcome:
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
            "rate_limits": snapshot_from_headers(raw.headers),
        }
        try:
            response = raw.parse()
        except Exception as error:  # the body is not a Responses object: keep it, call it a format failure
            return CallOutcome(
                False, body, error_kind="format", error_message=f"unreadable Responses body: {error!r}", **fields
            )
        return outcome_of_response(response, body, fields)

    # -- Batch API: one JSONL file of /v1/responses requests, results in an output and an error file -----------

    async def batch_submit(self, items: list[BatchItem], schema: dict[str, Any], schema_name: str) -> BatchState:
        client = self._clients.get()
        lines = [
            json.dumps(
                {
                    "custom_id": item.custom_id,
                    "method": "POST",
                    "url": "/v1/responses",
                    "body": self.request_params(item.system, item.user, schema, schema_name),
                }
            )
            for item in items
        ]
        async with self._batch_errors("submit"):
            upload = await client.files.create(
                file=("grader-batch.jsonl", "\n".join(lines).encode(), "application/jsonl"), purpose="batch"
            )
            batch = await client.batches.create(
                input_file_id=upload.id, endpoint="/v1/responses", completion_window="24h"
            )
        return self._state(batch)

    async def batch_state(self, batch_id: str) -> BatchState:
        async with self._batch_errors("status"):
            return self._state(await self._clients.get().batches.retrieve(batch_id))

    async def batch_results(self, batch_id: str) -> list[BatchResult]:
        client = self._clients.get()
        out: list[BatchResult] = []
        async with self._batch_errors("results"):
            batch = await client.batches.retrieve(batch_id)
            for file_id in (batch.output_file_id, batch.error_file_id):
                if not file_id:
                    continue
                out += jsonl_results((await client.files.content(file_id)).text, self._line_outcome)
        return out

    def _batch_errors(self, what: str):  # noqa: ANN202
        return self.batch_errors(what, APIError, NotFoundError)

    @staticmethod
    def _state(batch: Any) -> BatchState:
        counts = batch.request_counts
        return BatchState(
            batch.id,
            batch.status in _ENDED,
            batch.status,
            {"total": counts.total, "completed": counts.completed, "failed": counts.failed} if counts else {},
            batch.model_dump_json(),
        )

    def _line_outcome(self, item: dict[str, Any], line: str) -> CallOutcome:
        """One result line (its text is the raw reply): the response it carries, or why there is none."""
        raw = redact(line, self._secret) or ""
        response = item.get("response")
        if not response:
            error = item.get("error") or {}
            code = str(error.get("code") or "")
            kind: ErrorKind = "timeout" if code in ("batch_expired", "batch_cancelled") else "server"
            return CallOutcome(False, raw, error_kind=kind, error_message=f"batch: {code}: {error.get('message')}")
        status = int(response.get("status_code") or 0)
        fields: dict[str, Any] = {"http_status": status, "request_id": response.get("request_id")}
        body = response.get("body") or {}
        if status != 200:
            message = ((body.get("error") or {}).get("message") if isinstance(body, dict) else None) or str(body)
            return http_failure(
                status=status,
                body=raw,
                headers=None,
                request_id=fields["request_id"],
                message=message,
                latency_s=0.0,
                secret=self._secret,
            )
        try:
            parsed = Response.model_validate(body)
        except Exception as error:  # noqa: BLE001 - not a Responses object: kept, a format failure
            return CallOutcome(
                False, raw, error_kind="format", error_message=f"unreadable Responses body: {error!r}", **fields
            )
        return outcome_of_response(parsed, raw, fields)


_ENDED = frozenset({"completed", "failed", "expired", "cancelled"})


def outcome_of_response(response: Any, body: str, fields: dict[str, Any]) -> CallOutcome:
    """The outcome of a Responses object (synchronous reply or a batch result's body)."""
    fields = dict(fields)
    try:
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
            False, body, error_kind="format", error_message=f"unreadable Responses body: {error!r}", **fields
        )
    truncated = response.status == "incomplete" and refusal is None
    if truncated and incomplete:
        fields["stop_reason"] = f"incomplete:{incomplete}"
    return outcome_from_text(text, raw_reply=body, truncated=truncated, refusal=refusal, **fields)
