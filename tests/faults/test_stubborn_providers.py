"""Providers that misbehave, through the real SDK clients against the fakes: a Retry-After far beyond the panel's
``max_delay_s`` is waited at most ``max_delay_s``; a reply naming a key twice, one over the size limit and one with more
claims than the limit are invalid attempts, kept as received and never scored."""

from __future__ import annotations

import json

from sqlalchemy import select

from grader.fakes import FakeReply
from grader.judges import MAX_REPLY_CHARS
from grader.panel import RetryPolicy
from grader.panel._runner import MAX_CLAIMS
from grader.storage import JudgeCallRow, session_scope
from tests.panel.test_runner_policy import _run


def _attempts(tmp_path) -> list[JudgeCallRow]:
    with session_scope(f"sqlite:///{tmp_path / 'policy.db'}") as s:
        return list(s.scalars(select(JudgeCallRow).order_by(JudgeCallRow.id)))


def test_retry_after_is_capped_by_max_delay(tmp_path):
    result, _, slept, sent = _run(
        tmp_path,
        [FakeReply.rate_limited(120), FakeReply.rate_limited(86400)],
        policy=RetryPolicy(max_attempts=4, base_delay_s=0.05, max_delay_s=0.5),
    )
    assert result.status == "ok" and sent == 3
    assert len(slept) == 2 and all(0.375 <= s <= 0.5 for s in slept)  # not two minutes, not a day


def test_endless_rate_limits_end_at_the_refusal_cap(tmp_path):
    result, _, slept, sent = _run(
        tmp_path,
        [FakeReply.rate_limited(3600)] * 10,
        policy=RetryPolicy(max_attempts=3, base_delay_s=0.05, max_delay_s=0.2, max_rate_limited=4),
    )
    assert result.status == "failed" and sent == 4 and len(slept) == 3 and all(s <= 0.2 for s in slept)


def test_duplicate_keys_are_refused_not_last_wins(tmp_path):
    result, _, _, sent = _run(tmp_path, [FakeReply.ok('{"score": 1, "score": 7}')])
    assert result.status == "ok" and result.attempts == 2 and sent == 2
    first = _attempts(tmp_path)[0]
    assert first.status == "invalid" and first.error_kind == "format" and "twice" in first.error_message
    assert '\\"score\\": 1, \\"score\\": 7' in first.raw_reply  # the body kept as received (the text JSON-escaped)
    assert first.parsed is None  # never parsed


def test_an_over_size_reply_is_an_invalid_attempt_kept(tmp_path):
    huge = json.dumps({"score": 3, "note": "x" * (MAX_REPLY_CHARS + 10)})
    result, _, _, sent = _run(tmp_path, [FakeReply.ok(huge)])
    assert result.status == "ok" and result.parsed == {"score": 7} and sent == 2
    first = _attempts(tmp_path)[0]
    assert first.status == "invalid" and "over the limit" in first.error_message and first.parsed is None
    assert len(first.raw_reply) > MAX_REPLY_CHARS  # the raw reply is kept whole (hashed in the manifest)


def test_too_many_claims_is_an_invalid_attempt_kept(tmp_path):
    many = {"score": 3, "claim_ledger": [{"claim": f"c{i}"} for i in range(MAX_CLAIMS + 1)]}
    at_limit = {"score": 7, "claim_ledger": [{"claim": f"c{i}"} for i in range(MAX_CLAIMS)]}
    result, _, _, sent = _run(tmp_path, [FakeReply.ok(many), FakeReply.ok(at_limit)])
    assert result.status == "ok" and len(result.parsed["claim_ledger"]) == MAX_CLAIMS and sent == 2
    first, second = _attempts(tmp_path)
    assert first.status == "invalid" and first.error_kind == "schema" and "over the limit" in first.error_message
    assert first.raw_reply and second.status == "ok"


def test_a_hostile_retry_after_does_not_hold_the_judges_other_requests(season, tmp_path):
    """``Retry-After: 600`` on each first attempt, one request at a time per judge, ``max_delay_s: 0.5``: the pause a
    refusal sets for the whole judge is capped too, so the run ends in seconds (the pacer held every other request
    of the judge for the full Retry-After: ten minutes a contestant)."""
    import os
    import subprocess
    import time

    import yaml

    from tests.faults._helpers import REPO, grade_cmd
    from tests.panel.conftest import write_panel

    panel = write_panel(
        tmp_path / "hostile.yaml",
        latency_s=0.0,
        failures={
            "mock-openai": ["rate-limited:600"],
            "mock-anthropic": ["rate-limited:600"],
            "mock-xai": ["rate-limited:600"],
        },
    )
    data = yaml.safe_load(panel.read_text())
    data["concurrency"] = {"openai": 1, "anthropic": 1, "xai": 1}  # the second contestant waits behind the first
    data["retry"] = {"max_attempts": 2, "base_delay_s": 0.05, "max_delay_s": 0.5}
    panel.write_text(yaml.safe_dump(data, sort_keys=False))
    started = time.monotonic()
    done = subprocess.run(
        grade_cmd(season, panel, "h"),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "GRADER_DATABASE_URL": f"sqlite:///{tmp_path / 'hostile.db'}"},
    )
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-2000:]
    assert took < 120, took  # start-up and scoring included, on a busy machine; one uncapped pause is 600 s
