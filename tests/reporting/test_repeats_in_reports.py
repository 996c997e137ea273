"""A run with stability repeats: grounding counts the main grading once, repeats apart; rank confidence names
the panel and the repeats as its sources of variation."""

from __future__ import annotations

from sqlalchemy import func, select

from audits import build_report, render_markdown
from grader.demo import build_synthetic_season
from grader.panel import grade_season
from grader.reporting import collect_audit_inputs
from grader.storage import GradeRow, LedgerEntryRow, session_scope


def test_repeats_are_reported_apart_and_feed_rank_confidence(tmp_path):
    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=5, n_days=6, seed=5)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="r", db_url=db, repeats=3, progress=False)
    with session_scope(db) as s:
        main_claims = s.scalar(
            select(func.count())
            .select_from(LedgerEntryRow)
            .join(GradeRow, GradeRow.id == LedgerEntryRow.grade_id)
            .where(GradeRow.repeat == 0, LedgerEntryRow.judge_id == "mock-openai")
        )
        all_claims = s.scalar(
            select(func.count()).select_from(LedgerEntryRow).where(LedgerEntryRow.judge_id == "mock-openai")
        )
    assert all_claims > main_claims > 0
    report = build_report(collect_audit_inputs("r", db), n_boot_rank=300)
    by_judge = {j.judge_id: j for j in report.grounding.judges}
    assert by_judge["mock-openai"].n_claims == main_claims
    assert {j.judge_id: j.n_claims for j in report.grounding.repeats}["mock-openai"] == all_claims - main_claims
    assert report.rank_confidence.sources == [
        "panel: the run's 3 judges resampled with replacement",
        "repeats: one of up to 3 gradings per judge and record, drawn at random",
    ]
    md = render_markdown(report)
    assert "Stability repeats, counted apart" in md and "Not covered: the sampling of decisions" in md
