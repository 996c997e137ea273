"""Fake Anthropic: POST /v1/messages in the Messages API shape.

Structured output arrives either as `output_config.format` (what `messages.parse(output_format=...)`
sends; the answer is a text block holding the JSON) or as a forced tool (`tools` + `tool_choice`
{"type": "tool"}; the answer is a tool_use block), so both ways of asking for JSON are served.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ._script import FakeRequest
from ._server import HttpFakeServer, RenderedContent


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(block.get("text", ""))
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
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


class FakeAnthropic(HttpFakeServer):
    """POST /v1/messages. `base_url` is the server root (the SDK appends /v1/messages)."""

    provider = "anthropic"

    @property
    def base_url(self) -> str:
        return f"http://{self.host_port}"

    def routes(self) -> list[BaseRoute]:
        return [Route("/v1/messages", self._messages, methods=["POST"])]

    def cache_eligible(self, request: FakeRequest) -> bool:
        """Anthropic caches only up to an explicit breakpoint: a system block carrying ``cache_control``."""
        system = request.body.get("system")
        return isinstance(system, list) and any(isinstance(b, dict) and b.get("cache_control") for b in system)

    @staticmethod
    def _error(status: int, error_type: str, message: str, headers: dict[str, str]) -> Response:
        body = {
            "type": "error",
            "error": {"type": error_type, "message": message},
            "request_id": headers["request-id"],
        }
        return JSONResponse(body, status_code=status, headers=headers)

    async def _messages(self, request: Request) -> Response:
        headers = {"request-id": f"req_{secrets.token_hex(12)}"}
        try:
            body = json.loads(await request.body())
        except json.JSONDecodeError:
            body = None
        if not isinstance(body, dict):
            return self._error(400, "invalid_request_error", "the request body is not a JSON object", headers)
        tool = _forced_tool(body)
        output_format = (body.get("output_config") or {}).get("format") or {}
        if output_format.get("type") == "json_schema":
            schema, schema_name = output_format.get("schema"), None
        elif tool is not None:
            schema, schema_name = tool.get("input_schema"), tool.get("name")
        else:
            schema, schema_name = None, None
        messages = body.get("messages") if isinstance(body.get("messages"), list) else []
        fake = self.admit(
            endpoint="messages",
            model=str(body.get("model", "")),
            system=_text_of(body.get("system")),
            user="\n\n".join(
                _text_of(m.get("content"))
                for m in messages
                if isinstance(m, dict) and m.get("role") == "user"
            ),
            schema=schema,
            schema_name=schema_name,
            strict=None,
            max_output_tokens=body.get("max_tokens"),
            temperature=body.get("temperature"),
            headers=dict(request.headers),
            body=body,
        )
        if not self.key_accepted(fake):
            return self._error(401, "authentication_error", "invalid x-api-key", headers)
        problem = self.schema_problem(fake)
        if problem is not None:
            return self._error(400, "invalid_request_error", problem, headers)
        reply = self.decide(fake)
        if not await self.wait_async(reply):
            return self._error(504, "timeout_error", "fake server stopped while hanging", headers)
        if reply.kind == "rate_limited":
            if reply.retry_after_s is not None:
                headers["retry-after"] = (
                    str(int(reply.retry_after_s))
                    if float(reply.retry_after_s).is_integer()
                    else f"{reply.retry_after_s:g}"
                )
            headers["anthropic-ratelimit-requests-remaining"] = "0"
            return self._error(429, "rate_limit_error", "This request would exceed your rate limit.", headers)
        if reply.kind == "server_error":
            if reply.status == 529:
                return self._error(529, "overloaded_error", "Overloaded", headers)
            return self._error(reply.status, "api_error", "Internal server error", headers)
        return JSONResponse(self._message_body(fake, self.content_of(reply, fake), tool), headers=headers)

    @staticmethod
    def _message_body(
        fake: FakeRequest, content: RenderedContent, tool: dict[str, Any] | None
    ) -> dict[str, Any]:
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
