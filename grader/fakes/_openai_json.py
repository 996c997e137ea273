"""A fake OpenAI-compatible host that offers only JSON mode (and tool calls), never a strict JSON schema.

Stands in for the open-weight servers and hosted open models whose Chat Completions accept
``response_format: {"type": "json_object"}`` or ``tools`` but refuse ``{"type": "json_schema"}`` (400, as such
hosts answer). A request must ask for JSON one of those two ways; the schema the answer follows is the one the
request carries: a tool's ``parameters`` (tool calls), or the JSON schema written into the messages (JSON mode: the
model reads it from its prompt, as instructor puts it there). The reply of a tool request is a tool call whose
arguments are the JSON text.
"""

from __future__ import annotations

import json
from typing import Any

from ._openai import FakeOpenAI, _split_messages
from ._script import FakeReply, FakeRequest
from ._server import RenderedContent

__all__ = ["FakeJsonModeOpenAI", "schema_in_text"]

_SCHEMA_MARKERS = ("json_schema:", "JSON schema:", "json schema:")


def schema_in_text(text: str) -> dict[str, Any] | None:
    """The JSON schema a prompt spells out (the first JSON object after a 'json_schema:' marker), if any."""
    decoder = json.JSONDecoder()
    for marker in _SCHEMA_MARKERS:
        at = text.rfind(marker)
        start = text.find("{", at) if at >= 0 else -1
        if start < 0:
            continue
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


class FakeJsonModeOpenAI(FakeOpenAI):
    """Chat Completions in JSON mode or with tools only: a strict ``json_schema`` response format is refused."""

    def schema_problem(self, request: FakeRequest) -> str | None:
        body = request.body
        response_format = body.get("response_format") or {}
        if response_format.get("type") == "json_schema":
            return (
                "response_format type 'json_schema' is not supported by this server: use "
                "{'type': 'json_object'} (JSON mode) or tools"
            )
        if response_format.get("type") != "json_object" and not body.get("tools"):
            return "this fake JSON-mode server answers only JSON mode (response_format json_object) or tool calls"
        if request.schema is None:
            return "no JSON schema in the request: neither a tool's parameters nor one spelled out in the messages"
        return None

    @staticmethod
    def _chat_fields(body: dict[str, Any]) -> dict[str, Any]:
        fields = FakeOpenAI._chat_fields(body)
        tools = body.get("tools") or []
        function = (tools[0].get("function") or {}) if tools and isinstance(tools[0], dict) else {}
        if function:
            fields.update(schema=function.get("parameters"), schema_name=function.get("name"), strict=None)
        elif (body.get("response_format") or {}).get("type") == "json_object":
            system, user = _split_messages(body.get("messages"))
            fields.update(schema=schema_in_text("\n\n".join(system + user)), schema_name=None, strict=None)
        return fields

    @staticmethod
    def _chat_body(
        body: dict[str, Any], fake: FakeRequest, reply: FakeReply, content: RenderedContent
    ) -> dict[str, Any]:
        out = FakeOpenAI._chat_body(body, fake, reply, content)
        tools = body.get("tools") or []
        message = out["choices"][0]["message"]
        if tools and content.refusal is None:
            name = (tools[0].get("function") or {}).get("name", "answer")
            message.update(
                content=None,
                tool_calls=[
                    {
                        "id": f"call_{out['id'][-12:]}",
                        "type": "function",
                        "function": {"name": name, "arguments": content.text},
                    }
                ],
            )
            if not content.truncated:
                out["choices"][0]["finish_reason"] = "tool_calls"
        return out
