"""The full round trip: sign in, grade blind, see the reveal, find the grade in the calibration audit."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select

from grader.reporting import collect_audit_inputs
from grader.storage import HumanGradeRow, session_scope
from tests.console._helpers import (
    RUN_ID,
    app_test,
    audit_sections,
    calibration_prefix,
    fill_calibration,
    item_row_id,
    markdown_tables,
    open_audit_section,
    page_text,
    sign_in,
    write_forms,
)

JUDGES = ("judge-openai", "judge-anthropic", "judge-xai")


def _grade_current_item(at, reasoning: int, evidence: int, comment: str) -> int:
    """Grade the item on the page; returns its contestant row."""
    item = at.selectbox(key="calib_item").value
    fill_calibration(at, reasoning, evidence, 70, 40, comment, evidence_claim_support=90)
    write_forms(at)[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return item_row_id(RUN_ID, item, _url(at))


def _url(at) -> str:
    import os

    return os.environ["GRADER_DATABASE_URL"]


def test_sign_in_grade_reveal_and_calibration_audit(console_env):
    at = app_test().run()
    sign_in(at, "alice", console_env.tokens["alice"])
    assert "Signed in as **alice**" in page_text(at)
    assert console_env.tokens["alice"] not in page_text(at)
    assert at.session_state["sign_in_token"] == ""  # the token is not kept in the session
    at.switch_page("views/calibration.py").run()
    assert not at.exception

    # blind: the record is shown, no judge id, verdict or score is on the page before submitting
    before = page_text(at)
    assert "Decision record of" in before
    assert not any(j in before for j in JUDGES)
    assert "Revealed" not in before and "Synthetic / Not a judge grade" not in before
    item = _grade_current_item(at, 64, 58, "Clear theses, thin evidence.")

    after = page_text(at)
    assert "recorded. The judges' grades are revealed" in after and "Revealed: the judges' grades" in after
    reveal = at.dataframe[-1].value
    assert list(reveal["grader"]) == ["you (alice)", "judge-anthropic", "judge-openai", "judge-xai"]
    assert reveal["reasoning"].iloc[0] == 64 and reveal["evidence"].iloc[0] == 58

    with session_scope(console_env.db_url) as s:
        rows = s.scalars(select(HumanGradeRow)).all()
        assert len(rows) == 1
        row = rows[0]
        assert (row.annotator, row.run_id, row.contestant_id) == ("alice", console_env.run_id, item)
        assert row.rubric_id == "grounded_financial_reasoning_judge_v0.4"
        assert (row.reasoning, row.evidence, row.outcome, row.data_reliability) == (64, 58, 40, 70)
        assert row.sub_scores["evidence"] == {"claim_support": 90}
        assert row.comment == "Clear theses, thin evidence."
        assert row.created_at is not None
        # composite under the rubric weights: process stands in as the reasoning score
        assert row.composite == pytest.approx((40 * 64 + 35 * 58 + 15 * 64 + 10 * 40) / 100)

    inputs = collect_audit_inputs(console_env.run_id, console_env.db_url)
    humans = inputs.human_grades
    mine = humans[humans["annotator"] == "alice"]
    assert set(mine["axis"]) == {"reasoning", "evidence", "outcome", "data_reliability", "composite"}
    assert float(mine.loc[mine["axis"] == "reasoning", "score"].iloc[0]) == 64

    # the live Audits page now includes the grade: the calibration section has data
    at.switch_page("views/audits.py").run()
    start = time.monotonic()
    while not audit_sections(at) or "1 human grade row(s)" not in page_text(at):
        assert time.monotonic() - start < 240
        time.sleep(0.5)
        at.run()
    calibration = open_audit_section(at, "Calibration")
    section_text = "\n".join(str(e.value) for e in calibration.get("markdown"))
    assert "1 item(s) graded by 1 annotator(s)" in section_text
    assert calibration.get("image")  # the calibration chart now has a point


def test_second_annotator_queue_and_append_only_regrades(console_env):
    alice = sign_in(app_test().run(), "alice", console_env.tokens["alice"])
    alice.switch_page("views/calibration.py").run()
    first_row = _grade_current_item(alice, 70, 70, "first")
    first_item = alice.selectbox(key="calib_item").value

    bob = sign_in(app_test().run(), "bob", console_env.tokens["bob"])
    bob.switch_page("views/calibration.py").run()
    queue = next(t for t in markdown_tables(bob) if t.columns[0] == "Waiting for a second annotator")
    assert queue.iloc[0, 0] == "**1**"
    assert bob.selectbox(key="calib_item").value == first_item  # bob's queue starts with alice's item
    assert bob.number_input(key=calibration_prefix(bob) + "reasoning").value is None  # a first grade starts empty
    _grade_current_item(bob, 40, 45, "second opinion")

    # alice grades the same item again: a new row, the first one stays
    alice.button(key=f"regrade_btn_{first_item}").click().run()
    assert write_forms(alice)  # the form is back, starting from alice's latest grade of the item
    prefix = calibration_prefix(alice)
    assert alice.number_input(key=f"{prefix}reasoning").value == 70
    assert alice.text_area(key=f"{prefix}comment").value == "first"
    assert _grade_current_item(alice, 75, 72, "revised") == first_row
    with session_scope(console_env.db_url) as s:
        rows = s.scalars(select(HumanGradeRow).order_by(HumanGradeRow.id)).all()
        assert [(r.annotator, r.contestant_id, r.reasoning) for r in rows] == [
            ("alice", first_row, 70),
            ("bob", first_row, 40),
            ("alice", first_row, 75),
        ]
    humans = collect_audit_inputs(console_env.run_id, console_env.db_url).human_grades
    latest = humans[(humans["annotator"] == "alice") & (humans["axis"] == "reasoning")]
    assert list(latest["score"]) == [75]  # the audit reads the latest grade per annotator
