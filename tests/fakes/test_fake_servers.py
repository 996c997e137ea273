"""The fake providers speak their real wire formats: the SDKs' own structured-output helpers accept them.

Sync SDK clients here (retries off), so the fakes are checked independently of grader.judges.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Literal

import anthropic
import grpc
import openai
import pytest
import xai_sdk
from pydantic import BaseModel, ConfigDict, Field
from xai_sdk.chat import system, user

from grader.fakes import (
    FakeAnthropic,
    FakeOpenAI,
    FakeReply,
    FakeXai,
    always,
    example_from_schema,
    sequence,
    storm,
    valid_grades,
)

KEY = "sk-fake-suite-SECRET-5d1e"


class Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    field: str = Field(min_length=3)
    status: Literal["verified", "contradicted", "unverifiable"]
    value: float | None


class Axis(BaseModel):
    model_config = ConfigDict(extra="forbid")

    score: int = Field(ge=0, le=10)
    claims: list[Claim] = Field(min_length=1)


class JudgeGrade(BaseModel):
    model_config = ConfigDict(extra="forbid")

    evidence: Axis
    reasoning: Axis
    band: Literal["A", "B", "C"]
    confidence: float = Field(gt=0, lt=1)


# These fixtures also answer plain requests (no schema), to check the wire shapes of errors, refusals and
# truncations; the default fakes refuse them (test_the_default_fakes_refuse_requests_without_a_strict_schema).
@pytest.fixture(scope="module")
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(require_strict_schema=False) as fake:
        yield fake


@pytest.fixture(scope="module")
def fake_anthropic() -> Iterator[FakeAnthropic]:
    with FakeAnthropic(require_strict_schema=False) as fake:
        yield fake


@pytest.fixture(scope="module")
def fake_xai() -> Iterator[FakeXai]:
    with FakeXai(require_strict_schema=False) as fake:
        yield fake


def test_the_default_fakes_refuse_requests_without_a_strict_schema() -> None:
    """A regression that drops the schema (or OpenAI's `strict: true`) fails against the fakes the suite uses."""
    schema = JudgeGrade.model_json_schema()
    with FakeOpenAI() as fake:
        client = openai_client(fake)
        with pytest.raises(openai.BadRequestError, match="no JSON schema"):
            client.responses.create(model="gpt-5", instructions="grade", input="record")
        with pytest.raises(openai.BadRequestError, match="strict: true"):
            client.responses.create(
                model="gpt-5",
                instructions="grade",
                input="record",
                text={"format": {"type": "json_schema", "name": "JudgeGrade", "schema": schema}},
            )
        with pytest.raises(openai.BadRequestError, match="strict: true"):
            client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "record"}],
                response_format={"type": "json_schema", "json_schema": {"name": "JudgeGrade", "schema": schema}},
            )
        ok = client.responses.parse(model="gpt-5", instructions="grade", input="record", text_format=JudgeGrade)
        assert isinstance(ok.output_parsed, JudgeGrade)
    with FakeAnthropic() as fake:
        client = anthropic.Anthropic(base_url=fake.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(anthropic.BadRequestError, match="no JSON schema"):
            client.messages.create(
                model="claude-sonnet-4-5", max_tokens=100, messages=[{"role": "user", "content": "record"}]
            )
        parsed = client.messages.parse(
            model="claude-sonnet-4-5",
            max_tokens=2000,
            output_format=JudgeGrade,
            messages=[{"role": "user", "content": "record"}],
        )
        assert isinstance(parsed.parsed_output, JudgeGrade)
    with FakeXai() as fake:
        client = xai_sdk.Client(api_key=KEY, api_host=fake.host_port, use_insecure_channel=True, timeout=5)
        chat = client.chat.create(model="grok-4", messages=[user("record")])
        with pytest.raises(grpc.RpcError) as refused:
            chat.sample()
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
        _, grade = client.chat.create(model="grok-4", messages=[user("record")]).parse(JudgeGrade)
        assert isinstance(grade, JudgeGrade)


def openai_client(fake: FakeOpenAI, timeout: float = 5.0) -> openai.OpenAI:
    return openai.OpenAI(base_url=fake.base_url, api_key=KEY, max_retries=0, timeout=timeout)


def test_example_from_schema_satisfies_nested_pydantic_models() -> None:
    example = example_from_schema(JudgeGrade.model_json_schema())
    grade = JudgeGrade.model_validate(example)
    assert grade.evidence.claims[0].status == "verified"
    assert 0 < grade.confidence < 1
    assert example_from_schema(None) == {}


def test_example_from_schema_reads_bounds_the_anthropic_sdk_moved_to_descriptions() -> None:
    moved = anthropic.transform_schema(JudgeGrade.model_json_schema())
    assert "minimum" not in str(moved["$defs"]["Axis"]["properties"]["score"].get("minimum", ""))
    assert JudgeGrade.model_validate(example_from_schema(moved)).confidence == 0.5


def test_openai_responses_parse_reads_the_fake(fake_openai: FakeOpenAI) -> None:
    fake_openai.reset(valid_grades)
    response = openai_client(fake_openai).responses.parse(
        model="gpt-5", instructions="grade", input="record", text_format=JudgeGrade, max_output_tokens=500
    )
    assert isinstance(response.output_parsed, JudgeGrade)
    assert response.status == "completed" and response.usage is not None and response.usage.output_tokens > 0
    (received,) = fake_openai.requests
    assert (received.endpoint, received.system, received.user, received.schema_name) == (
        "responses",
        "grade",
        "record",
        "JudgeGrade",
    )
    assert received.strict is True


def test_openai_chat_completions_parse_reads_the_fake(fake_openai: FakeOpenAI) -> None:
    fake_openai.reset(valid_grades)
    completion = openai_client(fake_openai).chat.completions.parse(
        model="local-llama",
        messages=[{"role": "system", "content": "grade"}, {"role": "user", "content": "record"}],
        response_format=JudgeGrade,
    )
    assert isinstance(completion.choices[0].message.parsed, JudgeGrade)
    assert completion.choices[0].finish_reason == "stop"
    assert fake_openai.requests[0].endpoint == "chat.completions"


def test_openai_refusal_and_truncation_shapes(fake_openai: FakeOpenAI) -> None:
    client = openai_client(fake_openai)
    fake_openai.reset(always(FakeReply.refused("no")))
    refused = client.responses.create(model="gpt-4.1", input="x")
    assert refused.output[-1].content[0].type == "refusal"  # type: ignore[union-attr]
    fake_openai.reset(always(FakeReply.truncated('{"a": "' + "b" * 50 + '"}')))
    cut = client.responses.create(model="gpt-4.1", input="x", max_output_tokens=16)
    assert cut.status == "incomplete" and cut.incomplete_details is not None
    assert cut.incomplete_details.reason == "max_output_tokens"
    assert cut.usage is not None and cut.usage.output_tokens == 16
    with pytest.raises(openai.LengthFinishReasonError):
        client.chat.completions.parse(
            model="m", messages=[{"role": "user", "content": "x"}], response_format=JudgeGrade
        )


def test_anthropic_messages_parse_reads_the_fake(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.reset(valid_grades)
    client = anthropic.Anthropic(base_url=fake_anthropic.base_url, api_key=KEY, max_retries=0, timeout=5)
    message = client.messages.parse(
        model="claude-sonnet-4-6",
        max_tokens=800,
        system="grade",
        messages=[{"role": "user", "content": "record"}],
        output_format=JudgeGrade,
    )
    assert isinstance(message.parsed_output, JudgeGrade)
    assert message.stop_reason == "end_turn"
    (received,) = fake_anthropic.requests
    assert received.body["output_config"]["format"]["type"] == "json_schema"
    assert received.api_key == KEY  # anthropic 2.x sends it as a Bearer token


def test_anthropic_forced_tool_gets_a_tool_use_block(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.reset(always(FakeReply.ok({"score": 4})))
    client = anthropic.Anthropic(base_url=fake_anthropic.base_url, api_key=KEY, max_retries=0, timeout=5)
    tool = {
        "name": "submit_grade",
        "input_schema": {"type": "object", "properties": {"score": {"type": "integer"}}},
    }
    message = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=100,
        messages=[{"role": "user", "content": "record"}],
        tools=[tool],  # type: ignore[list-item]
        tool_choice={"type": "tool", "name": "submit_grade"},
    )
    assert message.stop_reason == "tool_use"
    block = message.content[0]
    assert block.type == "tool_use" and block.name == "submit_grade" and block.input == {"score": 4}
    assert fake_anthropic.requests[0].schema_name == "submit_grade"


def test_anthropic_errors_carry_the_real_error_envelope(fake_anthropic: FakeAnthropic) -> None:
    client = anthropic.Anthropic(base_url=fake_anthropic.base_url, api_key=KEY, max_retries=0, timeout=5)
    fake_anthropic.reset(always(FakeReply.server_error(529)))
    with pytest.raises(anthropic.InternalServerError) as overloaded:
        client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "x"}])
    assert overloaded.value.status_code == 529
    assert overloaded.value.body["error"]["type"] == "overloaded_error"  # type: ignore[index]
    fake_anthropic.reset(always(FakeReply.rate_limited(3)))
    with pytest.raises(anthropic.RateLimitError) as limited:
        client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "x"}])
    assert limited.value.response.headers["retry-after"] == "3"


