"""Read side of the ledger review page: the run's claim ledgers, filtered and paginated (re-exported by
``console._queries``)."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func, select

from console._blind import Blind, resolve
from grader.storage import ContestantRow, GradeRow, LedgerAnnotationRow, LedgerEntryRow, session_scope


class LedgerFilters(BaseModel):
    """Ledger review filters; ``None`` means any."""

    judge_id: str | None = None
    verifier_statuses: list[str] | None = None
    judge_statuses: list[str] | None = None
    disagrees: bool | None = None
    contestant_row_id: int | None = None
    lookahead_only: bool = False
    entry_id: int | None = None
    """One ledger entry (a linked claim)."""


class LedgerAnnotationView(BaseModel):
    annotator: str
    status: str
    note: str
    created_at: datetime


class LedgerEntryView(BaseModel):
    """One claim of one judge's ledger with the verifier's verdict and the values it was checked against."""

    id: int
    contestant: str
    contestant_row_id: int
    judge_id: str
    position: int
    claim: str
    decision_date: date | None
    symbol: str | None
    cited_fields: list[str]
    judge_status: str
    judge_note: str
    verifier_status: str
    verifier_reason: str
    evidence: list[dict[str, Any]]
    flags: list[str]
    flag_reasons: dict[str, str] = {}
    check_path: str = "text"
    clause: str | None = None
    disagrees: bool
    lookahead: bool
    annotations: list[LedgerAnnotationView]


class LedgerPage(BaseModel):
    total: int
    page: int
    page_size: int
    pages: int
    entries: list[LedgerEntryView]
    hidden_items: int = 0
    """Items of a calibration run whose ledgers are withheld until the viewer grades them."""


def ledger_judges(run_id: str, db_url: str | None = None) -> list[str]:
    """Judge ids that have ledger entries (or grades) in the run."""
    with session_scope(db_url) as s:
        return sorted(s.scalars(select(GradeRow.judge_id).where(GradeRow.run_id == run_id).distinct()))


def _ledger_where(run_id: str, f: LedgerFilters) -> list[Any]:
    where: list[Any] = [LedgerEntryRow.run_id == run_id]
    if f.judge_id:
        where.append(LedgerEntryRow.judge_id == f.judge_id)
    if f.verifier_statuses:
        where.append(LedgerEntryRow.verifier_status.in_(f.verifier_statuses))
    if f.judge_statuses:
        where.append(LedgerEntryRow.judge_status.in_(f.judge_statuses))
    if f.disagrees is not None:
        where.append(LedgerEntryRow.disagrees.is_(f.disagrees))
    if f.contestant_row_id is not None:
        where.append(LedgerEntryRow.contestant_id == f.contestant_row_id)
    if f.lookahead_only:
        where.append(LedgerEntryRow.lookahead.is_(True))
    if f.entry_id is not None:
        where.append(LedgerEntryRow.id == f.entry_id)
    return where


def ledger_page(
    run_id: str,
    filters: LedgerFilters | None = None,
    page: int = 1,
    page_size: int = 20,
    db_url: str | None = None,
    *,
    blind: Blind | None = None,
) -> LedgerPage:
    """One page of the run's claim ledgers (filtered, ordered by contestant, judge and position); the ledgers of
    the items ``blind`` hides are left out (``hidden_items`` says how many)."""
    f = filters or LedgerFilters()
    page_size = max(1, min(int(page_size), 200))
    blind = resolve(run_id, blind, db_url)
    where = _ledger_where(run_id, f)
    if blind.hides_any:
        where.append(LedgerEntryRow.contestant_id.not_in(sorted(blind.hidden_rows)))
    with session_scope(db_url) as s:
        total = int(s.scalar(select(func.count(LedgerEntryRow.id)).where(*where)) or 0)
        pages = max(1, math.ceil(total / page_size))
        page = max(1, min(int(page), pages))
        rows = s.execute(
            select(LedgerEntryRow, ContestantRow.display_name)
            .join(ContestantRow, ContestantRow.id == LedgerEntryRow.contestant_id)
            .where(*where)
            .order_by(LedgerEntryRow.contestant_id, LedgerEntryRow.judge_id, LedgerEntryRow.position, LedgerEntryRow.id)
            .limit(page_size)
            .offset((page - 1) * page_size)
        ).all()
        ids = [e.id for e, _ in rows]
        notes: dict[int, list[LedgerAnnotationView]] = {i: [] for i in ids}
        if ids:
            for a in s.scalars(
                select(LedgerAnnotationRow)
                .where(LedgerAnnotationRow.ledger_entry_id.in_(ids))
                .order_by(LedgerAnnotationRow.created_at, LedgerAnnotationRow.id)
            ):
                notes[a.ledger_entry_id].append(
                    LedgerAnnotationView(annotator=a.annotator, status=a.status, note=a.note, created_at=a.created_at)
                )
        entries = [
            LedgerEntryView(
                id=e.id,
                contestant=name,
                contestant_row_id=e.contestant_id,
                judge_id=e.judge_id,
                position=e.position,
                claim=e.claim,
                decision_date=e.decision_date,
                symbol=e.symbol,
                cited_fields=[str(x) for x in e.cited_fields or []],
                judge_status=e.judge_status,
                judge_note=e.judge_note or "",
                verifier_status=e.verifier_status,
                verifier_reason=e.verifier_reason or "",
                evidence=[dict(x) for x in e.evidence or [] if isinstance(x, dict)],
                flags=[str(x) for x in e.flags or []],
                disagrees=bool(e.disagrees),
                lookahead=bool(e.lookahead),
                flag_reasons={str(k): str(v) for k, v in (e.flag_reasons or {}).items()},
                check_path=e.check_path or "text",
                clause=e.clause,
                annotations=notes[e.id],
            )
            for e, name in rows
        ]
    return LedgerPage(
        total=total, page=page, page_size=page_size, pages=pages, entries=entries, hidden_items=len(blind.hidden_rows)
    )
