"""Calibration: blind grading of the anonymized record; the judges' grades are revealed only after submitting.

The item being graded is named by its number (``?item=N`` in the URL), never by its position in a list whose
labels or order change as grades arrive: the form, its Submit button and the stored grade all carry that number,
so a grade cannot land on another item.
"""

from __future__ import annotations

import statistics

import pandas as pd
import streamlit as st

from console import _queries, _state, _ui
from console._state import ITEM_KEY
from console._writes import MAX_COMMENT, HumanGradeInput, describe_error, record_human_grade

AXES = ("reasoning", "evidence", "data_reliability", "outcome")

st.title("Calibration — blind grading")
run = _ui.current_run()  # stops the page when there is no run
_ui.run_banner(run)
url = _ui.db_url()
signed = _ui.signed_in()
items = _ui.calibration_items(url, run.run_id, _ui.grade_stamp(run.run_id))
gradable = [i for i in items if i.has_record]
by_number = {i.number: i for i in gradable}
_state.seed(ITEM_KEY, list(by_number), "calibration item")
if signed is None:
    _state.publish("item")
    st.warning("Sign in (sidebar) to grade: every human grade is recorded under its annotator's name.")
    st.stop()


who = signed  # signed in (a SignedIn), also inside the functions below
queue = _queries.calibration_queue(items, who.name)
st.markdown(  # one markdown table: a row of metric elements costs a new tab more
    _ui.figures(
        [
            ("Waiting for a second annotator", len(queue["needs_second"])),
            ("Not graded by anyone yet", len(queue["ungraded"])),
            ("Graded by you", len(queue["mine"])),
        ]
    )
)
if not gradable:
    st.info("This run stores no judge prompts (e.g. a dry run with no record), so there is nothing to grade.")
    st.stop()


def _status(i: _queries.CalibrationItem) -> str:
    if who.name in i.annotators:
        return "graded by you"
    return "needs a second annotator" if i.needs_second else ("ungraded" if not i.annotators else "done")


def _go_to(number: int) -> None:
    _state.set_value(ITEM_KEY, number)


# drawn only when asked for: a table of every item on every view costs the browser more than the rest of the page
if st.toggle(f"Show all items ({len(gradable)}) and who graded them", key="calib_all_items"):
    st.dataframe(
        pd.DataFrame(
            [{"item": i.alias, "status for you": _status(i), "graded by": ", ".join(i.annotators)} for i in gradable]
        ),
        hide_index=True,
        width="stretch",
    )
next_up = (queue["needs_second"] + queue["ungraded"])[:1]
if st.session_state.get(ITEM_KEY) not in by_number:
    _state.default(ITEM_KEY, next_up[0].number if next_up else gradable[0].number)
left, right = st.columns([3, 1], vertical_alignment="bottom")
# options are item numbers in a fixed order and the labels never change: the choice is the item itself
item_no = left.selectbox("Item", list(by_number), key=ITEM_KEY, format_func=lambda n: by_number[n].alias)
_state.remember(ITEM_KEY)
_state.publish("item")
_ui.link_warnings()
if next_up and next_up[0].number != item_no:
    right.button(f"Next for you: {next_up[0].alias}", key="calib_next", on_click=_go_to, args=(next_up[0].number,))
item = by_number[item_no]
item_id = item.contestant_row_id
st.caption(
    f"{item.alias}: {_status(item)}"
    + (f" (graded by {', '.join(item.annotators)})" if item.annotators and who.name not in item.annotators else "")
)
record = _ui.blind_record(url, run.run_id, item_id)
rubric = _ui.rubric(run.rubric_id)
mine = _ui.human_grades(url, run.run_id, item_id, who.name, _ui.grade_stamp(run.run_id))
regrade_key = f"calib_regrade_{run.run_id}_{item.number}"

# tens of kB of text each: drawn when opened (a closed expander's content is sent and laid out all the same)
told = st.expander("What the judges were told (rubric and instructions)", on_change="rerun", key="calib_told_open")
if told.open:
    told.text(record.system if record else "")
view = _ui.item_view(url, run.run_id, item_id)


def _show_item(view) -> None:  # noqa: ANN001
    """A reference item the way a person reads it; earlier decisions of the window folded."""
    from console._items import snapshot_table

    n = len(view.decisions)
    st.markdown(f"#### {view.label}: {n} consecutive decision{'s' if n != 1 else ''} of one anonymized contestant")
    for k, d in enumerate(view.decisions):
        latest = k == n - 1
        box = (
            st.container(border=True)
            if latest
            else st.expander(f"Earlier in the window: {d.decided_at:%Y-%m-%d %H:%M}", expanded=False)
        )
        with box:
            when = f"{d.decided_at:%Y-%m-%d %H:%M}" + (f" {d.decided_at.tzname()}" if d.decided_at.tzname() else "")
            st.markdown(
                f"**{when}**" + (f" · stated confidence {d.confidence:.2f}" if d.confidence is not None else "")
            )
            if d.trades:
                st.dataframe(
                    pd.DataFrame(d.trades)[
                        [c for c in ("side", "quantity", "symbol", "price") if c in pd.DataFrame(d.trades).columns]
                    ],
                    hide_index=True,
                    width="content",
                )
            elif d.allocation:
                st.dataframe(pd.DataFrame(d.allocation), hide_index=True, width="stretch")
            else:
                st.caption("No trade (hold).")
            if d.facts:
                st.caption(f"Portfolio and risk before this decision: {_ui.plain(d.facts)}")
            st.markdown("**Rationale**")
            st.markdown(_ui.plain(d.rationale))
            first, rest = snapshot_table(d)
            if not first.empty and len(first.columns) > 2:
                st.markdown("**What the judges were shown: the fields the rationale mentions**")
                st.dataframe(first, hide_index=True, width="stretch")
            if not rest.empty:
                with st.expander(f"Every other field shown to the judges ({len(rest.columns) - 2})"):
                    st.dataframe(rest, hide_index=True, width="stretch")