def test_xai_chat_parse_reads_the_fake(fake_xai: FakeXai) -> None:
    fake_xai.reset(valid_grades)
    client = xai_sdk.Client(api_key=KEY, api_host=fake_xai.host_port, use_insecure_channel=True, timeout=5)
    chat = client.chat.create(model="grok-4", messages=[system("grade"), user("record")], max_tokens=900)
    response, grade = chat.parse(JudgeGrade)
    assert isinstance(grade, JudgeGrade)
    assert response.finish_reason == "REASON_STOP" and response.usage.completion_tokens > 0
    (received,) = fake_xai.requests
    assert (received.system, received.user, received.max_output_tokens, received.api_key) == (
        "grade",
        "record",
        900,
        KEY,
    )
    assert received.schema == JudgeGrade.model_json_schema()


def test_xai_rate_limit_is_resource_exhausted_with_retry_after(fake_xai: FakeXai) -> None:
    fake_xai.reset(always(FakeReply.rate_limited(2.5)))
    client = xai_sdk.Client(
        api_key=KEY,
        api_host=fake_xai.host_port,
        use_insecure_channel=True,
        timeout=5,
        channel_options=[("grpc.enable_retries", 0)],
    )
    with pytest.raises(grpc.RpcError) as limited:
        client.chat.create(model="grok-4", messages=[user("x")]).sample()
    assert limited.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED  # type: ignore[attr-defined]
    assert ("retry-after", "2.5") in tuple(limited.value.trailing_metadata())  # type: ignore[attr-defined]


