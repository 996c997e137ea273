"""Contestant: axes and sub-scores per judge, verdicts, the decision timeline and NAV against the benchmark."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console import _queries, _state, _ui
from grader.replay import rounds_scope, set_label

#: The expanders whose tables are drawn when opened (their state kept while the session stays on the page)
THRASH_KEY, RISK_KEY, TIMELINE_KEY = "contestant_thrash_open", "contestant_risk_open", "contestant_timeline_open"
RISK_GROUPS = {  # the columns do not all fit 1280 px: one group at a time (the data stays whole)
    "Risk figures": [
        "decision",
        "VaR95 1d",
        "CVaR95 1d",
        "VaR95 horizon",
        "CVaR95 horizon",
        "correlation score",
        "profile alignment",
    ],
    "Holdings and limits": ["decision", "as of close", "classes", "breaches", "not computed"],
}


def _decimals(n: int):  # noqa: ANN202
    """A table cell's text: a score with ``n`` decimals, "—" for none."""
    return lambda v: "—" if v is None or pd.isna(v) else f"{v:.{n}f}"


st.title("Contestant")
run = _ui.current_run()
url = _ui.db_url()
contestant = _ui.pick_contestant(run)
_state.publish("contestant")
_ui.link_warnings()
_ui.run_banner(run)
if contestant is None:
    st.stop()
blind = _ui.blind(run)
if contestant.hidden:
    st.caption(f"{contestant.display_name} · id `{contestant.key}`")
    st.info(
        "Blind calibration: this item's author, scores and judges' grades are hidden until you have graded it "
        "(Calibration page)."
    )
else:
    st.caption(f"{contestant.display_name} · {contestant.provider_family} · {contestant.model} · id `{contestant.key}`")

st.page_link(
    "views/ledger.py",
    label=f"Ledger review of {contestant.display_name}'s claims",
    icon=":material/fact_check:",
    query_params={"run": run.run_id, "who": contestant.key},
)

score = _ui.contestant_score(url, run.run_id, contestant.row_id, run.latest_version, blind)
if score is not None:
    # headline figures as one markdown table (a row of metric elements costs a new tab more)
    low, high = score["judges_low"], score["judges_high"]
    st.markdown(
        _ui.figures(
            [
                ("Total", "—" if score["total"] is None else f"{score['total']:.1f}"),
                ("Band", score["band"] or "—"),
                ("Rank", score["rank"] or "—"),
                ("Reasoning median", "—" if score["reasoning_median"] is None else f"{score['reasoning_median']:.1f}"),
                ("Efficiency", "—" if score["efficiency"] is None else f"{score['efficiency']:.1f}"),
                ("Judge spread", "—" if low is None or high is None else f"{low:.1f}–{high:.1f}"),
            ]
        )
    )
    if score["flagged"]:
        st.warning(f"Flagged, never official: {_ui.md(_queries.flag_reason(score['details']))}.")

# ------------------------------------------------------------------ judges
grades = _ui.judge_grades(url, run.run_id, contestant.row_id, blind)
st.subheader("Judges")
if contestant.hidden:
    st.caption("Hidden until you have graded this item.")
elif not grades:
    st.info("No judge grades for this contestant in this run.")
else:
    # one column per judge, like the sub-score tables below: every judge visible at 1280 px, and a markdown table
    # (a table element of its own, and its code, cost a new tab much more)
    one = _decimals(1)
    axes = pd.DataFrame(
        {
            g.judge_id: {
                "family": g.judge_family,
                "composite": one(g.composite),
                "reasoning": one(g.reasoning),
                "evidence": one(g.evidence),
                "process": one(g.process),
                "outcome": one(g.outcome),
                "data reliability": one(g.data_reliability),
                "lookahead check": "passed" if g.lookahead_passed else "FAILED",
                "claims": g.claims,
            }
            for g in grades
        }
    )
    axes.index.name = "judge axis"
    st.markdown(f"**Axes** (one column per judge)\n\n{_ui.markdown_table(axes.reset_index())}")
    labels = _ui.sub_score_labels(run.rubric_id)
    for axis in ("reasoning", "evidence"):  # full width: a column per judge, every judge visible at 1280 px
        subs = pd.DataFrame({g.judge_id: getattr(g, f"{axis}_sub_scores") for g in grades})
        subs = subs.astype(object).map(_decimals(0))
        subs.index = [labels.get(i, i) for i in subs.index]
        subs.index.name = f"{axis} sub-score"
        st.markdown(
            f"**{axis.capitalize()} sub-scores** (one column per judge)\n\n{_ui.markdown_table(subs.reset_index())}"
        )
    for g in grades:  # one markdown block per judge: each element is one more component for the browser to draw
        notes = {k: v for k, v in g.notes.items() if v}
        card = [f"**{g.judge_id}** ({g.judge_family}) — verdict: *{_ui.plain(g.verdict)}*", _ui.plain(g.summary)]
        if notes:
            card.append(_ui.gray(" · ".join(f"{k}: {v}" for k, v in notes.items())))
        st.container(border=True).markdown("\n\n".join(card))

