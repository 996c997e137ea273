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


def _every_fifth_session(tmp_path):
    """A 2-contestant synthetic season deciding every 5th session (each contestant's first decision keeps its buys,
    the later ones hold), graded by the reference judge as run "r"."""
    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=2, n_days=40, seed=2)
    lines = [json.loads(line) for line in (season / "decisions.jsonl").read_text().splitlines() if line.strip()]
    kept, seen = [], {}
    for d in lines:
        i = seen.get(d["contestant_id"], 0)
        seen[d["contestant_id"]] = i + 1
        if i % 5 == 0:
            kept.append({**d, "trades": d["trades"] if i == 0 else []})
    (season / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in kept))
    db = f"sqlite:///{tmp_path / 'r.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="r", db_url=db, progress=False)
    return season, db


def test_var_and_cvar_one_day_and_over_the_decision_interval_reach_readers_and_judges(tmp_path, monkeypatch):
    """Issue 31: the spec asks for VaR and CVaR, one-day and over the decision interval. The report's risk table,
    the contestant page and the judges' whole-record summary each show all four; the figures are the decisions'
    own estimates averaged (checked against the per-decision table)."""
    import pandas as pd

    from grader.reporting import contestant_risk_table

    season, db = _every_fifth_session(tmp_path)
    info = yaml.safe_load((season / "season.yaml").read_text())
    risk = run_risk_evidence("r", db)
    horizon = risk["horizon_sessions"]
    assert horizon > 1, info  # the synthetic season decides every few sessions
    for r in risk["contestants"]:
        assert r["cvar_1d_mean"] <= r["var_1d_mean"] < 0 and r["cvar_h_mean"] <= r["var_h_mean"]
        assert r["horizon"] == horizon
    md = write_report(
        build_report(collect_audit_inputs("r", db).model_copy(update={"risk": risk})), tmp_path / "report"
    )["markdown"].read_text()
    assert (
        "| Mean VaR95 1d | Mean CVaR95 1d | Mean VaR95 "
        f"{horizon}d (decision interval) | Mean CVaR95 "
        f"{horizon}d (decision interval) |" in md
    )
    first = risk["contestants"][0]
    assert f"{first['cvar_h_mean'] * 100:+.2f}%" in md

    from sqlalchemy import select

    from grader.storage import ContestantRow, PromptRow, session_scope

    with session_scope(db) as s:
        row = s.scalar(select(ContestantRow).where(ContestantRow.display_name == first["contestant"]))
        users = [p.user for p in s.scalars(select(PromptRow))]
    table, _ = contestant_risk_table(row.id, db)
    assert {"VaR95 1d", "CVaR95 1d", "VaR95 horizon", "CVaR95 horizon"} <= set(table.columns)
    assert pd.Series(table["CVaR95 horizon"]).mean() == __import__("pytest").approx(first["cvar_h_mean"])
    summary = [line for u in users for line in u.splitlines() if line.startswith("Risk at the decisions")]
    assert summary and all(
        "CVaR95" in line and f"over the decision interval ({horizon} sessions)" in line for line in summary
    )


def test_the_leaderboards_show_each_contestants_var_and_cvar(tmp_path, monkeypatch):
    """Issue 31: CVaR reached the report and the contestant page but not the leaderboard. The CLI leaderboard and the
    console's leaderboard frame show each contestant's mean VaR95 / CVaR95, one-day and over the decision interval,
    the same means as the report's risk table; a rounds season (no daily prices) has no such column."""
    from typer.testing import CliRunner

    from console._queries import leaderboard
    from grader.cli import app

    _, db = _every_fifth_session(tmp_path)
    risk = run_risk_evidence("r", db)
    horizon = risk["horizon_sessions"]
    assert horizon > 1
    cells = {
        r["contestant"]: f"1d {r['var_1d_mean'] * 100:+.2f}% / {r['cvar_1d_mean'] * 100:+.2f}% · {horizon}d "
        f"{r['var_h_mean'] * 100:+.2f}% / {r['cvar_h_mean'] * 100:+.2f}%"
        for r in risk["contestants"]
    }
    _, frame = leaderboard("r", db)
    assert dict(zip(frame["contestant"], frame["risk"], strict=True)) == cells

    monkeypatch.setenv("GRADER_DATABASE_URL", db)
    out = CliRunner().invoke(app, ["leaderboard", "--run", "r"], env={"COLUMNS": "400"})
    assert out.exit_code == 0, out.output
    assert "VaR / CVaR95" in out.output and "mean historical VaR95 and CVaR95 over one session (1d)" in " ".join(
        out.output.split()
    )
    rows: list[list[list[str]]] = []  # the table's rows, each its lines' cells (a row starts where "#" is set)
    for line in out.output.splitlines():
        parts = [c.strip() for c in line.split("│")[1:-1]]
        if len(parts) > 2:
            if parts[0]:
                rows.append([])
            if rows:
                rows[-1].append(parts)
    for name, cell in cells.items():  # the process cell of each row ends with its VaR / CVaR95 lines
        row = next(r for r in rows if " ".join(line[1] for line in r).startswith(name[:12]))
        process = [line[-1] for line in row]
        assert "VaR / CVaR95" in process, process
        assert process[process.index("VaR / CVaR95") + 1 :] == cell.split(" · "), process

    url = f"sqlite:///{tmp_path / 'rounds.db'}"
    grade_season(ROUNDS_SEASON, rubric_name="v0.4", panel_name="reference", run_id="cb", db_url=url, progress=False)
    _, frame = leaderboard("cb", url)
    assert set(frame["risk"]) == {"—"}
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    out = CliRunner().invoke(app, ["leaderboard", "--run", "cb"], env={"COLUMNS": "400"})
    assert out.exit_code == 0, out.output
    assert "CVaR95" not in out.output


def test_the_contestant_page_reads_the_risk_facts_the_process_facts_computed(tmp_path):
    """Issue 33: the console's warm-up computes every contestant's risk facts for the process facts (their means); the
    contestant page's risk table reads those (not computed again), and its outcome lines measure against the season's
    baselines computed once: the same table and lines as computed afresh."""
    from sqlalchemy import select

    from grader.reporting import contestant_risk_table, run_process_facts
    from grader.reporting._bundles import (
        cached_bundle,
        cached_contestant_risks,
        cached_interval,
        cached_market,
        cached_replays,
    )
    from grader.risk import contestant_risk, season_risk
    from grader.storage import ContestantRow, session_scope

    season, db = _every_fifth_session(tmp_path)
    facts = run_process_facts("r", db)
    bundle = cached_bundle(season)
    risks = cached_contestant_risks(bundle)
    assert sorted(risks.computed) == sorted(facts) and len(facts) > 1
    kept = {key: risks[key] for key in facts}
    with session_scope(db) as s:
        rows = {c.contestant_key: c.id for c in s.scalars(select(ContestantRow))}
    replays = cached_replays(bundle)
    for key, row_id in rows.items():
        table, lines = contestant_risk_table(row_id, db)
        assert risks[key] is kept[key]  # read, not computed again
        fresh = contestant_risk(
            bundle, key, market=cached_market(bundle), horizon=cached_interval(bundle), nav=replays[key].nav
        )
        assert table["VaR95 1d"].tolist() == [d.var_1d.var if d.var_1d else None for d in fresh.decisions]
        assert table["CVaR95 horizon"].tolist() == [d.var_h.cvar if d.var_h else None for d in fresh.decisions]
        outcome = season_risk(bundle, {key: replays[key]}, market=cached_market(bundle))[key]
        assert lines == outcome.lines() and lines
