"""A grading run's rows: the season imported once, the run's status marked, a streamed contestant's prompts stored
before its calls leave, a valid grade's rows, and the finished run's manifest."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from grader.panel._manifest import build_manifest
from grader.panel._runner import CallRunner, TaskResult, store_grade, store_prompt
from grader.panel._stored_rows import stored_row
from grader.scoring import judge_composite
from grader.storage import (
    ContestantRow,
    GradeRow,
    JudgeCallRow,
    RunRow,
    import_season,
    season_by_hash,
    session_scope,
)


def import_season_row(db_url, bundle) -> int:
    """The season's row id: imported in its own transaction; a concurrent first import of the same season by
    another process wins the unique content hash and this one reads its row."""
    try:
        with session_scope(db_url) as s:
            return import_season(s, bundle).season_id
    except IntegrityError:
        with session_scope(db_url) as s:
            row = season_by_hash(s, bundle.content_hash)
            if row is None:
                raise
            return row.id


def mark_run(db_url, run_id: str, status: str) -> None:
    """The run's status; ``interrupted`` also marks its attempts still ``sent`` (in flight when this process was
    stopped; it holds the run's lease) as interrupted: never counted toward the retry cap, re-sent on resume."""
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is not None:
            run.status = status
            run.official_eligible = False
        if status == "interrupted":
            s.execute(
                update(JudgeCallRow)
                .where(JudgeCallRow.run_id == run_id, JudgeCallRow.status == "sent")
                .values(
                    status="interrupted",
                    error_kind="interrupted",
                    error_message="this process was stopped before the attempt's reply was stored",
                )
            )


def before_sending(runner: CallRunner, prompts, keys: list[str]) -> None:
    """A streamed contestant's prompts stored and its earlier completed calls looked up (for reuse): one job on
    the storage thread before its calls leave."""
    with session_scope(runner.db_url) as s:
        for p in prompts:
            store_prompt(s, p)
        runner.preload_completed(keys, s)


def grade_rows(db_url, run_id, res: TaskResult, rubric, outcomes, pending, bundle, checked=None):
    """A valid grade's composite and verified ledger (CPU only), and the function that stores them (one
    transaction; run by the caller on a storage thread). ``checked``: the reference judge's own (claim,
    verification) pairs, in ledger order — it extracted them from the full rationale, so they are not re-parsed
    from the shorter ledger text."""
    from grader.panel._ledger import verify_judge_ledger

    t, parsed = res.task, res.parsed
    if parsed is None:  # (the caller passes only a valid grade)
        raise ValueError(f"no grade to store: the call of {t.contestant_key} for {t.spec.judge_id} has none")
    outcome_ok = (not pending) and bool(outcomes.get(t.contestant_key, {}).get("available", True))
    comp = judge_composite(parsed, rubric, outcome_ok)
    ledger_rows = verify_judge_ledger(parsed.get("claim_ledger", []), bundle, t.contestant_key, checked)

    def write() -> None:
        with session_scope(db_url) as s:
            exists = s.scalar(
                select(GradeRow.id).where(
                    GradeRow.run_id == run_id,
                    GradeRow.judge_id == t.spec.judge_id,
                    GradeRow.contestant_id == t.contestant_row_id,
                    GradeRow.repeat == t.repeat,
                )
            )
            if exists is not None:
                return
            contestant = stored_row(s, ContestantRow, t.contestant_row_id)
            store_grade(
                s,
                run_id=run_id,
                spec=t.spec,
                contestant=contestant,
                repeat=t.repeat,
                call_id=res.call_id,
                grade=parsed,
                composite=comp,
                ledger_rows=ledger_rows,
            )

    return write


def finish_run(db_url, run_id, bundle, rubric, panel, status: str) -> None:
    with session_scope(db_url) as s:
        run = stored_row(s, RunRow, run_id)
        run.status = status  # before the manifest, which records it
        manifest = build_manifest(s, run, bundle, rubric, panel)
        run.manifest = manifest
        run.manifest_hash = hashlib.sha256(json.dumps(manifest, sort_keys=True).encode()).hexdigest()
        run.completed_at = datetime.now(UTC)
        if status != "complete":  # a run with gaps, or with no valid grade, is never official
            run.official_eligible = False