# ------------------------------------------------------------------ NAV
st.subheader("NAV against the benchmark")
nav = _ui.contestant_nav(url, contestant.row_id)
timeline = _ui.decision_timeline(url, contestant.row_id, blind)
if not nav.available and "rounds season" in (nav.reason or ""):
    st.subheader("Outcome per round (independent rounds, never compounded)")
    outcome = (score or {}).get("outcome") or {}
    if rounds_scope(outcome):  # how much of its rounds the leaderboard's outcome figures are over, and its set
        st.markdown(
            _ui.md(
                f"Leaderboard outcome figures: means {rounds_scope(outcome)}"
                + (
                    f"; oracle score {outcome['oracle_score']:.1f} in {set_label(outcome)}"
                    if outcome.get("comparison_set") and outcome.get("oracle_score") is not None
                    else ""
                )
                + (
                    f"; all-rounds oracle score {outcome['oracle_score_all_rounds']:.1f} (context)"
                    if outcome.get("oracle_score_all_rounds") is not None
                    else ""
                )
                + "."
            )
        )
    rounds = _ui.round_outcomes(url, contestant.row_id)
    pct = st.column_config.NumberColumn(format="percent")
    st.dataframe(
        rounds,
        hide_index=True,
        width="stretch",
        column_config={
            "return": pct,
            "S&P 500": pct,
            "alpha": pct,
            "regret": pct,
            "oracle score": st.column_config.NumberColumn(format="%.1f"),
            "allocation": st.column_config.TextColumn("Allocation", width="large"),
        },
    )
    st.caption(
        "Return and S&P 500 over each round's close-to-close window; oracle score = 100 x return / the "
        "best option's return (unavailable when that is <= 0 and the return is negative). Pending rounds "
        "withhold their outcome until they resolve; a cancelled round (scoring cancelled upstream) never "
        "resolves."
    )
elif not nav.available or nav.frame is None:  # an available NAV always has its frame
    st.info(f"NAV unavailable: {nav.reason}")
else:
    chart = _ui.nav_chart(url, contestant.row_id, blind)
    if chart is not None:
        st.image(chart, width="stretch")
    o = nav.outcome or {}

    def as_pct(v: float | None) -> str:
        return "—" if v is None else f"{100 * v:.2f}%"

    st.markdown(
        _ui.figures(
            [
                ("Return", as_pct(o.get("portfolio_return"))),
                (f"Benchmark ({nav.benchmark})", as_pct(o.get("benchmark_return"))),
                ("Alpha", as_pct(o.get("alpha"))),
                ("Max drawdown", as_pct(o.get("max_drawdown"))),
                ("Sharpe", "—" if o.get("sharpe") is None else f"{o['sharpe']:.2f}"),
            ]
        )
    )
    st.caption(
        "Black points: decisions with trades (each in the decision timeline below). Replayed from the stored "
        "decisions on the season's closes."
    )

# ------------------------------------------------------------------ process facts
st.subheader("Process facts (from the trades; what the judges see)")
facts = _ui.contestant_facts(url, run.run_id, contestant.key)
if not facts:
    st.info("Process facts unavailable: the season bundle could not be read.")
elif facts.get("format") == "rounds":
    st.markdown(
        _ui.figures(
            [
                ("Rounds", facts["rounds"]),
                ("Mean allocation HHI", f"{facts['hhi']:.3f}"),
                ("Mean holdings", f"{facts['holdings']:.1f}"),
            ]
        )
    )