def test_a_storm_answers_429_to_the_first_n_requests_then_recovers(fake_openai: FakeOpenAI) -> None:
    fake_openai.reset(storm(3, retry_after_s=1))
    client = openai_client(fake_openai)
    statuses = []
    for index in range(5):
        try:
            client.responses.create(model="gpt-4.1", input=f"prompt {index % 2}")
            statuses.append(200)
        except openai.RateLimitError as error:
            assert error.response.headers["retry-after"] == "1"
            statuses.append(429)
    assert statuses == [429, 429, 429, 200, 200]
    assert [r.attempt for r in fake_openai.requests] == [1, 1, 2, 2, 3]


def test_sequence_is_a_queue_per_prompt(fake_openai: FakeOpenAI) -> None:
    fake_openai.reset(sequence(FakeReply.rate_limited(1), FakeReply.server_error(503)))
    client = openai_client(fake_openai)
    outcomes = []
    for prompt in ["a", "b", "a", "b", "a"]:
        try:
            client.responses.create(model="gpt-4.1", input=prompt)
            outcomes.append((prompt, 200))
        except openai.APIStatusError as error:
            outcomes.append((prompt, error.status_code))
    assert outcomes == [("a", 429), ("b", 429), ("a", 503), ("b", 503), ("a", 200)]


def test_a_missing_or_wrong_key_is_rejected_before_the_script(fake_openai: FakeOpenAI) -> None:
    fake_openai.reset(valid_grades)
    fake_openai.require_api_key = "the-right-key"
    try:
        with pytest.raises(openai.AuthenticationError):
            openai_client(fake_openai).responses.create(model="m", input="x")
        ok = openai.OpenAI(base_url=fake_openai.base_url, api_key="the-right-key", max_retries=0)
        assert ok.responses.create(model="m", input="x").status == "completed"
    finally:
        fake_openai.require_api_key = None


