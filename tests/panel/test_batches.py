"""Re-grades through the providers' batch APIs (issue 18): `grader grade --batch` submits, `grader batch
status|collect` follow up; every request goes through the real SDKs (OpenAI Batch and Anthropic Message Batches over
HTTP, xAI Batch over gRPC) to the local fakes. Raw results are stored like synchronous replies, priced at the batch
rate, content-addressed, resumable, and failed requests are retried in a new batch linked to what they replace."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml
from sqlalchemy import select
from typer.testing import CliRunner

from grader.cli import app
from grader.fakes import (
    FakeAnthropic,
    FakeLimits,
    FakeOpenAI,
    FakeReply,
    FakeXai,
    LimitWindows,
    by_prompt,
    sequence,
)
from grader.panel import grade_season
from grader.storage import GradeRow, JudgeBatchRow, JudgeCallRow, RunRow, session_scope

cli = CliRunner()
PRICE = {"input_per_mtok": 2.0, "output_per_mtok": 10.0, "batch_factor": 0.5}


@pytest.fixture
def fakes():
    """The three providers, their batches ending only when a test ends them."""
    with (
        FakeOpenAI(batch_latency_s=3600) as o,
        FakeAnthropic(batch_latency_s=3600) as a,
        FakeXai(batch_latency_s=3600) as x,
    ):
        yield {"openai": o, "anthropic": a, "xai": x}


def end_batches(*servers) -> None:
    for server in servers:
        for batch in server.batches.all():
            batch.ends_at = time.time() - 1


def write_local_panel(path: Path, fakes: dict, max_attempts: int = 3) -> Path:
    judges = [
        {
            "judge_id": "gpt",
            "provider": "openai",
            "model": "gpt-x",
            "family": "openai",
            "base_url": fakes["openai"].base_url,
            "pricing": PRICE,
        },
        {
            "judge_id": "claude",
            "provider": "anthropic",
            "model": "claude-x",
            "family": "anthropic",
            "base_url": fakes["anthropic"].base_url,
            "pricing": PRICE,
        },
        {
            "judge_id": "grok",
            "provider": "xai",
            "model": "grok-x",
            "family": "xai",
            "host": fakes["xai"].host_port,
            "pricing": PRICE,
        },
    ]
    path.write_text(
        yaml.safe_dump(
            {
                "name": path.stem,
                "kind": "real",
                "judges": judges,
                "retry": {"max_attempts": max_attempts, "base_delay_s": 0.01, "max_delay_s": 0.01},
            }
        )
    )
    return path


def _grade(season, url, panel, run_id="b", **kw):
    kw.setdefault("batch", True)
    return grade_season(
        season,
        rubric_name="v0.4",
        panel_name=str(panel),
        run_id=run_id,
        db_url=url,
        allow_real_api_calls=True,
        progress=False,
        **kw,
    )


def _calls(url, run_id="b") -> list[JudgeCallRow]:
    with session_scope(url) as s:
        rows = list(s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == run_id).order_by(JudgeCallRow.id)))
        for r in rows:
            s.expunge(r)
        return rows


def test_submit_then_status_then_collect_from_the_command_line(season, fakes, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'b.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    out = cli.invoke(
        app,
        ["grade", str(season), "--panel", str(panel), "--run-id", "b", "--batch", "--quiet", "--allow-real-api-calls"],
    )
    assert out.exit_code == 0, out.output
    assert "grader batch collect --run b" in out.output
    with session_scope(url) as s:
        assert s.get(RunRow, "b").status == "batch_pending"
        batches = s.scalars(select(JudgeBatchRow).order_by(JudgeBatchRow.id)).all()
        assert [(b.judge_id, b.status, b.request_count) for b in batches] == [
            ("gpt", "submitted", 2),
            ("claude", "submitted", 2),
            ("grok", "submitted", 2),
        ]
        assert all(b.provider_batch_id for b in batches)
    assert {c.status for c in _calls(url)} == {"queued"}
    # every request went through a batch endpoint, none synchronously, each with its strict schema
    for fake in fakes.values():
        assert fake.requests and all(
            r.endpoint.startswith("batch") or r.endpoint == "Batch/Chat" for r in fake.requests
        )
        assert all(r.schema for r in fake.requests)
    assert all(r.strict is True for r in fakes["openai"].requests)

    status = cli.invoke(app, ["batch", "status", "--run", "b", "--allow-real-api-calls"])
    assert status.exit_code == 0, status.output
    assert "in_progress" in status.output and "6 queued" in status.output
    pending = cli.invoke(app, ["batch", "collect", "--run", "b", "--allow-real-api-calls", "--quiet"])
    assert pending.exit_code == 0 and "batches submitted" in pending.output  # nothing ended yet: still pending

    end_batches(*fakes.values())
    done = cli.invoke(app, ["batch", "collect", "--run", "b", "--allow-real-api-calls", "--quiet"])
    assert done.exit_code == 0, done.output
    assert "run b: complete" in done.output
    calls = _calls(url)
    assert len(calls) == 6 and {c.status for c in calls} == {"ok"}
    with session_scope(url) as s:
        assert s.get(RunRow, "b").status == "complete" and s.get(RunRow, "b").manifest_hash
        assert len(s.scalars(select(GradeRow).where(GradeRow.run_id == "b")).all()) == 6
        assert {b.status for b in s.scalars(select(JudgeBatchRow))} == {"collected"}
    for c in calls:  # the raw result record as the provider served it, matched by the call's own id
        assert c.custom_id == f"call-{c.id}" and c.custom_id in c.raw_reply
        expected = 0.5 * (c.input_tokens * 2.0 + c.output_tokens * 10.0) / 1e6
        assert c.cost_usd == pytest.approx(expected)  # the batch rate: half the synchronous price
    cost = cli.invoke(app, ["cost", "--run", "b"])
    assert "in batches" in cost.output and "USD synchronous, no cache" in cost.output


def test_failed_requests_go_into_a_new_batch_linked_to_what_they_replace(season, fakes, tmp_path):
    url = f"sqlite:///{tmp_path / 'r.db'}"
    fakes["openai"].script = sequence(FakeReply.server_error(500))  # every prompt's first attempt fails
    fakes["anthropic"].script = sequence(FakeReply.hang())  # every prompt's first attempt never runs: expires
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    assert _grade(season, url, panel).status == "batch_pending"
    end_batches(*fakes.values())
    second = _grade(season, url, panel, batch=True)
    assert second.status == "batch_pending"  # the retries went into new batches
    calls = _calls(url)
    gpt = [c for c in calls if c.judge_id == "gpt"]
    claude = [c for c in calls if c.judge_id == "claude"]
    for chain, kind in ((gpt, "server"), (claude, "timeout")):
        first = [c for c in chain if c.attempt == 1]
        retry = [c for c in chain if c.attempt == 2]
        assert len(first) == len(retry) == 2
        assert {c.status for c in first} == {"error"} and {c.error_kind for c in first} == {kind}
        assert all(c.raw_reply for c in first)  # the error record is kept as received
        assert {c.replaces_call_id for c in retry} == {c.id for c in first}
        assert {c.status for c in retry} == {"queued"} and len({c.batch_id for c in retry}) == 1
        assert retry[0].batch_id != first[0].batch_id
    end_batches(*fakes.values())
    assert _grade(season, url, panel, batch=True).status == "complete"


def test_the_retry_cap_holds_and_leaves_a_visible_gap(season, fakes, tmp_path):
    url = f"sqlite:///{tmp_path / 'cap.db'}"
    fakes["xai"].script = by_prompt({}, default=FakeReply.server_error(500))
    panel = write_local_panel(tmp_path / "local.yaml", fakes, max_attempts=2)
    _grade(season, url, panel, batch=True)
    for _ in range(3):
        end_batches(*fakes.values())
        report = _grade(season, url, panel, batch=True)
    assert report.status == "complete_with_gaps"
    grok = [c for c in _calls(url) if c.judge_id == "grok"]
    assert sorted(c.attempt for c in grok) == [1, 1, 2, 2]
    assert {c.error_kind for c in grok} == {"server"}
    assert len(report.gaps) == 2 and all("grok" in g for g in report.gaps)


def test_refusals_for_capacity_in_a_batch_are_linked_attempts_that_never_use_up_the_cap(season, fakes, tmp_path):
    """With a cap of one attempt, requests a batch answers with 429 (OpenAI), rate_limit_error then
    overloaded_error (Anthropic, as 429 and 529) or RESOURCE_EXHAUSTED (xAI) are stored, linked to their retry, and
    the retries still complete the run: a refusal for capacity is no failure of the judge."""
    url = f"sqlite:///{tmp_path / 'refused.db'}"
    fakes["openai"].script = sequence(FakeReply.rate_limited())
    fakes["anthropic"].script = sequence(FakeReply.rate_limited(), FakeReply.server_error(529))
    fakes["xai"].script = sequence(FakeReply.rate_limited())
    panel = write_local_panel(tmp_path / "local.yaml", fakes, max_attempts=1)
    _grade(season, url, panel, batch=True)
    reports = []
    for _ in range(3):
        end_batches(*fakes.values())
        reports.append(_grade(season, url, panel, batch=True))
    assert [r.status for r in reports] == ["batch_pending", "batch_pending", "complete"]
    assert reports[0].calls_sent == 6 and reports[1].calls_sent == 2  # every refused request sent again
    calls = _calls(url)
    for judge, refusals in (("gpt", [429]), ("claude", [429, 529]), ("grok", [None])):
        chain = [c for c in calls if c.judge_id == judge]
        for contestant in {c.contestant_id for c in chain}:
            own = [c for c in chain if c.contestant_id == contestant]
            assert [c.attempt for c in own] == list(range(1, len(refusals) + 2))
            assert [c.status for c in own] == ["error"] * len(refusals) + ["ok"]
            assert [c.http_status for c in own[:-1]] == refusals
            assert own[0].error_kind == "rate_limited" and own[0].raw_reply  # the refusal kept as received
            assert [c.replaces_call_id for c in own] == [None] + [c.id for c in own[:-1]]
    with session_scope(url) as s:
        assert len(s.scalars(select(GradeRow).where(GradeRow.run_id == "b")).all()) == 6


def test_a_submission_refused_for_capacity_leaves_refused_attempts_that_never_use_up_the_cap(season, fakes, tmp_path):
    """Anthropic's fake counts a batch submission against the key's requests per minute: the retry's submission is
    refused with 429. Its requests stay on record as refused attempts, linked, and with a cap of two attempts the
    chain still gets its second counted attempt once the window has room."""
    url = f"sqlite:///{tmp_path / 'submit.db'}"
    fakes["anthropic"].limits = LimitWindows(FakeLimits(rpm=1))
    fakes["anthropic"].script = sequence(FakeReply.server_error(500))
    panel = write_local_panel(tmp_path / "local.yaml", fakes, max_attempts=2)
    _grade(season, url, panel, batch=True)  # the first submission: admitted
    end_batches(*fakes.values())
    refused = _grade(season, url, panel, batch=True)  # attempt 1 failed (500); the retry's submission: 429
    assert refused.status == "complete_with_gaps"  # nothing in flight: said, and the next step sends it again
    assert any("claude" in p and "429" in p for p in refused.batch.problems)
    fakes["anthropic"].limits = None  # the window has room again
    _grade(season, url, panel, batch=True)
    end_batches(*fakes.values())
    assert _grade(season, url, panel, batch=True).status == "complete"
    claude = [c for c in _calls(url) if c.judge_id == "claude"]
    for contestant in {c.contestant_id for c in claude}:
        own = [c for c in claude if c.contestant_id == contestant]
        assert [(c.attempt, c.status, c.error_kind) for c in own] == [
            (1, "error", "server"),
            (2, "error", "rate_limited"),
            (3, "ok", None),
        ]
        assert own[1].http_status == 429
        assert "refused for capacity" in own[1].error_message
        assert [c.replaces_call_id for c in own] == [None, own[0].id, own[1].id]
    with session_scope(url) as s:
        lost = [
            b for b in s.scalars(select(JudgeBatchRow).where(JudgeBatchRow.judge_id == "claude")) if b.status == "lost"
        ]
    assert len(lost) == 1 and "refused for capacity" in lost[0].error_message


def test_refusals_for_capacity_in_batches_end_a_chain_at_their_own_cap(season, fakes, tmp_path):
    """A provider that refuses every request for capacity: ``max_rate_limited`` refusals end the chain (a visible
    gap), however high the attempt cap is."""
    url = f"sqlite:///{tmp_path / 'refused-cap.db'}"
    fakes["openai"].script = by_prompt({}, default=FakeReply.rate_limited())
    panel = write_local_panel(tmp_path / "local.yaml", fakes, max_attempts=5)
    doc = yaml.safe_load(panel.read_text())
    doc["retry"]["max_rate_limited"] = 2
    panel.write_text(yaml.safe_dump(doc))
    _grade(season, url, panel, batch=True)
    for _ in range(3):
        end_batches(*fakes.values())
        report = _grade(season, url, panel, batch=True)
    assert report.status == "complete_with_gaps"
    gpt = [c for c in _calls(url) if c.judge_id == "gpt"]
    assert sorted(c.attempt for c in gpt) == [1, 1, 2, 2] and {c.error_kind for c in gpt} == {"rate_limited"}
    assert len(report.gaps) == 2 and all("gpt" in g for g in report.gaps)


def test_a_batch_the_provider_no_longer_knows_is_lost_and_sent_again(season, fakes, tmp_path):
    url = f"sqlite:///{tmp_path / 'lost.db'}"
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    _grade(season, url, panel, batch=True)
    for fake in fakes.values():
        fake.batches.clear()  # e.g. expired and deleted at the provider
    report = _grade(season, url, panel, batch=True)
    assert report.status == "batch_pending"
    with session_scope(url) as s:
        statuses = [b.status for b in s.scalars(select(JudgeBatchRow).order_by(JudgeBatchRow.id))]
    assert statuses[:3] == ["lost"] * 3 and statuses[3:] == ["submitted"] * 3
    calls = _calls(url)
    assert sum(c.status == "error" and "batch lost" in (c.error_message or "") for c in calls) == 6
    end_batches(*fakes.values())
    assert _grade(season, url, panel, batch=True).status == "complete"


def test_a_process_that_died_while_submitting_leaves_the_batch_visible_and_its_calls_counted(season, fakes, tmp_path):
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    _grade(season, url, panel, batch=True)
    with session_scope(url) as s:  # as if the process died before the provider's answer was stored
        b = s.scalar(select(JudgeBatchRow).where(JudgeBatchRow.judge_id == "gpt"))
        b.status, b.provider_batch_id = "submitting", None
    _grade(season, url, panel, batch=True)
    with session_scope(url) as s:
        b = s.scalar(select(JudgeBatchRow).where(JudgeBatchRow.judge_id == "gpt").order_by(JudgeBatchRow.id))
        assert b.status == "lost" and "stopped before the provider answered" in b.error_message
    gpt = [c for c in _calls(url) if c.judge_id == "gpt"]
    assert [c.status for c in gpt if c.attempt == 1] == ["interrupted"] * 2
    assert {c.replaces_call_id for c in gpt if c.attempt == 2} == {c.id for c in gpt if c.attempt == 1}


def test_a_batch_lost_to_our_own_crash_does_not_use_up_the_attempt_cap(season, fakes, tmp_path):
    """With a cap of one attempt, a submission cut off by our dying process still leaves the judge its attempt."""
    url = f"sqlite:///{tmp_path / 'cap.db'}"
    panel = write_local_panel(tmp_path / "local.yaml", fakes, max_attempts=1)
    _grade(season, url, panel, batch=True)
    with session_scope(url) as s:  # as if the process died before the provider's answer was stored
        b = s.scalar(select(JudgeBatchRow).where(JudgeBatchRow.judge_id == "gpt"))
        b.status, b.provider_batch_id = "submitting", None
    _grade(season, url, panel, batch=True)
    gpt = [c for c in _calls(url) if c.judge_id == "gpt"]
    assert [c.status for c in gpt if c.attempt == 1] == ["interrupted"] * 2
    assert len([c for c in gpt if c.attempt == 2]) == 2  # sent again, not a gap at the cap


def test_batch_results_serve_a_later_synchronous_run_with_the_same_inputs(season, fakes, tmp_path):
    url = f"sqlite:///{tmp_path / 'reuse.db'}"
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    _grade(season, url, panel, batch=True)
    end_batches(*fakes.values())
    assert _grade(season, url, panel, batch=True).status == "complete"
    before = sum(len(f.requests) for f in fakes.values())
    again = _grade(season, url, panel, run_id="sync", batch=False)
    assert again.status == "complete" and again.calls_reused == 6 and again.calls_sent == 0
    assert sum(len(f.requests) for f in fakes.values()) == before  # nothing paid twice


def test_a_mock_panel_batch_run_completes_in_one_command(season, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'mock.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    out = cli.invoke(app, ["grade", str(season), "--panel", "mock", "--run-id", "m", "--batch", "--quiet"])
    assert out.exit_code == 0, out.output
    assert "run m: complete" in out.output
    calls = _calls(url, "m")
    assert len(calls) == 6 and all(c.batch_id is not None and c.status == "ok" for c in calls)


def test_batch_is_refused_where_no_batch_api_exists(season, tmp_path):
    from grader.panel import RunError

    with pytest.raises(RunError, match="reference panel makes no provider calls"):
        grade_season(
            season,
            rubric_name="v0.4",
            panel_name="reference",
            run_id="x",
            db_url=f"sqlite:///{tmp_path / 'x.db'}",
            progress=False,
            batch=True,
        )
    compat = tmp_path / "compat.yaml"
    compat.write_text(
        yaml.safe_dump(
            {
                "name": "compat",
                "kind": "real",
                "judges": [
                    {
                        "judge_id": "local",
                        "provider": "openai-compatible",
                        "model": "m",
                        "family": "openai",
                        "base_url": "http://127.0.0.1:9/v1",
                    }
                ],
            }
        )
    )
    with pytest.raises(RunError, match="no provider batch API for judge"):
        grade_season(
            season,
            rubric_name="v0.4",
            panel_name=str(compat),
            run_id="x",
            db_url=f"sqlite:///{tmp_path / 'x.db'}",
            progress=False,
            batch=True,
        )


def test_collect_of_a_real_panel_needs_the_flag(season, fakes, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'flag.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    _grade(season, url, panel, batch=True)
    out = cli.invoke(app, ["batch", "collect", "--run", "b"])
    assert out.exit_code == 1 and "--allow-real-api-calls" in out.output


def test_a_synchronous_grade_of_a_run_with_batches_in_flight_is_refused(season, fakes, tmp_path, monkeypatch):
    from grader.panel import RunError

    url = f"sqlite:///{tmp_path / 'mixed.db'}"
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    _grade(season, url, panel)
    with pytest.raises(RunError, match="provider batch\\(es\\) in flight"):
        _grade(season, url, panel, batch=False)  # it would pay again for what the batches already carry
    assert all(c.status == "queued" for c in _calls(url))
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    _grade(season, url, panel, run_id="sync", batch=False)
    out = cli.invoke(app, ["batch", "collect", "--run", "sync", "--allow-real-api-calls"])
    assert out.exit_code == 1 and "has no provider batch" in out.output


def test_a_result_stored_but_not_parsed_when_a_process_died_is_parsed_on_collect(season, fakes, tmp_path):
    from grader.storage import LedgerEntryRow

    url = f"sqlite:///{tmp_path / 'recv.db'}"
    panel = write_local_panel(tmp_path / "local.yaml", fakes)
    _grade(season, url, panel)
    end_batches(*fakes.values())
    assert _grade(season, url, panel).status == "complete"
    with session_scope(url) as s:  # as if the process died between storing the raw result and parsing it
        grade = s.scalar(select(GradeRow).where(GradeRow.run_id == "b", GradeRow.judge_id == "claude"))
        for entry in s.scalars(select(LedgerEntryRow).where(LedgerEntryRow.grade_id == grade.id)):
            s.delete(entry)
        s.flush()
        s.get(JudgeCallRow, grade.call_id).status = "received"
        s.delete(grade)
        s.get(RunRow, "b").status = "batch_pending"
    sent = sum(len(f.requests) for f in fakes.values())
    assert _grade(season, url, panel).status == "complete"
    assert sum(len(f.requests) for f in fakes.values()) == sent  # parsed from what was stored: nothing resent
    with session_scope(url) as s:
        assert len(s.scalars(select(GradeRow).where(GradeRow.run_id == "b")).all()) == 6
