"""Every provider judge, through its real async SDK client, against the local fake servers.

One fake per wire protocol serves the whole module (OpenAI's also serves Chat Completions for the
openai-compatible judge); each test installs its own script and reads what the fake received.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import socket
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel, ConfigDict, Field

from grader.fakes import FakeAnthropic, FakeOpenAI, FakeReply, FakeServer, FakeXai, sequence, valid_grades
from grader.judges import CallOutcome, JudgeSpec, ProviderJudge, make_judge

PROVIDERS = ["openai", "anthropic", "xai", "openai-compatible"]
SECRET = "sk-test-DO-NOT-LEAK-3f9a1c"
KEY_ENV = "GRADER_FAKE_TEST_KEY"
SYSTEM = "You are a strict grader. Answer with JSON only."
USER = "Grade contestant Alpha's decision of 2022-01-03."
MODELS = {
    "openai": "gpt-5",
    "anthropic": "claude-sonnet-4-6",
    "xai": "grok-4",
    "openai-compatible": "qwen2.5-7b-instruct",
}
TRUNCATION_STOP = {
    "openai": "incomplete:max_output_tokens",
    "anthropic": "max_tokens",
    "xai": "REASON_MAX_LEN",
    "openai-compatible": "length",
}


class Grade(BaseModel):
    model_config = ConfigDict(extra="forbid")

    score: int = Field(ge=0, le=100)
    rationale: str


SCHEMA = Grade.model_json_schema()
T = TypeVar("T")


@dataclass
class Harness:
    """One provider's fake plus judges built on it, all run on one event loop shared by the module."""

    provider: str
    fake: FakeServer
    runner: asyncio.Runner
    judges: dict[tuple[str, float], ProviderJudge]

    def spec(self, *, timeout_s: float = 5.0, **overrides: Any) -> JudgeSpec:
        """A judge of this provider on its fake (``overrides``: other fields of the spec)."""
        endpoint = {"host": self.fake.host_port} if self.provider == "xai" else {"base_url": self.fake.base_url}
        fields: dict[str, Any] = {
            "judge_id": f"{self.provider}-under-test",
            "provider": self.provider,
            "model": MODELS[self.provider],
            "family": self.provider,
            "api_key_env": KEY_ENV,
            "timeout_s": timeout_s,
            "max_output_tokens": 300,
            **endpoint,
            **overrides,
        }
        return JudgeSpec(**fields)

    def judge(self, *, timeout_s: float = 5.0) -> ProviderJudge:
        key = (self.provider, timeout_s)
        if key not in self.judges:
            self.judges[key] = make_judge(self.spec(timeout_s=timeout_s), allow_real_api_calls=False)
        return self.judges[key]

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.runner.run(coroutine)

    def call_once_on(self, spec: JudgeSpec) -> CallOutcome:
        """One call of a judge built on ``spec`` for this test alone, closed after it."""
        judge = make_judge(spec, allow_real_api_calls=False)

        async def run() -> CallOutcome:
            try:
                return await judge.call(SYSTEM, USER, SCHEMA, "Grade")
            finally:
                await judge.aclose()

        return self.run(run())

    def call(self, *, timeout_s: float = 5.0, times: int = 1) -> list[CallOutcome]:
        judge = self.judge(timeout_s=timeout_s)

        async def run() -> list[CallOutcome]:
            return [await judge.call(SYSTEM, USER, SCHEMA, "Grade") for _ in range(times)]

        return self.run(run())

    def call_once(self, script: Callable[..., FakeReply] | FakeReply, **options: Any) -> CallOutcome:
        self.fake.reset(script=script if callable(script) else (lambda request: script))
        (outcome,) = self.call(**options)
        return outcome


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeServer]]:
    with FakeOpenAI() as openai_fake, FakeAnthropic() as anthropic_fake, FakeXai() as xai_fake:
        yield {
            "openai": openai_fake,
            "anthropic": anthropic_fake,
            "xai": xai_fake,
            "openai-compatible": openai_fake,
        }


