"""Script helpers decide replies from the request alone (no server needed)."""

from __future__ import annotations

import pytest

from grader.fakes import FakeReply, FakeRequest, by_prompt, script_from_spec, sequence, storm


def request(user: str = "grade Alpha", attempt: int = 1) -> FakeRequest:
    return FakeRequest(
        provider="openai",
        endpoint="responses",
        model="gpt-5",
        system="sys",
        user=user,
        schema=None,
        schema_name=None,
        strict=None,
        max_output_tokens=None,
        temperature=None,
        headers={"authorization": "Bearer sk-abc"},
        body={},
        attempt=attempt,
    )


def test_sequence_follows_the_attempt_number_then_falls_back() -> None:
    script = sequence(FakeReply.rate_limited(2), FakeReply.malformed(), then=FakeReply.server_error(503))
    kinds = [script(request(attempt=n)).kind for n in (1, 2, 3, 4)]
    assert kinds == ["rate_limited", "malformed", "server_error", "server_error"]
    assert sequence(FakeReply.hang())(request(attempt=2)).kind == "ok"


def test_storm_counts_requests_across_prompts() -> None:
    script = storm(2, retry_after_s=4)
    replies = [script(request(user=f"p{n}")) for n in range(4)]
    assert [r.kind for r in replies] == ["rate_limited", "rate_limited", "ok", "ok"]
    assert replies[0].retry_after_s == 4 and replies[0].status == 429


def test_by_prompt_matches_user_text() -> None:
    script = by_prompt({"Alpha": FakeReply.truncated(), "Beta": sequence(FakeReply.rate_limited(1))})
    assert script(request("grade Alpha")).kind == "truncated"
    assert script(request("grade Beta")).kind == "rate_limited"
    assert script(request("grade Beta", attempt=2)).kind == "ok"
    assert script(request("grade Gamma")).kind == "ok"


@pytest.mark.parametrize(
    ("spec", "kind", "detail"),
    [
        ("ok", "ok", None),
        ("malformed", "malformed", None),
        ("truncated", "truncated", None),
        ("refused", "refused", None),
        ("hang", "hang", None),
        ("rate-limited:2.5", "rate_limited", 2.5),
        ("server-error:503", "server_error", 503),
        ("slow:1.5", "slow", 1.5),
        ("storm:1:3", "rate_limited", 3.0),
    ],
)
def test_script_from_spec(spec: str, kind: str, detail: float | None) -> None:
    reply = script_from_spec(spec)(request())
    assert reply.kind == kind
    if kind == "rate_limited":
        assert reply.retry_after_s == detail
    elif kind == "server_error":
        assert reply.status == detail
    elif kind == "slow":
        assert reply.delay_s == detail


def test_script_from_spec_imports_a_script() -> None:
    script = script_from_spec("grader.fakes:valid_grades")
    assert script(request()).kind == "ok"


@pytest.mark.parametrize("spec", ["explode", "server-error:404", "slow", "storm:many"])
def test_script_from_spec_rejects_nonsense(spec: str) -> None:
    with pytest.raises(ValueError, match="fake script|5xx"):
        script_from_spec(spec)


def test_a_request_repr_hides_the_key() -> None:
    assert "sk-abc" not in repr(request())
    assert request().api_key == "sk-abc"
