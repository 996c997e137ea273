"""Read-side data access of the console: small indexed queries returning plain typed data.

Every function takes ``db_url`` (``None``: ``GRADER_DATABASE_URL``) and opens its own short session, so
the Streamlit pages can cache results with ``st.cache_data``. Nothing here writes.
"""

from __future__ import annotations

import hashlib
import math
from datetime import date, datetime
from typing import Any

import pandas as pd
from pydantic import BaseModel
from sqlalchemy import func, select

from console._blind import HIDDEN_AUTHOR, Blind, resolve
from grader.storage import (
    ContestantRow,
    ContestantScoreRow,
    DecisionRow,
    GradeRow,
    HumanGradeRow,
    JudgeCallRow,
    LedgerAnnotationRow,
    LedgerEntryRow,
    PromptRow,
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
                select(ScoreVersionRow.run_id, func.count(ScoreVersionRow.id), func.max(ScoreVersionRow.number))
                .group_by(ScoreVersionRow.run_id)
            )
        )
        rows = s.execute(
            select(RunRow, SeasonRow.season_key, SeasonRow.name)
            .join(SeasonRow, SeasonRow.id == RunRow.season_id)
            .order_by(RunRow.created_at.desc(), RunRow.id)
        ).all()
        return [
            RunSummary(
                run_id=run.id, run_type=run.run_type, status=run.status, rubric_id=run.rubric_id,
                panel_name=run.panel_name, season_id=run.season_id, season_key=key, season_name=name,
                created_at=run.created_at, scored_versions=versions.get(run.id, (0, None))[0],
                latest_version=versions.get(run.id, (0, None))[1],
            )
            for run, key, name in rows
        ]


LEADERBOARD_COLUMNS: tuple[str, ...] = (
    "rank", "contestant", "family", "model", "total", "band", "reasoning_median", "efficiency", "outcome_axis",
    "return", "benchmark_return", "alpha", "judges_low", "judges_high", "judge_spread", "n_judges", "flagged",
    "flag_reason", "process", "risk", "oracle_score", "comparison_set", "oracle_score_all_rounds", "outcome_over",
    "contestant_id",
)


def flag_reason(details: dict[str, Any] | None, flagged: bool = True) -> str:
    """Why a score is flagged, from its stored panel aggregation: the reasons and the judges missing."""
    if not flagged:
        return ""
    panel = (details or {}).get("panel") or {}
    reasons = list(panel.get("reasons") or [])
    missing = list(panel.get("missing") or [])
    text = "; ".join(reasons) or "flagged (no reason stored with this scored version)"
    return text + (f" — missing: {', '.join(missing)}" if missing else "")


#: Leaderboard columns that carry judges' scores (withheld for an item the viewer has not graded).
SCORE_COLUMNS: tuple[str, ...] = tuple(c for c in LEADERBOARD_COLUMNS if c not in (
    "contestant", "family", "model", "process", "risk", "contestant_id"))


def _blind_rows(rows: list[dict[str, Any]], blind: Blind) -> list[dict[str, Any]]:
    """Leaderboard rows with the hidden items' authors and scores withheld, visible rows first (by rank) and the
    hidden ones after by label (so their place reveals no score either)."""
    if not blind.hides_any:
        return rows
    shown = [r for r in rows if not blind.hides_key(r["contestant_id"])]
    hidden = [{**{k: None for k in r}, "contestant_id": r["contestant_id"], "label": blind.label(r["contestant_id"]),
               "family": HIDDEN_AUTHOR, "model": HIDDEN_AUTHOR, "flagged": None, "details": None,
               "rounds_scope": None, "comparison_set": None}
              for r in rows if blind.hides_key(r["contestant_id"])]
    return shown + sorted(hidden, key=lambda r: r["label"])