@pytest.fixture(scope="module")
def loop_and_judges() -> Iterator[tuple[asyncio.Runner, dict[tuple[str, float], ProviderJudge]]]:
    """One event loop for the module, so each judge's SDK client is built once and reused."""
    judges: dict[tuple[str, float], ProviderJudge] = {}
    with asyncio.Runner() as runner:
        yield runner, judges

        async def close_all() -> None:
            for judge in judges.values():
                await judge.aclose()

        runner.run(close_all())


@pytest.fixture(params=PROVIDERS)
def harness(
    request: pytest.FixtureRequest,
    fakes: dict[str, FakeServer],
    loop_and_judges: tuple[asyncio.Runner, dict[tuple[str, float], ProviderJudge]],
    monkeypatch: pytest.MonkeyPatch,
) -> Harness:
    monkeypatch.setenv(KEY_ENV, SECRET)
    fake = fakes[request.param]
    fake.reset(script=valid_grades)
    fake.require_api_key = None
    runner, judges = loop_and_judges
    return Harness(request.param, fake, runner, judges)


def assert_no_secret(outcome: CallOutcome) -> None:
    assert SECRET not in repr(outcome)
    assert SECRET not in outcome.raw_reply


def test_valid_grade_round_trip(harness: Harness) -> None:
    grade = {"score": 73, "rationale": "Momentum thesis checked against the snapshot."}
    outcome = harness.call_once(FakeReply.ok(grade, input_tokens=1200, output_tokens=45))

    assert outcome.ok and outcome.error_kind is None and outcome.error_message is None
    assert outcome.parsed == grade
    assert Grade.model_validate(outcome.parsed).score == 73
    assert (outcome.input_tokens, outcome.output_tokens) == (1200, 45)
    assert outcome.request_id
    assert outcome.latency_s > 0
    assert "Momentum thesis checked against the snapshot." in outcome.raw_reply
    json.loads(outcome.raw_reply)  # the whole raw body (gRPC: the message as JSON) is kept
    (received,) = harness.fake.requests
    assert (received.model, received.system, received.user, received.attempt) == (
        MODELS[harness.provider],
        SYSTEM,
        USER,
        1,
    )
    assert received.max_output_tokens == 300
    assert_no_secret(outcome)


def test_request_carries_the_strict_schema(harness: Harness) -> None:
    harness.call_once(FakeReply.ok())
    (received,) = harness.fake.requests
    body = received.body
    if harness.provider == "openai":
        text_format = body["text"]["format"]
        assert text_format["type"] == "json_schema"
        assert text_format["strict"] is True
        assert text_format["name"] == "Grade"
        assert text_format["schema"] == SCHEMA
    elif harness.provider == "openai-compatible":
        response_format = body["response_format"]
        assert response_format["type"] == "json_schema"
        assert response_format["json_schema"]["strict"] is True
        assert response_format["json_schema"]["schema"] == SCHEMA
    elif harness.provider == "anthropic":
        output_format = body["output_config"]["format"]
        assert output_format["type"] == "json_schema"
        assert output_format["schema"]["additionalProperties"] is False
        assert output_format["schema"]["required"] == ["score", "rationale"]
        assert set(output_format["schema"]["properties"]) == {"score", "rationale"}
    else:
        assert body["response_format"]["format_type"] == "FORMAT_TYPE_JSON_SCHEMA"
        assert json.loads(body["response_format"]["schema"]) == SCHEMA
    assert received.schema is not None and received.schema["required"] == ["score", "rationale"]


def test_request_params_are_exactly_what_was_sent(harness: Harness) -> None:
    harness.call_once(FakeReply.ok())
    (received,) = harness.fake.requests
    params = harness.judge().request_params(SYSTEM, USER, SCHEMA, "Grade")
    assert dict(received.body) == params
    assert SECRET not in json.dumps(params)


def test_malformed_json_is_a_format_failure_with_the_raw_reply_kept(harness: Harness) -> None:
    garbage = 'Sure! {"score": 61,, "rationale": }'
    outcome = harness.call_once(FakeReply.malformed(garbage))

    assert not outcome.ok and outcome.error_kind == "format"
    assert outcome.parsed is None
    assert outcome.retryable
    assert json.dumps(garbage)[1:-1] in outcome.raw_reply  # the invalid text, as JSON-escaped in the body
    assert outcome.input_tokens is not None


