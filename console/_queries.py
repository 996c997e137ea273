"""Read-side data access of the console: small indexed queries returning plain typed data.

Every function takes ``db_url`` (``None``: ``GRADER_DATABASE_URL``) and opens its own short session, so
the Streamlit pages can cache results with ``st.cache_data``. Nothing here writes. The leaderboard, comparison,
ledger, calibration and audit reads live in ``_leaderboard_reads``, ``_comparison_reads``, ``_ledger_reads``,
``_calibration_reads`` and ``_audit_reads`` and are re-exported here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pandas as pd
from pydantic import BaseModel
from sqlalchemy import func, select

from console._audit_reads import audit_document, audit_report, audits_withheld  # noqa: F401 - re-exported
from console._blind import HIDDEN_AUTHOR, Blind, resolve
from console._calibration_reads import (  # noqa: F401 - re-exported
    BlindRecord,
    CalibrationItem,
    HumanGradeView,
    blind_record,
    calibration_items,
    calibration_queue,
    human_grade_stamp,
    human_grades,
)
from console._comparison_reads import compare_rubrics, compare_runs  # noqa: F401 - re-exported
from console._leaderboard_reads import (  # noqa: F401 - re-exported
    LEADERBOARD_COLUMNS,
    SCORE_COLUMNS,
    flag_reason,
    leaderboard,
)
from console._ledger_reads import (  # noqa: F401 - re-exported
    LedgerAnnotationView,
    LedgerEntryView,
    LedgerFilters,
    LedgerPage,
    ledger_judges,
    ledger_page,
)
from grader.storage import (
    ContestantRow,
    ContestantScoreRow,
    DecisionRow,
    GradeRow,
    RunRow,
    ScoreVersionRow,
    SeasonRow,
    session_scope,
)

CLAIM_STATUSES: tuple[str, ...] = ("supported", "not_verifiable", "contradicted")

#: Prominent labels of runs whose grades are not real LLM grades (the same words as the published report's
#: ``audits.RUN_TYPE_LABELS``; kept here so the pages need not import the statistics stack).
RUN_LABELS: dict[str, str] = {
    "mock": "MOCK PANEL — scripted judges, not real LLM grades",
    "baseline": "REFERENCE BASELINE — deterministic non-LLM judge",
    "dry-run": "DRY RUN — no provider was called; no grades were produced",
    "stability": "STABILITY RUN — the same inputs graded repeatedly to measure self-consistency",
}


def run_label(run_type: str) -> str | None:
    """The prominent label of a run type (None for an official run)."""
    return RUN_LABELS.get(run_type)


class RunSummary(BaseModel):
    """One grading run as the run pickers show it."""

    run_id: str
    run_type: str
    status: str
    rubric_id: str
    panel_name: str
    season_id: int
    season_key: str
    season_name: str
    created_at: datetime
    scored_versions: int
    latest_version: int | None
    """The number of the run's latest scored version (1, 2, ... within the run), None before scoring."""

    @property
    def label(self) -> str:
        return f"{self.run_id} · {self.run_type} · {self.season_key}"


def list_runs(db_url: str | None = None) -> list[RunSummary]:
    """Every run, newest first, with its season and number of scored versions."""
    with session_scope(db_url) as s:
        versions = dict(
            (run_id, (count, latest))
            for run_id, count, latest in s.execute(
                select(
                    ScoreVersionRow.run_id, func.count(ScoreVersionRow.id), func.max(ScoreVersionRow.number)
                ).group_by(ScoreVersionRow.run_id)
            )
        )
        rows = s.execute(
            select(RunRow, SeasonRow.season_key, SeasonRow.name)
            .join(SeasonRow, SeasonRow.id == RunRow.season_id)
            .order_by(RunRow.created_at.desc(), RunRow.id)
        ).all()
        return [
            RunSummary(
                run_id=run.id,
                run_type=run.run_type,
                status=run.status,
                rubric_id=run.rubric_id,
                panel_name=run.panel_name,
                season_id=run.season_id,
                season_key=key,
                season_name=name,
                created_at=run.created_at,
                scored_versions=versions.get(run.id, (0, None))[0],
                latest_version=versions.get(run.id, (0, None))[1],
            )
            for run, key, name in rows
        ]


class ContestantRef(BaseModel):
    """A contestant of a run's season."""

    row_id: int
    key: str
    display_name: str
    provider_family: str
    model: str
    hidden: bool = False
    """An item of a calibration run the viewer has not graded: its author and its grades are withheld."""


def run_contestants(run_id: str, db_url: str | None = None, *, blind: Blind | None = None) -> list[ContestantRef]:
    """The contestants of the run's season, in season order (an item ``blind`` hides: its label, no author)."""
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id!r} in this database")
        blind = resolve(run_id, blind, db_url)
        return [
            ContestantRef(
                row_id=c.id,
                key=c.contestant_key,
                display_name=blind.label(c.contestant_key),
                provider_family=HIDDEN_AUTHOR,
                model=HIDDEN_AUTHOR,
                hidden=True,
            )
            if blind.hides(c.id)
            else ContestantRef(
                row_id=c.id,
                key=c.contestant_key,
                display_name=c.display_name,
                provider_family=c.provider_family,
                model=c.model,
            )
            for c in s.scalars(
                select(ContestantRow).where(ContestantRow.season_id == run.season_id).order_by(ContestantRow.id)
            )
        ]


class JudgeGradeView(BaseModel):
    """One judge's grade of one contestant (repeat 0): axes, sub-scores, verdict and summary."""

    judge_id: str
    judge_family: str
    repeat: int
    reasoning: float
    evidence: float
    process: float
    outcome: float | None
    data_reliability: float | None
    composite: float
    lookahead_passed: bool
    verdict: str
    summary: str
    reasoning_sub_scores: dict[str, Any]
    evidence_sub_scores: dict[str, Any]
    notes: dict[str, str]
    claims: int


