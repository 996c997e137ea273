"""Fake xAI: a gRPC server implementing the Chat service with the stubs that ship in `xai_sdk.proto`.

`GetCompletion` is what `chat.sample()` and `chat.parse()` call. Failures map to gRPC status codes:
429 -> RESOURCE_EXHAUSTED (with `retry-after` trailing metadata), 503 -> UNAVAILABLE, other 5xx ->
INTERNAL, a missing key -> UNAUTHENTICATED. The Chat API has no refusal field: a scripted refusal
answers the refusal message as plain text (so a judge sees non-JSON).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from concurrent import futures
from typing import Any, Self

import grpc
from google.protobuf import empty_pb2, json_format, timestamp_pb2
from google.rpc import status_pb2
from xai_sdk.proto import batch_pb2, batch_pb2_grpc, chat_pb2, chat_pb2_grpc, sample_pb2, usage_pb2

from ._openai import openai_rate_limit_headers
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
        code, message, trailing, response = self.respond(
            request,
            {key.lower(): str(value) for key, value in context.invocation_metadata()},
            still_wanted=context.is_active,
        )
        if trailing:
            context.set_trailing_metadata(trailing)
        if code is not None:
            context.abort(code, message)
        return response

    def respond(
        self,
        request: chat_pb2.GetCompletionsRequest,
        headers: dict[str, str],
        *,
        still_wanted: Any = None,
        batch: bool = False,
    ) -> tuple[Any, str, tuple, Any]:
        """(status code or None, message, trailing metadata, response) of one completion request; in a batch a
        hang is (None, "", (), None): the request expired."""
        fake = self._fake
        schema: dict[str, Any] | None = None
        if (
            request.HasField("response_format")
            and request.response_format.format_type == chat_pb2.FormatType.FORMAT_TYPE_JSON_SCHEMA
        ):
            schema = json.loads(request.response_format.schema) if request.response_format.schema else {}
        recorded = fake.admit(
            endpoint="Batch/Chat" if batch else "Chat/GetCompletion",
            model=request.model,
            system="\n\n".join(_text_of(m) for m in request.messages if m.role == chat_pb2.MessageRole.ROLE_SYSTEM),
            user="\n\n".join(_text_of(m) for m in request.messages if m.role == chat_pb2.MessageRole.ROLE_USER),
            schema=schema,
            schema_name=None,
            strict=None,
            max_output_tokens=request.max_tokens if request.HasField("max_tokens") else None,
            temperature=request.temperature if request.HasField("temperature") else None,
            headers=headers,
            body=json_format.MessageToDict(request, preserving_proto_field_name=True),
        )
        if not fake.key_accepted(recorded):
            return grpc.StatusCode.UNAUTHENTICATED, "Invalid or missing API key", (), None
        problem = fake.schema_problem(recorded)
        if problem is not None:
            return grpc.StatusCode.INVALID_ARGUMENT, problem, (), None
        refused = None if batch else fake.over_limit(recorded)
        reply = refused or fake.decide(recorded)
        if batch:
            if reply.kind == "hang":
                return None, "", (), None
        elif not fake.wait_blocking(reply, still_wanted=still_wanted, request=recorded):
            return grpc.StatusCode.DEADLINE_EXCEEDED, "fake server stopped while hanging", (), None
        if reply.kind == "rate_limited":
            trailing = (("retry-after", f"{reply.retry_after_s:g}"),) if reply.retry_after_s is not None else ()
            return (
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "Rate limit exceeded for this team and model",
                trailing + self._rate_metadata(recorded, batch),
                None,
            )
        if reply.kind == "server_error":
            if reply.status == 503:
                return grpc.StatusCode.UNAVAILABLE, "The service is temporarily unavailable", (), None
            return grpc.StatusCode.INTERNAL, "Internal error", (), None
        completion = self._completion(recorded.model, reply, fake.content_of(reply, recorded))
        return None, "", self._rate_metadata(recorded, batch), completion

    def _rate_metadata(self, recorded: Any, batch: bool) -> tuple[tuple[str, str], ...]:
        """The key's rate-limit state as gRPC metadata, under OpenAI's ``x-ratelimit-*`` names (none in a batch)."""
        if batch:
            return ()
        return tuple(openai_rate_limit_headers(self._fake.limit_state(recorded)).items())

    @staticmethod
    def _completion(model: str, reply: FakeReply, content: Any) -> chat_pb2.GetChatCompletionResponse:
        created = timestamp_pb2.Timestamp()
        created.GetCurrentTime()
        text = content.refusal if content.refusal is not None else content.text
        finish = sample_pb2.FinishReason.REASON_MAX_LEN if content.truncated else sample_pb2.FinishReason.REASON_STOP
        return chat_pb2.GetChatCompletionResponse(
            id=secrets.token_hex(16),
            outputs=[
                chat_pb2.CompletionOutput(
                    finish_reason=finish,
                    index=0,
                    message=chat_pb2.CompletionMessage(content=text, role=chat_pb2.MessageRole.ROLE_ASSISTANT),
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


class _BatchServicer(batch_pb2_grpc.BatchMgmtServicer):
    """xAI's Batch service: CreateBatch, AddBatchRequests (each answered through the chat script at once), GetBatch,
    ListBatchResults (paged)."""

    def __init__(self, fake: FakeXai, chat: _ChatServicer) -> None:
        self._fake, self._chat = fake, chat

    def _authorized(self, context: grpc.ServicerContext) -> bool:
        return self._fake.credential_accepted({key.lower(): str(value) for key, value in context.invocation_metadata()})

    def _batch(self, batch_id: str, context: grpc.ServicerContext):
        if not self._authorized(context):
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "Invalid or missing API key")
        batch = self._fake.batches.get(batch_id)
        if batch is None:
            context.abort(grpc.StatusCode.NOT_FOUND, f"batch {batch_id} not found")
        return batch

    def _proto(self, batch) -> batch_pb2.Batch:
        created = timestamp_pb2.Timestamp()
        created.FromSeconds(int(batch.created_at))
        counts = batch.counts()
        state = batch_pb2.BatchState(
            num_requests=len(batch.results),
            num_pending=counts["processing"],
            num_success=counts["succeeded"],
            num_error=counts["errored"] + counts["expired"],
        )
        return batch_pb2.Batch(batch_id=batch.id, name=batch.meta.get("name", ""), create_time=created, state=state)

    def CreateBatch(self, request, context):  # noqa: N802
        if not self._authorized(context):
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "Invalid or missing API key")
        return self._proto(self._fake.batches.add("batch_", [], name=request.name))

    def AddBatchRequests(self, request, context):  # noqa: N802
        batch = self._batch(request.batch_id, context)
        headers = {key.lower(): str(value) for key, value in context.invocation_metadata()}
        for item in request.batch_requests:
            code, message, _, response = self._chat.respond(item.completion_request, headers, batch=True)
            if code is None and response is None:
                result = None  # a hang: expires
            elif code is not None:
                result = batch_pb2.BatchResult(
                    batch_request_id=item.batch_request_id, error=status_pb2.Status(code=code.value[0], message=message)
                )
            else:
                result = batch_pb2.BatchResult(
                    batch_request_id=item.batch_request_id,
                    response=batch_pb2.BatchResultData(completion_response=response),
                )
            batch.results.append((item.batch_request_id, _XaiResult(result) if result is not None else None))
        batch.ends_at = time.time() + self._fake.batches.latency_s
        return empty_pb2.Empty()

    def GetBatch(self, request, context):  # noqa: N802
        return self._proto(self._batch(request.batch_id, context))

    def ListBatchResults(self, request, context):  # noqa: N802
        batch = self._batch(request.batch_id, context)
        done = []
        if batch.ended:
            for custom_id, result in batch.results:
                done.append(
                    result.proto
                    if result is not None
                    else batch_pb2.BatchResult(
                        batch_request_id=custom_id,
                        error=status_pb2.Status(
                            code=grpc.StatusCode.DEADLINE_EXCEEDED.value[0], message="the batch request expired"
                        ),
                    )
                )
        start = int(request.pagination_token or 0)
        limit = request.limit or 100
        page = done[start : start + limit]
        token = str(start + limit) if start + limit < len(done) else ""
        return batch_pb2.ListBatchResultsResponse(results=page, pagination_token=token)


class _XaiResult:
    """A BatchResult proto with the success flag the batch counts read."""

    def __init__(self, proto: batch_pb2.BatchResult) -> None:
        self.proto = proto
        self.ok = proto.error.code == 0


class FakeXai(FakeServer):
    """The xAI Chat service over insecure gRPC. Dial `host_port` (also returned as `base_url`)."""

    provider = "xai"

    def __init__(self, *, max_workers: int = 64, **options: Any) -> None:
        super().__init__(**options)
        self._max_workers = max_workers
        self._server: grpc.Server | None = None
        self._stopping: threading.Event | None = None

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
        chat = _ChatServicer(self)
        chat_pb2_grpc.add_ChatServicer_to_server(chat, server)
        batch_pb2_grpc.add_BatchMgmtServicer_to_server(_BatchServicer(self, chat), server)
        port = server.add_insecure_port(f"{LOCALHOST}:{self._requested_port}")
        if port == 0:
            raise RuntimeError(f"fake xai server could not bind {LOCALHOST}:{self._requested_port}")
        server.start()
        self._server, self._port = server, port
        return self

    def begin_stop(self) -> None:
        if self._server is None or self._stopping is not None:
            return
        self.release_hangs()
        self._stopping = self._server.stop(grace=0.5)

    def stop(self) -> None:
        if self._server is None:
            return
        self.begin_stop()
        if self._stopping is not None:  # begin_stop set it: the server is stopping
            self._stopping.wait()
        self._server, self._stopping = None, None
