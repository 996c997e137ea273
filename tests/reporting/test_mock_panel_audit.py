"""Known answer, end to end: the mock panel's planted +10 own-family bias (OpenAI-family judge) is flagged
for that judge, from a real mock run (fakes + real SDK clients + storage + audits).

With the panel's seeded noise (sd 4 per sub-score, one draw per contestant prompt) an unbiased judge is
flagged by chance at the test's level (about 1 run in 66 for a family with two contestants), so "no other
judge is flagged" is asserted on a noise-free copy of the panel, where an unbiased judge's gap is exactly
zero and any flag would be a real leak of the contestant's family into its grades."""

from __future__ import annotations

from pathlib import Path

import yaml

from audits import build_report, self_preference, write_report
from grader.demo import build_synthetic_season
from grader.panel import grade_season
from grader.reporting import collect_audit_inputs, real_claims_section

MOCK_PANEL = Path(__file__).resolve().parents[2] / "grader" / "panel" / "panels" / "mock.yaml"


def _season(tmp_path: Path) -> Path:
    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=12, n_days=15, seed=1)
    return season


def test_planted_bias_flagged_in_the_default_mock_run(tmp_path):
    db = f"sqlite:///{tmp_path / 'audit.db'}"
    grade_season(_season(tmp_path), rubric_name="v0.4", panel_name="mock", run_id="mock", db_url=db,
                 progress=False)
    inputs = collect_audit_inputs("mock", db)
    by_judge = {j.judge_id: j for j in self_preference(inputs.scores).judges}
    assert by_judge["mock-openai"].flagged
    assert by_judge["mock-openai"].loo_gap > 3.0  # +10 per sub-score, clipped at 100
    out = write_report(build_report(inputs), tmp_path / "report")
    html = out["html"].read_text()
    assert "MOCK PANEL" in html and "mock-openai" in html
    summary, _examples = real_claims_section("mock", db)
    assert summary is None  # a mock run has no reference-judge ledger of its own


def test_only_the_biased_judge_is_flagged_without_noise(tmp_path):
    panel = yaml.safe_load(MOCK_PANEL.read_text())
    panel["mock"]["noise_sd"] = 0.0
    panel_path = tmp_path / "mock-noise-free.yaml"
    panel_path.write_text(yaml.safe_dump(panel))
    db = f"sqlite:///{tmp_path / 'audit.db'}"
    grade_season(_season(tmp_path), rubric_name="v0.4", panel_name=str(panel_path), run_id="quiet", db_url=db,
                 progress=False)
    result = self_preference(collect_audit_inputs("quiet", db).scores)
    flagged = {j.judge_id for j in result.judges if j.flagged}
    assert flagged == {"mock-openai"}
    for judge in result.judges:
        if judge.judge_id != "mock-openai":
            assert abs(judge.loo_gap) < 1e-9
