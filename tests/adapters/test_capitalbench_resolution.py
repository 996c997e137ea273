"""Rounds as CapitalBench publishes them: resolved, pending (scoring job scheduled), never resolved (cancelled
upstream), and a pending round that resolves later; portfolio-v3.0 submissions whose per-holding texts are
the platform's template."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from grader.adapters import compose_rationale, import_capitalbench_with_summary
from grader.adapters.capitalbench import Submission
from grader.cli import app
from grader.season import load_bundle
from ledgers import TEMPLATE_MARK, extract_claims
from tests.adapters.cb_helpers import rounds_dir

RESOLVED, PENDING, CANCELLED = "CB-2026-06-02-1W", "CB-2026-06-05-1W", "CB-2026-06-12-1W"


def _job(rd: Path, status: str, last_error: str = "") -> None:
    job = yaml.safe_load((rd / "automation" / "resolution_job.yaml").read_text())
    job.update(status=status, last_error=last_error)
    (rd / "automation" / "resolution_job.yaml").write_text(yaml.safe_dump(job))


@pytest.fixture
def published(tmp_path: Path) -> Path:
    """Three real rounds as they would look mid-way: one resolved, one whose scoring job is still scheduled
    (no exit prices yet), one cancelled upstream after its run (no price files at all)."""
    src = tmp_path / "rounds"
    for rid in (RESOLVED, PENDING, CANCELLED):
        shutil.copytree(rounds_dir() / rid, src / rid)
    (src / PENDING / "prices" / "exit_prices.csv").rename(tmp_path / "exit_later.csv")
    _job(src / PENDING, "scheduled")
    shutil.rmtree(src / CANCELLED / "prices")
    _job(src / CANCELLED, "cancelled", "excluded from scoring: only 4 of 8 production models")
    return src


def test_pending_and_cancelled_rounds_import_with_their_status_and_why(published: Path, tmp_path: Path):
    summary = import_capitalbench_with_summary(published, "1W", None, None, tmp_path / "b")
    status = {s.round_id: s for s in summary.statuses}
    assert [status[r].status for r in (RESOLVED, PENDING, CANCELLED)] == ["resolved", "pending", "never resolved"]
    assert "scheduled" in status[PENDING].why and "outcome withheld" in status[PENDING].why
    assert "only 4 of 8 production models" in status[CANCELLED].why
    text = "\n".join(summary.lines())
    assert "1 resolved, 1 pending, 1 never resolved" in text
    bundle = load_bundle(tmp_path / "b")
    assert {r.id: r.exit_date is None for r in bundle.info.rounds} == {RESOLVED: False, PENDING: True, CANCELLED: True}
    assert {d.round_id for d in bundle.decisions} == {RESOLVED, PENDING, CANCELLED}


def test_unresolved_decisions_are_graded_with_the_outcome_weight_redistributed(
    published: Path, tmp_path: Path, monkeypatch
):
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'g.db'}")
    import_capitalbench_with_summary(published, "1W", None, None, tmp_path / "b", round_ids=[PENDING])
    runner = CliRunner()
    out = runner.invoke(app, ["grade", str(tmp_path / "b"), "--panel", "reference", "--run-id", "p", "--quiet"])
    assert out.exit_code == 0, out.output
    from grader.panel.leaderboard import leaderboard_rows

    rows = leaderboard_rows("p")[1]
    assert rows and all(r["outcome_axis"] is None for r in rows), rows  # no judge saw an outcome section
    from sqlalchemy import select

    from grader.storage import GradeRow, session_scope

    with session_scope() as s:
        grades = s.scalars(select(GradeRow).where(GradeRow.run_id == "p")).all()
    assert grades and all(g.outcome is None for g in grades)
    for g in grades:  # 40:35 of the outcome's 10 points go to reasoning and evidence
        expected = (40 + 10 * 40 / 75) / 100 * g.reasoning + (35 + 10 * 35 / 75) / 100 * g.evidence + 0.15 * g.process
        assert g.composite == pytest.approx(expected, abs=0.06)


def test_a_pending_round_that_resolves_later_gets_its_outcomes(published: Path, tmp_path: Path):
    first = import_capitalbench_with_summary(published, "1W", None, None, tmp_path / "b", round_ids=[PENDING])
    assert first.statuses[0].status == "pending"
    shutil.copy(tmp_path / "exit_later.csv", published / PENDING / "prices" / "exit_prices.csv")
    _job(published / PENDING, "succeeded")
    again = import_capitalbench_with_summary(
        published, "1W", None, None, tmp_path / "b", round_ids=[PENDING], overwrite=True
    )
    assert again.statuses[0].status == "resolved"
    bundle = load_bundle(tmp_path / "b")
    assert bundle.info.rounds[0].exit_date is not None
    prices = (tmp_path / "b" / "market" / "round_prices.csv").read_text().splitlines()
    assert all(line.split(",")[3] for line in prices[1:] if line.split(",")[1] == "SP500")


def test_cli_round_and_season_id(published: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    out = CliRunner().invoke(
        app,
        [
            "import-capitalbench",
            str(published),
            "--track",
            "1W",
            "--round",
            PENDING,
            "--round",
            RESOLVED,
            "--season-id",
            "mine",
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert out.exit_code == 0, out.output
    assert "season mine" in out.output and PENDING in out.output and "pending" in out.output
    assert {r.id for r in load_bundle(tmp_path / "c").info.rounds} == {PENDING, RESOLVED}


def _v3(sub: dict) -> dict:
    """A portfolio-v3.0 submission (mid-August format, docs: data/capitalbench/README.md) from a v2.2 one."""
    holdings = sub["portfolio"]
    sub["metadata"] = {
        "portfolio_v3": {
            "market_rationale": "Energy leads on the oil shock; dispersion is high, so SPY is not preferred.",
            "dominant_pattern": "commodity_shock",
            "dispersion_state": "high",
            "prefer_spy": False,
            "top3_option_ids": [h["option_id"] for h in holdings[:3]],
            "candidate_assessments": [
                {
                    "option_id": h["option_id"],
                    "rank": i + 1,
                    "mechanism": "Supply shock passes through to earnings.",
                    "evidence": ["Sector +5.76% active over 5 sessions."],
                    "recent_return_interpretation": "continuation",
                    "p_beat_spy_pct": 58,
                    "p_top3_pct": 35,
                    "excess_return_p10_pct": -2.0,
                    "excess_return_p50_pct": 0.6,
                    "excess_return_p90_pct": 3.1,
                }
                for i, h in enumerate(holdings)
            ],
        }
    }
    sub["rationale_summary"] = sub["metadata"]["portfolio_v3"]["market_rationale"]
    for i, h in enumerate(holdings):
        h["rationale"] = f"V3 selected model rank {i + 1}: deterministic slot weight {h['allocation_pct']}%."
    return sub


def test_v3_submissions_carry_the_models_own_reasoning_and_mark_the_template():
    path = next((rounds_dir() / "CB-2026-07-22-1W").glob("runs/*/submissions/parsed/openai-gpt-5-5.json"))
    sub = Submission.model_validate(_v3(json.loads(path.read_text())))
    text = compose_rationale(sub, {"ENERGY": "Energy Sector"})
    assert "Energy leads on the oil shock" in text and "Candidate assessments:" in text
    assert "probability of beating SPY 58%" in text and "Forecast excess return vs SPY: base case +0.6%" in text
    template = [line for line in text.splitlines() if "V3 selected model rank" in line]
    assert template and all(TEMPLATE_MARK in line for line in template)
    claims = extract_claims(text, datetime(2026, 7, 23, 9, 30, tzinfo=UTC), None, {"ENERGY": "Energy Sector"})
    assert claims and not [c for c in claims if "slot weight" in c.text or "V3 selected" in c.text]
    assert {c.assertions[0].rule for c in claims if "58%" in c.text} <= {"probability"}


def test_rescore_says_who_needs_a_regrade_when_a_pending_round_resolves(published: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'g.db'}")
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()
    bundle_dir = tmp_path / "b"
    import_capitalbench_with_summary(published, "1W", None, None, bundle_dir, round_ids=[PENDING])
    assert runner.invoke(app, ["grade", str(bundle_dir), "--panel", "mock", "--run-id", "p", "--quiet"]).exit_code == 0
    # nothing changed yet: the plan says so and the re-score goes ahead
    same = runner.invoke(app, ["rescore", "--run", "p", "--rubric", "v0.4", "--season", str(bundle_dir)])
    assert same.exit_code == 0 and "0 contestant(s) need a re-grade" in same.output and "judge calls: 0" in same.output
    # the round resolves upstream; importing again adds its outcomes
    shutil.copy(tmp_path / "exit_later.csv", published / PENDING / "prices" / "exit_prices.csv")
    _job(published / PENDING, "succeeded")
    import_capitalbench_with_summary(published, "1W", None, None, bundle_dir, round_ids=[PENDING], overwrite=True)
    plan = runner.invoke(app, ["rescore", "--run", "p", "--rubric", "v0.4", "--season", str(bundle_dir)])
    assert plan.exit_code == 2, plan.output
    assert "5 contestant(s) need a re-grade" in plan.output
    assert "its outcome section changed (was pending; a round it decided in has resolved)" in plan.output
    assert "re-grade needed" in plan.output
