"""Gaps of a run: every (judge, contestant, repeat) the run should have graded and has no valid grade for, with
its attempts and the last error; and every failed attempt. Shown by ``grader grade``, the report and the audit,
never filled in."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from grader.storage import ContestantRow, GradeRow, JudgeCallRow, RunRow

RUN_STATUSES = ("running", "complete", "complete_with_gaps", "failed", "interrupted", "dry-run")
EXIT_CODES = {"complete": 0, "dry-run": 0, "batch_pending": 0, "complete_with_gaps": 3, "failed": 4}
"""``grader grade`` exit codes: 0 complete (or a dry run), 3 complete with gaps (some judge x contestant has no valid
grade: listed, never invented), 4 nothing scored (no valid grade at all: the run is marked failed, never official),
5 the run is held by another process, 1 bad input (bundle, rubric, panel, keys, context window), 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM); storage faults of any command: 6 database locked, 7 disk full, 8 not writable,
9 schema not this grader's (``grader.storage._errors``)."""
EXIT_BUSY = 5
EXIT_INTERRUPTED = 130


@dataclass(frozen=True)
class Gap:
    judge_id: str
    contestant: str
    repeat: int
    attempts: int
    last_error: str

    def line(self) -> str:
        return (
            f"{self.judge_id} x {self.contestant} (repeat {self.repeat}): no valid grade after {self.attempts} "
            f"attempt(s); last: {self.last_error or 'not attempted'}"
        )


@dataclass(frozen=True)
class FailedAttempt:
    call_id: int
    judge_id: str
    contestant: str
    repeat: int
    attempt: int
    status: str
    error: str


def run_gaps(session, run_id: str, judge_ids: list[str] | None = None) -> list[Gap]:
    """Every expected grade the run lacks. The expected set is the run's judges (those that made a call, or
    ``judge_ids``) x the season's contestants x the run's repeats."""
    run = session.get(RunRow, run_id)
    if run is None:
        raise KeyError(f"no run {run_id!r} in this database")
    contestants = {
        c.id: c.contestant_key
        for c in session.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
    }
    # only the columns a gap needs: a call's stored reply and a grade's payload are never loaded here
    calls = session.execute(
        select(
            JudgeCallRow.judge_id,
            JudgeCallRow.contestant_id,
            JudgeCallRow.repeat,
            JudgeCallRow.attempt,
            JudgeCallRow.status,
            JudgeCallRow.error_kind,
            JudgeCallRow.error_message,
        )
        .where(JudgeCallRow.run_id == run_id)
        .order_by(JudgeCallRow.id)
    ).all()
    judges = judge_ids or sorted({c.judge_id for c in calls} | set(_panel_judges(run)))
    graded = set(
        session.execute(
            select(GradeRow.judge_id, GradeRow.contestant_id, GradeRow.repeat).where(GradeRow.run_id == run_id)
        ).tuples()
    )
    last: dict[tuple[str, int, int], JudgeCallRow] = {}
    attempts: dict[tuple[str, int, int], int] = {}
    for c in calls:
        key = (c.judge_id, c.contestant_id, c.repeat)
        last[key] = c
        if c.status not in ("reused", "dry_run"):
            attempts[key] = max(attempts.get(key, 0), c.attempt)
    out = []
    for j in judges:
        for cid, ckey in sorted(contestants.items(), key=lambda kv: kv[1]):
            for r in range(run.repeats):
                key = (j, cid, r)
                if key in graded:
                    continue
                c = last.get(key)
                err = (
                    ""
                    if c is None
                    else c.status + (f" ({c.error_kind}: {c.error_message or '-'})" if c.error_kind else "")
                )
                out.append(Gap(j, ckey, r, attempts.get(key, 0), err[:300]))
    return out


def failed_attempts(session, run_id: str) -> list[FailedAttempt]:
    """Every attempt of the run that did not give a valid grade (errors, invalid replies, interrupted)."""
    run = session.get(RunRow, run_id)
    contestants = (
        {
            c.id: c.contestant_key
            for c in session.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
        }
        if run
        else {}
    )
    rows = session.scalars(
        select(JudgeCallRow)
        .where(JudgeCallRow.run_id == run_id, JudgeCallRow.status.in_(("error", "invalid", "interrupted", "sent")))
        .order_by(JudgeCallRow.id)
    ).all()
    return [
        FailedAttempt(
            c.id,
            c.judge_id,
            contestants.get(c.contestant_id, str(c.contestant_id)),
            c.repeat,
            c.attempt,
            c.status,
            f"{c.error_kind or ''}: {(c.error_message or '')[:200]}".strip(": "),
        )
        for c in rows
    ]


def _panel_judges(run: RunRow) -> list[str]:
    doc = run.panel_doc or {}
    return [j.get("judge_id") for j in doc.get("judges", []) if j.get("judge_id")]