def test_latency_delays_content_replies_but_not_errors(fake_anthropic: FakeAnthropic) -> None:
    client = anthropic.Anthropic(base_url=fake_anthropic.base_url, api_key=KEY, max_retries=0, timeout=5)
    fake_anthropic.latency_s = 0.3
    try:
        fake_anthropic.reset(valid_grades)
        started = time.perf_counter()
        client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "x"}])
        assert time.perf_counter() - started >= 0.3
        fake_anthropic.reset(always(FakeReply.rate_limited(1)))
        started = time.perf_counter()
        with pytest.raises(anthropic.RateLimitError):
            client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "x"}])
        assert time.perf_counter() - started < 0.3
    finally:
        fake_anthropic.latency_s = 0.0


@pytest.mark.parametrize("server_class", [FakeOpenAI, FakeXai])
def test_latency_counts_from_arrival_so_a_slow_script_is_part_of_it(
    server_class: type[FakeOpenAI] | type[FakeXai],
) -> None:
    """A script that takes 1.0 s to decide, at 1.5 s latency: the reply comes after about 1.5 s, not 2.5 s (the
    time a provider spends working is part of its latency); a script slower than the latency adds no sleep. The
    margins are wide (a busy machine adds its own delay), the two readings far apart."""

    def slow(seconds: float):
        def script(request):  # noqa: ANN001, ANN202
            time.sleep(seconds)
            return valid_grades(request)

        return script

    for think, latency, low, high in ((1.0, 1.5, 1.45, 2.2), (1.2, 0.6, 1.15, 1.65)):
        fake = server_class(script=slow(think), latency_s=latency, require_strict_schema=False).start()
        try:
            started = time.perf_counter()
            if isinstance(fake, FakeOpenAI):
                openai.OpenAI(base_url=fake.base_url, api_key=KEY, max_retries=0, timeout=5).responses.create(
                    model="m", input="x"
                )
            else:
                chat = xai_sdk.Client(
                    api_key=KEY, api_host=fake.host_port, use_insecure_channel=True, timeout=5
                ).chat.create(model="m", messages=[user("x")])
                chat.sample()
            took = time.perf_counter() - started
        finally:
            fake.stop()
        assert low <= took <= high, (server_class.__name__, think, latency, took)


@pytest.mark.parametrize("server_class", [FakeOpenAI, FakeXai])
def test_stop_releases_a_hanging_reply(server_class: type[FakeOpenAI] | type[FakeXai]) -> None:
    fake = server_class(script=always(FakeReply.hang()), require_strict_schema=False).start()
    try:
        if isinstance(fake, FakeOpenAI):
            with pytest.raises(openai.APITimeoutError):
                openai_client(fake, timeout=0.3).responses.create(model="m", input="x")
        else:
            client = xai_sdk.Client(api_key=KEY, api_host=fake.host_port, use_insecure_channel=True, timeout=0.3)
            with pytest.raises(grpc.RpcError) as hung:
                client.chat.create(model="grok", messages=[user("x")]).sample()
            assert hung.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED  # type: ignore[attr-defined]
    finally:
        started = time.perf_counter()
        fake.stop()
    assert time.perf_counter() - started < 5  # not the 600 s hang limit
    assert len(fake.requests) >= 1


def test_the_fake_never_logs_the_key(fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="grader.fakes")
    fake_openai.reset(sequence(FakeReply.rate_limited(1), then=valid_grades))
    client = openai_client(fake_openai)
    with pytest.raises(openai.RateLimitError):
        client.responses.create(model="m", input="x")
    client.responses.create(model="m", input="x")
    assert "fake openai responses model=m attempt=2 -> ok" in caplog.text
    assert KEY not in caplog.text
    assert all(r.api_key == KEY for r in fake_openai.requests)
    assert KEY not in repr(fake_openai.requests)
    assert fake_openai.requests[0].redacted_headers()["authorization"] == "[redacted]"


# -- batch endpoints (issue 18) --------------------------------------------------------------------------------


def test_openai_batch_lines_are_answered_like_requests_and_refused_without_strict() -> None:

    with FakeOpenAI() as fake:
        _check_openai_batch(fake)


