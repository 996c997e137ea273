"""Process facts of every contestant of a stored run's season, for readers: the same figures the judges see in
the whole-record section (computed from the trades or allocations, never from a judge)."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from grader.storage import RunRow, SeasonRow, session_scope


def season_process_facts(source: Path | str, contestants: Collection[str] | None = None) -> dict[str, dict[str, Any]]:
    """contestant key -> facts (``contestants``: only theirs; None: every contestant's). Trading: decisions, trades,
    holds, turnover (x mean NAV), mean position HHI, max position weight, top sector and its weight, mean cash
    weight, thrash events. Rounds: rounds, mean HHI of the allocations, mean number of holdings."""
    from grader.reporting._bundles import cached_bundle, cached_replays, cached_risk_summaries

    bundle = cached_bundle(source)
    if bundle.info.format == "rounds":
        from grader.replay import score_rounds

        results = score_rounds(Path(source))
        out: dict[str, dict[str, Any]] = {}
        for o in results.outcomes:
            row = out.setdefault(o.contestant_id, {"format": "rounds", "rounds": 0, "hhi_sum": 0.0, "holdings_sum": 0})
            row["rounds"] += 1
            row["hhi_sum"] += o.hhi
            row["holdings_sum"] += sum(1 for w in o.weights.values() if w > 0)
        for row in out.values():
            n = row.pop("rounds")
            row.update(
                rounds=n, hhi=row.pop("hhi_sum") / n if n else None, holdings=row.pop("holdings_sum") / n if n else None
            )
        return out if contestants is None else {cid: row for cid, row in out.items() if cid in contestants}
    out = {}
    risk = cached_risk_summaries(bundle)
    replays = cached_replays(bundle)  # each contestant's replayed when first read
    for cid in replays:
        if contestants is not None and cid not in contestants:
            continue
        f = replays[cid].facts
        out[cid] = {
            "format": "trading",
            "decisions": f.decisions,
            "trades": f.trades,
            "holds": f.hold_decisions,
            "turnover": f.turnover,
            "hhi": f.hhi,
            "max_position_weight": f.max_position_weight,
            "sector_hhi": f.sector_hhi,
            "top_sector": f.top_sector,
            "top_sector_weight": f.top_sector_weight,
            "cash_weight_mean": f.cash_weight_mean,
            "thrash_events": len(f.thrash_events),
            "thrash": [
                {
                    "symbol": e.symbol,
                    "first": f"{e.first_side} {e.first_at[:10]}",
                    "second": f"{e.second_side} {e.second_at[:10]}",
                    "days": e.trading_days_apart,
                    "first_rationale": e.first_rationale,
                    "second_rationale": e.second_rationale,
                }
                for e in f.thrash_events
            ],
            # the decisions' risk (point-in-time): VaR95 and CVaR95 means over one session and over the
            # decision interval, as the judges' whole-record summary gives them
            "risk": dict(risk.get(cid) or {}),
        }
    return out


def run_process_facts(
    run_id: str, db_url: str | None = None, contestants: Collection[str] | None = None
) -> dict[str, dict[str, Any]]:
    """The facts of a stored run's season ({} when its bundle moved or is no longer valid); ``contestants``: only
    theirs (None: every contestant's)."""
    from grader.season import BundleError

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            return {}
        season = s.get(SeasonRow, run.season_id)
        if season is None:
            raise KeyError(f"run {run_id}: no season row {run.season_id}")
        source = season.source_path
    try:
        return season_process_facts(source, contestants)
    except (BundleError, OSError, ValueError):
        return {}


def compact_risk(facts: dict[str, Any] | None, sep: str = " · ") -> str:
    """One short cell for a leaderboard: the decisions' mean one-day VaR95 / CVaR95 and, when the decision interval
    is longer than a session, the same over it: '1d -0.87% / -1.09% · 5d -1.92% / -2.41%'; '—' when not computed
    (a rounds season: no daily prices). ``sep`` joins the two (a line break in a terminal table)."""
    r = (facts or {}).get("risk") or {}
    if r.get("var_1d_mean") is None:
        return "—"

    def pair(var: float, cvar: float | None) -> str:
        return f"{var * 100:+.2f}% / " + ("—" if cvar is None else f"{cvar * 100:+.2f}%")

    text = "1d " + pair(r["var_1d_mean"], r.get("cvar_1d_mean"))
    if r.get("var_h_mean") is not None and r.get("horizon"):
        text += f"{sep}{r['horizon']}d {pair(r['var_h_mean'], r.get('cvar_h_mean'))}"
    return text


#: The leaderboards' legend of ``compact_risk``.
RISK_LEGEND = (
    "VaR / CVaR95 = the decisions' mean historical VaR95 and CVaR95 over one session (1d) and, when it is "
    "longer, over the decision interval (Nd: N sessions); point-in-time, from the 60 daily returns up to "
    "each decision's last close; a loss reads negative. The report's risk table and the contestant page "
    "give them in full."
)


def compact_facts(facts: dict[str, Any] | None) -> str:
    """One short cell for a leaderboard: 'turnover 8.2x · HHI 0.23 · max 31% · thrash 19'."""
    if not facts:
        return "—"
    if facts.get("format") == "rounds":
        return f"{facts['rounds']} rounds · HHI {facts['hhi']:.2f} · {facts['holdings']:.1f} holdings"
    return (
        f"turnover {facts['turnover']:.1f}x · HHI {facts['hhi']:.2f} · max {facts['max_position_weight'] * 100:.0f}%"
        f" · thrash {facts['thrash_events']}"
    )
