"""Leaderboard: total, reasoning median, efficiency, outcome, return, band and judge spread of a run."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from console import _state, _ui
from grader.reporting import RISK_LEGEND, compact_facts, compact_risk

st.title("Leaderboard")
run = _ui.current_run()  # stops the page when there is no run
_state.publish()
_ui.link_warnings()
_ui.run_banner(run)
_ui.run_caption(run)

if run.latest_version is None:
    st.info("This run has no scored version yet (a dry run, or grading still in progress).")
    st.stop()

blind = _ui.blind(run)
meta, frame = _ui.leaderboard(_ui.db_url(), run.run_id, run.latest_version, blind)
if meta.get("pending"):
    st.warning("Season pending: outcome figures (return, alpha, outcome axis) are withheld until it resolves.")
rescored = meta["rubric_id"] != run.rubric_id
st.caption(
    f"Scored version {meta['version']} under rubric {meta['rubric_id']}"
    + (f" (re-scored: the judges graded under {run.rubric_id})" if rescored else "")
    + f" · {meta['judge_calls']} judge calls · {len(frame)} contestants"
)
if blind.hides_any:
    st.info(
        f"Blind calibration: {len(blind.hidden_rows)} item(s) you have not graded yet show no author and no "
        "score (listed last); grade them on the Calibration page to see them."
    )

rounds_season = frame["outcome_over"].notna().any()
fmt = st.column_config.NumberColumn


def _table() -> None:
    """The table, its column groups and its caption: a fragment, so that picking a column group, and the process and
    risk cells arriving, redraw only this (a menu open elsewhere on the page stays open)."""
    facts = _ui.process_facts_if_ready(_ui.db_url(), run.run_id)
    if facts is not None:
        _ui.stop_polling()  # drawn filled: this fragment no longer reruns by itself
    view = frame.copy()
    view["process"] = "computing…" if facts is None else [compact_facts(facts.get(k)) for k in view["contestant_id"]]
    view["risk"] = "computing…" if facts is None else [compact_risk(facts.get(k)) for k in view["contestant_id"]]
    for col in ("return", "benchmark_return", "alpha"):
        view[col] = view[col] * 100
    if not rounds_season:  # the comparison-set columns belong to rounds seasons only
        view = view.drop(columns=["oracle_score", "comparison_set", "oracle_score_all_rounds", "outcome_over"])
    else:  # a rounds season has no daily prices: no VaR / CVaR
        view = view.drop(columns=["risk"])
    view.insert(
        2, "page", [f"./contestant?{urlencode({'run': run.run_id, 'contestant': k})}" for k in view["contestant_id"]]
    )
    # every column does not fit 1280 px: the table shows one group of columns at a time (the data stays whole)
    LEAD = ["rank", "contestant", "page"]
    GROUPS = {
        "Scores": ["total", "band", "reasoning_median", "efficiency", "outcome_axis", "judge_spread"],
        "Outcome": ["return", "benchmark_return", "alpha", "outcome_axis"]
        + (["oracle_score", "comparison_set", "oracle_score_all_rounds", "outcome_over"] if rounds_season else []),
        "Judges": ["judges_low", "judges_high", "judge_spread", "n_judges", "flagged", "flag_reason"],
        "Process and risk": ["process"] + ([] if rounds_season else ["risk"]),
        "Author": ["family", "model"],
    }
    group = st.segmented_control("Columns", list(GROUPS), default="Scores", key="leaderboard_columns") or "Scores"
    st.dataframe(
        view.drop(columns=["contestant_id"]),
        hide_index=True,
        width="stretch",
        column_order=LEAD + GROUPS[group],
        column_config={
            "rank": fmt("Rank", format="%d"),
            "contestant": st.column_config.TextColumn("Contestant"),
            "page": st.column_config.LinkColumn(
                "Page", display_text="open ↗", help="the contestant page of this run (a link: opens in a new tab)"
            ),
            "total": fmt("Total", format="%.1f", help="90% reasoning median + 10% efficiency"),
            "band": st.column_config.TextColumn("Band"),
            "reasoning_median": fmt("Reasoning median", format="%.1f", help="median of the judges' composites"),
            "efficiency": fmt("Efficiency", format="%.1f"),
            "outcome_axis": fmt("Outcome (axis)", format="%.1f"),
            "return": fmt("Return", format="%.2f%%"),
            "benchmark_return": fmt("Benchmark", format="%.2f%%"),
            "alpha": fmt("Alpha", format="%.2f%%"),
            "judges_low": fmt("Lowest judge", format="%.1f"),
            "judges_high": fmt("Highest judge", format="%.1f"),
            "judge_spread": fmt("Judge spread", format="%.1f", help="highest minus lowest judge composite"),
            "n_judges": fmt("Judges", format="%d"),
            "flagged": st.column_config.CheckboxColumn("Flagged", help="fewer judges than the panel: never official"),
            "flag_reason": st.column_config.TextColumn("Why flagged", width="medium"),
            "oracle_score": fmt(
                "Oracle score (set)",
                format="%.1f",
                help="100 x Σ returns / Σ oracle returns over the rounds its comparison set shares",
            ),
            "comparison_set": st.column_config.TextColumn("Comparison set", width="medium"),
            "oracle_score_all_rounds": fmt(
                "All-rounds oracle score",
                format="%.1f",
                help="its own history over every resolved round: context, not a ranking",
            ),
            "outcome_over": st.column_config.TextColumn(
                "Outcome over",
                help="return, benchmark and alpha are means over these rounds (pending and cancelled ones named)",
            ),
            "process": st.column_config.TextColumn(
                "Process",
                help="turnover (traded notional / mean NAV) · mean position HHI · largest position weight · "
                "thrash events (buy and sell of a symbol within 10 trading days); rounds: mean HHI and "
                "holdings of the allocations",
            ),
            "risk": st.column_config.TextColumn("VaR / CVaR95", help=RISK_LEGEND),
        },
    )
    st.caption(
        "Flagged: fewer judges than the panel lists (never official). Process: the facts the judges see in the "
        "whole-record section; the contestant page has them in full." + ("" if rounds_season else " " + RISK_LEGEND)
    )

    # one line either way: the fragment keeps its height when the cells arrive (a page scrolled to its bottom would
    # otherwise scroll up by a line, and a scroll closes an open menu such as "Open a contestant" below)
    st.caption(
        "Process facts and risk figures are being computed from the season bundle (once per server start)…"
        if facts is None
        else "Process facts and risk figures: computed from the season bundle (once per server start)."
    )


# the process facts and risk figures come from the season bundle (seconds on a large season, once per server process
# and run, in the background): the scores are drawn at once, these cells when they are ready (the fragment polls
# every second until then)
ready = _ui.process_facts_if_ready(_ui.db_url(), run.run_id) is not None
st.fragment(_table, run_every=None if ready else "1s")()

if rounds_season:
    st.subheader("Outcome ranking: comparison sets")
    sets = _ui.comparison_sets(_ui.db_url(), run.run_id)
    if sets is not None and not sets.empty:
        st.dataframe(
            sets,
            hide_index=True,
            width="stretch",
            column_config={
                "set mean return": st.column_config.NumberColumn(format="percent"),
                "set mean alpha": st.column_config.NumberColumn(format="percent"),
                "set score": fmt(format="%.1f"),
                "all-rounds score": fmt(format="%.1f"),
            },
        )
        st.caption(_ui.COMPARISON_NOTE)
    else:
        st.info("Comparison sets unavailable: the season bundle is not where it was imported from.")

labels = dict(zip(frame["contestant_id"], frame["contestant"], strict=True))
if labels:
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    key = left.selectbox(
        "Open a contestant", list(labels), format_func=lambda k: f"{labels[k]} ({k})", key="leaderboard_open"
    )
    if right.button("Open contestant page", key="open_contestant"):
        _state.set_value(_ui.CONTESTANT_KEY, key)
        st.switch_page("views/contestant.py", query_params={"run": run.run_id, "contestant": key})