if view is not None:
    _show_item(view)
    seen = st.expander(
        f"{item.alias} exactly as the judges saw it (≈{record.token_estimate if record else 0} tokens, "
        "portfolio state before each decision included)",
        on_change="rerun",
        key="calib_seen_open",
    )
    if seen.open:
        seen.text(record.user if record else "")
else:
    st.markdown(f"#### {item.alias}: the anonymized decision record (≈{record.token_estimate if record else 0} tokens)")
    # plain preformatted text: a code block (the browser highlighting and laying out tens of kB of prompt) took about
    # a third of the page's time in a new tab
    with st.container(height=460):
        st.text(record.user if record else "")


def _form_key(number: int, generation: int) -> str:
    """Widget keys of one item's form; a new generation (one per grade given) starts from the latest grade."""
    return f"cg_{run.run_id}_{number}_{generation}_"


def _values(k: str) -> dict:
    ss = st.session_state
    return {
        "reasoning": ss.get(f"{k}reasoning"),
        "evidence": ss.get(f"{k}evidence"),
        "data_reliability": ss.get(f"{k}data_reliability"),
        "outcome": None if ss.get(f"{k}no_outcome") else ss.get(f"{k}outcome"),
        "reasoning_sub_scores": {sid: ss.get(f"{k}sub:reasoning:{sid}") for sid in rubric.axes.reasoning.ids()},
        "evidence_sub_scores": {sid: ss.get(f"{k}sub:evidence:{sid}") for sid in rubric.axes.evidence.ids()},
        "comment": ss.get(f"{k}comment") or "",
    }


def _same_as(grade: HumanGradeInput, last: _queries.HumanGradeView) -> bool:
    subs = last.sub_scores or {}
    return (
        (grade.reasoning, grade.evidence, grade.outcome, grade.data_reliability, grade.comment)
        == (last.reasoning, last.evidence, last.outcome, last.data_reliability, last.comment)
        and grade.reasoning_sub_scores == (subs.get("reasoning") or {})
        and grade.evidence_sub_scores == (subs.get("evidence") or {})
    )


def _submit(number: int, contestant_row_id: int, generation: int) -> None:
    """Record the grade of item ``number`` (bound when the form was drawn, never read from the picker)."""
    ss = st.session_state
    try:
        values = _values(_form_key(number, generation))
        problems = []
        try:
            grade = HumanGradeInput(**values)
        except ValueError as exc:
            problems.append(describe_error(exc))
        if values["data_reliability"] is None:  # the form asks for every axis (only outcome may be ticked off)
            problems.append("data_reliability: a score 0-100 is required")
        if problems:
            raise ValueError("; ".join(problems))
        previous = _queries.human_grades(run.run_id, contestant_row_id, who.name, _ui.db_url())
        if previous and _same_as(grade, previous[-1]):
            raise ValueError(
                "nothing changed since your previous grade of this item: change a score or the "
                "comment, or cancel the re-grade"
            )
        record_human_grade(_ui.signed_in(), run.run_id, contestant_row_id, grade, _ui.db_url())
        ss.pop(f"calib_regrade_{run.run_id}_{number}", None)
        ss["calib_submitted"] = number
    except ValueError as exc:
        ss["calib_error"] = f"Not recorded ({by_number[number].alias}): {describe_error(exc)}"


