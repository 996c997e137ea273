"""Re-score a stored run under another rubric. No judge call when the judge-facing hash is unchanged."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import select

from grader.panel._scores import latest_version, run_inputs, store_score_version
from grader.storage import ContestantScoreRow, session_scope


class RescoreNeedsRegrade(RuntimeError):
    def __init__(self, message: str, judges: list[str], contestants: list[str], panel: str):
        super().__init__(message)
        self.judges, self.contestants, self.panel = judges, contestants, panel


@dataclass
class RescoreResult:
    run_id: str
    rubric_id: str
    version: int
    seconds: float
    judge_calls: int = 0


def rescore_run(run_id: str, rubric_name: str, db_url: str | None = None) -> RescoreResult:
    from rubric import load_rubric

    rubric = load_rubric(rubric_name)
    with session_scope(db_url) as s:
        run, contestants, by_c, _, judge_ids = run_inputs(s, run_id)
        if rubric.judge_facing_hash != run.judge_facing_hash:
            raise RescoreNeedsRegrade(
                f"rubric {rubric.id} changes what judges see (judge-facing hash {rubric.judge_facing_hash[:12]} ≠ "
                f"{run.judge_facing_hash[:12]}): the stored grades cannot be re-scored under it",
                judge_ids, sorted(by_c), run.panel_name)
        prev = latest_version(s, run_id)
        outcomes = {}
        pending = False
        if prev is not None:
            for row in s.scalars(select(ContestantScoreRow).where(ContestantScoreRow.version_id == prev.id)):
                o = row.outcome or {}
                outcomes[contestants[row.contestant_id].contestant_key] = o
                pending = pending or bool(o.get("pending"))
    start = time.perf_counter()
    version = store_score_version(db_url, run_id, rubric, outcomes, pending, judge_ids, judge_calls=0,
                                  note=f"re-scored under {rubric.id}")
    return RescoreResult(run_id, rubric.id, version, time.perf_counter() - start)
