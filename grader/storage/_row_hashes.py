"""Hashes of derived rows written after a run's manifest (0010): scored versions and their contestant scores, human
calibration grades, ledger annotations, calibration sets.

Each such row gets a ``row_hashes`` entry in the transaction that writes it: the SHA-256 of the row's content and a
label that names it as a reader knows it ("scored version 2, contestant m1"). :func:`check_row_hashes` recomputes
every entry of a run, and names a row that changed, a row that is gone, and a row that has no entry (written
outside the grader). Only named columns are read (plain rows, not objects), so the 0010 migration can record the
rows that existed before it with the same code."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select

from grader.storage._models import (
    CalibrationSetRow,
    ContestantRow,
    ContestantScoreRow,
    HumanGradeRow,
    LedgerAnnotationRow,
    LedgerEntryRow,
    RowHashRow,
    ScoreVersionRow,
)

KINDS = ("score_version", "contestant_score", "human_grade", "ledger_annotation", "calibration_set")


def _dt(value) -> str | None:  # noqa: ANN001 - a datetime as UTC text, whichever way the database returned it
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat()


def _sha(doc) -> str:  # noqa: ANN001
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def _version_doc(r) -> list:  # noqa: ANN001
    return [r.run_id, r.number, r.rubric_id, r.rubric_hash, r.rubric_doc, r.judge_calls, r.note, _dt(r.created_at)]


def _score_doc(r) -> list:  # noqa: ANN001
    return [
        r.version_id,
        r.contestant_key,
        r.rank,
        r.total,
        r.reasoning_median,
        r.efficiency,
        r.band,
        r.judges_low,
        r.judges_high,
        r.n_judges,
        r.flagged,
        r.official_eligible,
        r.outcome,
        r.details,
    ]


def _human_doc(r) -> list:  # noqa: ANN001
    return [
        r.run_id,
        r.contestant_key,
        r.annotator,
        r.rubric_id,
        r.rubric_hash,
        _dt(r.created_at),
        r.reasoning,
        r.evidence,
        r.outcome,
        r.data_reliability,
        r.composite,
        r.sub_scores,
        r.comment,
    ]


def _annotation_doc(r) -> list:  # noqa: ANN001
    return [r.ledger_entry_id, r.annotator, _dt(r.created_at), r.status, r.note]


def _set_doc(r) -> list:  # noqa: ANN001
    return [
        r.id,
        r.source_run_id,
        r.rubric_id,
        r.rubric_hash,
        r.seed,
        r.n_items,
        r.window,
        r.bundle_path,
        r.bundle_hash,
        r.method,
        r.items,
        _dt(r.created_at),
    ]


def _rows(session, kind: str, run_id: str | None = None, ids: list | None = None) -> list:
    """(run id, ref, label, sha256) of the rows of one kind (of one run, or with these primary keys)."""
    V, S, H, A, C, L, K = (
        ScoreVersionRow,
        ContestantScoreRow,
        HumanGradeRow,
        LedgerAnnotationRow,
        CalibrationSetRow,
        LedgerEntryRow,
        ContestantRow,
    )
    if kind == "score_version":
        q = select(
            V.id, V.run_id, V.number, V.rubric_id, V.rubric_hash, V.rubric_doc, V.judge_calls, V.note, V.created_at
        )
        q = q.where(V.run_id == run_id) if ids is None else q.where(V.id.in_(ids))
        return [(r.run_id, str(r.id), f"scored version {r.number}", _sha(_version_doc(r))) for r in session.execute(q)]
    if kind == "contestant_score":
        q = (
            select(
                S.id,
                S.version_id,
                K.contestant_key,
                S.rank,
                S.total,
                S.reasoning_median,
                S.efficiency,
                S.band,
                S.judges_low,
                S.judges_high,
                S.n_judges,
                S.flagged,
                S.official_eligible,
                S.outcome,
                S.details,
                V.run_id,
                V.number,
            )
            .join(V, V.id == S.version_id)
            .join(K, K.id == S.contestant_id)
        )
        q = q.where(V.run_id == run_id) if ids is None else q.where(S.id.in_(ids))
        return [
            (r.run_id, str(r.id), f"scored version {r.number}, contestant {r.contestant_key}", _sha(_score_doc(r)))
            for r in session.execute(q)
        ]
    if kind == "human_grade":
        q = select(
            H.id,
            H.run_id,
            K.contestant_key,
            H.annotator,
            H.rubric_id,
            H.rubric_hash,
            H.created_at,
            H.reasoning,
            H.evidence,
            H.outcome,
            H.data_reliability,
            H.composite,
            H.sub_scores,
            H.comment,
        ).join(K, K.id == H.contestant_id)
        q = q.where(H.run_id == run_id) if ids is None else q.where(H.id.in_(ids))
        return [
            (
                r.run_id,
                str(r.id),
                f"human grade of contestant {r.contestant_key} by {r.annotator} ({_dt(r.created_at)})",
                _sha(_human_doc(r)),
            )
            for r in session.execute(q)
        ]
    if kind == "ledger_annotation":
        q = (
            select(
                A.id,
                A.ledger_entry_id,
                A.annotator,
                A.created_at,
                A.status,
                A.note,
                L.run_id,
                L.judge_id,
                L.position,
                K.contestant_key,
            )
            .join(L, L.id == A.ledger_entry_id)
            .join(K, K.id == L.contestant_id)
        )
        q = q.where(L.run_id == run_id) if ids is None else q.where(A.id.in_(ids))
        return [
            (
                r.run_id,
                str(r.id),
                f"annotation by {r.annotator} of claim {r.position + 1} of {r.judge_id} on "
                f"contestant {r.contestant_key} ({_dt(r.created_at)})",
                _sha(_annotation_doc(r)),
            )
            for r in session.execute(q)
        ]
    if kind == "calibration_set":
        q = select(
            C.id,
            C.source_run_id,
            C.rubric_id,
            C.rubric_hash,
            C.seed,
            C.n_items,
            C.window,
            C.bundle_path,
            C.bundle_hash,
            C.method,
            C.items,
            C.created_at,
        )
        q = q.where(C.source_run_id == run_id) if ids is None else q.where(C.id.in_(ids))
        return [(r.source_run_id, str(r.id), f"calibration set {r.id}", _sha(_set_doc(r))) for r in session.execute(q)]
    raise ValueError(f"unknown kind of row {kind!r}")


def record_row_hashes(session, kind: str, ids: list) -> None:
    """Record the hash of these rows of one kind (flushed, in the transaction that wrote them)."""
    if not ids:
        return
    session.flush()
    for run_id, ref, label, sha in _rows(session, kind, ids=list(ids)):
        session.add(RowHashRow(run_id=run_id, kind=kind, ref=ref, label=label, sha256=sha))
    session.flush()


def record_all_row_hashes(session) -> int:
    """Record a hash for every row of the tracked kinds that has none (the 0010 migration: rows written before
    hashes were kept are recorded as they stand then). Returns how many were recorded."""
    have = {(k, r) for k, r in session.execute(select(RowHashRow.kind, RowHashRow.ref))}
    runs = [r for (r,) in session.execute(select(ScoreVersionRow.run_id).distinct())]
    runs += [r for (r,) in session.execute(select(HumanGradeRow.run_id).distinct())]
    runs += [
        r
        for (r,) in session.execute(
            select(LedgerEntryRow.run_id)
            .join(LedgerAnnotationRow, LedgerAnnotationRow.ledger_entry_id == LedgerEntryRow.id)
            .distinct()
        )
    ]
    runs += [r for (r,) in session.execute(select(CalibrationSetRow.source_run_id).distinct())]
    n = 0
    for run_id in sorted(set(runs)):
        for kind in KINDS:
            for rid, ref, label, sha in _rows(session, kind, run_id=run_id):
                if (kind, ref) not in have:
                    session.add(RowHashRow(run_id=rid, kind=kind, ref=ref, label=label, sha256=sha))
                    n += 1
    session.flush()
    return n


@dataclass
class RowCheck:
    checked: int = 0
    problems: list[str] = field(default_factory=list)


def check_row_hashes(session, run_id: str) -> RowCheck:
    """Recompute every recorded row hash of a run; name changed, deleted and unrecorded rows."""
    out = RowCheck()
    want: dict[tuple[str, str], RowHashRow] = {
        (h.kind, h.ref): h for h in session.scalars(select(RowHashRow).where(RowHashRow.run_id == run_id))
    }
    for kind in KINDS:
        have = {ref: (label, sha) for _, ref, label, sha in _rows(session, kind, run_id=run_id)}
        for (k, ref), h in sorted(want.items(), key=lambda kv: kv[1].id):
            if k != kind:
                continue
            out.checked += 1
            if ref not in have:
                out.problems.append(f"{h.label}: deleted (recorded when written, missing from the database)")
            elif have[ref][1] != h.sha256:
                out.problems.append(f"{h.label}: changed since it was written (stored row edited)")
        for ref, (label, _) in sorted(have.items()):
            if (kind, ref) not in want:
                out.problems.append(f"{label}: no hash was recorded when it was written (added outside the grader)")
    return out
