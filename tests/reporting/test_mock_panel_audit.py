"""Known answer, end to end: the mock panel's planted +10 own-family bias (OpenAI-family judge) is flagged
for that judge, from a real mock run (fakes + real SDK clients + storage + audits).

With the panel's seeded noise (sd 4 per sub-score, one draw per judge, contestant and repeat) an unbiased judge is
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
    grade_season(_season(tmp_path), rubric_name="v0.4", panel_name="mock", run_id="mock", db_url=db, progress=False)
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
    grade_season(
        _season(tmp_path), rubric_name="v0.4", panel_name=str(panel_path), run_id="quiet", db_url=db, progress=False
    )
    result = self_preference(collect_audit_inputs("quiet", db).scores)
    flagged = {j.judge_id for j in result.judges if j.flagged}
    assert flagged == {"mock-openai"}
    for judge in result.judges:
        if judge.judge_id != "mock-openai":
            assert abs(judge.loo_gap) < 1e-9


def test_the_demo_run_flags_the_planted_judge_and_no_other(tmp_path):
    """The README's claim about `make demo`'s 12-contestant run (scripts/demo.sh: 12 x 15, seed 1, the shipped mock
    panel, 3 repeats): the self-preference audit flags the OpenAI-family judge and no other. An unbiased judge can
    only be flagged by the chance of the noise draw (the noise-free test above shows no leak); the draw is per
    judge, contestant and repeat, so it holds whatever the prompts' wording."""
    db = f"sqlite:///{tmp_path / 'demo.db'}"
    grade_season(
        _season(tmp_path), rubric_name="v0.4", panel_name="mock", run_id="demo", db_url=db, progress=False, repeats=3
    )
    result = self_preference(collect_audit_inputs("demo", db).scores)
    assert {j.judge_id for j in result.judges if j.flagged} == {"mock-openai"}
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "the self-preference audit flags that judge and no other" in " ".join(readme.split())


def test_mock_noise_is_drawn_per_contestant_not_per_prompt_wording():
    """A reworded prompt of the same contestant gets the same scripted grade: the noise does not move with text."""
    from grader.fakes import FakeRequest
    from grader.panel import load_panel
    from grader.panel._mock import MockGrades, mock_script

    panel = load_panel("mock")
    judge = next(j for j in panel.judges if j.judge_id == "mock-anthropic")
    reference = {
        "reasoning": {"sub_scores": {"a": 50, "b": 60}},
        "evidence": {"sub_scores": {"c": 40}},
        "outcome": {"score": 55},
        "data_reliability": {"score": 70},
    }
    grades = MockGrades()
    grades.add("sys", "record, first wording", "anthropic", reference, subject="m1")
    grades.add("sys", "record, second wording", "anthropic", reference, subject="m1")
    grades.add("sys", "another contestant", "anthropic", reference, subject="m2")
    script = mock_script(judge, panel, grades)

    def reply(user: str) -> str:
        request = FakeRequest(
            provider="anthropic",
            endpoint="messages",
            model="m",
            system="sys",
            user=user,
            schema={},
            schema_name="g",
            strict=True,
            max_output_tokens=None,
            temperature=None,
            headers={},
            body={},
        )
        return script(request).json_text

    assert reply("record, first wording") == reply("record, second wording")
    assert reply("record, first wording") != reply("another contestant")
