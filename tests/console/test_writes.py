"""Append-only writes: signed-in annotators only, validated values, the rubric's composite, and no lost
rows when two annotators write at the same time on PostgreSQL."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from pydantic import ValidationError
from sqlalchemy import func, select

from console import (
    AnnotatorDirectory,
    AuthError,
    HumanGradeInput,
    SignedIn,
    WriteError,
    human_composite,
    ledger_page,
    record_human_grade,
    record_ledger_annotation,
    run_contestants,
)
from grader.storage import HumanGradeRow, LedgerAnnotationRow, session_scope
from rubric import load_rubric, synthetic_grade
from tests.console._helpers import make_env


def _count(url: str, model) -> int:  # noqa: ANN001
    with session_scope(url) as s:
        return int(s.scalar(select(func.count()).select_from(model)))


def test_writes_refuse_anonymous_and_forged_annotators(console_env):
    c = run_contestants(console_env.run_id, console_env.db_url)[0]
    grade = HumanGradeInput(reasoning=50, evidence=50)
    entry = ledger_page(console_env.run_id, None, 1, 1, console_env.db_url).entries[0]
    for who in (None, "alice", SignedIn(name="alice", method="token", seal="f" * 64)):
        with pytest.raises(AuthError):
            record_human_grade(who, console_env.run_id, c.row_id, grade, console_env.db_url)
        with pytest.raises(AuthError):
            record_ledger_annotation(who, entry.id, "supported", "", console_env.db_url)
    assert _count(console_env.db_url, HumanGradeRow) == 0
    assert _count(console_env.db_url, LedgerAnnotationRow) == 0


def test_bad_values_are_refused_with_the_field_named(console_env):
    who = AnnotatorDirectory(console_env.annotators).sign_in("alice", console_env.tokens["alice"])
    c = run_contestants(console_env.run_id, console_env.db_url)[0]
    with pytest.raises(ValidationError, match="reasoning"):
        HumanGradeInput(reasoning=101, evidence=50)
    with pytest.raises(ValidationError, match="evidence_sub_scores.claim_support"):
        HumanGradeInput(reasoning=50, evidence=50, evidence_sub_scores={"claim_support": -1})
    with pytest.raises(WriteError, match="unknown sub-component id"):
        record_human_grade(
            who,
            console_env.run_id,
            c.row_id,
            HumanGradeInput(reasoning=50, evidence=50, reasoning_sub_scores={"nope": 3}),
            console_env.db_url,
        )
    with pytest.raises(WriteError, match="no run"):
        record_human_grade(who, "missing", c.row_id, HumanGradeInput(reasoning=1, evidence=1), console_env.db_url)
    with pytest.raises(WriteError, match="not part of run"):
        record_human_grade(
            who, console_env.run_id, 10_000, HumanGradeInput(reasoning=1, evidence=1), console_env.db_url
        )
    with pytest.raises(WriteError, match="status"):
        record_ledger_annotation(who, 1, "maybe", "", console_env.db_url)
    with pytest.raises(WriteError, match="no ledger entry"):
        record_ledger_annotation(who, 10_000, "supported", "", console_env.db_url)
    assert _count(console_env.db_url, HumanGradeRow) == 0


def test_human_composite_follows_the_rubric_like_a_judge_composite():
    from grader.scoring import axis_score, judge_composite

    rubric = load_rubric("v0.4")
    reasoning = {k: 40 + 5 * i for i, k in enumerate(rubric.axes.reasoning.ids())}
    evidence = {k: 90 - 4 * i for i, k in enumerate(rubric.axes.evidence.ids())}
    for outcome in (55, None):
        judge = judge_composite(
            synthetic_grade(rubric, reasoning=reasoning, evidence=evidence, outcome=outcome),
            rubric,
            outcome is not None,
        )
        human = HumanGradeInput(
            reasoning=axis_score(reasoning, rubric.sub_component_weights("reasoning")),
            evidence=axis_score(evidence, rubric.sub_component_weights("evidence")),
            outcome=outcome,
            reasoning_sub_scores=reasoning,
            evidence_sub_scores=evidence,
        )
        composite, source = human_composite(human, rubric)
        assert composite == pytest.approx(judge.composite, abs=0.01)
        assert "sub-scores" in source
    plain, source = human_composite(HumanGradeInput(reasoning=60, evidence=80), rubric)
    # no outcome: its 10 points are shared 40:35 over reasoning and evidence; process = reasoning
    assert plain == pytest.approx((40 + 10 * 40 / 75) * 0.6 + (35 + 10 * 35 / 75) * 0.8 + 15 * 0.6)
    assert "reasoning score" in source


def test_grades_and_annotations_are_append_only(any_db_env):
    url = any_db_env.db_url
    who = AnnotatorDirectory(any_db_env.annotators).sign_in("alice", any_db_env.tokens["alice"])
    c = run_contestants(any_db_env.run_id, url)[0]
    first = record_human_grade(who, any_db_env.run_id, c.row_id, HumanGradeInput(reasoning=10, evidence=20), url)
    second = record_human_grade(who, any_db_env.run_id, c.row_id, HumanGradeInput(reasoning=30, evidence=40), url)
    assert second > first
    entry = ledger_page(any_db_env.run_id, None, 1, 1, url).entries[0]
    record_ledger_annotation(who, entry.id, "contradicted", "wrong close", url)
    record_ledger_annotation(who, entry.id, "supported", "I misread", url)
    with session_scope(url) as s:
        assert [h.reasoning for h in s.scalars(select(HumanGradeRow).order_by(HumanGradeRow.id))] == [10, 30]
    page = ledger_page(any_db_env.run_id, None, 1, 1, url)
    assert [(a.status, a.note) for a in page.entries[0].annotations] == [
        ("contradicted", "wrong close"),
        ("supported", "I misread"),
    ]


@pytest.mark.postgres
def test_two_annotators_writing_at_once_on_postgresql_lose_nothing(pg_url, tmp_path, annotators, monkeypatch):
    import sqlalchemy as sa

    from grader.storage import Base, get_engine

    with get_engine(pg_url).begin() as conn:  # a fresh database state for this test
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(sa.text(f'DELETE FROM "{table.name}"'))
    env = make_env(pg_url, tmp_path, annotators, monkeypatch)
    directory = AnnotatorDirectory(env.annotators)
    people = {name: directory.sign_in(name, token) for name, token in env.tokens.items()}
    items = [c.row_id for c in run_contestants(env.run_id, pg_url)]
    entries = [e.id for e in ledger_page(env.run_id, None, 1, 200, pg_url).entries]
    per_writer = 40
    start = threading.Barrier(len(people) * 2)

    def write_grades(name: str) -> list[int]:
        start.wait()
        return [
            record_human_grade(
                people[name],
                env.run_id,
                items[i % len(items)],
                HumanGradeInput(reasoning=i % 101, evidence=50, comment=f"{name} {i}"),
                pg_url,
            )
            for i in range(per_writer)
        ]

    def write_annotations(name: str) -> list[int]:
        start.wait()
        return [
            record_ledger_annotation(people[name], entries[i % len(entries)], "supported", f"{name} {i}", pg_url)
            for i in range(per_writer)
        ]

    with ThreadPoolExecutor(max_workers=len(people) * 2) as pool:
        grade_jobs = [pool.submit(write_grades, name) for name in people]
        note_jobs = [pool.submit(write_annotations, name) for name in people]
        grade_ids = [i for f in grade_jobs for i in f.result()]
        note_ids = [i for f in note_jobs for i in f.result()]
    assert len(set(grade_ids)) == len(set(note_ids)) == len(people) * per_writer
    with session_scope(pg_url) as s:
        grades = s.execute(select(HumanGradeRow.annotator, HumanGradeRow.comment)).all()
        notes = s.execute(select(LedgerAnnotationRow.annotator, LedgerAnnotationRow.note)).all()
    for name in people:
        assert sorted(c for a, c in grades if a == name) == sorted(f"{name} {i}" for i in range(per_writer))
        assert sorted(n for a, n in notes if a == name) == sorted(f"{name} {i}" for i in range(per_writer))


def test_a_correction_replaces_the_whole_earlier_grade_in_the_audit(console_env):
    from grader.reporting import collect_audit_inputs

    url = console_env.db_url
    who = AnnotatorDirectory(console_env.annotators).sign_in("alice", console_env.tokens["alice"])
    c = run_contestants(console_env.run_id, url)[0]
    record_human_grade(
        who,
        console_env.run_id,
        c.row_id,
        HumanGradeInput(reasoning=10, evidence=20, outcome=30, data_reliability=40),
        url,
    )
    # the correction leaves outcome and data reliability empty: they are empty, not the earlier 30 and 40
    record_human_grade(who, console_env.run_id, c.row_id, HumanGradeInput(reasoning=50, evidence=60), url)
    humans = collect_audit_inputs(console_env.run_id, url).human_grades
    mine = humans[(humans["item_id"] == c.key) & (humans["annotator"] == "alice")]
    assert dict(zip(mine["axis"], mine["score"], strict=True)) == pytest.approx(
        {"reasoning": 50, "evidence": 60, "composite": mine.loc[mine["axis"] == "composite", "score"].iloc[0]}
    )
    assert "outcome" not in set(mine["axis"]) and "data_reliability" not in set(mine["axis"])


def test_revocation_takes_effect_on_the_next_write(console_env):
    """`grader annotators remove` (or a re-issued token) stops a session that signed in before."""
    directory = AnnotatorDirectory(console_env.annotators)
    alice = directory.sign_in("alice", console_env.tokens["alice"])
    bob = directory.sign_in("bob", console_env.tokens["bob"])
    c = run_contestants(console_env.run_id, console_env.db_url)[0]
    entry = ledger_page(console_env.run_id, None, 1, 1, console_env.db_url).entries[0]
    grade = HumanGradeInput(reasoning=50, evidence=50)
    record_human_grade(alice, console_env.run_id, c.row_id, grade, console_env.db_url)
    directory.remove("alice")
    with pytest.raises(AuthError, match="no longer configured"):
        record_human_grade(alice, console_env.run_id, c.row_id, grade, console_env.db_url)
    with pytest.raises(AuthError, match="no longer configured"):
        record_ledger_annotation(alice, entry.id, "supported", "", console_env.db_url)
    directory.add("bob", replace=True)  # a new token: the old session is revoked too
    with pytest.raises(AuthError, match="re-issued"):
        record_human_grade(bob, console_env.run_id, c.row_id, grade, console_env.db_url)
    assert _count(console_env.db_url, HumanGradeRow) == 1
    assert _count(console_env.db_url, LedgerAnnotationRow) == 0


def test_a_human_grade_records_the_rubric_hash_and_errors_read_plainly(console_env):
    from console._writes import describe_error
    from grader.storage import RunRow

    who = AnnotatorDirectory(console_env.annotators).sign_in("alice", console_env.tokens["alice"])
    c = run_contestants(console_env.run_id, console_env.db_url)[0]
    record_human_grade(
        who, console_env.run_id, c.row_id, HumanGradeInput(reasoning=50, evidence=50), console_env.db_url
    )
    with session_scope(console_env.db_url) as s:
        row = s.scalars(select(HumanGradeRow)).one()
        assert row.rubric_hash == s.get(RunRow, console_env.run_id).rubric_hash and len(row.rubric_hash) == 64
    with pytest.raises(ValidationError) as info:
        HumanGradeInput(reasoning=50, evidence=50, comment="x" * 6000)
    assert describe_error(info.value) == (
        "comment: 6,000 characters, longer than the limit of 5,000; shorten it (nothing was recorded)"
    )
    with pytest.raises(ValidationError) as info:
        HumanGradeInput(reasoning=None, evidence=50, reasoning_sub_scores={"thesis_quality": 140})
    assert describe_error(info.value) == (
        "reasoning: a score 0-100 is required; reasoning_sub_scores.thesis_quality: 140 is outside 0-100"
    )
