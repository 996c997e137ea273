"""Build the audits' typed inputs from a stored run (scores, totals, ledgers, human grades)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeGuard, get_args

import pandas as pd
from sqlalchemy import select

from grader.panel import failed_attempts, run_gaps
from grader.panel.leaderboard import leaderboard_rows
from grader.storage import (
    ContestantRow,
    GradeRow,
    HumanGradeRow,
    LedgerEntryRow,
    RunRow,
    SeasonRow,
    session_scope,
)

if TYPE_CHECKING:
    from audits import RunType

HUMAN_AXES = ("reasoning", "evidence", "outcome", "data_reliability", "composite")


def _is_run_type(value: str) -> TypeGuard[RunType]:
    """Whether a stored run type is one the report knows (``audits.RunType``)."""
    import audits

    return value in get_args(audits.RunType)


def collect_audit_inputs(run_id: str, db_url: str | None = None, version: int | None = None):
    """The :class:`audits.AuditInputs` of a run (latest scored version unless ``version`` is given)."""
    from audits import (
        LEDGER_COLUMNS,
        LOOKAHEAD_COLUMNS,
        SCORES_COLUMNS,
        AuditInputs,
        Band,
        RunMeta,
    )
    from grader.scoring import judge_composite, version_by_number, version_rubric
    from ledgers import resolve_field
    from rubric import load_rubric

    meta_lb, rows = leaderboard_rows(run_id, version, db_url)
    with session_scope(db_url) as s:
        run = s.get_one(RunRow, run_id)  # leaderboard_rows found it
        season = s.get_one(SeasonRow, run.season_id)
        scored = version_by_number(s, run_id, meta_lb["version"]) or version_by_number(s, run_id, None)
        run_rubric = None
        try:
            run_rubric = load_rubric((run.manifest or {}).get("rubric", {}).get("path") or run.rubric_id)
        except Exception:  # noqa: BLE001 - the version's own rubric, or default bands, then
            run_rubric = None
        rubric_v = version_rubric(scored) if scored is not None else None
        rubric_v = rubric_v or run_rubric
        # a what-if re-score changes weights: every judge's composite and axes are recomputed under the
        # version's rubric from the stored grade, so every section uses the same version
        rescored = rubric_v is not None and run_rubric is not None and rubric_v.content_hash != run_rubric.content_hash
        available = {
            r["contestant_id"]: bool((r["outcome"] or {}).get("available")) and not meta_lb["pending"] for r in rows
        }
        contestants = {c.id: c for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == season.id))}
        grades = s.scalars(select(GradeRow).where(GradeRow.run_id == run_id)).all()

        def axes(g: GradeRow) -> dict:
            if rescored and g.grade and rubric_v is not None:  # rescored: rubric_v is set
                key = contestants[g.contestant_id].contestant_key
                c = judge_composite(g.grade, rubric_v, available.get(key, False))
                return {
                    "composite": c.composite,
                    "reasoning": c.reasoning,
                    "evidence": c.evidence,
                    "process": c.process,
                    "outcome": c.outcome,
                    "data_reliability": c.data_reliability,
                }
            return {
                "composite": g.composite,
                "reasoning": g.reasoning,
                "evidence": g.evidence,
                "process": g.process,
                "outcome": g.outcome,
                "data_reliability": g.data_reliability,
            }

        scores = pd.DataFrame(
            [
                {
                    "contestant_id": contestants[g.contestant_id].contestant_key,
                    "contestant_label": contestants[g.contestant_id].display_name,
                    "contestant_family": contestants[g.contestant_id].provider_family,
                    "judge_id": g.judge_id,
                    "judge_family": g.judge_family,
                    "repeat": g.repeat,
                    **axes(g),
                }
                for g in grades
            ],
            columns=SCORES_COLUMNS,
        )
        lookahead = pd.DataFrame(
            [
                {
                    "judge_id": g.judge_id,
                    "contestant_id": contestants[g.contestant_id].contestant_key,
                    "passed": g.lookahead_passed,
                }
                for g in grades
                if g.repeat == 0
            ],
            columns=LOOKAHEAD_COLUMNS,
        )
        repeat_of = {g.id: g.repeat for g in grades}
        # the columns read below only: a whole row decodes its evidence values too (most of the time on a large run)
        ledger_rows = s.execute(
            select(
                LedgerEntryRow.grade_id,
                LedgerEntryRow.judge_id,
                LedgerEntryRow.contestant_id,
                LedgerEntryRow.claim,
                LedgerEntryRow.cited_fields,
                LedgerEntryRow.flags,
                LedgerEntryRow.judge_status,
                LedgerEntryRow.verifier_status,
                LedgerEntryRow.lookahead,
            ).where(LedgerEntryRow.run_id == run_id)
        ).all()

        def ledger_frame(entries) -> pd.DataFrame:
            return pd.DataFrame(
                [
                    {
                        "judge_id": e.judge_id,
                        "contestant_id": contestants[e.contestant_id].contestant_key,
                        "claim": e.claim,
                        "cited_fields": list(e.cited_fields or []),
                        "cited_field_exists": bool(e.cited_fields)
                        and "unknown_field" not in (e.flags or [])
                        and "field_not_in_snapshot" not in (e.flags or [])
                        and all(resolve_field(f) is not None for f in e.cited_fields),
                        "judge_status": e.judge_status
                        if e.judge_status in ("supported", "not_verifiable", "contradicted")
                        else "not_verifiable",
                        "verifier_status": e.verifier_status,
                        "lookahead_flag": bool(e.lookahead),
                    }
                    for e in entries
                ],
                columns=LEDGER_COLUMNS,
            )

        # the main grading (repeat 0) and the stability repeats, counted apart
        ledger = ledger_frame([e for e in ledger_rows if repeat_of.get(e.grade_id, 0) == 0])
        repeat_ledger = ledger_frame([e for e in ledger_rows if repeat_of.get(e.grade_id, 0) > 0])
        humans = []
        # a correction replaces the annotator's whole earlier grade of the item: only the latest row counts, so an
        # axis the correction leaves empty is empty, never the earlier value
        latest: dict[tuple[int, str], HumanGradeRow] = {}
        for h in s.scalars(
            select(HumanGradeRow)
            .where(HumanGradeRow.run_id == run_id)
            .order_by(HumanGradeRow.created_at, HumanGradeRow.id)
        ):
            latest[(h.contestant_id, h.annotator)] = h
        for h in latest.values():
            for axis in HUMAN_AXES:
                value = getattr(h, axis)
                if value is not None:
                    humans.append(
                        {
                            "item_id": contestants[h.contestant_id].contestant_key,
                            "annotator": h.annotator,
                            "axis": axis,
                            "score": value,
                            "created_at": h.created_at,
                        }
                    )
        info = season.info or {}
        bands_cfg = None
        if rubric_v is not None:  # the scored version's bands, not the run's original ones
            r = rubric_v
            bands_cfg = (
                Band(name="weak", low=0, high=r.bands.mixed),
                Band(name="mixed", low=r.bands.mixed, high=r.bands.strong),
                Band(name="strong", low=r.bands.strong, high=100),
            )
        run_type = run.run_type
        if not _is_run_type(run_type):
            raise ValueError(f"run {run_id}: run type {run_type!r} is none the report knows")
        meta = RunMeta(
            run_id=run_id,
            run_type=run_type,
            rubric_id=meta_lb["rubric_id"],
            rubric_hash=meta_lb["rubric_hash"],
            rubric_judge_hash=run.judge_facing_hash,
            panel_name=run.panel_name,
            panel_hash=run.panel_hash,
            season_id=season.season_key,
            season_status="pending" if meta_lb["pending"] else "resolved",
            season_resolution=season_resolution(season),
            anonymized=bool(getattr(getattr(run_rubric, "panel", None), "anonymize", True)),
            manifest_hash=run.manifest_hash or "",
            attribution=info.get("attribution"),
            generated_at=datetime.now(UTC),
            score_version=meta_lb["version"],
        )
    with session_scope(db_url) as s:
        gaps = [g.__dict__ for g in run_gaps(s, run_id)]
        failed = [f.__dict__ for f in failed_attempts(s, run_id)]
        notes = list(s.get_one(RunRow, run_id).notes or [])
    rows = [r for r in rows if r["total"] is not None]  # a contestant without any valid grade: a listed gap
    totals = pd.DataFrame(
        [
            {
                "contestant_id": r["contestant_id"],
                "contestant_label": r["label"],
                "total": r["total"],
                "reasoning_median": r["reasoning_median"],
                "efficiency": r["efficiency"],
                "band": r["band"],
                **{
                    k: r["outcome"].get("portfolio_return" if k == "return" else k)
                    for k in (
                        "return",
                        "benchmark_return",
                        "alpha",
                        "oracle_score",
                        "regret",
                        "sharpe",
                        "sortino",
                        "volatility",
                        "max_drawdown",
                        "equal_weight_return",
                    )
                },
            }
            for r in rows
        ],
        columns=[
            "contestant_id",
            "contestant_label",
            "total",
            "reasoning_median",
            "efficiency",
            "band",
            "return",
            "benchmark_return",
            "alpha",
            "oracle_score",
            "regret",
            "sharpe",
            "sortino",
            "volatility",
            "max_drawdown",
            "equal_weight_return",
        ],
    )
    if any(r["rounds_scope"] for r in rows):  # a rounds season: how many of its rounds each outcome is over
        totals["oracle_score_all_rounds"] = [r["oracle_score_all_rounds"] for r in rows]
        totals["outcome_over"] = [r["rounds_scope"] or None for r in rows]
    kwargs: dict = {}
    if humans:
        kwargs["human_grades"] = pd.DataFrame(humans)
    if bands_cfg is not None:
        kwargs["bands"] = bands_cfg
    kwargs.update(gaps=gaps, failed_calls=failed, run_notes=notes)
    from grader.calibration import calibration_set_of

    found = calibration_set_of(run_id, db_url)
    if found is not None:
        kwargs["calibration_set"] = {k: found[k] for k in ("set_id", "method", "window")} | {
            "n_items": len(found["items"])
        }
    return AuditInputs(
        meta=meta,
        scores=scores,
        totals=totals,
        ledger=ledger,
        repeat_ledger=repeat_ledger,
        lookahead_checks=lookahead,
        **kwargs,
    )


def season_resolution(season) -> str | None:  # noqa: ANN001
    """A rounds season's resolution in words when some round is pending or cancelled upstream (the report header
    must not say "resolved" for it); None otherwise."""
    from pathlib import Path

    from grader.replay import score_rounds
    from grader.season import SeasonInfo

    if SeasonInfo.model_validate(season.info).format != "rounds":
        return None
    try:
        rounds = score_rounds(Path(season.source_path)).rounds
    except (OSError, ValueError):
        return None
    n = {k: sum(r.status == k for r in rounds) for k in ("resolved", "pending", "cancelled")}
    if not n["pending"] and not n["cancelled"]:
        return None
    rest = [f"{n['pending']} pending"] if n["pending"] else []
    rest += (
        [f"{n['cancelled']} cancelled upstream (never resolve{'s' if n['cancelled'] == 1 else ''})"]
        if n["cancelled"]
        else []
    )
    if not n["resolved"]:
        head = "pending" if n["pending"] else "never resolved"
        return f"{head}: none of {len(rounds)} rounds resolved; {', '.join(rest)}"
    return f"partly resolved: {n['resolved']} of {len(rounds)} rounds resolved, {', '.join(rest)}"
