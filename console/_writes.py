"""The console's only writes: human calibration grades and ledger annotations, both append-only.

Each write takes the :class:`~console._auth.SignedIn` annotator and checks it first: there is no
anonymous write path. A correction is a new row; nothing is ever updated or deleted, so concurrent
annotators (several Streamlit sessions on one PostgreSQL database) cannot overwrite each other.
"""

from __future__ import annotations

import math
from typing import Any, overload

from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator
from sqlalchemy.orm import Session

from console._auth import AnnotatorDirectory, SignedIn, require_current
from console._queries import CLAIM_STATUSES
from grader.storage import (
    ContestantRow,
    HumanGradeRow,
    LedgerAnnotationRow,
    LedgerEntryRow,
    RunRow,
    record_row_hashes,
    session_scope,
)
from rubric import Rubric

MAX_COMMENT = 5000


class WriteError(ValueError):
    """A write was refused: bad value (named), unknown run, item or ledger entry."""


Score = float


def describe_error(exc: Exception) -> str:
    """A refused grade or note as the user should read it: each field and its problem, no pydantic wrapping."""
    if isinstance(exc, ValidationError):
        return "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors())
    return str(exc)


@overload
def _score(value: Any, field: str) -> float: ...
@overload
def _score(value: Any, field: str, *, nullable: bool) -> float | None: ...
def _score(value: Any, field: str, *, nullable: bool = False) -> float | None:
    if value is None:
        if nullable:
            return None
        raise WriteError(f"{field}: a score 0-100 is required")
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise WriteError(f"{field}: {value!r} is not a number") from exc
    if not math.isfinite(number) or not 0 <= number <= 100:
        raise WriteError(f"{field}: {value!r} is outside 0-100")
    return number


class HumanGradeInput(BaseModel):
    """What an annotator enters for one blind item: axes 0-100, optional sub-scores and a comment."""

    reasoning: Score
    evidence: Score
    outcome: Score | None = None
    data_reliability: Score | None = None
    reasoning_sub_scores: dict[str, Score] = Field(default_factory=dict)
    evidence_sub_scores: dict[str, Score] = Field(default_factory=dict)
    comment: str = ""

    @field_validator("reasoning", "evidence", "outcome", "data_reliability", mode="before")
    @classmethod
    def _axis(cls, value: Any, info: ValidationInfo) -> float | None:
        name = info.field_name or ""  # always set for a field validator
        return _score(value, name, nullable=name in ("outcome", "data_reliability"))

    @field_validator("reasoning_sub_scores", "evidence_sub_scores", mode="before")
    @classmethod
    def _subs(cls, value: Any, info: ValidationInfo) -> dict[str, float]:
        out: dict[str, float] = {}
        for key, v in (value or {}).items():
            if v is None:
                continue
            out[str(key)] = _score(v, f"{info.field_name}.{key}")
        return out

    @field_validator("comment")
    @classmethod
    def _comment(cls, value: str) -> str:
        if len(value) > MAX_COMMENT:
            raise WriteError(
                f"comment: {len(value):,} characters, longer than the limit of {MAX_COMMENT:,}; "
                "shorten it (nothing was recorded)"
            )
        return value.strip()


def human_composite(grade: HumanGradeInput, rubric: Rubric) -> tuple[float, str]:
    """The human's composite under the rubric's weights, and where its process score came from.

    Process quality is the rubric's weighted mean of named reasoning sub-scores when the annotator gave
    all of them; otherwise the annotator's reasoning score stands in for it (said in the returned text).
    Without an outcome score the outcome weight is shared as the rubric says (as for the judges).
    """
    from grader.scoring import composite_weights, process_quality

    process_ids = set(rubric.process.weights)
    if process_ids and process_ids <= set(grade.reasoning_sub_scores):
        process = process_quality(grade.reasoning_sub_scores, rubric)
        source = "process from the annotator's reasoning sub-scores"
    else:
        process = grade.reasoning
        source = "process taken as the annotator's reasoning score (no full reasoning sub-scores)"
    weights = composite_weights(rubric, grade.outcome is not None)
    values = {
        "reasoning": grade.reasoning,
        "evidence": grade.evidence,
        "process": process,
        "outcome": grade.outcome if grade.outcome is not None else 0.0,
    }
    total = sum(weights.values())
    composite = sum(w * values[k] for k, w in weights.items()) / total
    return float(composite), source


def _rubric_of(run: RunRow) -> Rubric:
    from grader.scoring import run_rubric

    return run_rubric(run)


