"""PortBench's risk evidence of a stored run's season, for the report and the console's contestant page.

Decision figures (VaR, correlation score, profile alignment) are point-in-time and shown always; season figures
(baselines, stress windows, the drawdown gate) are outcomes and are left out while the season is pending.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from grader.storage import ContestantRow, RunRow, SeasonRow, session_scope


def _facts(source: Path | str):
    from grader.replay import replay_season
    from grader.risk import decision_interval, season_profile, season_risk_facts
    from grader.season import load_bundle

    bundle = load_bundle(source)
    replays = replay_season(bundle) if bundle.info.format == "trading" else {}
    return bundle, season_risk_facts(bundle, replays), decision_interval(bundle), season_profile(bundle.info)


def season_risk_evidence(source: Path | str, *, pending: bool = False) -> dict[str, Any]:
    """The risk evidence of a season bundle as JSON-safe tables (display names, never anonymized labels)."""
    from grader.risk import LOOKBACK_SESSIONS, VAR_LEVEL

    bundle, facts, horizon, profile = _facts(source)
    names = {c.id: c.display_name for c in bundle.contestants}
    contestants: list[dict[str, Any]] = []
    stress: list[dict[str, Any]] = []
    baselines: list[dict[str, Any]] = []
    for cid, risk in sorted(facts.items(), key=lambda kv: names[kv[0]]):
        s = risk.summary()
        row: dict[str, Any] = {"contestant": names[cid], **s}
        season = risk.season
        if season is not None and not pending:
            row["max_drawdown"] = season.max_drawdown
            row["drawdown_gate_passed"] = season.drawdown_gate_passed
            if not baselines:
                baselines = [
                    {"baseline": name, **fig, "note": season.baseline_notes.get(name, "")}
                    for name, fig in season.baselines.items()
                ]
            for st in season.stress:
                stress.append(
                    {
                        "window": st.name,
                        "first": st.portfolio.first.isoformat(),
                        "last": st.portfolio.last.isoformat(),
                        "sessions": st.portfolio.sessions,
                        "contestant": names[cid],
                        "return": st.portfolio.path_return,
                        "drawdown": st.portfolio.drawdown,
                        "equal_weight_return": st.equal_weight.path_return if st.equal_weight else None,
                        "equal_weight_drawdown": st.equal_weight.drawdown if st.equal_weight else None,
                        "benchmark_return": st.benchmark.path_return if st.benchmark else None,
                        "benchmark_drawdown": st.benchmark.drawdown if st.benchmark else None,
                        "source": st.source,
                    }
                )
        contestants.append(row)
    notes = [
        f"VaR{VAR_LEVEL * 100:.0f} by historical simulation over the {LOOKBACK_SESSIONS} daily returns up to "
        f"the last close before each decision; the decision interval is {horizon} session(s)."
    ]
    if bundle.info.format == "rounds":
        notes.append(
            "A rounds season carries each round's entry and exit closes, not a daily price series: VaR and "
            "the correlation score are not computed; class weights and the profile's weight limits are."
        )
    if pending:
        notes.append("Season pending: baselines, stress windows and the drawdown gate (outcomes) are withheld.")
    return {
        "format": bundle.info.format,
        "horizon_sessions": horizon,
        "profile": None if profile is None else profile.model_dump(),
        "contestants": contestants,
        "baselines": baselines,
        "stress": stress,
        "notes": notes,
    }


def run_risk_evidence(run_id: str, db_url: str | None = None, *, pending: bool = False) -> dict[str, Any] | None:
    """The evidence for a stored run's season (None when its bundle moved or is no longer valid)."""
    from grader.season import BundleError

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            return None
        season = s.get(SeasonRow, run.season_id)
        if season is None:
            raise KeyError(f"run {run_id}: no season row {run.season_id}")
        source = season.source_path
    try:
        return season_risk_evidence(source, pending=pending)
    except (BundleError, OSError, ValueError):
        return None


def contestant_risk_table(contestant_row_id: int, db_url: str | None = None) -> tuple[pd.DataFrame, list[str]]:
    """One contestant's risk facts per decision (point-in-time) and its season risk lines (outcomes of a trading
    season; a rounds season has none), for the console's contestant page."""
    from grader.reporting._bundles import (
        cached_bundle,
        cached_contestant_risks,
        cached_interval,
        cached_market,
        cached_replays,
        cached_risk_basis,
    )
    from grader.risk import contestant_risk

    with session_scope(db_url) as s:
        c = s.get(ContestantRow, contestant_row_id)
        if c is None:
            raise KeyError(f"no contestant row {contestant_row_id}")
        season = s.get(SeasonRow, c.season_id)
        if season is None:
            raise KeyError(f"contestant row {contestant_row_id}: no season row {c.season_id}")
        source, key = season.source_path, c.contestant_key
    bundle = cached_bundle(source)
    replay = cached_replays(bundle).get(key)
    # a trading season's are computed once per bundle and kept (the console's warm-up computes every contestant's)
    risks = cached_contestant_risks(bundle)
    risk = (
        risks[key]
        if key in risks
        else contestant_risk(
            bundle,
            key,
            market=cached_market(bundle),
            horizon=cached_interval(bundle),
            nav=replay.nav if replay is not None else None,
        )
    )
    rows = []
    for d in risk.decisions:
        rows.append(
            {
                "decision": d.decision_key.split("@", 1)[-1][:16].replace("T", " "),
                "as of close": d.as_of.isoformat() if d.as_of else None,
                "classes": ", ".join(
                    f"{c} {w * 100:.0f}%"
                    for c, w in sorted(d.class_weights.items(), key=lambda kv: -kv[1])
                    if w > 0.0005
                ),
                "VaR95 1d": d.var_1d.var if d.var_1d else None,
                "CVaR95 1d": d.var_1d.cvar if d.var_1d else None,
                "VaR95 horizon": d.var_h.var if d.var_h else None,
                "CVaR95 horizon": d.var_h.cvar if d.var_h else None,
                "correlation score": d.correlation.s_corr if d.correlation else None,
                "profile alignment": d.profile.pas if d.profile else None,
                "breaches": "; ".join(d.profile.breaches) if d.profile else "",
                "not computed": "; ".join(d.unavailable),
            }
        )
    lines: list[str] = []
    if replay is not None:
        basis = cached_risk_basis(bundle, replay)  # the season's baselines, shared by its contestants
        lines = basis.contestant(replay).lines() if basis is not None else []
    return pd.DataFrame(rows), lines
