"""Runs under provider rate limits, through the real SDKs against fakes that enforce them: a burst of 429s carrying
the same Retry-After does not come back in lockstep, a run under limits ends without a gap a later attempt would
have filled, and the panel file's limits pace requests so that the fake refuses few or none."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest
from sqlalchemy import select

from grader.fakes import FakeLimits, FakeOpenAI, FakeReply, FakeServer, fake_server, sequence
from grader.judges import JudgeSpec, RateLimits, make_judge
from grader.panel import PanelConfig, RetryPolicy
from grader.panel._runner import CallRunner, Task
from grader.prompts import JudgePrompt
from grader.storage import ContestantRow, JudgeCallRow, PromptRow, RunRow, SeasonRow, session_scope

SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer"}},
    "required": ["score"],
    "additionalProperties": False,
}


def _tasks(db: str, spec: JudgeSpec, n: int, user_chars: int = 40) -> list[Task]:
    """``n`` contestants of one season, a prompt of about ``user_chars`` characters each."""
    tasks = []
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
        for k in range(n):
            c = ContestantRow(
                season_id=season.id, contestant_key=f"c{k}", display_name=f"c{k}", provider_family="x", model="m"
            )
            s.add(c)
            s.flush()
            digits = " ".join(f"{(k * 7919 + i * 104729) % 99991:05d}" for i in range(user_chars // 6 + 1))
            p = JudgePrompt(f"c{k}", "A", "system", f"grade record {k}: {digits}"[:user_chars], [], 5, 5, 0)
            s.add(PromptRow(sha256=p.sha256, system=p.system, user=p.user, token_estimate=5))
            tasks.append(Task(spec, f"c{k}", c.id, p, 0, f"{k:064d}"))
    return tasks


def _run(
    tmp_path,
    fake: FakeServer,
    n: int,
    *,
    concurrency: int,
    policy: RetryPolicy,
    rate_limits: RateLimits | None = None,
    user_chars: int = 40,
):
    endpoint = {"host": fake.host_port} if fake.provider == "xai" else {"base_url": fake.base_url}
    spec = JudgeSpec(
        judge_id="j",
        provider=fake.provider,
        model="m",
        family=fake.provider,
        timeout_s=30,
        max_output_tokens=64,
        rate_limits=rate_limits,
        **endpoint,
    )
    db = f"sqlite:///{tmp_path / 'pacing.db'}"
    tasks = _tasks(db, spec, n, user_chars)
    panel = PanelConfig(name="p", kind="mock", judges=[spec], retry=policy, concurrency={fake.provider: concurrency})

    async def go():
        judge = make_judge(spec, allow_real_api_calls=False)
        runner = CallRunner(
            db, "t", panel, {"j": judge}, SCHEMA, lambda parsed, raw: (parsed, []) if parsed else (None, ["no json"])
        )
        results = []
        await runner.run_all(tasks, results.append)
        await judge.aclose()
        return results, runner

    results, runner = asyncio.run(go())
    with session_scope(db) as s:
        rows = list(s.scalars(select(JudgeCallRow).order_by(JudgeCallRow.id)))
        for row in rows:
            s.expunge(row)
    return results, runner, rows


@pytest.mark.parametrize("provider", ["openai", "anthropic", "xai"])
def test_a_burst_of_429s_with_one_retry_after_is_not_retried_in_lockstep(tmp_path, provider):
    """24 requests refused at once, all told Retry-After 1 s (xAI: RESOURCE_EXHAUSTED with retry-after metadata):
    every retry waits at least that, and they reach the fake spread out (the middle half of them over 100 ms or
    more, fewer than half in any 20 ms: in lockstep they would all come within a few ms), not as one wave."""
    n = 24
    script = sequence(FakeReply.rate_limited(1.0), then=FakeReply.ok({"score": 7}))
    with fake_server(provider, script=script) as fake:
        results, runner, rows = _run(
            tmp_path, fake, n, concurrency=n, policy=RetryPolicy(max_attempts=2, base_delay_s=0.05, max_delay_s=5)
        )
        requests = fake.requests
    assert [r.status for r in results] == ["ok"] * n
    first = {r.user: r.received_at for r in requests if r.attempt == 1}
    retries = sorted((r.received_at, r.user) for r in requests if r.attempt == 2)
    assert len(retries) == n
    assert all(at - first[user] >= 1.0 for at, user in retries)  # Retry-After honoured
    waits = sorted(at - first[user] for at, user in retries)
    middle_half = waits[3 * n // 4] - waits[n // 4]
    assert middle_half >= 0.1, f"the middle half of the retries arrived within {middle_half * 1000:.0f} ms"
    times = [at for at, _ in retries]
    busiest = max(sum(1 for u in times if t <= u < t + 0.02) for t in times)
    assert busiest < n // 2, f"{busiest} of {n} retries arrived within 20 ms"


def test_a_run_under_limits_ends_without_a_gap_a_later_attempt_would_fill(tmp_path):
    """A fake allowing 5 requests a second per key, 20 tasks at once, an attempt cap of 1 and no limits in the panel
    file: the refused attempts are stored and linked, never count toward the cap, and every task ends graded."""
    limits = FakeLimits(rpm=300, window_s=1.0)
    with FakeOpenAI(script=sequence(then=FakeReply.ok({"score": 7})), limits=limits) as fake:
        results, runner, rows = _run(
            tmp_path,
            fake,
            20,
            concurrency=20,
            policy=RetryPolicy(max_attempts=1, base_delay_s=0.05, max_delay_s=2, max_rate_limited=50),
        )
    assert [r.status for r in results] == ["ok"] * 20 and not runner.stats.gaps
    refused = [r for r in rows if r.error_kind == "rate_limited"]
    assert refused and all(r.http_status == 429 and r.status == "error" for r in refused)
    assert runner.stats.capacity_refusals == len(refused)
    by_id = {r.id: r for r in rows}
    for row in rows:  # each retry is linked to the attempt it replaces, of the same task
        if row.replaces_call_id is not None:
            assert by_id[row.replaces_call_id].contestant_id == row.contestant_id
            assert by_id[row.replaces_call_id].attempt == row.attempt - 1


def _limited_run(tmp_path, rate_limits: RateLimits | None):
    """80 prompts of about 1,000 tokens (the fake's count) at concurrency 16 against a fake allowing 1,500,000 input
    tokens a minute over 2 s windows (25 prompts a second, 50 a window: one prompt is 2% of a window, what the
    pacer's headroom leaves room for)."""
    limits = FakeLimits(input_tpm=1_500_000, window_s=2.0)
    with FakeOpenAI(script=sequence(then=FakeReply.ok({"score": 7})), limits=limits) as fake:
        return _run(
            tmp_path,
            fake,
            80,
            concurrency=16,
            rate_limits=rate_limits,
            user_chars=4000,
            policy=RetryPolicy(max_attempts=2, base_delay_s=0.05, max_delay_s=2, max_rate_limited=50),
        )


def test_the_panel_files_limits_pace_requests_so_few_are_refused(tmp_path):
    results, runner, rows = _limited_run(tmp_path, RateLimits(input_tpm=1_500_000))
    assert [r.status for r in results] == ["ok"] * 80
    refused = sum(1 for r in rows if r.error_kind == "rate_limited")
    assert refused <= 3, f"{refused} requests refused under paced limits"
    assert runner.pacers["j"].buckets["input_tokens"].per_minute == 1_500_000


def test_an_unpaced_client_of_the_same_fake_is_refused_often(tmp_path):
    """The contrast that makes the test above mean something: the same 80 prompts sent through the bare SDK, 16 at
    a time, overrun the fake's window."""
    import openai

    limits = FakeLimits(input_tpm=1_500_000, window_s=2.0)
    spec = JudgeSpec(judge_id="j", provider="openai", model="m", family="openai", base_url="http://127.0.0.1:1/v1")
    prompts = [t.prompt for t in _tasks(f"sqlite:///{tmp_path / 'bare.db'}", spec, 80, 4000)]

    async def bare(base_url: str) -> int:
        client = openai.AsyncOpenAI(base_url=base_url, api_key="sk-test", max_retries=0)
        gate, refused = asyncio.Semaphore(16), 0

        async def one(prompt: JudgePrompt) -> None:
            nonlocal refused
            async with gate:
                try:
                    await client.responses.create(
                        model="m",
                        instructions=prompt.system,
                        input=prompt.user,
                        text={"format": {"type": "json_schema", "name": "G", "schema": SCHEMA, "strict": True}},
                    )
                except openai.RateLimitError:
                    refused += 1

        await asyncio.gather(*(one(p) for p in prompts))
        await client.close()
        return refused

    with FakeOpenAI(script=sequence(then=FakeReply.ok({"score": 7})), limits=limits) as fake:
        refused = asyncio.run(bare(fake.base_url))
    assert refused >= 10


def test_limits_not_in_the_panel_file_are_learned_from_the_headers(tmp_path):
    """No limits in the panel file: the fake's x-ratelimit-limit-tokens on the first reply becomes a bucket, and the
    run is paced from then on (a few refusals at most, of the first wave)."""
    results, runner, rows = _limited_run(tmp_path, None)
    assert [r.status for r in results] == ["ok"] * 80
    assert sum(1 for r in rows if r.error_kind == "rate_limited") <= 6
    assert runner.pacers["j"].buckets["tokens"].per_minute == 1_500_000


def test_a_mock_panels_fake_enforces_its_provider_limits_end_to_end(season, sqlite_url, tmp_path):
    """``mock.provider_limits`` makes the mock judge's fake refuse past one request in three seconds; with an attempt
    cap of 1 the run still ends complete: the 429 is on record, and its retry graded the record. The fake answers after
    two seconds: the second contestant's request leaves once its prompt is built, and it must leave before the first
    reply's rate-limit headers come back (the judge's pacing would hold it until the window frees otherwise, and no
    429 would come)."""
    import yaml

    from grader.panel import grade_season
    from tests.panel.conftest import write_panel

    panel = write_panel(
        tmp_path / "limited.yaml", latency_s=2.0, provider_limits={"mock-openai": {"rpm": 20, "window_s": 3.0}}
    )
    data = yaml.safe_load(panel.read_text())
    data["retry"]["max_attempts"] = 1
    panel.write_text(yaml.safe_dump(data, sort_keys=False))
    report = grade_season(
        season, rubric_name="v0.4", panel_name=str(panel), run_id="limited", db_url=sqlite_url, progress=False
    )
    assert not report.gaps
    with session_scope(sqlite_url) as s:
        openai_calls = list(s.scalars(select(JudgeCallRow).where(JudgeCallRow.judge_id == "mock-openai")))
    assert [c.http_status for c in openai_calls].count(429) >= 1
    assert sum(1 for c in openai_calls if c.status == "ok") == 2
