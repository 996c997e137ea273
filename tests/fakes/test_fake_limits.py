"""The fakes' rate limits, through the provider judges' real SDK clients: request and token windows per key, the
providers' own rate-limit headers on every reply (gRPC: metadata), 429 (RESOURCE_EXHAUSTED) with Retry-After when a
window is full, Anthropic's 529 overloaded; and the judges read all of it into their outcomes."""

from __future__ import annotations

import asyncio
import time

import pytest

from grader.fakes import FakeLimits, FakeReply, always, fake_server, script_from_spec, valid_grades
from grader.judges import JudgeSpec, make_judge
from grader.panel._pacing import is_capacity_refusal

SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer"}},
    "required": ["score"],
    "additionalProperties": False,
}
PROVIDERS = ["openai", "anthropic", "xai"]


def _calls(fake, users: list[str], *, key_env: str | None = None, pause_s: float = 0.0):
    """One judge on ``fake``: each user text sent in turn (``pause_s`` apart); the outcomes."""
    endpoint = {"host": fake.host_port} if fake.provider == "xai" else {"base_url": fake.base_url}
    spec = JudgeSpec(
        judge_id="j",
        provider=fake.provider,
        model="m",
        family=fake.provider,
        timeout_s=10,
        max_output_tokens=64,
        api_key_env=key_env,
        **endpoint,
    )

    async def go():
        judge = make_judge(spec, allow_real_api_calls=False)
        out = []
        for user in users:
            out.append(await judge.call("grade", user, SCHEMA, "G"))
            await asyncio.sleep(pause_s)
        await judge.aclose()
        return out

    return asyncio.run(go())


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_full_request_window_answers_429_with_retry_after_and_headers(provider):
    """Two requests a second (120 a minute over a 1 s window): the third is refused with the seconds until the
    window has room, and the judge's outcome carries them and the limit's state; after that wait it is admitted."""
    with fake_server(provider, script=valid_grades, limits=FakeLimits(rpm=120, window_s=1.0)) as fake:
        first, second, third = _calls(fake, ["a", "b", "c"])
        assert first.ok and second.ok
        assert third.error_kind == "rate_limited" and is_capacity_refusal(third)
        assert 0 < third.retry_after_s <= 1.0
        state = third.rate_limits.limits["requests"]
        assert (state.limit, state.remaining) == (120, 0)
        if provider != "xai":  # a successful gRPC reply's metadata is not exposed by xai-sdk's chat.sample()
            assert second.rate_limits.limits["requests"].remaining == 0
            assert first.rate_limits.limits["requests"].remaining == 1
        time.sleep(third.retry_after_s)
        (again,) = _calls(fake, ["c"])
        assert again.ok
        assert fake.limits.refused == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_limits_are_per_api_key(provider, monkeypatch):
    monkeypatch.setenv("GRADER_TEST_KEY_ONE", "sk-one")
    monkeypatch.setenv("GRADER_TEST_KEY_TWO", "sk-two")
    with fake_server(provider, script=valid_grades, limits=FakeLimits(rpm=60, window_s=1.0)) as fake:
        one = _calls(fake, ["a", "b"], key_env="GRADER_TEST_KEY_ONE")
        two = _calls(fake, ["a"], key_env="GRADER_TEST_KEY_TWO")
    assert [o.ok for o in one] == [True, False] and two[0].ok


def test_input_tokens_fill_anthropics_input_window_and_its_headers_say_so():
    """100 input tokens a second; a prompt of about 60 (the fake counts four characters a token) passes, a second
    does not; the reply's anthropic-ratelimit-input-tokens-* headers report what is left."""
    limits = FakeLimits(input_tpm=6_000, window_s=1.0)
    with fake_server("anthropic", script=valid_grades, limits=limits) as fake:
        first, second = _calls(fake, ["x" * 220, "y" * 220])
    assert first.ok and first.rate_limits.limits["input_tokens"].remaining == 100 - 56
    assert second.error_kind == "rate_limited" and second.retry_after_s > 0
    assert second.rate_limits.limits["input_tokens"].limit == 6_000


def test_output_tokens_are_counted_when_the_reply_is_made():
    """An output window smaller than one reply: the first request passes (output is unknown when it arrives), the
    next is refused until the reply's tokens leave the window."""
    limits = FakeLimits(output_tpm=60, window_s=1.0)
    big = FakeReply.ok({"score": 7}, output_tokens=5)
    with fake_server("openai", script=always(big), limits=limits) as fake:
        first, second = _calls(fake, ["a", "b"])
    assert first.ok and first.output_tokens == 5
    assert second.error_kind == "rate_limited" and 0 < second.retry_after_s <= 1.0


def test_openai_headers_carry_the_tokens_limit_and_reset_durations():
    limits = FakeLimits(rpm=600, tpm=60_000)
    with fake_server("openai", script=valid_grades, limits=limits) as fake:
        (outcome,) = _calls(fake, ["x" * 400])
    tokens = outcome.rate_limits.limits["tokens"]
    assert tokens.limit == 60_000 and 0 < tokens.remaining < 60_000 and 0 < tokens.reset_s <= 60
    assert outcome.rate_limits.limits["requests"].remaining == 599


def test_anthropics_529_overloaded_is_a_scriptable_capacity_refusal():
    with fake_server("anthropic", script=script_from_spec("overloaded")) as fake:
        (outcome,) = _calls(fake, ["a"])
    assert outcome.http_status == 529 and outcome.error_kind == "server"
    assert '"overloaded_error"' in outcome.raw_reply and is_capacity_refusal(outcome)


def test_bad_limits_are_refused():
    with pytest.raises(ValueError, match="rpm must be > 0"):
        FakeLimits(rpm=0)
    with pytest.raises(ValueError, match="window_s"):
        FakeLimits(tpm=10, window_s=0)
