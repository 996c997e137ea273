"""The openai-compatible judge's structured-output modes (json_object, tools) through instructor and the real
openai SDK, against a fake host that offers only JSON mode and tool calls (it refuses a strict json_schema)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from pydantic import ValidationError

from grader.fakes import FakeReply, fake_server, sequence, valid_grades
from grader.judges import CallOutcome, JudgeSpec, make_judge

SECRET = "sk-test-structured-DO-NOT-LEAK-77"
KEY_ENV = "GRADER_FAKE_STRUCTURED_KEY"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 100}, "rationale": {"type": "string"}},
    "required": ["score", "rationale"],
    "additionalProperties": False,
}
MODES = ["json_object", "tools"]


@pytest.fixture(scope="module")
def host():
    with fake_server("openai-json-mode", hang_limit_s=5) as fake:
        yield fake


@pytest.fixture(autouse=True)
def _key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def spec(host, mode: str, **extra: Any) -> JudgeSpec:
    return JudgeSpec(
        judge_id=f"compat-{mode}",
        provider="openai-compatible",
        model="open-weights-7b",
        family="open",
        base_url=host.base_url,
        api_key_env=KEY_ENV,
        structured_output=mode,
        max_output_tokens=300,
        **{"timeout_s": 5.0, **extra},
    )


def call(host, mode: str, script=None, **extra: Any) -> CallOutcome:
    host.reset(script or valid_grades)

    async def go() -> CallOutcome:
        judge = make_judge(spec(host, mode, **extra), allow_real_api_calls=False)
        try:
            return await judge.call("You grade trading decisions.", "Grade decision 1.", SCHEMA, "judge_grade")
        finally:
            await judge.aclose()

    return asyncio.run(go())


def test_the_host_refuses_a_strict_schema_so_a_strict_judge_gets_a_request_error(host):
    outcome = call(host, "strict")
    assert not outcome.ok and outcome.error_kind == "request" and outcome.http_status == 400
    assert "json_schema" in outcome.raw_reply and not outcome.retryable
    assert host.requests[-1].body["response_format"]["type"] == "json_schema"


@pytest.mark.parametrize("mode", MODES)
def test_a_grade_comes_back_with_the_body_as_received(host, mode):
    outcome = call(host, mode)
    assert outcome.ok, outcome.error_message
    assert set(outcome.parsed) == {"score", "rationale"} and 0 <= outcome.parsed["score"] <= 100
    body = json.loads(outcome.raw_reply)
    assert body["object"] == "chat.completion" and outcome.request_id and outcome.request_id.startswith("req_")
    assert outcome.input_tokens and outcome.output_tokens and outcome.http_status == 200
    sent = host.requests[-1].body
    assert "json_schema" not in json.dumps(sent.get("response_format") or {})
    if mode == "json_object":  # JSON mode: the schema written into the system prompt, the answer the message text
        assert sent["response_format"] == {"type": "json_object"}
        assert '"rationale"' in sent["messages"][0]["content"] and "tools" not in sent
        assert json.loads(body["choices"][0]["message"]["content"]) == outcome.parsed
    else:  # tools: one forced function call whose parameters are the schema; the answer its arguments
        (tool,) = sent["tools"]
        assert tool["function"]["name"] == "judge_grade"
        assert tool["function"]["parameters"]["properties"] == SCHEMA["properties"]
        assert sent["tool_choice"]["function"]["name"] == "judge_grade"
        arguments = body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
        assert json.loads(arguments) == outcome.parsed


@pytest.mark.parametrize("mode", MODES)
def test_request_params_are_what_instructor_sends(host, mode):
    outcome = call(host, mode)
    judge = make_judge(spec(host, mode), allow_real_api_calls=False)
    params = judge.request_params("You grade trading decisions.", "Grade decision 1.", SCHEMA, "judge_grade")
    assert outcome.ok and params == host.requests[-1].body


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (FakeReply.malformed(), "format"),
        (FakeReply.truncated(), "format"),
        (FakeReply.refused(), "refused"),
        (FakeReply.ok(json.dumps(["not", "an", "object"])), "schema"),
    ],
)
def test_an_unusable_reply_is_classified_once_and_kept(host, mode, reply, kind):
    outcome = call(host, mode, sequence(reply))
    assert not outcome.ok and outcome.error_kind == kind, outcome.error_message
    assert json.loads(outcome.raw_reply)["object"] == "chat.completion"  # the body, kept although unusable
    assert len(host.requests) == 1  # re-asks off: instructor sent nothing more; the runner decides retries


@pytest.mark.parametrize("mode", MODES)
def test_provider_failures_keep_their_kinds(host, mode):
    limited = call(host, mode, sequence(FakeReply.rate_limited(2.0)))
    assert limited.error_kind == "rate_limited" and limited.retry_after_s == 2.0 and limited.http_status == 429
    assert "Rate limit" in limited.raw_reply
    server = call(host, mode, sequence(FakeReply.server_error(503)))
    assert server.error_kind == "server" and server.http_status == 503
    slow = call(host, mode, sequence(FakeReply.hang()), timeout_s=0.5)
    assert slow.error_kind == "timeout" and slow.raw_reply == ""
    for outcome in (limited, server, slow):
        assert SECRET not in (outcome.raw_reply + (outcome.error_message or ""))
    assert host.requests[-1].api_key == SECRET  # the key did go out


def test_only_the_openai_compatible_judge_offers_other_modes(host):
    with pytest.raises(ValidationError, match="offers structured_output strict, not 'json_object'"):
        JudgeSpec(judge_id="o", provider="openai", model="m", family="openai", structured_output="json_object")
    with pytest.raises(ValidationError):
        spec(host, "markdown")
    assert "structured_output" not in spec(host, "strict").model_dump()  # the default leaves panel hashes alone
    assert spec(host, "tools").model_dump()["structured_output"] == "tools"