def test_truncated_output_is_a_format_failure(harness: Harness) -> None:
    outcome = harness.call_once(FakeReply.truncated({"score": 12, "rationale": "cut " * 40}))

    assert outcome.error_kind == "format" and outcome.parsed is None
    assert outcome.stop_reason == TRUNCATION_STOP[harness.provider]
    assert outcome.raw_reply


def test_non_object_json_is_a_schema_failure(harness: Harness) -> None:
    outcome = harness.call_once(FakeReply.ok("[1, 2, 3]"))
    assert outcome.error_kind == "schema" and outcome.parsed is None


def test_rate_limit_is_reported_with_retry_after_and_not_retried_by_the_sdk(harness: Harness) -> None:
    outcome = harness.call_once(FakeReply.rate_limited(7))

    assert outcome.error_kind == "rate_limited"
    assert outcome.retry_after_s == 7.0
    assert outcome.http_status == (None if harness.provider == "xai" else 429)
    assert outcome.raw_reply
    assert len(harness.fake.requests) == 1  # SDK retries are off: the orchestrator sees every attempt
    assert_no_secret(outcome)


@pytest.mark.parametrize("status", [500, 503])
def test_server_errors_are_reported_once(harness: Harness, status: int) -> None:
    outcome = harness.call_once(FakeReply.server_error(status))

    assert outcome.error_kind == "server" and outcome.retryable
    assert outcome.http_status == (None if harness.provider == "xai" else status)
    assert outcome.raw_reply
    assert len(harness.fake.requests) == 1  # includes gRPC UNAVAILABLE: the SDK's retry policy is off


@pytest.mark.parametrize("reply", [FakeReply.slow(4.0), FakeReply.hang()], ids=["slow", "hang"])
def test_a_reply_slower_than_the_timeout_is_a_timeout(harness: Harness, reply: FakeReply) -> None:
    outcome = harness.call_once(reply, timeout_s=1.0)

    assert outcome.error_kind == "timeout" and outcome.retryable
    assert outcome.raw_reply == ""
    assert 0.9 < outcome.latency_s < 3.5
    # never retried by the SDK (on a loaded machine the client may give up before the fake has read the request)
    assert len(harness.fake.requests) <= 1


def test_a_refusal_is_not_a_grade(harness: Harness) -> None:
    outcome = harness.call_once(FakeReply.refused("I won't grade this."))

    assert not outcome.ok and outcome.parsed is None
    # xAI's Chat API has no refusal field: a refusal arrives as plain (non-JSON) text
    assert outcome.error_kind == ("format" if harness.provider == "xai" else "refused")
    assert not outcome.retryable or harness.provider == "xai"


def test_a_rejected_key_is_an_auth_failure(harness: Harness) -> None:
    harness.fake.require_api_key = "another-key"
    try:
        outcome = harness.call_once(FakeReply.ok())
    finally:
        harness.fake.require_api_key = None
    assert outcome.error_kind == "auth" and not outcome.retryable
    assert outcome.http_status == (None if harness.provider == "xai" else 401)


