"""Fake xAI: a gRPC server implementing the Chat service with the stubs that ship in `xai_sdk.proto`.

`GetCompletion` is what `chat.sample()` and `chat.parse()` call. Failures map to gRPC status codes:
429 -> RESOURCE_EXHAUSTED (with `retry-after` trailing metadata), 503 -> UNAVAILABLE, other 5xx ->
INTERNAL, a missing key -> UNAUTHENTICATED. The Chat API has no refusal field: a scripted refusal
answers the refusal message as plain text (so a judge sees non-JSON).
"""

from __future__ import annotations

import json
import secrets
from concurrent import futures
from typing import Any, Self

import grpc
from google.protobuf import json_format, timestamp_pb2
from xai_sdk.proto import chat_pb2, chat_pb2_grpc, sample_pb2, usage_pb2

from ._script import FakeReply
from ._server import LOCALHOST, FakeServer


def _text_of(message: chat_pb2.Message) -> str:
    return "\n".join(part.text for part in message.content if part.text)


class _ChatServicer(chat_pb2_grpc.ChatServicer):
    def __init__(self, fake: FakeXai) -> None:
        self._fake = fake

    def GetCompletion(  # noqa: N802 (gRPC method name)
        self, request: chat_pb2.GetCompletionsRequest, context: grpc.ServicerContext
    ) -> chat_pb2.GetChatCompletionResponse:
        fake = self._fake
        schema: dict[str, Any] | None = None
        if (
            request.HasField("response_format")
            and request.response_format.format_type == chat_pb2.FormatType.FORMAT_TYPE_JSON_SCHEMA
        ):
            schema = json.loads(request.response_format.schema) if request.response_format.schema else {}
        recorded = fake.admit(
            endpoint="Chat/GetCompletion",
            model=request.model,
            system="\n\n".join(
                _text_of(m) for m in request.messages if m.role == chat_pb2.MessageRole.ROLE_SYSTEM
            ),
            user="\n\n".join(
                _text_of(m) for m in request.messages if m.role == chat_pb2.MessageRole.ROLE_USER
            ),
            schema=schema,
            schema_name=None,
            strict=None,
            max_output_tokens=request.max_tokens if request.HasField("max_tokens") else None,
            temperature=request.temperature if request.HasField("temperature") else None,
            headers={key.lower(): str(value) for key, value in context.invocation_metadata()},
            body=json_format.MessageToDict(request, preserving_proto_field_name=True),
        )
        if not fake.key_accepted(recorded):
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "Invalid or missing API key")
        problem = fake.schema_problem(recorded)
        if problem is not None:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, problem)
        reply = fake.decide(recorded)
        if not fake.wait_blocking(reply, still_wanted=context.is_active):
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "fake server stopped while hanging")
        if reply.kind == "rate_limited":
            if reply.retry_after_s is not None:
                context.set_trailing_metadata((("retry-after", f"{reply.retry_after_s:g}"),))
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "Rate limit exceeded for this team and model")
        if reply.kind == "server_error":
            if reply.status == 503:
                context.abort(grpc.StatusCode.UNAVAILABLE, "The service is temporarily unavailable")
            context.abort(grpc.StatusCode.INTERNAL, "Internal error")
        return self._completion(recorded.model, reply, fake.content_of(reply, recorded))

    @staticmethod
    def _completion(model: str, reply: FakeReply, content: Any) -> chat_pb2.GetChatCompletionResponse:
        created = timestamp_pb2.Timestamp()
        created.GetCurrentTime()
        text = content.refusal if content.refusal is not None else content.text
        finish = (
            sample_pb2.FinishReason.REASON_MAX_LEN
            if content.truncated
            else sample_pb2.FinishReason.REASON_STOP
        )
        return chat_pb2.GetChatCompletionResponse(
            id=secrets.token_hex(16),
            outputs=[
                chat_pb2.CompletionOutput(
                    finish_reason=finish,
                    index=0,
                    message=chat_pb2.CompletionMessage(
                        content=text, role=chat_pb2.MessageRole.ROLE_ASSISTANT
                    ),
                )
            ],
            created=created,
            model=model,
            system_fingerprint="fp_fake",
            usage=usage_pb2.SamplingUsage(
                completion_tokens=content.output_tokens,
                reasoning_tokens=0,
                prompt_tokens=content.input_tokens,
                total_tokens=content.input_tokens + content.output_tokens,
                prompt_text_tokens=content.input_tokens,
                cached_prompt_text_tokens=content.cached_tokens,
            ),
        )


class FakeXai(FakeServer):
    """The xAI Chat service over insecure gRPC. Dial `host_port` (also returned as `base_url`)."""

    provider = "xai"

    def __init__(self, *, max_workers: int = 64, **options: Any) -> None:
        super().__init__(**options)
        self._max_workers = max_workers
        self._server: grpc.Server | None = None

    @property
    def base_url(self) -> str:
        return self.host_port

    def start(self) -> Self:
        if self._server is not None:
            raise RuntimeError("fake xai server already started")
        self._released.clear()
        server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=self._max_workers, thread_name_prefix="fake-xai"),
            options=[("grpc.so_reuseport", 0)],
        )
        chat_pb2_grpc.add_ChatServicer_to_server(_ChatServicer(self), server)
        port = server.add_insecure_port(f"{LOCALHOST}:{self._requested_port}")
        if port == 0:
            raise RuntimeError(f"fake xai server could not bind {LOCALHOST}:{self._requested_port}")
        server.start()
        self._server, self._port = server, port
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self.release_hangs()
        self._server.stop(grace=0.5).wait()
        self._server = None
