"""Grading runs end to end: reference baseline, mock panel over the real SDKs, retries, gaps, dry runs,
manifests and verification, re-scoring."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from sqlalchemy import func, select

from grader.panel import grade_season, verify_run
from grader.panel.leaderboard import leaderboard_rows
from grader.panel.rescore import RescoreNeedsRegrade, rescore_run
from grader.season import BundleError
from grader.storage import (
    GradeRow,
    JudgeCallRow,
    LedgerEntryRow,
    PromptRow,
    RunRow,
    ScoreVersionRow,
    SeasonRow,
    session_scope,
)
from tests.panel.conftest import write_panel


def _grade(season, db, **kw):
    args = dict(rubric_name="v0.4", panel_name="reference", run_id="r1", db_url=db, progress=False)
    args.update(kw)
    return grade_season(season, **args)


def test_reference_run_is_a_labelled_baseline(season, sqlite_url):
    report = _grade(season, sqlite_url, run_type="official")
    assert report.run_type == "baseline" and report.calls_sent == 2 and not report.gaps
    meta, rows = leaderboard_rows("r1", db_url=sqlite_url)
    assert meta["run_type"] == "baseline"
    assert {r["contestant_id"] for r in rows} == {"m1", "m2"}
    assert all(r["total"] is not None and r["n_judges"] == 1 for r in rows)
    assert not any(r["official_eligible"] for r in rows)  # a baseline is never official
    with session_scope(sqlite_url) as s:
        grades = s.scalars(select(GradeRow)).all()
        assert all(g.verdict.startswith("Reference baseline") for g in grades)
        assert s.scalar(select(func.count()).select_from(LedgerEntryRow)) > 0
        run = s.get(RunRow, "r1")
        assert run.status == "complete" and len(run.manifest["calls"]) == 2


def test_prompts_are_anonymized_and_point_in_time(season, sqlite_url):
    _grade(season, sqlite_url)
    with session_scope(sqlite_url) as s:
        users = [p.user for p in s.scalars(select(PromptRow))]
    assert users
    for text in users:
        for leak in ("Model One", "Model Two", "gpt-4.1", "claude", "openai", "anthropic", "m1", "m2"):
            assert leak.lower() not in text.lower().replace("[model]", "")
        assert "OUTCOME — after the horizon" in text


def test_rerun_and_resume_never_pay_twice(season, sqlite_url):
    first = _grade(season, sqlite_url, panel_name="mock", run_id="a")
    again = _grade(season, sqlite_url, panel_name="mock", run_id="a")  # resume: nothing left to do
    other = _grade(season, sqlite_url, panel_name="mock", run_id="b")  # identical inputs: reused
    assert first.calls_sent == 6 and again.calls_sent == 0 and other.calls_sent == 0
    assert other.calls_reused == 6
    with session_scope(sqlite_url) as s:
        ok = s.execute(
            select(JudgeCallRow.cache_key, func.count())
            .where(JudgeCallRow.status == "ok")
            .group_by(JudgeCallRow.cache_key)
        ).all()
        assert ok and all(n == 1 for _, n in ok)
    a = {r["contestant_id"]: r["total"] for r in leaderboard_rows("a", db_url=sqlite_url)[1]}
    b = {r["contestant_id"]: r["total"] for r in leaderboard_rows("b", db_url=sqlite_url)[1]}
    assert a == b


def test_mock_panel_goes_through_every_sdk_and_is_labelled(season, sqlite_url):
    report = _grade(season, sqlite_url, panel_name="mock", run_type="official")
    assert report.run_type == "mock"
    with session_scope(sqlite_url) as s:
        calls = s.scalars(select(JudgeCallRow)).all()
        assert {c.provider for c in calls} == {"openai", "anthropic", "xai"}
        assert all(c.raw_reply and c.raw_reply_sha256 for c in calls)
        grades = s.scalars(select(GradeRow)).all()
        assert all("MOCK" in g.verdict for g in grades)
        by = {(g.judge_id, g.contestant_id): g.composite for g in grades}
    meta, rows = leaderboard_rows("r1", db_url=sqlite_url)
    assert meta["run_type"] == "mock" and not any(r["official_eligible"] for r in rows)
    assert len(by) == 6 and all(r["n_judges"] == 3 for r in rows)


def test_planted_bias_moves_only_the_biased_judge(season, sqlite_url):
    _grade(season, sqlite_url, panel_name="mock")
    with session_scope(sqlite_url) as s:
        from grader.storage import ContestantRow

        fam = {c.id: c.provider_family for c in s.scalars(select(ContestantRow))}
        g = {(x.judge_id, fam[x.contestant_id]): x.composite for x in s.scalars(select(GradeRow))}
    lift_openai = g[("mock-openai", "openai")] - g[("mock-openai", "anthropic")]
    lift_anthropic = g[("mock-anthropic", "openai")] - g[("mock-anthropic", "anthropic")]
    assert lift_openai - lift_anthropic > 5  # +10 planted, noise sd 4 per sub-score


def test_retries_are_linked_and_invalid_replies_kept(season, sqlite_url, tmp_path):
    panel = write_panel(
        tmp_path / "flaky.yaml", failures={"mock-openai": ["rate-limited:0.01", "malformed", "server-error:503"]}
    )
    report = _grade(season, sqlite_url, panel_name=str(panel))
    assert not report.gaps and report.attempts_failed == 6  # 3 failures × 2 contestants
    with session_scope(sqlite_url) as s:
        calls = s.scalars(
            select(JudgeCallRow).where(JudgeCallRow.judge_id == "mock-openai").order_by(JudgeCallRow.id)
        ).all()
        chains = {}
        for c in calls:
            chains.setdefault(c.contestant_id, []).append(c)
        for chain in chains.values():
            assert [c.status for c in chain] == ["error", "invalid", "error", "ok"]
            assert [c.error_kind for c in chain[:3]] == ["rate_limited", "format", "server"]
            assert chain[0].replaces_call_id is None
            assert all(chain[i].replaces_call_id == chain[i - 1].id for i in range(1, 4))
            assert chain[1].raw_reply and "{" in chain[1].raw_reply  # the malformed reply is stored
        assert s.scalar(select(func.count()).select_from(GradeRow)) == 6


def test_a_failing_judge_leaves_a_visible_gap(season, sqlite_url, tmp_path):
    panel = write_panel(tmp_path / "broken.yaml", failures={"mock-xai": ["malformed"] * 4})
    report = _grade(season, sqlite_url, panel_name=str(panel))
    assert len(report.gaps) == 2 and all("mock-xai" in g for g in report.gaps)
    meta, rows = leaderboard_rows("r1", db_url=sqlite_url)
    for r in rows:
        assert r["n_judges"] == 2 and r["flagged"] and r["total"] is not None
        assert "mock-xai" in r["details"]["panel"]["missing"]
    with session_scope(sqlite_url) as s:
        assert s.scalar(select(func.count()).select_from(GradeRow).where(GradeRow.judge_id == "mock-xai")) == 0
        assert (
            s.scalar(
                select(func.count())
                .select_from(JudgeCallRow)
                .where(JudgeCallRow.judge_id == "mock-xai", JudgeCallRow.status == "invalid")
            )
            == 8
        )


def test_real_panel_without_flag_is_a_dry_run(season, sqlite_url, monkeypatch):
    for k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "XAI_API_KEY"):
        monkeypatch.delenv(k, raising=False)
    report = _grade(season, sqlite_url, panel_name="frontier", run_type="official")
    assert report.dry_run and report.run_type == "dry-run" and report.calls_sent == 0
    with session_scope(sqlite_url) as s:
        calls = s.scalars(select(JudgeCallRow)).all()
        assert len(calls) == 6 and all(c.status == "dry_run" and c.raw_reply is None for c in calls)
        assert all(c.input_tokens > 0 for c in calls)
        assert s.get(RunRow, "r1").status == "dry-run"


def test_invalid_bundle_writes_nothing(season, sqlite_url):
    (season / "decisions.jsonl").write_text('{"contestant_id": "ghost"}\n')
    with pytest.raises(BundleError):
        _grade(season, sqlite_url)
    with session_scope(sqlite_url) as s:
        assert s.scalar(select(func.count()).select_from(SeasonRow)) == 0
        assert s.scalar(select(func.count()).select_from(RunRow)) == 0


def test_verify_names_what_changed(season, sqlite_url):
    _grade(season, sqlite_url, panel_name="mock")
    assert verify_run("r1", sqlite_url).ok
    prices = season / "market" / "prices.csv"
    prices.write_text(prices.read_text().replace("100.0000", "100.5000", 1))
    with session_scope(sqlite_url) as s:
        call = s.scalars(select(JudgeCallRow).where(JudgeCallRow.status == "ok")).first()
        call.raw_reply = call.raw_reply.replace("MOCK", "REAL", 1)
    problems = verify_run("r1", sqlite_url).problems
    assert any("market/prices.csv" in p and "changed" in p for p in problems)
    assert any("raw reply changed" in p for p in problems)


def test_rescore_weights_only_makes_no_call(season, sqlite_url, tmp_path):
    from rubric import VERSIONS_DIR

    _grade(season, sqlite_url, panel_name="mock")
    data = yaml.safe_load((VERSIONS_DIR / "v0.4.yaml").read_text())
    data["composite"] = {"reasoning": 30, "evidence": 45, "process": 15, "outcome": 10}
    data["version"] = "0.4-evidence-heavy"
    variant = tmp_path / "evidence-heavy.yaml"
    variant.write_text(yaml.safe_dump(data, sort_keys=False))
    before = {r["contestant_id"]: r["total"] for r in leaderboard_rows("r1", db_url=sqlite_url)[1]}
    result = rescore_run("r1", str(variant), sqlite_url)
    assert result.judge_calls == 0
    with session_scope(sqlite_url) as s:
        assert s.scalar(select(func.count()).select_from(ScoreVersionRow)) == 2
        calls = s.scalar(select(func.count()).select_from(JudgeCallRow))
    assert calls == 6  # unchanged: no call was made
    after = {r["contestant_id"]: r["total"] for r in leaderboard_rows("r1", db_url=sqlite_url)[1]}
    old = {r["contestant_id"]: r["total"] for r in leaderboard_rows("r1", version=1, db_url=sqlite_url)[1]}
    assert old == before and after != before
    data["instructions"] = data["instructions"] + "\nAlso grade vibes."
    changed = tmp_path / "judge-facing.yaml"
    changed.write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(RescoreNeedsRegrade) as err:
        rescore_run("r1", str(changed), sqlite_url)
    assert set(err.value.judges) == {"mock-openai", "mock-anthropic", "mock-xai"}


def test_run_id_reuse_with_other_inputs_is_refused(season, sqlite_url):
    from grader.panel import RunError

    _grade(season, sqlite_url)
    with pytest.raises(RunError, match="exists with other inputs"):
        _grade(season, sqlite_url, rubric_name="v0.3")


def test_stability_repeats_differ_and_are_stored(season, sqlite_url):
    _grade(season, sqlite_url, panel_name="mock", repeats=3, run_type="stability")
    with session_scope(sqlite_url) as s:
        grades = s.scalars(select(GradeRow).where(GradeRow.judge_id == "mock-openai")).all()
        assert sorted({g.repeat for g in grades}) == [0, 1, 2]
        per = {}
        for g in grades:
            per.setdefault(g.contestant_id, set()).add(round(g.composite, 6))
        assert all(len(v) > 1 for v in per.values())


def test_capitalbench_season_grades_offline(sqlite_url):
    season = Path(__file__).resolve().parents[2] / "seasons" / "cb-2026-06-1w"
    report = _grade(season, sqlite_url, run_id="cb")
    assert report.calls_sent == 6 and not report.gaps
    meta, rows = leaderboard_rows("cb", db_url=sqlite_url)
    assert len(rows) == 6 and all(r["return"] is not None for r in rows)


def test_every_provider_recovers_from_every_failure_mode(season, sqlite_url, tmp_path):
    """429 storms, 5xx, malformed and truncated JSON, slow replies past the timeout — per provider, through
    the real SDKs — are retried (linked attempts) and end in valid grades; nothing is scored twice."""
    panel = write_panel(
        tmp_path / "storm.yaml",
        failures={
            "mock-openai": ["rate-limited:0.01", "truncated", "server-error:500"],
            "mock-anthropic": ["server-error:503", "malformed", "rate-limited:0.01"],
            "mock-xai": ["slow:6", "rate-limited:0.01", "server-error:503"],
        },
    )
    data = yaml.safe_load(panel.read_text())
    for judge in data["judges"]:  # only the xai judge is meant to time out (the slow reply)
        judge["timeout_s"] = 2.0 if judge["provider"] == "xai" else 30.0
    data["retry"]["max_attempts"] = 4
    panel.write_text(yaml.safe_dump(data, sort_keys=False))
    report = _grade(season, sqlite_url, panel_name=str(panel))
    assert not report.gaps, report.gaps
    with session_scope(sqlite_url) as s:
        kinds = {}
        for c in s.scalars(select(JudgeCallRow).order_by(JudgeCallRow.id)):
            kinds.setdefault(c.judge_id, []).append(c.error_kind)
        assert s.scalar(select(func.count()).select_from(GradeRow)) == 6
    assert kinds["mock-openai"].count("rate_limited") == 2 and kinds["mock-openai"].count("format") == 2
    assert kinds["mock-anthropic"].count("server") == 2 and kinds["mock-anthropic"].count("format") == 2
    assert kinds["mock-xai"].count("timeout") == 2 and kinds["mock-xai"].count("server") == 2
