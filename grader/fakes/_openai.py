"""Fake OpenAI: the Responses API and Chat Completions (also the shape openai-compatible servers speak).

Bodies follow the real API closely enough that the `openai` SDK parses them into its typed models,
including `responses.parse(text_format=...)` and `chat.completions.parse(response_format=...)`.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ._limits import WindowState
from ._script import FakeReply, FakeRequest
from ._server import HttpFakeServer, RenderedContent


def _text_of(content: Any) -> str:
    """Text of a message content: a string or a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _split_messages(messages: Any) -> tuple[list[str], list[str]]:
    system: list[str] = []
    user: list[str] = []
    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role in ("system", "developer"):
            system.append(_text_of(message.get("content")))
        elif role == "user":
            user.append(_text_of(message.get("content")))
    return system, user


def _seconds_header(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


def reset_duration(seconds: float) -> str:
    """OpenAI's way of writing a reset time: ``20ms``, ``1.5s``, ``6m0s``."""
    if seconds < 1:
        return f"{int(round(seconds * 1000))}ms"
    if seconds < 60:
        return f"{seconds:.3f}".rstrip("0").rstrip(".") + "s"
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}m{rest:.0f}s"


def openai_rate_limit_headers(state: dict[str, WindowState]) -> dict[str, str]:
    """OpenAI's ``x-ratelimit-*`` headers for requests and tokens (tokens: the TPM limit, else input TPM)."""
    headers: dict[str, str] = {}
    tokens = state.get("tokens") or state.get("input_tokens")
    for name, window in (("requests", state.get("requests")), ("tokens", tokens)):
        if window is not None:
            headers[f"x-ratelimit-limit-{name}"] = str(window.limit)
            headers[f"x-ratelimit-remaining-{name}"] = str(window.remaining)
            headers[f"x-ratelimit-reset-{name}"] = reset_duration(window.reset_s)
    return headers


def _error(status: int, message: str, error_type: str, code: str | None, headers: dict[str, str]) -> Response:
    body = {"error": {"message": message, "type": error_type, "param": None, "code": code}}
    return JSONResponse(body, status_code=status, headers=headers)


