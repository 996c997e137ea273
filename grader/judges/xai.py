"""xAI judge: xai-sdk over gRPC (Chat/GetCompletion) with a json_schema response format.

The SDK's own retry of UNAVAILABLE is switched off (channel options) and the RPC deadline is the
spec's timeout, so each call is exactly one attempt. The raw reply is the response message as JSON
(google.protobuf.json_format), or for a failed RPC its status code, details and trailing metadata.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import grpc
import xai_sdk
from google.protobuf import json_format
from xai_sdk.chat import system as system_message
from xai_sdk.chat import user as user_message
from xai_sdk.proto import chat_pb2, sample_pb2

from ._base import (
    CallOutcome,
    ErrorKind,
    JudgeSpec,
    SdkJudge,
    Stopwatch,
    backstop_timeout,
    no_reply_failure,
    outcome_from_text,
    redact,
)

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
    service_config = {"methodConfig": [{"name": [{}]}]}
    return [("grpc.enable_retries", 0), ("grpc.service_config", json.dumps(service_config))]


class XaiJudge(SdkJudge[xai_sdk.AsyncClient]):
    """A judge on xAI's gRPC Chat API (json_schema response format, no SDK retries, explicit deadline)."""

    def __init__(self, spec: JudgeSpec, *, api_key: str, insecure: bool = False) -> None:
        super().__init__(spec, api_key=api_key, factory=lambda: xai_sdk.AsyncClient(
            api_key=api_key,
            api_host=spec.endpoint,
            timeout=spec.timeout_s,
            use_insecure_channel=insecure,
            channel_options=no_retry_channel_options(),
        ))

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
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> dict[str, Any]:
        """The GetCompletionsRequest as JSON. gRPC's json_schema format has no name: `schema_name` is unused."""
        settings = self._chat_settings(system, user, schema)
        request = chat_pb2.GetCompletionsRequest(n=1, **{k: v for k, v in settings.items() if v is not None})
        return json_format.MessageToDict(request, preserving_proto_field_name=True)

    async def call(self, system: str, user: str, schema: dict[str, Any], schema_name: str) -> CallOutcome:
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
        proto = response.proto
        body = (
            redact(json_format.MessageToJson(proto, preserving_proto_field_name=True, indent=None), secret)
            or ""
        )
        usage = proto.usage
        output = next(
            (o for o in proto.outputs if o.message.role == chat_pb2.MessageRole.ROLE_ASSISTANT), None
        )
        finish = output.finish_reason if output is not None else sample_pb2.FinishReason.REASON_INVALID
        return outcome_from_text(
            output.message.content if output is not None else "",
            raw_reply=body,
            truncated=finish in _TRUNCATING_FINISHES,
            refusal=None,
            input_tokens=usage.prompt_tokens,
            output_tokens=usage.completion_tokens + usage.reasoning_tokens,
            cached_input_tokens=usage.cached_prompt_text_tokens,  # xAI caches shared prefixes by itself
            latency_s=watch.elapsed,
            request_id=proto.id or None,
            stop_reason=sample_pb2.FinishReason.Name(finish),
        )

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
        )

