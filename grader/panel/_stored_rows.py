"""The rows a graded task leaves: its prompt (stored once, by content) and its grade with the grade's ledger entries.
Re-exported by ``grader.panel._runner``."""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy import insert
from sqlalchemy.orm import Session

from grader.judges import JudgeSpec
from grader.prompts import JudgePrompt
from grader.storage import ContestantRow, GradeRow, LedgerEntryRow, PromptRow

_Row = TypeVar("_Row")


def stored_row(session: Session, model: type[_Row], key: object) -> _Row:
    """A row this run wrote earlier and still holds (its run, a contestant, a call, a batch); LookupError if it is
    gone from the database."""
    row = session.get(model, key)
    if row is None:
        raise LookupError(f"no {model.__name__} {key!r} in this database")
    return row


def store_prompt(session: Session, prompt: JudgePrompt) -> None:
    if session.get(PromptRow, prompt.sha256) is None:
        session.add(
            PromptRow(
                sha256=prompt.sha256,
                system=prompt.system,
                user=prompt.user,
                token_estimate=prompt.token_estimate,
                shared_chars=prompt.shared_chars,
            )
        )
        session.flush()


def store_grade(
    session: Session,
    *,
    run_id: str,
    spec: JudgeSpec,
    contestant: ContestantRow,
    repeat: int,
    call_id: int | None,
    grade: dict,
    composite,
    ledger_rows: list[dict],
) -> GradeRow:
    row = GradeRow(
        run_id=run_id,
        judge_id=spec.judge_id,
        judge_family=spec.family,
        contestant_id=contestant.id,
        repeat=repeat,
        call_id=call_id,
        grade=grade,
        reasoning=composite.reasoning,
        evidence=composite.evidence,
        process=composite.process,
        outcome=composite.outcome,
        data_reliability=(grade.get("data_reliability") or {}).get("score"),
        composite=composite.composite,
        lookahead_passed=bool((grade.get("lookahead_check") or {}).get("passed", False)),
        verdict=str(grade.get("verdict", "")),
        summary=str(grade.get("summary", "")),
    )
    session.add(row)
    session.flush()
    if ledger_rows:  # one INSERT of every entry, in ledger order (not an object each: 20-30 a grade)
        session.execute(
            insert(LedgerEntryRow),
            [
                {
                    **_LEDGER_DEFAULTS,
                    "grade_id": row.id,
                    "run_id": run_id,
                    "judge_id": spec.judge_id,
                    "contestant_id": contestant.id,
                    "position": pos,
                    **entry,
                }
                for pos, entry in enumerate(ledger_rows)
            ],
        )
    return row


_LEDGER_DEFAULTS = {
    c.name: c.default.arg
    for c in LedgerEntryRow.__table__.columns
    if c.default is not None and getattr(c.default, "is_scalar", False)
}
"""What a ledger entry's row holds when its entry leaves a column out (the columns' own scalar defaults), so every
row of the one INSERT names the same columns."""
