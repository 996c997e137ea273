"""Leaderboard rows of a scored version of a run (used by the CLI, the console and the report)."""

from __future__ import annotations

from sqlalchemy import select

from grader.replay import rounds_scope, set_label
from grader.scoring import version_by_number
from grader.storage import (
    ContestantRow,
    ContestantScoreRow,
    RunRow,
    ScoreVersionRow,
    SeasonRow,
    session_scope,
)


def leaderboard_rows(run_id: str, version: int | None = None, db_url: str | None = None) -> tuple[dict, list[dict]]:
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id!r} in this database")
        v = version_by_number(s, run_id, version)
        if v is None:
            numbers = sorted(
                n
                for n in s.scalars(select(ScoreVersionRow.number).where(ScoreVersionRow.run_id == run_id))
                if n is not None
            )
            raise KeyError(
                f"run {run_id!r} has no scored version {version or ''}".strip()
                + (f" (it has {', '.join(map(str, numbers))})" if numbers else "")
            )
        season = s.get(SeasonRow, run.season_id)
        if season is None:
            raise KeyError(f"run {run_id!r}: its season {run.season_id!r} is not in this database")
        rows: list[dict] = []
        q = (
            select(ContestantScoreRow, ContestantRow)
            .join(ContestantRow, ContestantRow.id == ContestantScoreRow.contestant_id)
            .where(ContestantScoreRow.version_id == v.id)
        )
        for score, c in s.execute(q):
            o = score.outcome or {}
            if "rounds_resolved" in o and "comparison_set" not in o:  # a rounds outcome stored before issue 31:
                # its oracle score is the contestant's own all-rounds figure, never shown as a set's score
                o = {**o, "oracle_score_all_rounds": o.get("oracle_score"), "oracle_score": None}
            rows.append(
                {
                    "contestant_id": c.contestant_key,
                    "label": c.display_name,
                    "family": c.provider_family,
                    "model": c.model,
                    "rank": score.rank,
                    "total": score.total,
                    "band": score.band,
                    "reasoning_median": score.reasoning_median,
                    "efficiency": score.efficiency,
                    "outcome_axis": (score.details.get("axis_medians") or {}).get("outcome"),
                    "return": o.get("portfolio_return"),
                    "benchmark_return": o.get("benchmark_return"),
                    "alpha": o.get("alpha"),
                    "oracle_score": o.get("oracle_score"),
                    "regret": o.get("regret"),
                    "sharpe": o.get("sharpe"),
                    "max_drawdown": o.get("max_drawdown"),
                    "judges_low": score.judges_low,
                    "judges_high": score.judges_high,
                    "n_judges": score.n_judges,
                    "flagged": score.flagged,
                    "official_eligible": score.official_eligible,
                    "details": score.details,
                    "outcome": o,
                    # rounds seasons: how much of the contestant's rounds the outcome covers, and the comparison set
                    # its oracle score is taken from (its all-rounds figure is context)
                    "rounds_scope": rounds_scope(o),
                    "comparison_set": set_label(o),
                    "oracle_score_all_rounds": o.get("oracle_score_all_rounds"),
                }
            )
        rows.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0, r["label"]))
        meta = {
            "run_id": run_id,
            "run_type": run.run_type,
            "rubric_id": v.rubric_id,
            "rubric_hash": v.rubric_hash,
            "panel": run.panel_name,
            "version": v.number or v.id,
            "season": season.season_key,
            "season_name": season.name,
            "pending": any((r["outcome"] or {}).get("pending") for r in rows),
            "judge_calls": v.judge_calls,
            "created_at": v.created_at.isoformat(),
        }
        return meta, rows