def leaderboard(run_id: str, db_url: str | None = None, *, blind: Blind | None = None,
                ) -> tuple[dict[str, Any], pd.DataFrame]:
    """Meta and the leaderboard table of the run's latest scored version (KeyError: no such run/version); the
    items ``blind`` hides show their neutral label and no score."""
    from grader.panel.leaderboard import leaderboard_rows
    from grader.reporting import compact_facts, compact_risk, run_process_facts

    blind = resolve(run_id, blind, db_url)
    meta, rows = leaderboard_rows(run_id, None, db_url)
    rows = _blind_rows(rows, blind)
    facts = run_process_facts(run_id, db_url)
    frame = pd.DataFrame(
        [
            {
                "rank": r["rank"], "contestant": r["label"], "family": r["family"], "model": r["model"],
                "total": r["total"], "band": r["band"], "reasoning_median": r["reasoning_median"],
                "efficiency": r["efficiency"], "outcome_axis": r["outcome_axis"], "return": r["return"],
                "benchmark_return": r["benchmark_return"], "alpha": r["alpha"],
                "judges_low": r["judges_low"], "judges_high": r["judges_high"],
                "judge_spread": None if r["judges_low"] is None or r["judges_high"] is None
                else r["judges_high"] - r["judges_low"],
                "n_judges": r["n_judges"], "flagged": r["flagged"],
                "flag_reason": flag_reason(r["details"], bool(r["flagged"])),
                "process": compact_facts(facts.get(r["contestant_id"])), "contestant_id": r["contestant_id"],
                "risk": compact_risk(facts.get(r["contestant_id"])),
                # rounds seasons: the comparison-set score (the ranking surface), all-rounds as context, and how
                # many of the contestant's rounds the outcome columns are over
                "oracle_score": r["oracle_score"], "comparison_set": r["comparison_set"] or None,
                "oracle_score_all_rounds": r["oracle_score_all_rounds"], "outcome_over": r["rounds_scope"] or None,
            }
            for r in rows
        ],
        columns=list(LEADERBOARD_COLUMNS),
    )
    return meta, frame


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
            ContestantRef(row_id=c.id, key=c.contestant_key, display_name=blind.label(c.contestant_key),
                          provider_family=HIDDEN_AUTHOR, model=HIDDEN_AUTHOR, hidden=True)
            if blind.hides(c.id) else
            ContestantRef(row_id=c.id, key=c.contestant_key, display_name=c.display_name,
                          provider_family=c.provider_family, model=c.model)
            for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id)
                               .order_by(ContestantRow.id))
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


def judge_grades(run_id: str, contestant_row_id: int, db_url: str | None = None,
                 repeat: int | None = 0, *, blind: Blind | None = None) -> list[JudgeGradeView]:
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
            out.append(JudgeGradeView(
                judge_id=g.judge_id, judge_family=g.judge_family, repeat=g.repeat, reasoning=g.reasoning,
                evidence=g.evidence, process=g.process, outcome=g.outcome, data_reliability=g.data_reliability,
                composite=g.composite, lookahead_passed=g.lookahead_passed, verdict=g.verdict,
                summary=g.summary,
                reasoning_sub_scores=dict((grade.get("reasoning") or {}).get("sub_scores") or {}),
                evidence_sub_scores=dict((grade.get("evidence") or {}).get("sub_scores") or {}),
                notes=notes, claims=len(grade.get("claim_ledger") or []),
            ))
        return out


def contestant_score(run_id: str, contestant_row_id: int, db_url: str | None = None, *,
                     blind: Blind | None = None) -> dict[str, Any] | None:
    """The contestant's row of the run's latest scored version (total, band, outcome, details); None for an item
    ``blind`` hides."""
    if resolve(run_id, blind, db_url).hides(contestant_row_id):
        return None
    with session_scope(db_url) as s:
        version = s.scalar(select(func.max(ScoreVersionRow.id)).where(ScoreVersionRow.run_id == run_id))
        if version is None:
            return None
        row = s.scalar(select(ContestantScoreRow).where(ContestantScoreRow.version_id == version,
                                                        ContestantScoreRow.contestant_id == contestant_row_id))
        if row is None:
            return None
        return {
            "version": version, "rank": row.rank, "total": row.total, "band": row.band,
            "reasoning_median": row.reasoning_median, "efficiency": row.efficiency,
            "judges_low": row.judges_low, "judges_high": row.judges_high, "n_judges": row.n_judges,
            "flagged": row.flagged, "official_eligible": row.official_eligible,
            "outcome": dict(row.outcome or {}), "details": dict(row.details or {}),
        }


def _allocation_text(allocation: list[Any] | None) -> str:
    """Target weights of an allocation decision ("SEMICONDUCTORS 30%, ENERGY 25%")."""
    items = [a for a in allocation or [] if isinstance(a, dict)]
    return "allocation: " + ", ".join(f"{a.get('symbol', '?')} {float(a.get('weight') or 0) * 100:.0f}%"
                                      for a in sorted(items, key=lambda a: -float(a.get("weight") or 0)))