else:
    st.markdown(
        _ui.figures(
            [
                ("Turnover", f"{facts['turnover']:.2f}x"),
                ("Mean position HHI", f"{facts['hhi']:.3f}"),
                ("Largest position", f"{facts['max_position_weight'] * 100:.1f}%"),
                ("Mean cash", f"{facts['cash_weight_mean'] * 100:.1f}%"),
                ("Thrash events", facts["thrash_events"]),
            ]
        )
    )
    st.caption(
        "Turnover: traded notional / mean NAV; HHI: sum of squared position weights, mean over days; thrash event: a "
        "buy and a sell of the same symbol within 10 trading days. "
        f"{facts['decisions']} decisions, {facts['trades']} trades, {facts['holds']} holds"
        + (
            f"; top sector {facts['top_sector']} {facts['top_sector_weight'] * 100:.0f}%"
            if facts.get("top_sector")
            else ""
        )
    )
    if facts["thrash"] and not contestant.hidden:  # the rationales as written may name their author
        thrash = st.expander(
            f"Thrash events ({len(facts['thrash'])}) with both rationales", on_change="rerun", key=THRASH_KEY
        )
        if thrash.open:
            thrash.dataframe(
                pd.DataFrame(facts["thrash"]).rename(
                    columns={"first": "first", "second": "then", "days": "trading days apart"}
                ),
                hide_index=True,
                width="stretch",
                column_config={
                    "first_rationale": st.column_config.TextColumn("First rationale", width="large"),
                    "second_rationale": st.column_config.TextColumn("Then rationale", width="large"),
                },
            )

# ------------------------------------------------------------------ risk
st.subheader("Risk evidence at each decision (PortBench)")
risk, risk_outcome = _ui.contestant_risk(url, run.run_id, contestant.row_id)
st.caption(
    "Point-in-time, as the judges saw them: the portfolio after the decision valued at the last close before "
    "it; historical VaR95/CVaR95 from the 60 daily returns up to that close; the two-layer correlation score "
    "of the asset-class weights (0-1, higher is better diversified); the share of the investor profile's "
    "limits met. Definitions: docs/scoring.md."
)
# the two long tables (a row per decision) are drawn when opened: in a new tab, drawing their data grids was a large
# share of the page's time in the browser
if "note" in risk.columns:  # the risk evidence could not be computed: say why
    st.info(_ui.plain(str(risk["note"].iloc[0])))
elif risk.empty:
    st.caption("No decisions.")
elif (
    risk_table := st.expander(
        f"Risk figures, holdings and limits at each of the {len(risk)} decisions", on_change="rerun", key=RISK_KEY
    )
).open:
    with risk_table:
        pct = st.column_config.NumberColumn(format="percent")
        risk_group = (
            st.segmented_control(
                "Risk columns", list(RISK_GROUPS), default="Risk figures", key="contestant_risk_columns"
            )
            or "Risk figures"
        )
        shown = [c for c in RISK_GROUPS[risk_group] if c in risk.columns]
        st.dataframe(
            risk,
            hide_index=True,
            width="stretch",
            height=280,
            column_order=shown or None,
            column_config={
                "VaR95 1d": pct,
                "CVaR95 1d": pct,
                "VaR95 horizon": pct,
                "CVaR95 horizon": pct,
                "correlation score": st.column_config.NumberColumn(format="%.2f"),
                "profile alignment": st.column_config.NumberColumn(format="%.2f"),
                "breaches": st.column_config.TextColumn("Breaches", width=260),
                "not computed": st.column_config.TextColumn("Not computed", width=200),
            },
        )
if risk_outcome:
    st.markdown("**After the horizon** (outcomes):\n" + "\n".join(f"- {_ui.md(line)}" for line in risk_outcome))

# ------------------------------------------------------------------ timeline
st.subheader(f"Decision timeline ({len(timeline)} decisions)")
if timeline.empty:
    st.caption("No decisions.")
elif (
    decisions := st.expander(
        f"The {len(timeline)} decisions: when, the trades, the rationale, seconds taken, confidence",
        on_change="rerun",
        key=TIMELINE_KEY,
    )
).open:
    # widths that add up to the page's 820 px at 1280: a long trade list or rationale is cut in its cell, read in
    # full by hovering or widening the column
    decisions.dataframe(
        timeline,
        hide_index=True,
        width="stretch",
        height=360,
        column_order=["decided_at", "trades", "what", "rationale", "decision_seconds", "confidence", "line"],
        column_config={
            "decided_at": st.column_config.DatetimeColumn("Decided at", width=125),
            "trades": st.column_config.NumberColumn("Trades", width=50),
            "what": st.column_config.TextColumn("What", width=170),
            "rationale": st.column_config.TextColumn("Rationale", width=260),
            "decision_seconds": st.column_config.NumberColumn("Seconds", width=60),
            "confidence": st.column_config.NumberColumn("Confidence", width=75),
            "line": st.column_config.NumberColumn("Line", width=45),
        },
    )
