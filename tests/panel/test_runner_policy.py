"""Retry policy of the call runner, through the real OpenAI SDK against the fake: Retry-After is honoured,
exponential backoff otherwise, no retry for a refusal, and SDK-level retries stay off."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from grader.fakes import FakeOpenAI, FakeReply, sequence
from grader.judges import JudgeSpec, make_judge
from grader.panel import PanelConfig, RetryPolicy
from grader.panel._runner import CallRunner, Task
from grader.prompts import JudgePrompt
from grader.storage import ContestantRow, PromptRow, RunRow, SeasonRow, session_scope

SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer"}},
    "required": ["score"],
    "additionalProperties": False,
}


def _setup(db: str, spec: JudgeSpec) -> Task:
    with session_scope(db) as s:
        season = SeasonRow(
            season_key="t",
            content_hash="1" * 64,
            name="t",
            start=date(2022, 1, 3),
            end=date(2022, 1, 3),
            benchmark="SP500",
            source_path="",
            info={},
            file_hashes={},
        )
        s.add(season)
        s.flush()
        c = ContestantRow(season_id=season.id, contestant_key="c", display_name="c", provider_family="x", model="m")
        s.add(c)
        s.flush()
        s.add(
            RunRow(
                id="t",
                season_id=season.id,
                run_type="mock",
                rubric_id="r",
                rubric_hash="r",
                judge_facing_hash="r",
                panel_name="p",
                panel_hash="p",
            )
        )
        p = JudgePrompt("c", "A", "system", "grade this", [], 5, 5, 0)
        s.add(PromptRow(sha256=p.sha256, system=p.system, user=p.user, token_estimate=5))
        return Task(spec, "c", c.id, p, 0, "k" * 64)


def _run(tmp_path, replies, policy=RetryPolicy(max_attempts=4, base_delay_s=0.5, max_delay_s=30)):
    slept: list[float] = []

    async def record_sleep(seconds: float) -> None:
        slept.append(seconds)

    with FakeOpenAI(script=sequence(*replies, then=FakeReply.ok({"score": 7}))) as fake:
        spec = JudgeSpec(
            judge_id="j", provider="openai", model="m", family="openai", base_url=fake.base_url, timeout_s=30
        )
        db = f"sqlite:///{tmp_path / 'policy.db'}"
        task = _setup(db, spec)
        panel = PanelConfig(name="p", kind="mock", judges=[spec], retry=policy)

        async def go():
            judge = make_judge(spec, allow_real_api_calls=False)
            runner = CallRunner(
                db,
                "t",
                panel,
                {"j": judge},
                SCHEMA,
                lambda parsed, raw: (parsed, []) if parsed else (None, ["no json"]),
                sleep=record_sleep,
            )
            results = []
            await runner.run_all([task], results.append)
            await judge.aclose()
            return results[0], runner

        result, runner = asyncio.run(go())
        return result, runner, slept, len(fake.requests)


def test_retry_after_is_honoured(tmp_path):
    """Retry-After is waited, plus a drawn spread of at most half of it (so refusals do not come back together)."""
    result, runner, slept, sent = _run(tmp_path, [FakeReply.rate_limited(2.5), FakeReply.rate_limited(7)])
    assert result.status == "ok" and result.parsed == {"score": 7}
    assert len(slept) == 2 and sent == 3  # one request per attempt: the SDK does not retry by itself
    assert 2.5 <= slept[0] <= 2.5 * 1.5 and 7.0 <= slept[1] <= 7.0 * 1.5


def test_backoff_without_retry_after_is_full_jitter(tmp_path):
    result, _, slept, sent = _run(
        tmp_path, [FakeReply.server_error(500), FakeReply.malformed(), FakeReply.server_error(503)]
    )
    assert result.status == "ok" and sent == 4 and len(slept) == 3
    assert all(0 <= wait <= bound for wait, bound in zip(slept, [0.5, 1.0, 2.0], strict=True))


def test_backoff_draws_spread_over_the_whole_window():
    """Full jitter: the waits of many refused attempts cover [0, base x 2^(n-1)], not one value."""
    import random

    from grader.panel import retry_delay

    policy = RetryPolicy(max_attempts=4, base_delay_s=1.0, max_delay_s=30)
    rng = random.Random(1)
    waits = [retry_delay(policy, 3, None, rng) for _ in range(400)]
    assert min(waits) < 0.4 and max(waits) > 3.6 and max(waits) <= 4.0
    after = [retry_delay(policy, 1, 2.0, rng) for _ in range(400)]
    assert min(after) >= 2.0 and max(after) <= 3.0 and max(after) - min(after) > 0.8


def test_attempts_are_capped_and_refusals_not_retried(tmp_path):
    result, runner, slept, sent = _run(
        tmp_path, [FakeReply.server_error(500)] * 5, policy=RetryPolicy(max_attempts=2, base_delay_s=0.1, max_delay_s=1)
    )
    assert result.status == "failed" and sent == 2 and len(slept) == 1 and 0 <= slept[0] <= 0.1
    assert runner.stats.gaps and "server" in runner.stats.gaps[0]


def test_capacity_refusals_do_not_count_toward_the_attempt_cap(tmp_path):
    """Five 429s and a 529 overloaded, then a grade, with an attempt cap of 2: every refusal is a stored attempt,
    linked to the one before, and none is a failure of the judge."""
    from sqlalchemy import select

    from grader.storage import JudgeCallRow

    refusals = [FakeReply.rate_limited(0.01)] * 5 + [FakeReply.overloaded()]
    result, runner, slept, sent = _run(
        tmp_path, refusals, policy=RetryPolicy(max_attempts=2, base_delay_s=0.01, max_delay_s=0.1)
    )
    assert result.status == "ok" and sent == 7 and result.attempts == 7
    assert runner.stats.capacity_refusals == 6
    with session_scope(f"sqlite:///{tmp_path / 'policy.db'}") as s:
        rows = list(s.scalars(select(JudgeCallRow).order_by(JudgeCallRow.id)))
    assert [r.http_status for r in rows] == [429] * 5 + [529, 200]
    assert [r.replaces_call_id for r in rows] == [None] + [r.id for r in rows[:-1]]


def test_capacity_refusals_have_a_cap_of_their_own(tmp_path):
    result, runner, _, sent = _run(
        tmp_path,
        [FakeReply.rate_limited(0.01)] * 10,
        policy=RetryPolicy(max_attempts=4, base_delay_s=0.01, max_delay_s=0.1, max_rate_limited=3),
    )
    assert result.status == "failed" and sent == 3 and "cap of 3" in result.reason


@pytest.mark.parametrize("reply", [FakeReply.refused()])
def test_refusal_is_final(tmp_path, reply):
    result, _, slept, sent = _run(tmp_path, [reply])
    assert result.status == "failed" and sent == 1 and slept == []


@pytest.mark.parametrize(("tasks", "limit", "prepared"), [(3, 1, 1), (3, 3, 0)])
def test_replies_are_prepared_once_when_every_slot_is_taken(tmp_path, tasks, limit, prepared):
    """The judges ready their SDK's reply reading once the calls fill every slot (the first wave is on its way),
    not when the first reply arrives; a run that never fills its slots leaves it to the first reply."""
    from dataclasses import replace

    with FakeOpenAI(script=sequence(then=FakeReply.ok({"score": 7})), latency_s=0.05) as fake:
        spec = JudgeSpec(
            judge_id="j", provider="openai", model="m", family="openai", base_url=fake.base_url, timeout_s=30
        )
        db = f"sqlite:///{tmp_path / 'prepare.db'}"
        first = _setup(db, spec)
        work = [replace(first, repeat=r, key=f"{r}" * 64) for r in range(tasks)]
        panel = PanelConfig(name="p", kind="mock", judges=[spec], concurrency={"openai": limit})
        calls: list[int] = []

        async def go():
            judge = make_judge(spec, allow_real_api_calls=False)
            ready = judge.prepare_replies
            judge.prepare_replies = lambda: (calls.append(len(fake.requests)), ready())[1]
            runner = CallRunner(db, "t", panel, {"j": judge}, SCHEMA, lambda parsed, raw: (parsed, []))
            results = []
            await runner.run_all(work, results.append)
            await judge.aclose()
            return results

        results = asyncio.run(go())
    assert [r.status for r in results] == ["ok"] * tasks
    assert len(calls) == prepared
    assert all(n < tasks for n in calls)  # while calls were still to be sent, not after the last one


def test_a_stream_ahead_of_the_slots_goes_on_once_a_waiting_task_hands_its_request_to_its_judge(tmp_path):
    """``room(ahead)`` (a streamed run waits there before building its next prompt): at once while fewer than
    ``ahead`` expected tasks wait for their first request to leave; else once one of them has handed its request to
    its judge, here when the one slot is freed by the reply before it."""
    from dataclasses import replace

    with FakeOpenAI(script=sequence(then=FakeReply.ok({"score": 7})), latency_s=0.2) as fake:
        spec = JudgeSpec(
            judge_id="j", provider="openai", model="m", family="openai", base_url=fake.base_url, timeout_s=30
        )
        db = f"sqlite:///{tmp_path / 'ahead.db'}"
        first = _setup(db, spec)
        work = [replace(first, repeat=r, key=f"{r}" * 64) for r in range(3)]
        panel = PanelConfig(name="p", kind="mock", judges=[spec], concurrency={"openai": 1})
        seen: list[tuple[int, int]] = []

        async def go():
            judge = make_judge(spec, allow_real_api_calls=False)
            runner = CallRunner(db, "t", panel, {"j": judge}, SCHEMA, lambda parsed, raw: (parsed, []))
            runner.preload_attempts(work)
            runner.expect(work)
            await runner.room(4)  # three expected, fewer than four: at once
            seen.append((len(runner._unsent), len(fake.requests)))
            running = [asyncio.ensure_future(runner.run_and_deliver(t, lambda result: None)) for t in work]
            await runner.room(3)  # the first takes the free slot
            seen.append((len(runner._unsent), runner.stats.calls_sent))
            await runner.room(2)  # the second waits for the slot: for the first's reply
            seen.append((len(runner._unsent), runner.stats.calls_sent))
            await asyncio.gather(*running)
            runner.shutdown()
            await judge.aclose()
            return runner

        runner = asyncio.run(go())
    assert seen == [(3, 0), (2, 0), (1, 1)]
    assert runner.stats.calls_sent == 3 and len(runner._unsent) == 0


def test_a_stream_waits_for_a_task_that_would_find_a_free_slot_to_hand_its_request_to_its_judge(tmp_path):
    """``room(ahead)`` with fewer than ``ahead`` expected tasks still waits while one of them would find a free slot:
    the first wave's requests leave one by one as their prompts are built, not once the prompts behind them are
    built too; a task that cannot take a slot (every slot taken) holds nothing, and one expected but held back
    otherwise holds the stream ``LEAVE_WAIT_S`` at most."""
    from dataclasses import replace

    from grader.panel._runner import LEAVE_WAIT_S

    with FakeOpenAI(script=sequence(then=FakeReply.ok({"score": 7})), latency_s=0.3) as fake:
        spec = JudgeSpec(
            judge_id="j", provider="openai", model="m", family="openai", base_url=fake.base_url, timeout_s=30
        )
        db = f"sqlite:///{tmp_path / 'leave.db'}"
        first = _setup(db, spec)
        work = [replace(first, repeat=r, key=f"{r}" * 64) for r in range(4)]
        panel = PanelConfig(name="p", kind="mock", judges=[spec], concurrency={"openai": 2})
        seen: list[tuple[int, int]] = []
        waited: list[float] = []

        async def go():
            judge = make_judge(spec, allow_real_api_calls=False)
            runner = CallRunner(db, "t", panel, {"j": judge}, SCHEMA, lambda parsed, raw: (parsed, []))
            runner.preload_attempts(work)
            loop = asyncio.get_running_loop()
            runner.expect(work[:3])
            running = [asyncio.ensure_future(runner.run_and_deliver(t, lambda result: None)) for t in work[:3]]
            await runner.room(16)  # two of the three take the two free slots before it returns
            seen.append((len(runner._unsent), runner.semaphores["openai"].locked()))
            start = loop.time()
            await runner.room(16)  # the third waits for a slot: nothing to wait for
            waited.append(loop.time() - start)
            runner.expect(work[3:])  # expected, never started: it would find a slot once one frees up
            await asyncio.gather(*running)
            start = loop.time()
            await runner.room(16)
            waited.append(loop.time() - start)
            running = [asyncio.ensure_future(runner.run_and_deliver(work[3], lambda result: None))]
            await asyncio.gather(*running)
            runner.shutdown()
            await judge.aclose()
            return runner

        runner = asyncio.run(go())
    assert seen == [(1, True)]  # two handed to the judge (both slots taken), the third waiting for one
    assert waited[0] < LEAVE_WAIT_S  # every slot taken: at once (its short settling sleep only)
    assert LEAVE_WAIT_S <= waited[1] < LEAVE_WAIT_S + 0.5  # held back otherwise: patience, then on
    assert runner.stats.calls_sent == 4 and len(runner._unsent) == 0