def _trades_text(trades: list[Any] | None) -> str:
    parts = []
    for t in trades or []:
        qty = t.get("quantity")
        qty_text = f"{qty:g}" if isinstance(qty, int | float) else str(qty)
        parts.append(f"{t.get('side', '?')} {qty_text} {t.get('symbol', '?')} @ {t.get('price')}")
    return "; ".join(parts)


HIDDEN_RATIONALE = "hidden until you grade this item (the Calibration page shows it anonymized)"


def decision_timeline(contestant_row_id: int, db_url: str | None = None, *, blind: Blind | None = None,
                      ) -> pd.DataFrame:
    """The contestant's decisions in time order, with trades spelled out (one row per decision). The rationales
    of an item ``blind`` hides are withheld: as written, they may name their author."""
    hidden = blind is not None and blind.hides(contestant_row_id)
    with session_scope(db_url) as s:
        c = s.get(ContestantRow, contestant_row_id)
        if c is None:
            raise KeyError(f"no contestant row {contestant_row_id}")
        rows = s.execute(
            select(DecisionRow.decided_at, DecisionRow.trades, DecisionRow.allocation, DecisionRow.rationale,
                   DecisionRow.decision_seconds, DecisionRow.confidence, DecisionRow.line)
            .where(DecisionRow.season_id == c.season_id, DecisionRow.contestant_id == contestant_row_id)
            .order_by(DecisionRow.decided_at)
        ).all()
    return pd.DataFrame(
        [
            {"decided_at": r.decided_at, "trades": len(r.trades or []), "what": _trades_text(r.trades)
             or (_allocation_text(r.allocation) if r.allocation else "hold"),
             "rationale": HIDDEN_RATIONALE if hidden else r.rationale,
             "decision_seconds": r.decision_seconds, "confidence": r.confidence, "line": r.line}
            for r in rows
        ],
        columns=["decided_at", "trades", "what", "rationale", "decision_seconds", "confidence", "line"],
    )


# ------------------------------------------------------------------------------------------ ledgers


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


def ledger_page(run_id: str, filters: LedgerFilters | None = None, page: int = 1, page_size: int = 20,
                db_url: str | None = None, *, blind: Blind | None = None) -> LedgerPage:
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
            .order_by(LedgerEntryRow.contestant_id, LedgerEntryRow.judge_id, LedgerEntryRow.position,
                      LedgerEntryRow.id)
            .limit(page_size).offset((page - 1) * page_size)
        ).all()
        ids = [e.id for e, _ in rows]
        notes: dict[int, list[LedgerAnnotationView]] = {i: [] for i in ids}
        if ids:
            for a in s.scalars(select(LedgerAnnotationRow).where(LedgerAnnotationRow.ledger_entry_id.in_(ids))
                               .order_by(LedgerAnnotationRow.created_at, LedgerAnnotationRow.id)):
                notes[a.ledger_entry_id].append(LedgerAnnotationView(
                    annotator=a.annotator, status=a.status, note=a.note, created_at=a.created_at))
        entries = [
            LedgerEntryView(
                id=e.id, contestant=name, contestant_row_id=e.contestant_id, judge_id=e.judge_id,
                position=e.position, claim=e.claim, decision_date=e.decision_date, symbol=e.symbol,
                cited_fields=[str(x) for x in e.cited_fields or []], judge_status=e.judge_status,
                judge_note=e.judge_note or "", verifier_status=e.verifier_status,
                verifier_reason=e.verifier_reason or "",
                evidence=[dict(x) for x in e.evidence or [] if isinstance(x, dict)],
                flags=[str(x) for x in e.flags or []], disagrees=bool(e.disagrees), lookahead=bool(e.lookahead),
                flag_reasons={str(k): str(v) for k, v in (e.flag_reasons or {}).items()},
                check_path=e.check_path or "text", clause=e.clause,
                annotations=notes[e.id],
            )
            for e, name in rows
        ]
    return LedgerPage(total=total, page=page, page_size=page_size, pages=pages, entries=entries,
                      hidden_items=len(blind.hidden_rows))


