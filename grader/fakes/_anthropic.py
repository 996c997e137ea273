"""Fake Anthropic: POST /v1/messages in the Messages API shape.

Structured output arrives either as `output_config.format` (what `messages.parse(output_format=...)`
sends; the answer is a text block holding the JSON) or as a forced tool (`tools` + `tool_choice`
{"type": "tool"}; the answer is a tool_use block), so both ways of asking for JSON are served.
"""

from __future__ import annotations

import json
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ._limits import WindowState
from ._script import FakeRequest
from ._server import HttpFakeServer, RenderedContent


def _text_of(content: Any) -> str:
    """A content's text; consecutive text blocks read as one text (nothing added between them)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(block.get("text", "")) for block in content if isinstance(block, dict) and block.get("type") == "text"
        )
    return ""


def _forced_tool(body: dict[str, Any]) -> dict[str, Any] | None:
    choice = body.get("tool_choice") or {}
    if choice.get("type") != "tool":
        return None
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and tool.get("name") == choice.get("name"):
            return tool
    return None


def anthropic_rate_limit_headers(state: dict[str, WindowState]) -> dict[str, str]:
    """Anthropic's ``anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}``
    (resets as RFC 3339 times)."""
    headers: dict[str, str] = {}
    now = time.time()
    for kind, window in state.items():
        name = kind.replace("_", "-")
        reset = datetime.fromtimestamp(now + window.reset_s, UTC).isoformat(timespec="milliseconds")
        headers[f"anthropic-ratelimit-{name}-limit"] = str(window.limit)
        headers[f"anthropic-ratelimit-{name}-remaining"] = str(window.remaining)
        headers[f"anthropic-ratelimit-{name}-reset"] = reset.replace("+00:00", "Z")
    return headers


class FakeAnthropic(HttpFakeServer):
    """POST /v1/messages, and the Message Batches API (create, retrieve, results). `base_url` is the server root
    (the SDK appends /v1/messages)."""

    provider = "anthropic"

    @property
    def base_url(self) -> str:
        return f"http://{self.host_port}"

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/v1/messages", self._messages, methods=["POST"]),
            Route("/v1/messages/batches", self._create_batch, methods=["POST"]),
            Route("/v1/messages/batches/{batch_id}", self._get_batch, methods=["GET"]),
            Route("/v1/messages/batches/{batch_id}/results", self._batch_results, methods=["GET"]),
        ]

    def cache_eligible(self, request: FakeRequest) -> bool:
        """Anthropic caches only up to an explicit breakpoint: a system block carrying ``cache_control``."""
        system = request.body.get("system")
        return isinstance(system, list) and any(isinstance(b, dict) and b.get("cache_control") for b in system)

    def cache_prefixes(self, request: FakeRequest) -> list[str]:
        """One per breakpoint: the system prompt, then the system prompt with the user's text blocks up to each one
        carrying ``cache_control``."""
        prefixes = [request.system]
        messages = request.body.get("messages") or []
        content = messages[0].get("content") if messages and isinstance(messages[0], dict) else None
        if isinstance(content, list):
            for i, block in enumerate(content):
                if isinstance(block, dict) and block.get("cache_control"):
                    prefixes.append(request.system + "\0" + _text_of(content[: i + 1]))
        return prefixes

    @staticmethod
    def _error(status: int, error_type: str, message: str, headers: dict[str, str]) -> Response:
        body = {
            "type": "error",
            "error": {"type": error_type, "message": message},
            "request_id": headers["request-id"],
        }
        return JSONResponse(body, status_code=status, headers=headers)

    async def _messages(self, request: Request) -> Response:
        arrived = time.time()  # the latency counts from here
        try:
            body = json.loads(await request.body())
        except json.JSONDecodeError:
            body = None
        status, payload, headers = await self._respond(body, dict(request.headers), wait=True, arrived=arrived)
        return JSONResponse(payload, status_code=status, headers=headers)

    async def _respond(
        self, body: Any, request_headers: dict[str, str], *, wait: bool, arrived: float | None = None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """(status, JSON body, headers) of one Messages request; in a batch (``wait`` off) a hang is status 0
        (the request expired)."""
        headers = {"request-id": f"req_{secrets.token_hex(12)}"}

        def error(status: int, error_type: str, message: str):
            return (
                status,
                {
                    "type": "error",
                    "error": {"type": error_type, "message": message},
                    "request_id": headers["request-id"],
                },
                headers,
            )

        if not isinstance(body, dict):
            return error(400, "invalid_request_error", "the request body is not a JSON object")
        tool = _forced_tool(body)
        output_format = (body.get("output_config") or {}).get("format") or {}
        if output_format.get("type") == "json_schema":
            schema, schema_name = output_format.get("schema"), None
        elif tool is not None:
            schema, schema_name = tool.get("input_schema"), tool.get("name")
        else:
            schema, schema_name = None, None
        given_messages = body.get("messages")
        messages = given_messages if isinstance(given_messages, list) else []
        fake = self.admit(
            received_at=arrived,
            endpoint="messages" if wait else "batch:messages",
            model=str(body.get("model", "")),
            system=_text_of(body.get("system")),
            user="\n\n".join(
                _text_of(m.get("content")) for m in messages if isinstance(m, dict) and m.get("role") == "user"
            ),
            schema=schema,
            schema_name=schema_name,
            strict=None,
            max_output_tokens=body.get("max_tokens"),
            temperature=body.get("temperature"),
            headers=request_headers,
            body=body,
        )
        if not self.key_accepted(fake):
            return error(401, "authentication_error", "invalid x-api-key")
        problem = self.schema_problem(fake)
        if problem is not None:
            return error(400, "invalid_request_error", problem)
        refused = self.over_limit(fake) if wait else None
        reply = refused or (await self.decide_async(fake) if wait else self.decide(fake))
        if not wait:
            if reply.kind == "hang":
                return 0, {}, headers
        elif not await self.wait_async(reply, fake):
            return error(504, "timeout_error", "fake server stopped while hanging")
        if wait:
            headers.update(anthropic_rate_limit_headers(self.limit_state(fake)))
        if reply.kind == "rate_limited":
            if reply.retry_after_s is not None:
                headers["retry-after"] = (
                    str(int(reply.retry_after_s))
                    if float(reply.retry_after_s).is_integer()
                    else f"{reply.retry_after_s:g}"
                )
            headers.setdefault("anthropic-ratelimit-requests-remaining", "0")
            return error(429, "rate_limit_error", "This request would exceed your rate limit.")
        if reply.kind == "server_error":
            if reply.status == 529:
                return error(529, "overloaded_error", "Overloaded")
            return error(reply.status, "api_error", "Internal server error")
        return 200, self._message_body(fake, self.content_of(reply, fake), tool), headers

    # -- Message Batches API -----------------------------------------------------------------------

    async def _create_batch(self, request: Request) -> Response:
        headers = {"request-id": f"req_{secrets.token_hex(12)}"}
        request_headers = dict(request.headers)
        if not self.credential_accepted(request_headers):
            return self._error(401, "authentication_error", "invalid x-api-key", headers)
        wait = self.batch_submission_refused(request_headers)
        if wait is not None:
            headers["retry-after"] = f"{wait:g}"
            return self._error(429, "rate_limit_error", "This request would exceed your rate limit.", headers)
        body = json.loads(await request.body())
        results: list[tuple[str, Any]] = []
        for item in body.get("requests") or []:
            status, payload, _ = await self._respond(item.get("params"), request_headers, wait=False)
            if status == 0:
                results.append((item["custom_id"], None))
            elif status == 200:
                results.append((item["custom_id"], {"ok": True, "type": "succeeded", "message": payload}))
            else:
                results.append((item["custom_id"], {"ok": False, "type": "errored", "error": payload}))
        batch = self.batches.add("msgbatch_", results)
        return JSONResponse(self._batch_object(batch), headers=headers)

    async def _get_batch(self, request: Request) -> Response:
        headers = {"request-id": f"req_{secrets.token_hex(12)}"}
        batch = self.batches.get(request.path_params["batch_id"])
        if batch is None:
            return self._error(404, "not_found_error", "batch not found", headers)
        return JSONResponse(self._batch_object(batch), headers=headers)

    async def _batch_results(self, request: Request) -> Response:
        headers = {"request-id": f"req_{secrets.token_hex(12)}"}
        batch = self.batches.get(request.path_params["batch_id"])
        if batch is None or not batch.ended:
            return self._error(404, "not_found_error", "no results for this batch (yet)", headers)
        lines = []
        for custom_id, result in batch.results:
            if result is None:
                line = {"custom_id": custom_id, "result": {"type": "expired"}}
            elif result["ok"]:
                line = {"custom_id": custom_id, "result": {"type": "succeeded", "message": result["message"]}}
            else:
                line = {"custom_id": custom_id, "result": {"type": "errored", "error": result["error"]}}
            lines.append(json.dumps(line) + "\n")
        return Response("".join(lines), media_type="application/binary", headers=headers)

    def _batch_object(self, batch: Any) -> dict[str, Any]:
        counts = batch.counts()
        iso = lambda t: datetime.fromtimestamp(t, UTC).isoformat().replace("+00:00", "Z")  # noqa: E731
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": "ended" if batch.ended else "in_progress",
            "request_counts": {
                "processing": counts["processing"],
                "succeeded": counts["succeeded"],
                "errored": counts["errored"],
                "canceled": 0,
                "expired": counts["expired"],
            },
            "created_at": iso(batch.created_at),
            "expires_at": iso(batch.created_at + 86400),
            "ended_at": iso(batch.ends_at) if batch.ended else None,
            "cancel_initiated_at": None,
            "archived_at": None,
            "results_url": f"{self.base_url}/v1/messages/batches/{batch.id}/results" if batch.ended else None,
        }

    @staticmethod
    def _message_body(fake: FakeRequest, content: RenderedContent, tool: dict[str, Any] | None) -> dict[str, Any]:
        stop_details = None
        if content.refusal is not None:
            blocks: list[dict[str, Any]] = [{"type": "text", "text": content.refusal}]
            stop_reason = "refusal"
            stop_details = {"type": "refusal", "category": None, "explanation": content.refusal}
        elif tool is not None and not content.truncated and _is_json_object(content.text):
            blocks = [
                {
                    "type": "tool_use",
                    "id": f"toolu_{secrets.token_hex(12)}",
                    "name": tool["name"],
                    "input": json.loads(content.text),
                }
            ]
            stop_reason = "tool_use"
        elif tool is not None and content.truncated:
            # a tool call cut by max_tokens arrives with whatever input was complete: none here
            blocks = [
                {
                    "type": "tool_use",
                    "id": f"toolu_{secrets.token_hex(12)}",
                    "name": tool["name"],
                    "input": {},
                }
            ]
            stop_reason = "max_tokens"
        else:
            blocks = [{"type": "text", "text": content.text}]
            stop_reason = "max_tokens" if content.truncated else "end_turn"
        return {
            "id": f"msg_{secrets.token_hex(12)}",
            "type": "message",
            "role": "assistant",
            "model": fake.model,
            "content": blocks,
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "stop_details": stop_details,
            "usage": {
                # Anthropic counts cache reads and writes apart from input_tokens
                "input_tokens": content.input_tokens - content.cached_tokens - content.cache_write_tokens,
                "output_tokens": content.output_tokens,
                "cache_creation_input_tokens": content.cache_write_tokens,
                "cache_read_input_tokens": content.cached_tokens,
                "service_tier": "standard",
            },
        }


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except json.JSONDecodeError:
        return False
