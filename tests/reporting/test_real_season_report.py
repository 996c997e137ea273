"""The real CapitalBench season graded offline: the report names real models, real claims and the attribution."""

from __future__ import annotations

from pathlib import Path

from audits import build_report, write_report
from grader.panel import grade_season
from grader.reporting import collect_audit_inputs, real_claims_section, round_outcome_rows, run_identity_probe

SEASON = Path(__file__).resolve().parents[2] / "seasons" / "cb-2026-06-1w"


def test_real_season_report(tmp_path):
    db = f"sqlite:///{tmp_path / 'cb.db'}"
    grade_season(SEASON, rubric_name="v0.4", panel_name="reference", run_id="cb", db_url=db, progress=False)
    summary, examples = real_claims_section("cb", db)
    assert summary["numeric_checked_against_fields"] > 100
    assert summary["supported"] > 100 and summary["briefing_only"] > 0
    assert any(e["status"] == "supported" and e["checked_against"] != "—" for e in examples)
    rounds = round_outcome_rows("cb", db)
    assert rounds and {r["status"] for r in rounds} == {"resolved"} and all("%" in r["allocation"] for r in rounds)
    probe = run_identity_probe("cb", db)  # style gives the family away on real rationales
    assert probe is not None and probe.accuracy > 0.9 and probe.p_value < 1e-6 and len(probe.families) == 4
    inputs = collect_audit_inputs("cb", db).model_copy(
        update={"claims_summary": summary, "examples": examples, "round_outcomes": rounds, "identity_probe": probe}
    )
    html = write_report(build_report(inputs), tmp_path / "report")["html"].read_text()
    for text in (
        "CapitalBench",
        "Ishtiaq Rahman",
        "CC BY 4.0",
        "GPT-5.5",
        "Claude Opus 4.8",
        "Gemini 3.1 Pro",
        "Grok 4.3",
        "Claims in real rationales",
        "REFERENCE BASELINE",
        "Outcome per round",
        "Can a judge tell who wrote this?",
        "CB-2026-06-24-1W",
    ):
        assert text in html, text
    assert examples[0]["claim"] in html