def test_the_key_arrives_but_is_never_logged_or_returned(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    harness.fake.reset(script=sequence(FakeReply.rate_limited(1), FakeReply.malformed(), FakeReply.server_error(503)))
    outcomes = harness.call(times=4)

    assert [o.error_kind for o in outcomes] == ["rate_limited", "format", "server", None]
    assert {r.api_key for r in harness.fake.requests} == {SECRET}
    assert [r.attempt for r in harness.fake.requests] == [1, 2, 3, 4]
    for outcome in outcomes:
        assert_no_secret(outcome)
        assert SECRET not in (outcome.error_message or "")
    assert SECRET not in caplog.text
    assert SECRET not in repr(harness.fake.requests)


def test_an_unreachable_server_is_a_transport_failure(harness: Harness) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    endpoint = f"127.0.0.1:{closed_port}"
    live_spec = harness.judge().spec
    if harness.provider == "xai":
        spec = live_spec.model_copy(update={"host": endpoint})
    else:
        path = "" if harness.provider == "anthropic" else "/v1"
        spec = live_spec.model_copy(update={"base_url": f"http://{endpoint}{path}"})
    outcome = harness.call_once_on(spec)
    assert outcome.error_kind == "transport" and outcome.retryable
    assert outcome.raw_reply == ""


def test_concurrent_calls_share_one_client(harness: Harness) -> None:
    harness.fake.latency_s = 0.15
    judge = harness.judge()

    async def run() -> list[CallOutcome]:
        return await asyncio.gather(*(judge.call(SYSTEM, f"{USER} #{i}", SCHEMA, "Grade") for i in range(8)))

    try:
        outcomes = harness.run(run())
    finally:
        harness.fake.latency_s = 0.0
    assert all(o.ok for o in outcomes)
    assert sorted(r.user for r in harness.fake.requests) == sorted(f"{USER} #{i}" for i in range(8))
    # they overlapped instead of queueing: queued calls reach the fake at least one latency (0.15 s) apart, whatever
    # the machine's load; overlapping ones arrive while an earlier one is still being answered
    arrivals = sorted(r.received_at for r in harness.fake.requests)
    overlapping = sum(b - a < 0.15 for a, b in itertools.pairwise(arrivals))
    assert overlapping >= 4, arrivals


LONG_SYSTEM = SYSTEM + " Rubric: " + "grade every claim against the snapshot. " * 200  # > 1,024 tokens


def test_the_shared_instructions_are_cached_and_counted(harness: Harness) -> None:
    """The second call with the same instructions reads them from the provider's cache: the request asks for it
    (Anthropic's breakpoint, OpenAI's prompt_cache_key; xAI caches by itself) and the outcome counts the cached
    (and, for Anthropic, written) tokens inside its input tokens."""
    judge = harness.judge()
    harness.fake.reset(script=valid_grades)

    async def twice() -> list[CallOutcome]:
        return [await judge.call(LONG_SYSTEM, USER + str(k), SCHEMA, "Grade") for k in range(2)]

    first, second = harness.run(twice())
    assert first.ok and second.ok
    prefix = len(LONG_SYSTEM) // 4
    assert second.cached_input_tokens == prefix
    assert not first.cached_input_tokens
    assert second.input_tokens >= prefix + len(USER) // 4  # cached tokens are part of the input
    body = harness.fake.requests[0].body
    if harness.provider == "anthropic":
        assert first.cache_write_tokens == prefix and second.cache_write_tokens == 0
        assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    if harness.provider == "openai":
        assert body["prompt_cache_key"].startswith("grader-") and SYSTEM not in body["prompt_cache_key"]


def test_cached_and_written_tokens_are_priced_apart() -> None:
    from grader.judges import Pricing

    p = Pricing(input_per_mtok=3.0, cached_input_per_mtok=0.3, cache_write_per_mtok=3.75, output_per_mtok=15.0)
    # 10,000 input of which 6,000 read from the cache and 1,000 written; 2,000 output
    assert p.cost_usd(10_000, 2_000, 6_000, 1_000) == pytest.approx(
        (3_000 * 3 + 6_000 * 0.3 + 1_000 * 3.75 + 2_000 * 15) / 1e6
    )
    plain = Pricing(input_per_mtok=1.0, output_per_mtok=2.0)  # no cache price known: no discount invented
    assert plain.cost_usd(10_000, 0, 6_000, 0) == pytest.approx(0.01)


def test_batch_calls_are_priced_at_the_batch_factor() -> None:
    from grader.judges import Pricing

    p = Pricing(input_per_mtok=2.0, cached_input_per_mtok=0.2, output_per_mtok=10.0, batch_factor=0.5)
    assert p.cost_usd(1_000, 100, 400, batch=True) == pytest.approx(0.5 * p.cost_usd(1_000, 100, 400))
    assert Pricing(input_per_mtok=2.0, output_per_mtok=10.0).cost_usd(1_000, 100, batch=True) == pytest.approx(
        (2_000 + 1_000) / 1e6
    )  # no batch price known: no discount invented


def test_anthropic_gets_a_second_breakpoint_after_the_shared_part_of_the_record() -> None:
    """Records of the same rounds share their first characters (season header, round briefings): the user message
    goes as two text blocks, a breakpoint after the first, so a later record reads instructions and shared part from
    the cache; the model reads the same text (the blocks concatenate to the prompt)."""
    from grader.fakes import FakeAnthropic

    shared = "# Season record\n" + "round briefing table row | value | source\n" * 300  # > 1,024 tokens
    with FakeAnthropic() as fake:
        spec = JudgeSpec(judge_id="c", provider="anthropic", model="m", family="anthropic", base_url=fake.base_url)
        judge = make_judge(spec, allow_real_api_calls=False)

        async def calls() -> list[CallOutcome]:
            try:
                return [
                    await judge.call(
                        LONG_SYSTEM,
                        shared + f"Contestant: A{k}\nown record {k}",
                        SCHEMA,
                        "Grade",
                        cache_prefix_chars=len(shared),
                    )
                    for k in range(2)
                ]
            finally:
                await judge.aclose()

        first, second = asyncio.run(calls())
        blocks = fake.requests[0].body["messages"][0]["content"]
        assert [b.get("cache_control") for b in blocks] == [{"type": "ephemeral"}, None]
        assert "".join(b["text"] for b in blocks) == shared + "Contestant: A0\nown record 0"
        assert fake.requests[0].user == shared + "Contestant: A0\nown record 0"
        system_tokens, prefix_tokens = len(LONG_SYSTEM) // 4, (len(LONG_SYSTEM) + len(shared)) // 4
        assert first.cache_write_tokens == pytest.approx(prefix_tokens, abs=1) and not first.cached_input_tokens
        assert second.cached_input_tokens == pytest.approx(prefix_tokens, abs=1) and not second.cache_write_tokens
        assert second.cached_input_tokens > system_tokens


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_the_sample_a_judge_reads_ahead_has_every_field_of_a_real_reply(
    provider: str, fakes: dict[str, FakeServer]
) -> None:
    """``prepare_replies`` reads a sample body so the SDK builds its validators before the first real reply: the
    sample must be a valid reply for the installed SDK and carry every field a reply carries (the fakes mirror
    the APIs' replies), or the first real reply still builds the missing parts."""
    from anthropic.types import Message
    from openai.types.responses import Response

    from grader.judges.anthropic import SAMPLE_MESSAGE
    from grader.judges.openai import SAMPLE_RESPONSE

    sample, model = (SAMPLE_RESPONSE, Response) if provider == "openai" else (SAMPLE_MESSAGE, Message)
    assert model.model_validate(sample)  # what the SDK reads is a well-formed reply
    fake = fakes[provider]
    fake.reset(script=valid_grades)
    spec = JudgeSpec(
        judge_id="j",
        provider=provider,
        model=MODELS[provider],
        family=provider,  # type: ignore[arg-type]
        base_url=fake.base_url,
        timeout_s=5.0,
    )
    judge = make_judge(spec, allow_real_api_calls=False)

    async def one_reply() -> dict:
        try:
            return json.loads((await judge.call(SYSTEM, USER, SCHEMA, "Grade")).raw_reply)
        finally:
            await judge.aclose()

    reply = asyncio.run(one_reply())
    assert set(reply) <= set(sample), f"fields a reply has and the sample lacks: {set(reply) - set(sample)}"
    assert set(reply["usage"]) <= set(sample["usage"])
    judge.prepare_replies()  # and reading it ahead raises nothing


def test_a_judge_with_a_temperature_sends_it_and_gets_its_grade(harness: Harness) -> None:
    """A panel file may set a judge's temperature: the call goes through the real SDK (whose signature may not
    name it) and the body carries it."""
    harness.fake.reset(script=lambda request: FakeReply.ok({"score": 61, "rationale": "ok"}))
    outcome = harness.call_once_on(harness.spec(judge_id=f"{harness.provider}-warm", temperature=0.2))
    assert outcome.ok, outcome.error_message
    (received,) = harness.fake.requests
    assert received.body.get("temperature") == pytest.approx(0.2)
