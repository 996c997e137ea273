"""Known answer, end to end: the mock panel's planted +10 own-family bias (OpenAI-family judge) is flagged
for that judge and no other, from a real mock run (fakes + real SDK clients + storage + audits)."""

from __future__ import annotations

from audits import build_report, self_preference, write_report
from grader.demo import build_synthetic_season
from grader.panel import grade_season
from grader.reporting import collect_audit_inputs, real_claims_section


def test_planted_bias_flagged_for_that_judge_only(tmp_path):
    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=12, n_days=15, seed=1)
    db = f"sqlite:///{tmp_path / 'audit.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="mock", db_url=db, progress=False)
    inputs = collect_audit_inputs("mock", db)
    result = self_preference(inputs.scores)
    flagged = {j.judge_id for j in result.judges if j.flagged}
    assert flagged == {"mock-openai"}
    out = write_report(build_report(inputs), tmp_path / "report")
    html = out["html"].read_text()
    assert "MOCK PANEL" in html and "mock-openai" in html
    summary, examples = real_claims_section("mock", db)
    assert summary is None  # a mock run has no reference-judge ledger of its own