def _check_openai_batch(fake_openai: FakeOpenAI) -> None:
    import json

    client = openai.OpenAI(api_key="k", base_url=fake_openai.base_url, max_retries=0)
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    }

    def line(custom_id: str, strict: bool) -> str:
        body = {
            "model": "m",
            "input": "hi",
            "text": {"format": {"type": "json_schema", "name": "g", "schema": schema, "strict": strict}},
        }
        return json.dumps({"custom_id": custom_id, "method": "POST", "url": "/v1/responses", "body": body})

    upload = client.files.create(
        file=("b.jsonl", (line("good", True) + "\n" + line("loose", False)).encode()), purpose="batch"
    )
    batch = client.batches.create(input_file_id=upload.id, endpoint="/v1/responses", completion_window="24h")
    done = client.batches.retrieve(batch.id)
    assert done.status == "completed" and done.request_counts.completed == 1 and done.request_counts.failed == 1
    good = [json.loads(x) for x in client.files.content(done.output_file_id).text.splitlines()]
    bad = [json.loads(x) for x in client.files.content(done.error_file_id).text.splitlines()]
    assert good[0]["custom_id"] == "good" and good[0]["response"]["status_code"] == 200
    assert json.loads(good[0]["response"]["body"]["output"][-1]["content"][0]["text"]) == {"a": 0}
    assert bad[0]["custom_id"] == "loose" and bad[0]["response"]["status_code"] == 400
    assert "strict" in bad[0]["response"]["body"]["error"]["message"]
    assert [r.endpoint for r in fake_openai.requests] == ["batch:responses", "batch:responses"]


def test_anthropic_and_xai_batches_stay_in_progress_until_they_end() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    with FakeAnthropic(batch_latency_s=0.3) as fake:
        client = anthropic.Anthropic(api_key="k", base_url=fake.base_url, max_retries=0)
        params = {
            "model": "m",
            "max_tokens": 50,
            "messages": [{"role": "user", "content": "hi"}],
            "output_config": {"format": {"type": "json_schema", "schema": schema}},
        }
        batch = client.messages.batches.create(requests=[{"custom_id": "one", "params": params}])
        assert batch.processing_status == "in_progress" and batch.results_url is None
        time.sleep(0.35)
        ended = client.messages.batches.retrieve(batch.id)
        assert ended.processing_status == "ended" and ended.request_counts.succeeded == 1
        results = list(client.messages.batches.results(batch.id))
        assert results[0].custom_id == "one" and results[0].result.type == "succeeded"
    with FakeXai(batch_latency_s=0.3) as fake:
        client = xai_sdk.Client(api_key="k", api_host=fake.host_port, use_insecure_channel=True, timeout=5)
        created = client.batch.create("b")
        chat = client.chat.create(model="m", messages=[user("hi")], batch_request_id="one")
        client.batch.add(created.batch_id, [chat])
        assert client.batch.get(created.batch_id).state.num_pending == 1
        time.sleep(0.35)
        assert client.batch.get(created.batch_id).state.num_pending == 0
        page = client.batch.list_batch_results(created.batch_id)
        # no schema was sent: the fake refuses it inside the batch, as it refuses a synchronous call
        assert page.results[0].batch_request_id == "one" and page.results[0].has_error


@pytest.mark.parametrize("server_class", [FakeOpenAI, FakeAnthropic, FakeXai])
def test_begin_stop_then_stop_shuts_the_server_down(server_class) -> None:  # noqa: ANN001
    """``begin_stop`` returns at once (the caller overlaps the shutdown with other work); ``stop`` then waits for
    it; both are safe to call again."""
    fake = server_class(require_strict_schema=False).start()
    port = fake.port
    started = time.perf_counter()
    fake.begin_stop()
    fake.begin_stop()
    assert time.perf_counter() - started < 0.05
    fake.stop()
    fake.stop()
    import socket

    with socket.socket() as probe:
        probe.settimeout(1)
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # nothing listens any more


class _Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.parametrize("server_class", [FakeOpenAI, FakeAnthropic])
def test_a_client_gone_mid_request_is_no_error(server_class) -> None:  # noqa: ANN001
    """A grader stopped by a signal leaves its requests half sent: the fake (in the same process) logs nothing."""
    import socket

    recorder = _Recorder()
    uvicorn_error = logging.getLogger("uvicorn.error")
    path = "/v1/responses" if server_class is FakeOpenAI else "/v1/messages"
    try:
        with server_class() as fake:
            uvicorn_error.addHandler(recorder)  # after start: uvicorn's logging set-up replaces its handlers
            with socket.create_connection(("127.0.0.1", fake.port)) as sock:
                sock.sendall(
                    f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    f'Content-Length: 5000\r\n\r\n{{"model": '.encode()
                )
                time.sleep(0.2)
            time.sleep(0.3)
    finally:
        uvicorn_error.removeHandler(recorder)
    assert [r.getMessage() for r in recorder.records if r.levelno >= logging.ERROR] == []
