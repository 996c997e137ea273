"""Read side of blind calibration: the run's items under neutral labels, an annotator's queue, the anonymized
record a judge saw and the human grades (re-exported by ``console._queries``)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func, select

from grader.storage import ContestantRow, HumanGradeRow, JudgeCallRow, PromptRow, RunRow, session_scope


class CalibrationItem(BaseModel):
    """A contestant record to grade blind; ``alias`` is a neutral label that does not reveal identity."""

    contestant_row_id: int
    alias: str
    has_record: bool
    annotators: list[str]
    number: int = 0
    """The item's number in the run (``alias`` is "Item NN"): stable, whoever grades what; used in links."""

    @property
    def needs_second(self) -> bool:
        return len(self.annotators) == 1


def _alias_order(run_id: str, keys: dict[int, str]) -> list[int]:
    """Row ids in a stable order that does not follow the season's (identity-revealing) order."""
    return sorted(keys, key=lambda rid: hashlib.sha256(f"{run_id}\0{keys[rid]}".encode()).hexdigest())


def calibration_items(run_id: str, db_url: str | None = None) -> list[CalibrationItem]:
    """Every contestant of the run as a blind item, with who has graded it so far."""
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id!r} in this database")
        keys = dict(
            s.execute(
                select(ContestantRow.id, ContestantRow.contestant_key).where(ContestantRow.season_id == run.season_id)
            ).all()
        )
        with_record = set(s.scalars(select(JudgeCallRow.contestant_id).where(JudgeCallRow.run_id == run_id).distinct()))
        graded: dict[int, set[str]] = {}
        for cid, who in s.execute(
            select(HumanGradeRow.contestant_id, HumanGradeRow.annotator)
            .where(HumanGradeRow.run_id == run_id)
            .distinct()
        ):
            graded.setdefault(cid, set()).add(who)
    from grader.calibration import calibration_set_of

    calibration_set = calibration_set_of(run_id, db_url)
    if calibration_set is not None:  # a calibration run: the set's own item numbers and labels
        labelled = {rid: calibration_set["items"][key] for rid, key in keys.items() if key in calibration_set["items"]}
        return [
            CalibrationItem(
                contestant_row_id=rid,
                alias=item["label"],
                has_record=rid in with_record,
                annotators=sorted(graded.get(rid, set())),
                number=int(item["item_id"].rsplit("-", 1)[1]),
            )
            for rid, item in sorted(labelled.items(), key=lambda kv: kv[1]["item_id"])
        ]
    order = _alias_order(run_id, keys)
    width = max(2, len(str(len(order))))
    return [
        CalibrationItem(
            contestant_row_id=rid,
            alias=f"Item {i:0{width}d}",
            has_record=rid in with_record,
            annotators=sorted(graded.get(rid, set())),
            number=i,
        )
        for i, rid in enumerate(order, start=1)
    ]


def calibration_queue(items: list[CalibrationItem], annotator: str) -> dict[str, list[CalibrationItem]]:
    """The annotator's queue: items another annotator graded that still need a second one, items nobody
    graded yet, and the items this annotator already graded."""
    gradable = [i for i in items if i.has_record]
    return {
        "needs_second": [i for i in gradable if i.needs_second and annotator not in i.annotators],
        "ungraded": [i for i in gradable if not i.annotators],
        "mine": [i for i in gradable if annotator in i.annotators],
    }


class BlindRecord(BaseModel):
    """The anonymized record a judge saw (the stored prompt): rubric instructions and the record itself."""

    prompt_sha256: str
    system: str
    user: str
    token_estimate: int


def blind_record(run_id: str, contestant_row_id: int, db_url: str | None = None) -> BlindRecord | None:
    """The stored, already anonymized prompt of the contestant in this run (first repeat-0 call)."""
    with session_scope(db_url) as s:
        sha = s.scalar(
            select(JudgeCallRow.prompt_sha256)
            .where(JudgeCallRow.run_id == run_id, JudgeCallRow.contestant_id == contestant_row_id)
            .order_by(JudgeCallRow.repeat, JudgeCallRow.id)
            .limit(1)
        )
        if sha is None:
            return None
        p = s.get(PromptRow, sha)
        if p is None:
            return None
        return BlindRecord(prompt_sha256=p.sha256, system=p.system, user=p.user, token_estimate=p.token_estimate)


class HumanGradeView(BaseModel):
    id: int
    annotator: str
    rubric_id: str
    created_at: datetime
    reasoning: float
    evidence: float
    outcome: float | None
    data_reliability: float | None
    composite: float | None
    sub_scores: dict[str, Any]
    comment: str


def human_grades(
    run_id: str, contestant_row_id: int | None = None, annotator: str | None = None, db_url: str | None = None
) -> list[HumanGradeView]:
    """Human grades of a run (optionally of one item and/or one annotator), oldest first."""
    with session_scope(db_url) as s:
        q = select(HumanGradeRow).where(HumanGradeRow.run_id == run_id)
        if contestant_row_id is not None:
            q = q.where(HumanGradeRow.contestant_id == contestant_row_id)
        if annotator is not None:
            q = q.where(HumanGradeRow.annotator == annotator)
        return [
            HumanGradeView(
                id=h.id,
                annotator=h.annotator,
                rubric_id=h.rubric_id,
                created_at=h.created_at,
                reasoning=h.reasoning,
                evidence=h.evidence,
                outcome=h.outcome,
                data_reliability=h.data_reliability,
                composite=h.composite,
                sub_scores=dict(h.sub_scores or {}),
                comment=h.comment,
            )
            for h in s.scalars(q.order_by(HumanGradeRow.created_at, HumanGradeRow.id))
        ]


def human_grade_stamp(run_id: str, db_url: str | None = None) -> tuple[int, int]:
    """(count, highest id) of the run's human grades: a cheap cache key for the live audits."""
    with session_scope(db_url) as s:
        n, top = s.execute(
            select(func.count(HumanGradeRow.id), func.max(HumanGradeRow.id)).where(HumanGradeRow.run_id == run_id)
        ).one()
        return int(n or 0), int(top or 0)