class FakeOpenAI(HttpFakeServer):
    """POST /v1/responses and /v1/chat/completions (+ GET /v1/models), and the Batch API (POST /v1/files, POST
    /v1/batches, GET /v1/batches/{id}, GET /v1/files/{id}/content). `base_url` ends in /v1."""

    provider = "openai"

    @property
    def base_url(self) -> str:
        return f"http://{self.host_port}/v1"

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/v1/responses", self._responses, methods=["POST"]),
            Route("/v1/chat/completions", self._chat_completions, methods=["POST"]),
            Route("/v1/models", self._models, methods=["GET"]),
            Route("/v1/files", self._upload, methods=["POST"]),
            Route("/v1/files/{file_id}/content", self._file_content, methods=["GET"]),
            Route("/v1/batches", self._create_batch, methods=["POST"]),
            Route("/v1/batches/{batch_id}", self._get_batch, methods=["GET"]),
        ]

    # -- shared -----------------------------------------------------------------------------------

    @staticmethod
    def _headers() -> dict[str, str]:
        return {
            "x-request-id": f"req_{secrets.token_hex(16)}",
            "openai-version": "2020-10-01",
            "openai-processing-ms": "1",
        }

    async def _answer(self, request: Request, endpoint: str, render: Any) -> Response:
        arrived = time.time()  # the latency counts from here
        try:
            body = json.loads(await request.body())
        except json.JSONDecodeError:
            body = None
        status, payload, headers = await self._respond(
            endpoint, body, dict(request.headers), render, wait=True, arrived=arrived
        )
        return JSONResponse(payload, status_code=status, headers=headers)

    async def _respond(
        self,
        endpoint: str,
        body: Any,
        request_headers: dict[str, str],
        render: Any,
        *,
        wait: bool,
        arrived: float | None = None,
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """(status, JSON body, headers) of one request: what the endpoint answers, or (in a batch, ``wait`` off)
        what the batch's output line carries. A hang in a batch comes back as status 0 (the request expired)."""
        headers = self._headers()

        def error(status: int, message: str, error_type: str, code: str | None):
            return status, {"error": {"message": message, "type": error_type, "param": None, "code": code}}, headers

        if not isinstance(body, dict):
            return error(400, "We could not parse the JSON body of your request.", "invalid_request_error", None)
        fields = (self._responses_fields if endpoint == "responses" else self._chat_fields)(body)
        fake = self.admit(
            endpoint=endpoint if wait else f"batch:{endpoint}",
            headers=request_headers,
            body=body,
            received_at=arrived,
            **fields,
        )
        if not self.key_accepted(fake):
            return error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
        problem = self.schema_problem(fake)
        if problem is not None:
            return error(400, problem, "invalid_request_error", "strict_schema_required")
        refused = self.over_limit(fake) if wait else None
        reply = refused or (await self.decide_async(fake) if wait else self.decide(fake))
        if not wait:
            if reply.kind == "hang":
                return 0, {}, headers
        elif not await self.wait_async(reply, fake):
            return error(504, "fake server stopped while hanging", "server_error", None)
        if wait:
            headers.update(openai_rate_limit_headers(self.limit_state(fake)))
        if reply.kind == "rate_limited":
            if reply.retry_after_s is not None:
                headers["retry-after"] = _seconds_header(reply.retry_after_s)
                headers["retry-after-ms"] = str(int(reply.retry_after_s * 1000))
            if self.limits is None:
                headers.update({"x-ratelimit-limit-requests": "500", "x-ratelimit-remaining-requests": "0"})
            return error(
                429,
                f"Rate limit reached for requests on {fake.model}. Please try again later.",
                "requests",
                "rate_limit_exceeded",
            )
        if reply.kind == "server_error":
            message = (
                "The engine is currently overloaded, please try again later."
                if reply.status == 503
                else "The server had an error while processing your request. Sorry about that!"
            )
            return error(reply.status, message, "server_error", None)
        return 200, render(body, fake, reply, self.content_of(reply, fake)), headers

    # -- Batch API (files + batches) ---------------------------------------------------------------

    async def _upload(self, request: Request) -> Response:
        headers = self._headers()
        if not self.credential_accepted(request.headers):
            return _error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key", headers)
        form = await request.form()
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            return _error(400, "a file is required", "invalid_request_error", None, headers)
        content = await upload.read()
        file_id = self.batches.add_file(content)
        return JSONResponse(
            {
                "id": file_id,
                "object": "file",
                "bytes": len(content),
                "created_at": int(time.time()),
                "filename": upload.filename or "batch.jsonl",
                "purpose": str(form.get("purpose", "")),
                "status": "processed",
                "expires_at": None,
                "status_details": None,
            },
            headers=headers,
        )

    async def _file_content(self, request: Request) -> Response:
        content = self.batches.file(request.path_params["file_id"])
        if content is None:
            return _error(404, "No such File object", "invalid_request_error", None, self._headers())
        return Response(content, media_type="application/octet-stream", headers=self._headers())

    async def _create_batch(self, request: Request) -> Response:
        headers = self._headers()
        request_headers = dict(request.headers)
        if not self.credential_accepted(request_headers):
            return _error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key", headers)
        wait = self.batch_submission_refused(request_headers)
        if wait is not None:
            headers["retry-after"] = f"{wait:g}"
            return _error(429, "Rate limit reached for batch requests", "requests", "rate_limit_exceeded", headers)
        body = json.loads(await request.body())
        content = self.batches.file(str(body.get("input_file_id")))
        if content is None:
            return _error(400, "input_file_id is not an uploaded file", "invalid_request_error", None, headers)
        endpoint = str(body.get("endpoint", ""))
        kind = {"/v1/responses": "responses", "/v1/chat/completions": "chat.completions"}.get(endpoint)
        if kind is None:
            return _error(400, f"unsupported batch endpoint {endpoint!r}", "invalid_request_error", None, headers)
        render = self._responses_body if kind == "responses" else self._chat_body
        results: list[tuple[str, Any]] = []
        for line in content.decode().splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            status, payload, reply_headers = await self._respond(
                kind, item.get("body"), request_headers, render, wait=False
            )
            results.append(
                (
                    item["custom_id"],
                    None
                    if status == 0
                    else {
                        "ok": status == 200,
                        "status_code": status,
                        "request_id": reply_headers["x-request-id"],
                        "body": payload,
                    },
                )
            )
        batch = self.batches.add(
            "batch_", results, input_file_id=body["input_file_id"], endpoint=endpoint, metadata=body.get("metadata")
        )
        return JSONResponse(self._batch_object(batch), headers=headers)

    async def _get_batch(self, request: Request) -> Response:
        batch = self.batches.get(request.path_params["batch_id"])
        if batch is None:
            return _error(404, "No batch found with that id", "invalid_request_error", None, self._headers())
        return JSONResponse(self._batch_object(batch), headers=self._headers())

    def _batch_object(self, batch: Any) -> dict[str, Any]:
        """The Batch object; once ended, the output file (200s) and error file (the rest, expired included)."""
        counts = batch.counts()
        output_id = error_id = None
        if batch.ended:
            if "output_file_id" not in batch.meta:
                lines = [self._result_line(cid, r) for cid, r in batch.results if r is not None and r["ok"]]
                errors = [self._result_line(cid, r) for cid, r in batch.results if r is None or not r["ok"]]
                batch.meta["output_file_id"] = self.batches.add_file("".join(lines).encode()) if lines else None
                batch.meta["error_file_id"] = self.batches.add_file("".join(errors).encode()) if errors else None
            output_id, error_id = batch.meta["output_file_id"], batch.meta["error_file_id"]
        total = len(batch.results)
        return {
            "id": batch.id,
            "object": "batch",
            "endpoint": batch.meta["endpoint"],
            "errors": None,
            "input_file_id": batch.meta["input_file_id"],
            "completion_window": "24h",
            "status": "completed" if batch.ended else "in_progress",
            "output_file_id": output_id,
            "error_file_id": error_id,
            "created_at": int(batch.created_at),
            "in_progress_at": int(batch.created_at),
            "expires_at": int(batch.created_at) + 86400,
            "completed_at": int(batch.ends_at) if batch.ended else None,
            "request_counts": {
                "total": total,
                "completed": counts["succeeded"],
                "failed": counts["errored"] + counts["expired"],
            },
            "metadata": batch.meta.get("metadata"),
        }

    @staticmethod
    def _result_line(custom_id: str, result: dict[str, Any] | None) -> str:
        if result is None:
            line = {
                "id": f"batch_req_{secrets.token_hex(12)}",
                "custom_id": custom_id,
                "response": None,
                "error": {
                    "code": "batch_expired",
                    "message": "This request could not be executed before the completion window expired.",
                },
            }
        else:
            line = {
                "id": f"batch_req_{secrets.token_hex(12)}",
                "custom_id": custom_id,
                "response": {
                    "status_code": result["status_code"],
                    "request_id": result["request_id"],
                    "body": result["body"],
                },
                "error": None,
            }
        return json.dumps(line) + "\n"

    # -- Responses API ----------------------------------------------------------------------------

    async def _responses(self, request: Request) -> Response:
        return await self._answer(request, "responses", self._responses_body)

    @staticmethod
    def _responses_fields(body: dict[str, Any]) -> dict[str, Any]:
        system: list[str] = [body["instructions"]] if isinstance(body.get("instructions"), str) else []
        raw_input = body.get("input")
        if isinstance(raw_input, str):
            user = [raw_input]
        else:
            more_system, user = _split_messages(raw_input)
            system += more_system
        text_format = (body.get("text") or {}).get("format") or {}
        is_schema = text_format.get("type") == "json_schema"
        return {
            "model": str(body.get("model", "")),
            "system": "\n\n".join(system),
            "user": "\n\n".join(user),
            "schema": text_format.get("schema") if is_schema else None,
            "schema_name": text_format.get("name") if is_schema else None,
            "strict": text_format.get("strict") if is_schema else None,
            "max_output_tokens": body.get("max_output_tokens"),
            "temperature": body.get("temperature"),
        }

    @staticmethod
    def _responses_body(
        body: dict[str, Any], fake: FakeRequest, reply: FakeReply, content: RenderedContent
    ) -> dict[str, Any]:
        now = int(time.time())
        status = "incomplete" if content.truncated else "completed"
        part: dict[str, Any] = (
            {"type": "refusal", "refusal": content.refusal}
            if content.refusal is not None
            else {"type": "output_text", "text": content.text, "annotations": [], "logprobs": []}
        )
        output: list[dict[str, Any]] = []
        if body.get("reasoning") or fake.model.startswith(("gpt-5", "o1", "o3", "o4")):
            output.append({"id": f"rs_{secrets.token_hex(24)}", "type": "reasoning", "summary": []})
        output.append(
            {
                "id": f"msg_{secrets.token_hex(24)}",
                "type": "message",
                "status": status,
                "content": [part],
                "role": "assistant",
            }
        )
        return {
            "id": f"resp_{secrets.token_hex(24)}",
            "object": "response",
            "created_at": now,
            "status": status,
            "background": False,
            "completed_at": None if content.truncated else now,
            "error": None,
            "incomplete_details": {"reason": "max_output_tokens"} if content.truncated else None,
            "instructions": body.get("instructions"),
            "max_output_tokens": body.get("max_output_tokens"),
            "max_tool_calls": None,
            "model": fake.model,
            "output": output,
            "parallel_tool_calls": True,
            "previous_response_id": None,
            "prompt_cache_key": None,
            "reasoning": {"effort": (body.get("reasoning") or {}).get("effort"), "summary": None},
            "safety_identifier": None,
            "service_tier": "default",
            "store": body.get("store", True),
            "temperature": body.get("temperature", 1.0),
            "text": {
                "format": (body.get("text") or {}).get("format") or {"type": "text"},
                "verbosity": "medium",
            },
            "tool_choice": "auto",
            "tools": [],
            "top_logprobs": 0,
            "top_p": body.get("top_p", 1.0),
            "truncation": "disabled",
            "usage": {
                "input_tokens": content.input_tokens,
                "input_tokens_details": {"cached_tokens": content.cached_tokens, "cache_write_tokens": 0},
                "output_tokens": content.output_tokens,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": content.input_tokens + content.output_tokens,
            },
            "user": None,
            "metadata": body.get("metadata") or {},
        }

    # -- Chat Completions -------------------------------------------------------------------------

    async def _chat_completions(self, request: Request) -> Response:
        return await self._answer(request, "chat.completions", self._chat_body)

    @staticmethod
    def _chat_fields(body: dict[str, Any]) -> dict[str, Any]:
        system, user = _split_messages(body.get("messages"))
        response_format = body.get("response_format") or {}
        json_schema = response_format.get("json_schema") or {}
        is_schema = response_format.get("type") == "json_schema"
        return {
            "model": str(body.get("model", "")),
            "system": "\n\n".join(system),
            "user": "\n\n".join(user),
            "schema": json_schema.get("schema") if is_schema else None,
            "schema_name": json_schema.get("name") if is_schema else None,
            "strict": json_schema.get("strict") if is_schema else None,
            "max_output_tokens": body.get("max_completion_tokens", body.get("max_tokens")),
            "temperature": body.get("temperature"),
        }

    @staticmethod
    def _chat_body(
        body: dict[str, Any], fake: FakeRequest, reply: FakeReply, content: RenderedContent
    ) -> dict[str, Any]:
        refused = content.refusal is not None
        return {
            "id": f"chatcmpl-{secrets.token_hex(15)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": fake.model,
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": None if refused else content.text,
                        "refusal": content.refusal,
                        "annotations": [],
                    },
                    "logprobs": None,
                    "finish_reason": "length" if content.truncated else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": content.input_tokens,
                "completion_tokens": content.output_tokens,
                "total_tokens": content.input_tokens + content.output_tokens,
                "prompt_tokens_details": {"cached_tokens": content.cached_tokens, "audio_tokens": 0},
                "completion_tokens_details": {
                    "reasoning_tokens": 0,
                    "audio_tokens": 0,
                    "accepted_prediction_tokens": 0,
                    "rejected_prediction_tokens": 0,
                },
            },
            "service_tier": "default",
            "system_fingerprint": "fp_fake",
        }

    async def _models(self, request: Request) -> Response:
        seen = sorted({r.model for r in self.requests if r.model}) or ["fake-model"]
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in seen]
        return JSONResponse({"object": "list", "data": data}, headers=self._headers())