def _reveal() -> None:
    last = mine[-1]
    if st.session_state.pop("calib_submitted", None) == item.number:
        st.success(f"Grade of {item.alias} recorded. The judges' grades are revealed below.")
    st.subheader(f"Revealed: the judges' grades of {item.alias}")
    blind = _ui.blind(run)  # this item is graded by now: the blind view lets its judges through
    judges = _ui.judge_grades(url, run.run_id, item_id, blind)
    rows = [
        {
            "grader": f"you ({who.name})",
            "composite": last.composite,
            "reasoning": last.reasoning,
            "evidence": last.evidence,
            "outcome": last.outcome,
            "data reliability": last.data_reliability,
            "verdict / comment": last.comment or "—",
        }
    ]
    rows += [
        {
            "grader": g.judge_id,
            "composite": g.composite,
            "reasoning": g.reasoning,
            "evidence": g.evidence,
            "outcome": g.outcome,
            "data reliability": g.data_reliability,
            "verdict / comment": g.verdict,
        }
        for g in judges
    ]
    st.dataframe(
        pd.DataFrame(rows),
        hide_index=True,
        width="stretch",
        column_config={
            k: st.column_config.NumberColumn(format="%.1f")
            for k in ("composite", "reasoning", "evidence", "outcome", "data reliability")
        },
    )
    if judges and last.composite is not None:
        median = statistics.median(g.composite for g in judges)
        score = _ui.contestant_score(url, run.run_id, item_id, run.latest_version, blind)
        cols = st.columns(3)
        cols[0].metric(
            "Your composite",
            f"{last.composite:.1f}",
            f"{last.composite - median:+.1f} vs panel median",
            delta_color="off",
        )
        cols[1].metric("Panel median composite", f"{median:.1f}")
        cols[2].metric(
            "Total Score / band",
            "—" if not score or score["total"] is None else f"{score['total']:.1f} / {score['band']}",
        )
        for g in judges:
            st.caption(f"**{g.judge_id}**: {_ui.plain(g.summary)}")
    st.caption(
        f"You have graded {item.alias} {len(mine)} time(s); the latest grade counts in the calibration audit. "
        f"Composite: {last.sub_scores.get('composite_note', '')}."
    )
    if st.button(
        f"Grade {item.alias} again (adds a new grade, starting from your latest)", key=f"regrade_btn_{item.number}"
    ):
        st.session_state[regrade_key] = True
        st.rerun()


if mine and not st.session_state.get(regrade_key):
    _reveal()
    st.stop()

generation = len(mine)
k = _form_key(item.number, generation)
if mine:  # a re-grade starts from the annotator's latest grade of this item
    last = mine[-1]
    subs = last.sub_scores or {}
    start = {
        "reasoning": last.reasoning,
        "evidence": last.evidence,
        "data_reliability": last.data_reliability,
        "outcome": last.outcome,
        "comment": last.comment,
        "no_outcome": last.outcome is None,
        **{f"sub:reasoning:{sid}": v for sid, v in (subs.get("reasoning") or {}).items()},
        **{f"sub:evidence:{sid}": v for sid, v in (subs.get("evidence") or {}).items()},
    }
    for name, value in start.items():
        st.session_state.setdefault(f"{k}{name}", value)
if view is not None:  # a reference item has no outcome section: the outcome axis starts empty and ticked off
    st.session_state.setdefault(f"{k}no_outcome", True)
st.subheader(f"Your grade of {item.alias}" + (" (re-grade)" if mine else ""))
st.caption(
    "Grade the record above before you see any judge. Axes are 0–100 and must be filled in (an untouched "
    "form is not a grade); sub-scores are optional. Out-of-range values are refused with the field named."
)
# the sub-score fields (17 under v0.4) are drawn when asked for: most grades give none, and every field costs the
# browser; a re-grade of a grade with sub-scores opens with them shown
st.session_state.setdefault(
    f"{k}subs_shown", bool(mine and any((mine[-1].sub_scores or {}).get(a) for a in ("reasoning", "evidence")))
)
show_subs = st.toggle("Add sub-scores (optional)", key=f"{k}subs_shown")
with st.form(f"calib_form_{run.run_id}_{item.number}_{generation}"):
    a, b = st.columns(2)
    for col, axis in ((a, "reasoning"), (b, "evidence"), (a, "data_reliability"), (b, "outcome")):
        col.number_input(
            f"{getattr(rubric.axes, axis).label} (0–100)",
            value=None,
            step=1.0,
            placeholder="0–100",
            key=f"{k}{axis}",
            format="%.0f",
        )
    b.checkbox("No outcome score (the record has no outcome section)", key=f"{k}no_outcome")
    if show_subs:
        for axis in ("reasoning", "evidence"):
            st.markdown(f"**{getattr(rubric.axes, axis).label}**")
            cols = st.columns(3)
            for n, sub in enumerate(getattr(rubric.axes, axis).sub_components):
                cols[n % 3].number_input(
                    f"{sub.label} (0–100)",
                    value=None,
                    step=1.0,
                    placeholder="0–100",
                    key=f"{k}sub:{axis}:{sub.id}",
                    help=sub.description,
                    format="%.0f",
                )
    # no max_chars (the browser would cut a paste without a word): an over-long comment is refused on submit
    st.text_area(
        "Comment (plain text)",
        key=f"{k}comment",
        placeholder=f"What most shaped your grade? (up to {MAX_COMMENT:,} characters, shown as typed)",
    )
    st.form_submit_button(
        f"Submit grade of {item.alias} and reveal the judges",
        type="primary",
        on_click=_submit,
        args=(item.number, item_id, generation),
    )
if mine and st.button("Cancel the re-grade", key=f"calib_cancel_{item.number}"):
    st.session_state.pop(regrade_key, None)
    st.rerun()
if st.session_state.get("calib_error"):
    st.error(st.session_state.pop("calib_error"))
