"""xAI judge: xai-sdk over gRPC (Chat/GetCompletion) with a json_schema response format.

The SDK's own retry of UNAVAILABLE is switched off (channel options) and the RPC deadline is the
spec's timeout, so each call is exactly one attempt. The raw reply is the response message as JSON
(google.protobuf.json_format), or for a failed RPC its status code, details and trailing metadata.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from typing import Any

import grpc
import xai_sdk
from google.protobuf import json_format
from xai_sdk.chat import system as system_message
from xai_sdk.chat import user as user_message
from xai_sdk.proto import chat_pb2, sample_pb2

from ._outcome import CallOutcome, ErrorKind, outcome_from_text
from ._protocol import BatchApiError, BatchItem, BatchResult, BatchState
from ._ratelimits import snapshot_from_headers
from ._redaction import redact
from ._registry import Provider
from ._sdk_judge import SdkJudge, Stopwatch, backstop_timeout, no_reply_failure
from ._spec import JudgeSpec

__all__ = ["XaiJudge", "no_retry_channel_options"]

_TRUNCATING_FINISHES = frozenset(
    {
        sample_pb2.FinishReason.REASON_MAX_LEN,
        sample_pb2.FinishReason.REASON_MAX_CONTEXT,
        sample_pb2.FinishReason.REASON_TIME_LIMIT,
    }
)

_KIND_BY_CODE: dict[grpc.StatusCode, ErrorKind] = {
    grpc.StatusCode.RESOURCE_EXHAUSTED: "rate_limited",
    grpc.StatusCode.DEADLINE_EXCEEDED: "timeout",
    grpc.StatusCode.UNAVAILABLE: "server",
    grpc.StatusCode.INTERNAL: "server",
    grpc.StatusCode.UNKNOWN: "server",
    grpc.StatusCode.DATA_LOSS: "server",
    grpc.StatusCode.ABORTED: "server",
    grpc.StatusCode.CANCELLED: "transport",
    grpc.StatusCode.UNAUTHENTICATED: "auth",
    grpc.StatusCode.PERMISSION_DENIED: "auth",
}
_CONNECT_FAILURE_HINTS = (
    "failed to connect",
    "connection refused",
    "dns resolution failed",
    "name resolution",
)


def no_retry_channel_options() -> list[tuple[str, Any]]:
    """gRPC channel options that replace the SDK's retry-on-UNAVAILABLE policy with none.

    The deadline is not put in this service config (a fractional "0.400s" there expired calls at
    once in grpcio 1.85); the SDK's timeout interceptor sets it from `timeout=` on every call.
    """
    service_config: dict[str, Any] = {"methodConfig": [{"name": [{}]}]}
    return [("grpc.enable_retries", 0), ("grpc.service_config", json.dumps(service_config))]


class XaiJudge(SdkJudge[xai_sdk.AsyncClient], Provider):
    """A judge on xAI's gRPC Chat API (json_schema response format, no SDK retries, explicit deadline)."""

    label = "xAI"
    endpoint_field = "host"
    default_endpoint = "api.x.ai:443"
    key_env = "XAI_API_KEY"
    batch_api = True
    prompt_cache = "automatic"  # xAI caches shared prefixes by itself
    fake = "xai"

    @classmethod
    def build(cls, spec: JudgeSpec, *, api_key: str, local: bool) -> XaiJudge:
        """A loopback endpoint (a fake, a local server) is reached over an insecure channel."""
        return cls(spec, api_key=api_key, insecure=local)

    def __init__(self, spec: JudgeSpec, *, api_key: str, insecure: bool = False) -> None:
        super().__init__(
            spec,
            api_key=api_key,
            factory=lambda: xai_sdk.AsyncClient(
                api_key=api_key,
                api_host=spec.endpoint,
                timeout=spec.timeout_s,
                use_insecure_channel=insecure,
                channel_options=no_retry_channel_options(),
            ),
        )

    def _chat_settings(self, system: str, user: str, schema: dict[str, Any]) -> dict[str, Any]:
        return {
            "model": self.spec.model,
            "messages": [system_message(system), user_message(user)],
            "max_tokens": self.spec.max_output_tokens,
            "temperature": self.spec.temperature,
            "response_format": chat_pb2.ResponseFormat(
                format_type=chat_pb2.FormatType.FORMAT_TYPE_JSON_SCHEMA, schema=json.dumps(schema)
            ),
        }

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> dict[str, Any]:
        """The GetCompletionsRequest as JSON. gRPC's json_schema format has no name: `schema_name` is unused."""
        settings = self._chat_settings(system, user, schema)
        request = chat_pb2.GetCompletionsRequest(n=1, **{k: v for k, v in settings.items() if v is not None})
        return json_format.MessageToDict(request, preserving_proto_field_name=True)

    async def call(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> CallOutcome:
        """One GetCompletion (what `chat.sample()` sends), with the schema as a json_schema response format."""
        client = self._clients.get()
        chat = client.chat.create(**self._chat_settings(system, user, schema))
        secret = self._secret
        watch = Stopwatch()
        try:
            async with asyncio.timeout(backstop_timeout(self.spec)):
                response = await chat.sample()
        except grpc.aio.AioRpcError as error:
            return self._rpc_failure(error, watch.elapsed)
        except TimeoutError:
            return no_reply_failure(
                "timeout",
                f"no reply within {self.spec.timeout_s:g} s",
                latency_s=watch.elapsed,
                secret=secret,
            )
        return outcome_of_completion(response.proto, watch.elapsed, self._secret)

    # -- Batch API (gRPC BatchMgmt): create, add the requests, poll, page through the results --------------

    async def batch_submit(self, items: list[BatchItem], schema: dict[str, Any], schema_name: str) -> BatchState:
        client = self._clients.get()
        async with self._batch_errors("submit"):
            batch = await client.batch.create(batch_name=f"grader-{items[0].custom_id}" if items else "grader")
            chunk: list[Any] = []
            size = 0
            for item in items:
                chat = client.chat.create(
                    **self._chat_settings(item.system, item.user, schema), batch_request_id=item.custom_id
                )
                weight = chat.proto.ByteSize()
                if chunk and size + weight > _ADD_CHUNK_BYTES:  # gRPC messages are capped (4 MB by default)
                    await client.batch.add(batch.batch_id, chunk)
                    chunk, size = [], 0
                chunk.append(chat)
                size += weight
            if chunk:
                await client.batch.add(batch.batch_id, chunk)
            return self._state(await client.batch.get(batch.batch_id))

    async def batch_state(self, batch_id: str) -> BatchState:
        async with self._batch_errors("status"):
            return self._state(await self._clients.get().batch.get(batch_id))

    async def batch_results(self, batch_id: str) -> list[BatchResult]:
        client = self._clients.get()
        out: list[BatchResult] = []
        token: str | None = None
        async with self._batch_errors("results"):
            while True:
                page = await client.batch.list_batch_results(batch_id, limit=100, pagination_token=token)
                for result in page.proto.results:
                    out.append(BatchResult(result.batch_request_id, self._result_outcome(result)))
                token = page.pagination_token
                if not token:
                    return out

    @asynccontextmanager
    async def _batch_errors(self, what: str):
        try:
            yield
        except grpc.aio.AioRpcError as error:
            raise BatchApiError(
                redact(f"xAI batch {what}: gRPC {error.code().name}: {error.details()}", self._secret),
                lost=error.code() == grpc.StatusCode.NOT_FOUND,
                refused=error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED,
            ) from None

    @staticmethod
    def _state(batch: Any) -> BatchState:
        st = batch.state
        ended = st.num_requests > 0 and st.num_pending == 0
        raw = json_format.MessageToJson(batch, preserving_proto_field_name=True, indent=None)
        return BatchState(
            batch.batch_id,
            ended,
            "ended" if ended else "processing",
            {
                "requests": st.num_requests,
                "pending": st.num_pending,
                "succeeded": st.num_success,
                "errored": st.num_error,
                "cancelled": st.num_cancelled,
            },
            raw,
        )

    def _result_outcome(self, result: Any) -> CallOutcome:
        raw = (
            redact(json_format.MessageToJson(result, preserving_proto_field_name=True, indent=None), self._secret) or ""
        )
        if result.error.code:
            code = grpc.StatusCode.UNKNOWN
            for candidate in grpc.StatusCode:
                if candidate.value[0] == result.error.code:
                    code = candidate
            kind: ErrorKind = _KIND_BY_CODE.get(code, "request")
            return CallOutcome(
                False,
                raw,
                error_kind=kind,
                error_message=redact(f"batch: gRPC {code.name}: {result.error.message}", self._secret),
            )
        outcome = outcome_of_completion(result.response.completion_response, 0.0, self._secret)
        outcome.raw_reply = raw
        return outcome

    def _rpc_failure(self, error: grpc.aio.AioRpcError, latency_s: float) -> CallOutcome:
        code = error.code()
        details = error.details() or ""
        kind: ErrorKind = _KIND_BY_CODE.get(code, "request")
        if code == grpc.StatusCode.UNAVAILABLE and any(h in details.lower() for h in _CONNECT_FAILURE_HINTS):
            kind = "transport"
        trailing = {key: str(value) for key, value in (error.trailing_metadata() or ())}
        retry_after = None
        if kind in ("rate_limited", "server") and "retry-after" in trailing:
            try:
                retry_after = max(0.0, float(trailing["retry-after"]))
            except ValueError:
                retry_after = None
        # a deadline or a failed connection is the client's own verdict, not a reply from the server
        raw = (
            ""
            if kind in ("timeout", "transport")
            else json.dumps({"grpc_status": code.name, "details": details, "trailing_metadata": trailing})
        )
        return CallOutcome(
            False,
            redact(raw, self._secret) or "",
            error_kind=kind,
            error_message=redact(f"gRPC {code.name}: {details}", self._secret),
            retry_after_s=retry_after,
            latency_s=latency_s,
            rate_limits=snapshot_from_headers(trailing) if kind == "rate_limited" else None,
        )


_ADD_CHUNK_BYTES = 3_000_000


def outcome_of_completion(proto: Any, latency_s: float, secret: str) -> CallOutcome:
    """The outcome of a GetChatCompletionResponse (synchronous reply or a batch result); the raw reply is the
    message as JSON."""
    body = redact(json_format.MessageToJson(proto, preserving_proto_field_name=True, indent=None), secret) or ""
    usage = proto.usage
    output = next((o for o in proto.outputs if o.message.role == chat_pb2.MessageRole.ROLE_ASSISTANT), None)
    finish = output.finish_reason if output is not None else sample_pb2.FinishReason.REASON_INVALID
    return outcome_from_text(
        output.message.content if output is not None else "",
        raw_reply=body,
        truncated=finish in _TRUNCATING_FINISHES,
        refusal=None,
        input_tokens=usage.prompt_tokens,
        output_tokens=usage.completion_tokens + usage.reasoning_tokens,
        cached_input_tokens=usage.cached_prompt_text_tokens,  # xAI caches shared prefixes by itself
        latency_s=latency_s,
        request_id=proto.id or None,
        stop_reason=sample_pb2.FinishReason.Name(finish),
    )