def _human_grade_row(
    s: Session,
    run: RunRow,
    rubric: Rubric,
    who: SignedIn,
    contestant_row_id: int,
    grade: HumanGradeInput,
    source: str | None = None,
    original: dict | None = None,
) -> HumanGradeRow:
    """The row for one human grade after every check the console makes (item of the run, known sub-ids)."""
    contestant = s.get(ContestantRow, contestant_row_id)
    if contestant is None or contestant.season_id != run.season_id:
        raise WriteError(f"item {contestant_row_id} is not part of run {run.id!r}")
    unknown = [k for k in grade.reasoning_sub_scores if k not in rubric.sub_component_weights("reasoning")]
    unknown += [k for k in grade.evidence_sub_scores if k not in rubric.sub_component_weights("evidence")]
    if unknown:
        raise WriteError(f"sub-scores: unknown sub-component id(s) {', '.join(unknown)} for {rubric.id}")
    composite, process_source = human_composite(grade, rubric)
    original = original or {}
    return HumanGradeRow(
        run_id=run.id,
        contestant_id=contestant_row_id,
        annotator=who.name,
        rubric_id=run.rubric_id,
        rubric_hash=run.rubric_hash,
        **({"created_at": original["created_at"]} if original.get("created_at") else {}),
        reasoning=grade.reasoning,
        evidence=grade.evidence,
        outcome=grade.outcome,
        data_reliability=grade.data_reliability,
        composite=composite,
        sub_scores={
            "reasoning": grade.reasoning_sub_scores,
            "evidence": grade.evidence_sub_scores,
            "composite_note": process_source,
            "sign_in": original.get("sign_in") or who.method,
            **({"source": source} if source else {}),
        },
        comment=grade.comment,
    )


def record_human_grade(
    annotator: object, run_id: str, contestant_row_id: int, grade: HumanGradeInput, db_url: str | None = None
) -> int:
    """Append a human grade (author, time, rubric version, run); returns its row id."""
    who = require_current(annotator)
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise WriteError(f"no run {run_id!r} in this database")
        row = _human_grade_row(s, run, _rubric_of(run), who, contestant_row_id, grade)
        s.add(row)
        s.flush()
        record_row_hashes(s, "human_grade", [row.id])
        return row.id


def record_human_grades(
    run_id: str,
    grades: list[tuple[object, int, HumanGradeInput]],
    source: str,
    db_url: str | None = None,
    directory: AnnotatorDirectory | None = None,
    originals: list[dict] | None = None,
) -> list[int]:
    """Append several human grades in one transaction (all or none), each checked as in the console;
    ``source`` (e.g. the imported file and its hash) is stored with every row. ``originals`` (one per grade) keeps
    what an exported grade recorded when it was first given: its time (``created_at``, so "latest" stays the
    latest given, never the latest imported) and how its annotator signed in (``sign_in``)."""
    originals = originals or [{} for _ in grades]
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise WriteError(f"no run {run_id!r} in this database")
        rubric = _rubric_of(run)
        rows = [
            _human_grade_row(s, run, rubric, require_current(who, directory), cid, grade, source, original)
            for (who, cid, grade), original in zip(grades, originals, strict=True)
        ]
        s.add_all(rows)
        s.flush()
        record_row_hashes(s, "human_grade", [r.id for r in rows])
        return [r.id for r in rows]


def record_ledger_annotation(
    annotator: object, ledger_entry_id: int, status: str, note: str = "", db_url: str | None = None
) -> int:
    """Append an annotator's verdict (the correct status and a note) on one ledger entry."""
    who = require_current(annotator)
    if status not in CLAIM_STATUSES:
        raise WriteError(f"status: {status!r} is not one of {', '.join(CLAIM_STATUSES)}")
    note = (note or "").strip()
    if len(note) > MAX_COMMENT:
        raise WriteError(
            f"note: {len(note):,} characters, longer than the limit of {MAX_COMMENT:,}; "
            "shorten it (nothing was recorded)"
        )
    with session_scope(db_url) as s:
        if s.get(LedgerEntryRow, ledger_entry_id) is None:
            raise WriteError(f"no ledger entry {ledger_entry_id}")
        row = LedgerAnnotationRow(ledger_entry_id=ledger_entry_id, annotator=who.name, status=status, note=note)
        s.add(row)
        s.flush()
        record_row_hashes(s, "ledger_annotation", [row.id])
        return row.id
