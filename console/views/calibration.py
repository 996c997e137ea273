"""Calibration: blind grading of the anonymized record; the judges' grades are revealed only after submitting."""

from __future__ import annotations

import statistics

import pandas as pd
import streamlit as st

from console import _queries, _ui
from console._writes import HumanGradeInput, record_human_grade

st.title("Calibration — blind grading")
run = _ui.current_run()
_ui.run_banner(run)
url = _ui.db_url()
who = _ui.signed_in()
if who is None:
    st.warning("Sign in (sidebar) to grade: every human grade is recorded under its annotator's name.")
    st.stop()


@st.cache_resource(show_spinner=False)
def _rubric(rubric_id: str):  # noqa: ANN202
    from rubric import load_rubric

    return load_rubric(rubric_id)


items = _queries.calibration_items(run.run_id, url)
queue = _queries.calibration_queue(items, who.name)
gradable = [i for i in items if i.has_record]
c1, c2, c3 = st.columns(3)
c1.metric("Waiting for a second annotator", len(queue["needs_second"]))
c2.metric("Not graded by anyone yet", len(queue["ungraded"]))
c3.metric("Graded by you", len(queue["mine"]))
second = [i for i in items if i.needs_second]
with st.expander(f"Items still needing a second annotator ({len(second)})", expanded=bool(queue["needs_second"])):
    if second:
        st.dataframe(pd.DataFrame([{"item": i.alias, "graded by": ", ".join(i.annotators),
                                    "waiting for you": who.name not in i.annotators} for i in second]),
                     hide_index=True, width="stretch")
    else:
        st.caption("None: every graded item has at least two annotators.")
if not gradable:
    st.info("This run stores no judge prompts (e.g. a dry run with no record), so there is nothing to grade.")
    st.stop()

by_id = {i.contestant_row_id: i for i in gradable}
order = [i.contestant_row_id for i in queue["needs_second"] + queue["ungraded"]]
order += [i.contestant_row_id for i in gradable if i.contestant_row_id not in order]
if st.session_state.get("calib_item") not in by_id:
    st.session_state["calib_item"] = order[0]


def _item_label(row_id: int) -> str:
    i = by_id[row_id]
    mark = "graded by you" if who.name in i.annotators else (
        "needs a second annotator" if i.needs_second else ("ungraded" if not i.annotators else "done"))
    return f"{i.alias} — {mark}"


item_id = st.selectbox("Item", order, key="calib_item", format_func=_item_label)
item = by_id[item_id]
record = _ui.blind_record(url, run.run_id, item_id)
rubric = _rubric(run.rubric_id)
mine = _queries.human_grades(run.run_id, item_id, who.name, url)
regrade_key = f"calib_regrade_{run.run_id}_{item_id}"

with st.expander("What the judges were told (rubric and instructions)"):
    st.text(record.system if record else "")
st.markdown(f"#### {item.alias}: the anonymized decision record (≈{record.token_estimate if record else 0} tokens)")
with st.container(height=460):
    st.code(record.user if record else "", language=None, wrap_lines=True)


def _submit(row_id: int) -> None:
    k = f"cg_{row_id}_"
    ss = st.session_state
    subs = {axis: {sid: ss.get(f"{k}{axis}_{sid}") for sid in getattr(rubric.axes, axis).ids()}
            for axis in ("reasoning", "evidence")}
    try:
        grade = HumanGradeInput(
            reasoning=ss[f"{k}reasoning"], evidence=ss[f"{k}evidence"],
            outcome=None if ss.get(f"{k}no_outcome") else ss[f"{k}outcome"],
            data_reliability=ss[f"{k}data_reliability"],
            reasoning_sub_scores=subs["reasoning"], evidence_sub_scores=subs["evidence"],
            comment=ss.get(f"{k}comment", ""),
        )
        record_human_grade(_ui.signed_in(), run.run_id, row_id, grade, _ui.db_url())
        ss.pop(f"calib_regrade_{run.run_id}_{row_id}", None)
        ss["calib_submitted"] = row_id
    except ValueError as exc:
        ss["calib_error"] = str(exc)


def _reveal() -> None:
    last = mine[-1]
    if st.session_state.pop("calib_submitted", None) == item_id:
        st.success("Grade recorded. The judges' grades are revealed below.")
    st.subheader("Revealed: the judges' grades")
    judges = _ui.judge_grades(url, run.run_id, item_id)
    rows = [{"grader": f"you ({who.name})", "composite": last.composite, "reasoning": last.reasoning,
             "evidence": last.evidence, "outcome": last.outcome, "data reliability": last.data_reliability,
             "verdict / comment": last.comment or "—"}]
    rows += [{"grader": g.judge_id, "composite": g.composite, "reasoning": g.reasoning, "evidence": g.evidence,
              "outcome": g.outcome, "data reliability": g.data_reliability, "verdict / comment": g.verdict}
             for g in judges]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={k: st.column_config.NumberColumn(format="%.1f") for k in (
                     "composite", "reasoning", "evidence", "outcome", "data reliability")})
    if judges and last.composite is not None:
        median = statistics.median(g.composite for g in judges)
        score = _ui.contestant_score(url, run.run_id, item_id, run.latest_version)
        cols = st.columns(3)
        cols[0].metric("Your composite", f"{last.composite:.1f}", f"{last.composite - median:+.1f} vs panel median",
                       delta_color="off")
        cols[1].metric("Panel median composite", f"{median:.1f}")
        cols[2].metric("Total Score / band", "—" if not score or score["total"] is None
                       else f"{score['total']:.1f} / {score['band']}")
        for g in judges:
            st.caption(f"**{g.judge_id}**: {_ui.md(g.summary)}")
    st.caption(f"You have graded this item {len(mine)} time(s); the latest grade counts in the calibration audit. "
               f"Composite: {last.sub_scores.get('composite_note', '')}.")
    if st.button("Grade this item again (adds a new grade)", key=f"regrade_btn_{item_id}"):
        st.session_state[regrade_key] = True
        st.rerun()


if mine and not st.session_state.get(regrade_key):
    _reveal()
    st.stop()

st.subheader("Your grade")
st.caption("Grade the record above before you see any judge. Axes are 0–100; sub-scores are optional.")
k = f"cg_{item_id}_"
with st.form(f"calib_form_{item_id}"):
    a, b = st.columns(2)
    a.slider(rubric.axes.reasoning.label, 0, 100, 50, key=f"{k}reasoning")
    b.slider(rubric.axes.evidence.label, 0, 100, 50, key=f"{k}evidence")
    a.slider(rubric.axes.data_reliability.label, 0, 100, 50, key=f"{k}data_reliability")
    b.slider(rubric.axes.outcome.label, 0, 100, 50, key=f"{k}outcome")
    b.checkbox("No outcome score (the record has no outcome section)", key=f"{k}no_outcome")
    with st.expander("Sub-scores (optional)"):
        for axis in ("reasoning", "evidence"):
            st.markdown(f"**{getattr(rubric.axes, axis).label}**")
            cols = st.columns(3)
            for n, sub in enumerate(getattr(rubric.axes, axis).sub_components):
                cols[n % 3].number_input(sub.label, min_value=0, max_value=100, value=None, step=1,
                                         key=f"{k}{axis}_{sub.id}", help=sub.description)
    st.text_area("Comment", key=f"{k}comment", placeholder="What most shaped your grade?")
    st.form_submit_button("Submit grade and reveal the judges", type="primary", on_click=_submit,
                          args=(item_id,))
if st.session_state.get("calib_error"):
    st.error(st.session_state.pop("calib_error"))
