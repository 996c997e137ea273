"""Runs: compare two runs per contestant, or one run scored under two rubric versions."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console import _queries, _state, _ui

st.title("Runs")
url = _ui.db_url()
all_runs = _ui.runs(url)
scored = [r for r in all_runs if r.latest_version is not None]
if not scored:
    st.info("No scored runs to compare yet.")
    st.stop()
by_id = {r.run_id: r for r in scored}
ids = list(by_id)

# the run list as a static table: its cells wrap, so no column is cut at 1280 px (a run type's label is said in full
# in the warning of each compared run below); a markdown table's larger cells would run past the page's right edge
st.table(
    pd.DataFrame(
        [
            {
                "run": r.run_id,
                "type": r.run_type,
                "status": r.status,
                "season": r.season_key,
                "rubric": r.rubric_id,
                "panel": r.panel_name,
                "scored versions": r.scored_versions,
                "created": f"{r.created_at:%Y-%m-%d %H:%M}",
            }
            for r in all_runs
        ]
    ),
    hide_index=True,
)


def _side_by_side(frame: pd.DataFrame) -> pd.DataFrame:
    """The two-run comparison as shown: a band change as "A → B" in one column, the reasoning medians under short
    names and "in" only when a contestant is in one run only, so the table fits 1280 px without a cut column."""
    view = frame.drop(columns=["contestant_id", "rank moved", "band changed"])
    view["band"] = [
        a if a == b else f"{a or '—'} → {b or '—'}" for a, b in zip(frame["band A"], frame["band B"], strict=True)
    ]
    view = view.drop(columns=["band A", "band B"]).rename(
        columns={"reasoning_median A": "reasoning A", "reasoning_median B": "reasoning B"}
    )
    if (view["in"] == "both").all():
        view = view.drop(columns=["in"])
    order = [
        c
        for c in (
            "contestant",
            "in",
            "total A",
            "total B",
            "Δ total",
            "rank A",
            "rank B",
            "band",
            "reasoning A",
            "reasoning B",
        )
        if c in view.columns
    ]
    return view[order]


def _summary(frame, a: str, b: str) -> None:  # noqa: ANN001
    both = frame.dropna(subset=[a, b])
    rho = None
    if len(both) >= 3 and both[a].nunique() > 1 and both[b].nunique() > 1:
        rho = both[a].rank().corr(both[b].rank())  # Spearman: Pearson on (average) ranks
    matched = frame[frame["in"] == "both"] if "in" in frame else frame
    st.markdown(
        _ui.figures(
            [
                ("Spearman ρ of totals", "—" if rho is None else f"{rho:.3f}"),
                ("Rank moves (contestants in both runs)", int(matched["rank moved"].astype(bool).sum())),
                ("Band changes", int(matched["band changed"].astype(bool).sum())),
            ]
        )
    )
    if "in" in frame and len(matched) < len(frame):
        st.caption(
            f"{len(matched)} contestant(s) in both runs; {int((frame['in'] == 'only A').sum())} only in A, "
            f"{int((frame['in'] == 'only B').sum())} only in B (no rank move or band change for them)."
        )


mode = st.radio("Compare", ["Two runs", "Two rubric versions on one run"], horizontal=True, key="cmp_mode")
if mode == "Two runs":
    c1, c2 = st.columns(2)
    _state.seed("cmp_run_a", ids, "run")
    _state.seed("cmp_run_b", ids, "run")
    if "cmp_run_a" not in st.session_state:  # the run every page shows, else the newest scored one
        current = st.session_state.get(_ui.RUN_KEY)
        _state.default("cmp_run_a", current if current in by_id else ids[0])
    if "cmp_run_b" not in st.session_state:  # the newest other run with contestants in common
        a_keys = _ui.contestant_keys(url, st.session_state["cmp_run_a"])
        others = [r for r in ids if r != st.session_state["cmp_run_a"]]
        _state.default(
            "cmp_run_b",
            next((r for r in others if a_keys & _ui.contestant_keys(url, r)), others[0] if others else ids[0]),
        )
    run_a = c1.selectbox("Run A", ids, key="cmp_run_a", format_func=lambda r: by_id[r].label)
    run_b = c2.selectbox("Run B", ids, key="cmp_run_b", format_func=lambda r: by_id[r].label)
    _state.remember("cmp_run_a")
    _state.remember("cmp_run_b")
    _state.publish("a", "b")
    _ui.link_warnings()
    for r in (by_id[run_a], by_id[run_b]):
        label = _queries.run_label(r.run_type)
        if label:
            st.warning(f"{r.run_id}: **{label}**")
    if by_id[run_a].season_id != by_id[run_b].season_id:
        st.info("The two runs grade different seasons: only contestants with the same id are matched.")
    frame = _ui.compare_runs(
        url,
        run_a,
        run_b,
        by_id[run_a].latest_version,
        by_id[run_b].latest_version,
        _ui.blind(by_id[run_a]),
        _ui.blind(by_id[run_b]),
    )
    _summary(frame, "total A", "total B")
    st.dataframe(
        _side_by_side(frame),
        hide_index=True,
        width="stretch",
        column_config={
            k: st.column_config.NumberColumn(format="%.1f")
            for k in ("total A", "total B", "Δ total", "reasoning A", "reasoning B")
        },
    )
    st.caption(
        'Rank moves and band changes are counted among contestants in both runs; a band shown as "A → B" changed.'
    )

else:
    names = _ui.rubric_names()
    shown = _ui.current_run()  # stops the page when there is no run
    c0, c1, c2 = st.columns(3)
    picked = c0.selectbox(
        "Run",
        ids,
        index=ids.index(shown.run_id) if shown.run_id in ids else 0,
        key="cmp_rubric_run",
        format_func=lambda r: by_id[r].label,
    )
    run_id: str = ids[0] if picked is None else picked  # ids is not empty (above): a run is always picked
    ra = c1.selectbox("Rubric A", names, index=0, key="cmp_rubric_a")
    rb = c2.selectbox("Rubric B", names, index=len(names) - 1, key="cmp_rubric_b")
    from rubric import load_rubric, rubric_diff

    diff = rubric_diff(load_rubric(ra), load_rubric(rb))
    st.caption(" · ".join(diff.summary_lines()) or "identical rubrics")
    if diff.judge_facing_changed:
        st.warning(
            "The judge-facing part differs: the stored grades were made under one of them only, so the "
            "other's scores re-use grades its judges never saw (a re-grade is needed for a fair comparison)."
        )
    try:
        frame = _ui.compare_rubrics(url, run_id, ra, rb, by_id[run_id].latest_version, _ui.blind(by_id[run_id]))
    except ValueError as exc:
        st.error(f"Cannot score this run under both rubrics: {exc}")
    else:
        if frame.empty:
            st.info("No contestants to compare.")
        else:
            if ra == rb:
                st.info("Pick two different rubric versions.")
            st.caption(f"A = {ra}, B = {rb}")
            _summary(frame, "total A", "total B")
            st.dataframe(frame.drop(columns=["contestant_id"]), hide_index=True, width="stretch")
