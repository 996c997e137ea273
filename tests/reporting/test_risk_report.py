"""PortBench's risk evidence in the report: computed from the run's season, decision figures always, outcomes
(baselines, stress windows, the drawdown gate) withheld while pending; a rounds season says what it cannot
compute."""

from __future__ import annotations

import json

import yaml

from audits import build_report, write_report
from grader.demo import build_synthetic_season
from grader.panel import grade_season
from grader.reporting import collect_audit_inputs, run_risk_evidence
from tests.reporting.test_real_season_report import SEASON as ROUNDS_SEASON


def test_trading_season_report_shows_risk_evidence(tmp_path):
    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=3, n_days=30, seed=2)
    info = yaml.safe_load((season / "season.yaml").read_text())
    info["investor_profile"] = "conservative"
    (season / "season.yaml").write_text(yaml.safe_dump(info, sort_keys=False))
    db = f"sqlite:///{tmp_path / 'r.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="r", db_url=db, progress=False)
    risk = run_risk_evidence("r", db)
    assert risk["profile"]["name"] == "conservative" and len(risk["contestants"]) == 3
    assert all(r["var_1d_mean"] < 0 and 0 <= r["correlation_score_mean"] <= 1 for r in risk["contestants"])
    assert all("drawdown_gate_passed" in r for r in risk["contestants"])
    assert {b["baseline"] for b in risk["baselines"]} == {"equal weight", "60/40", "inverse volatility"}
    assert risk["stress"] and risk["stress"][0]["window"] == "2015 China shock"  # synthetic dates start 2015

    inputs = collect_audit_inputs("r", db).model_copy(update={"risk": risk})
    out = write_report(build_report(inputs), tmp_path / "report")
    md = out["markdown"].read_text()
    assert "## Risk evidence (PortBench)" in md and "Investor profile conservative" in md
    assert "| equal weight |" in md and "2015 China shock" in md and "Drawdown gate" in md
    saved = json.loads(out["json"].read_text())["risk"]
    assert saved["contestants"] == json.loads(json.dumps(risk["contestants"]))

    pending = inputs.model_copy(update={"meta": inputs.meta.model_copy(update={"season_status": "pending"})})
    withheld = build_report(pending).risk
    assert withheld.baselines == [] and withheld.stress == []
    assert all("max_drawdown" not in r and r["var_1d_mean"] is not None for r in withheld.contestants)


def test_rounds_season_report_says_what_is_not_computed(tmp_path):
    db = f"sqlite:///{tmp_path / 'cb.db'}"
    grade_season(ROUNDS_SEASON, rubric_name="v0.4", panel_name="reference", run_id="cb", db_url=db, progress=False)
    risk = run_risk_evidence("cb", db)
    assert risk["format"] == "rounds" and risk["baselines"] == []
    assert all(r["var_1d_mean"] is None for r in risk["contestants"])
    inputs = collect_audit_inputs("cb", db).model_copy(update={"risk": risk})
    md = write_report(build_report(inputs), tmp_path / "report")["markdown"].read_text()
    section = md.split("## Risk evidence (PortBench)", 1)[1].split("\n## ", 1)[0]
    assert "not a daily price series" in section and "| Contestant |" not in section