# -------------------------------------------------------------------------------------- calibration


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
        keys = dict(s.execute(select(ContestantRow.id, ContestantRow.contestant_key)
                              .where(ContestantRow.season_id == run.season_id)).all())
        with_record = set(s.scalars(select(JudgeCallRow.contestant_id).where(JudgeCallRow.run_id == run_id)
                                    .distinct()))
        graded: dict[int, set[str]] = {}
        for cid, who in s.execute(select(HumanGradeRow.contestant_id, HumanGradeRow.annotator)
                                  .where(HumanGradeRow.run_id == run_id).distinct()):
            graded.setdefault(cid, set()).add(who)
    from grader.calibration import calibration_set_of

    calibration_set = calibration_set_of(run_id, db_url)
    if calibration_set is not None:  # a calibration run: the set's own item numbers and labels
        labelled = {rid: calibration_set["items"][key] for rid, key in keys.items() if key in calibration_set["items"]}
        return [
            CalibrationItem(contestant_row_id=rid, alias=item["label"], has_record=rid in with_record,
                            annotators=sorted(graded.get(rid, set())), number=int(item["item_id"].rsplit("-", 1)[1]))
            for rid, item in sorted(labelled.items(), key=lambda kv: kv[1]["item_id"])
        ]
    order = _alias_order(run_id, keys)
    width = max(2, len(str(len(order))))
    return [
        CalibrationItem(contestant_row_id=rid, alias=f"Item {i:0{width}d}", has_record=rid in with_record,
                        annotators=sorted(graded.get(rid, set())), number=i)
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
        sha = s.scalar(select(JudgeCallRow.prompt_sha256)
                       .where(JudgeCallRow.run_id == run_id, JudgeCallRow.contestant_id == contestant_row_id)
                       .order_by(JudgeCallRow.repeat, JudgeCallRow.id).limit(1))
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


def human_grades(run_id: str, contestant_row_id: int | None = None, annotator: str | None = None,
                 db_url: str | None = None) -> list[HumanGradeView]:
    """Human grades of a run (optionally of one item and/or one annotator), oldest first."""
    with session_scope(db_url) as s:
        q = select(HumanGradeRow).where(HumanGradeRow.run_id == run_id)
        if contestant_row_id is not None:
            q = q.where(HumanGradeRow.contestant_id == contestant_row_id)
        if annotator is not None:
            q = q.where(HumanGradeRow.annotator == annotator)
        return [
            HumanGradeView(id=h.id, annotator=h.annotator, rubric_id=h.rubric_id, created_at=h.created_at,
                           reasoning=h.reasoning, evidence=h.evidence, outcome=h.outcome,
                           data_reliability=h.data_reliability, composite=h.composite,
                           sub_scores=dict(h.sub_scores or {}), comment=h.comment)
            for h in s.scalars(q.order_by(HumanGradeRow.created_at, HumanGradeRow.id))
        ]


def human_grade_stamp(run_id: str, db_url: str | None = None) -> tuple[int, int]:
    """(count, highest id) of the run's human grades: a cheap cache key for the live audits."""
    with session_scope(db_url) as s:
        n, top = s.execute(select(func.count(HumanGradeRow.id), func.max(HumanGradeRow.id))
                           .where(HumanGradeRow.run_id == run_id)).one()
        return int(n or 0), int(top or 0)


# ------------------------------------------------------------------------------------ comparisons


def compare_runs(run_a: str, run_b: str, db_url: str | None = None, *, blind_a: Blind | None = None,
                 blind_b: Blind | None = None) -> pd.DataFrame:
    """Two runs side by side per contestant (matched by contestant id): total, rank and band in each (an item a
    run's ``blind`` hides: its label and no figure)."""
    from grader.panel.leaderboard import leaderboard_rows

    keep = ["contestant_id", "contestant", "total", "rank", "band", "reasoning_median"]
    blinds = {run_a: resolve(run_a, blind_a, db_url), run_b: resolve(run_b, blind_b, db_url)}
    a, b = (pd.DataFrame([{**r, "contestant": r["label"]}
                          for r in _blind_rows(leaderboard_rows(run, None, db_url)[1], blinds[run])],
                         columns=[*keep, "label"])[keep] for run in (run_a, run_b))
    merged = a[keep].merge(b[keep], on="contestant_id", how="outer", suffixes=(" A", " B"))
    merged["contestant"] = merged["contestant A"].fillna(merged["contestant B"])
    in_a, in_b = merged["contestant A"].notna(), merged["contestant B"].notna()
    merged["in"] = ["both" if a and b else ("only A" if a else "only B") for a, b in zip(in_a, in_b, strict=True)]
    both = in_a & in_b
    merged["Δ total"] = merged["total B"] - merged["total A"]
    # a contestant in one run only has no rank move or band change (None), not a "changed" one
    merged["rank moved"] = (merged["rank A"] != merged["rank B"]).where(both, None).astype(object)
    merged["band changed"] = (merged["band A"] != merged["band B"]).where(both, None).astype(object)
    cols = ["contestant", "in", "total A", "total B", "Δ total", "rank A", "rank B", "rank moved", "band A",
            "band B", "band changed", "reasoning_median A", "reasoning_median B", "contestant_id"]
    return merged[cols].sort_values(["rank B", "rank A"], na_position="last").reset_index(drop=True)


def compare_rubrics(run_id: str, rubric_a: str, rubric_b: str, db_url: str | None = None, *,
                    blind: Blind | None = None) -> pd.DataFrame:
    """Every contestant of a run scored under rubric A and rubric B from its stored grades (no judge call,
    nothing stored), as ``grader rubric diff --run`` does; an item ``blind`` hides: its label and no figure."""
    from grader.scoring import scores_under
    from rubric import load_rubric

    ra, rb = load_rubric(rubric_a), load_rubric(rubric_b)
    blind = resolve(run_id, blind, db_url)
    under = scores_under(run_id, [ra, rb], db_url)
    grades, names, scored = under.contestants, under.names, under.by_rubric
    frame = pd.DataFrame([
        {"contestant": names[c], "total A": a.total, "total B": b.total,
         "Δ total": None if a.total is None or b.total is None else b.total - a.total,
         "rank A": a.rank, "rank B": b.rank, "rank moved": a.rank != b.rank,
         "band A": a.band, "band B": b.band, "band changed": a.band != b.band, "contestant_id": c}
        for c in grades if not blind.hides_key(c) for a, b in [(scored[0][c], scored[1][c])]
    ] + [{"contestant": blind.label(c), "contestant_id": c} for c in sorted(grades, key=blind.label)
         if blind.hides_key(c)], columns=["contestant", "total A", "total B", "Δ total", "rank A", "rank B",
                                          "rank moved", "band A", "band B", "band changed", "contestant_id"])
    frame.attrs["rubrics"] = {"A": ra.id, "B": rb.id}
    if frame.empty:
        return frame
    shown = frame[~frame["contestant_id"].map(blind.hides_key)]
    return pd.concat([shown.sort_values("rank B", na_position="last"),
                      frame[frame["contestant_id"].map(blind.hides_key)]]).reset_index(drop=True)


# ------------------------------------------------------------------------------------------- audits


def audits_withheld(blind: Blind) -> str | None:
    """Why the run's audit report is withheld from this viewer (None: it is not). On a calibration run the report
    names every item's judges' scores and the human-vs-judge agreement, so it waits until the viewer has graded
    every item."""
    if not blind.hides_any:
        return None
    return (f"This is a calibration run: its audits show every item's judge scores, so they are withheld until "
            f"you have graded every item ({len(blind.hidden_rows)} still to grade by you; sign in to grade).")


def audit_report(run_id: str, db_url: str | None = None, *, n_boot_rank: int = 500, n_boot_alpha: int = 300,
                 n_permutations: int = 2000, seed: int = 0):
    """The run's audit report, built live from storage (human grades included).

    The console uses fewer resamples than the published report by default so the page stays quick; the
    settings are part of the report and shown with it.
    """
    from audits import build_report
    from grader.reporting import collect_audit_inputs

    inputs = collect_audit_inputs(run_id, db_url)
    return build_report(inputs, seed=seed, n_boot_rank=n_boot_rank, n_boot_alpha=n_boot_alpha,
                        n_permutations=n_permutations)


def audit_document(run_id: str, db_url: str | None = None):  # noqa: ANN201
    """The run's report as a renderer-neutral document (sections of paragraphs, tables and charts)."""
    from audits import report_document

    return report_document(audit_report(run_id, db_url))