def judge_grades(
    run_id: str,
    contestant_row_id: int,
    db_url: str | None = None,
    repeat: int | None = 0,
    *,
    blind: Blind | None = None,
) -> list[JudgeGradeView]:
    """Every judge's grade of a contestant in a run (repeat 0 unless ``repeat`` is None: all repeats); none of an
    item ``blind`` hides."""
    if resolve(run_id, blind, db_url).hides(contestant_row_id):
        return []
    with session_scope(db_url) as s:
        q = select(GradeRow).where(GradeRow.run_id == run_id, GradeRow.contestant_id == contestant_row_id)
        if repeat is not None:
            q = q.where(GradeRow.repeat == repeat)
        out = []
        for g in s.scalars(q.order_by(GradeRow.judge_id, GradeRow.repeat)):
            grade = g.grade or {}
            notes = {
                axis: str((grade.get(axis) or {}).get("note", ""))
                for axis in ("reasoning", "evidence", "outcome", "data_reliability", "lookahead_check")
            }
            out.append(
                JudgeGradeView(
                    judge_id=g.judge_id,
                    judge_family=g.judge_family,
                    repeat=g.repeat,
                    reasoning=g.reasoning,
                    evidence=g.evidence,
                    process=g.process,
                    outcome=g.outcome,
                    data_reliability=g.data_reliability,
                    composite=g.composite,
                    lookahead_passed=g.lookahead_passed,
                    verdict=g.verdict,
                    summary=g.summary,
                    reasoning_sub_scores=dict((grade.get("reasoning") or {}).get("sub_scores") or {}),
                    evidence_sub_scores=dict((grade.get("evidence") or {}).get("sub_scores") or {}),
                    notes=notes,
                    claims=len(grade.get("claim_ledger") or []),
                )
            )
        return out


def contestant_score(
    run_id: str, contestant_row_id: int, db_url: str | None = None, *, blind: Blind | None = None
) -> dict[str, Any] | None:
    """The contestant's row of the run's latest scored version (total, band, outcome, details); None for an item
    ``blind`` hides."""
    if resolve(run_id, blind, db_url).hides(contestant_row_id):
        return None
    with session_scope(db_url) as s:
        version = s.scalar(select(func.max(ScoreVersionRow.id)).where(ScoreVersionRow.run_id == run_id))
        if version is None:
            return None
        row = s.scalar(
            select(ContestantScoreRow).where(
                ContestantScoreRow.version_id == version, ContestantScoreRow.contestant_id == contestant_row_id
            )
        )
        if row is None:
            return None
        return {
            "version": version,
            "rank": row.rank,
            "total": row.total,
            "band": row.band,
            "reasoning_median": row.reasoning_median,
            "efficiency": row.efficiency,
            "judges_low": row.judges_low,
            "judges_high": row.judges_high,
            "n_judges": row.n_judges,
            "flagged": row.flagged,
            "official_eligible": row.official_eligible,
            "outcome": dict(row.outcome or {}),
            "details": dict(row.details or {}),
        }


def _allocation_text(allocation: list[Any] | None) -> str:
    """Target weights of an allocation decision ("SEMICONDUCTORS 30%, ENERGY 25%")."""
    items = [a for a in allocation or [] if isinstance(a, dict)]
    return "allocation: " + ", ".join(
        f"{a.get('symbol', '?')} {float(a.get('weight') or 0) * 100:.0f}%"
        for a in sorted(items, key=lambda a: -float(a.get("weight") or 0))
    )


def _trades_text(trades: list[Any] | None) -> str:
    parts = []
    for t in trades or []:
        qty = t.get("quantity")
        qty_text = f"{qty:g}" if isinstance(qty, int | float) else str(qty)
        parts.append(f"{t.get('side', '?')} {qty_text} {t.get('symbol', '?')} @ {t.get('price')}")
    return "; ".join(parts)


HIDDEN_RATIONALE = "hidden until you grade this item (the Calibration page shows it anonymized)"


def decision_timeline(
    contestant_row_id: int,
    db_url: str | None = None,
    *,
    blind: Blind | None = None,
) -> pd.DataFrame:
    """The contestant's decisions in time order, with trades spelled out (one row per decision). The rationales
    of an item ``blind`` hides are withheld: as written, they may name their author."""
    hidden = blind is not None and blind.hides(contestant_row_id)
    with session_scope(db_url) as s:
        c = s.get(ContestantRow, contestant_row_id)
        if c is None:
            raise KeyError(f"no contestant row {contestant_row_id}")
        rows = s.execute(
            select(
                DecisionRow.decided_at,
                DecisionRow.trades,
                DecisionRow.allocation,
                DecisionRow.rationale,
                DecisionRow.decision_seconds,
                DecisionRow.confidence,
                DecisionRow.line,
            )
            .where(DecisionRow.season_id == c.season_id, DecisionRow.contestant_id == contestant_row_id)
            .order_by(DecisionRow.decided_at)
        ).all()
    return pd.DataFrame(
        [
            {
                "decided_at": r.decided_at,
                "trades": len(r.trades or []),
                "what": _trades_text(r.trades) or (_allocation_text(r.allocation) if r.allocation else "hold"),
                "rationale": HIDDEN_RATIONALE if hidden else r.rationale,
                "decision_seconds": r.decision_seconds,
                "confidence": r.confidence,
                "line": r.line,
            }
            for r in rows
        ],
        columns=["decided_at", "trades", "what", "rationale", "decision_seconds", "confidence", "line"],
    )
