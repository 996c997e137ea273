"""Score a stored run: read its grades, timings and outcomes from storage and score them under a rubric.

The one place that turns a run's stored rows into :func:`score_run`'s inputs. Used by re-scoring and scored
versions (``grader rescore``, the end of a grading run), by ``grader rubric diff --run`` and by the console's
rubric comparison, so all of them score a run the same way. Nothing here calls a judge; only
:func:`grader.scoring.store_score_version` writes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import select

from grader.storage import (
    ContestantRow,
    ContestantScoreRow,
    DecisionRow,
    GradeRow,
    RunRow,
    ScoreVersionRow,
    session_scope,
)
from rubric import JudgeSlot, Rubric

from ._run import ContestantScore, score_run

#: The parts of a stored grade that scoring reads (the claim ledgers, the bulk of a grade, stay in the database).
SCORED_PARTS: tuple[str, ...] = ("reasoning", "evidence", "outcome", "data_reliability")


@dataclass(frozen=True)
class StoredRun:
    """What scoring needs of one stored run (its first repeat's grades)."""

    run: RunRow
    contestants: dict[int, ContestantRow]
    """Contestant row id -> row, every contestant of the run's season."""
    grades: dict[str, dict[str, dict | None]]
    """Contestant key -> judge id -> the scored parts of its grade; None for a judge without a grade (a visible
    gap, never invented)."""
    judges: list[str]
    families: dict[str, str]
    """Judge id -> provider family."""
    timings: dict[str, list[float]]
    """Contestant key -> its decisions' ``decision_seconds`` (None entries left out)."""

    @property
    def names(self) -> dict[str, str]:
        """Contestant key -> display name."""
        return {c.contestant_key: c.display_name for c in self.contestants.values()}

    @property
    def row_ids(self) -> dict[str, int]:
        """Contestant key -> contestant row id."""
        return {c.contestant_key: c.id for c in self.contestants.values()}


def read_stored_run(session, run_id: str, judges: Sequence[str] | None = None) -> StoredRun:  # noqa: ANN001
    """The run's stored grades, judges and timings; ``judges``: the panel's judges (default: every judge that
    graded the first repeat). KeyError when the database has no such run."""
    run = session.get(RunRow, run_id)
    if run is None:
        raise KeyError(f"no run {run_id!r} in this database")
    people = {c.id: c for c in session.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))}
    grades: dict[str, dict[str, dict | None]] = {c.contestant_key: {} for c in people.values()}
    parts = [GradeRow.grade[p] for p in SCORED_PARTS]
    graded: set[str] = set()
    for cid, judge, *values in session.execute(
        select(GradeRow.contestant_id, GradeRow.judge_id, *parts).where(GradeRow.run_id == run_id, GradeRow.repeat == 0)
    ):
        grades[people[cid].contestant_key][judge] = dict(zip(SCORED_PARTS, values, strict=True))
        graded.add(judge)
    families = dict(
        session.execute(
            select(GradeRow.judge_id, GradeRow.judge_family).where(GradeRow.run_id == run_id).distinct()
        ).all()
    )
    panel = list(judges) if judges else sorted(graded)
    for per in grades.values():  # a judge without a grade is a visible gap, never invented
        for j in panel:
            per.setdefault(j, None)
    timings: dict[str, list[float]] = {c.contestant_key: [] for c in people.values()}
    for cid, secs in session.execute(
        select(DecisionRow.contestant_id, DecisionRow.decision_seconds).where(DecisionRow.season_id == run.season_id)
    ):
        if secs is not None:
            timings[people[cid].contestant_key].append(secs)
    return StoredRun(run, people, grades, panel, families, timings)


def latest_outcomes(session, stored: StoredRun) -> dict[str, dict]:  # noqa: ANN001
    """Contestant key -> the outcome its latest scored version stored ({} for a run never scored)."""
    version = session.scalar(
        select(ScoreVersionRow.id)
        .where(ScoreVersionRow.run_id == stored.run.id)
        .order_by(ScoreVersionRow.id.desc())
        .limit(1)
    )
    if version is None:
        return {}
    return {
        stored.contestants[cid].contestant_key: outcome or {}
        for cid, outcome in session.execute(
            select(ContestantScoreRow.contestant_id, ContestantScoreRow.outcome).where(
                ContestantScoreRow.version_id == version
            )
        )
    }


def outcome_available(outcomes: Mapping[str, dict], contestants: Sequence[str]) -> dict[str, bool]:
    """Contestant key -> whether its outcome counts (shown and not pending)."""
    return {
        c: bool(outcomes.get(c, {}).get("available")) and not outcomes.get(c, {}).get("pending") for c in contestants
    }


def rubric_for_judges(rubric: Rubric, judge_ids: Sequence[str], families: Mapping[str, str]) -> Rubric:
    """The rubric with its panel slots replaced by the run's actual judges (a run's own panel defines how
    many judges a complete grade has; the rubric's aggregation and minimum still apply)."""
    slots = [JudgeSlot(id=j, provider_family=families.get(j, "unknown")) for j in judge_ids]
    new_panel = rubric.panel.model_copy(
        update={"judges": slots, "min_judges": min(rubric.panel.min_judges, len(slots))}
    )
    return rubric.model_copy(update={"panel": new_panel})


def score_stored_run(stored: StoredRun, rubric: Rubric, available: bool | Mapping[str, bool]) -> list[ContestantScore]:
    """Every contestant of ``stored`` scored under ``rubric`` with the run's own judges as its panel."""
    return score_run(
        stored.grades, rubric_for_judges(rubric, stored.judges, stored.families), stored.timings, available
    )


@dataclass(frozen=True)
class RubricScores:
    """A stored run scored under several rubrics (nothing stored)."""

    contestants: list[str]
    """Contestant keys in the season's order."""
    names: dict[str, str]
    by_rubric: list[dict[str, ContestantScore]]
    """Per rubric, in the order given: contestant key -> its score."""


def scores_under(run_id: str, rubrics: Sequence[Rubric], db_url: str | None = None) -> RubricScores:
    """Score a stored run under each rubric from its stored grades, with each contestant's outcome counted as its
    latest scored version did (pure computation, nothing stored, no judge call)."""
    with session_scope(db_url) as s:
        stored = read_stored_run(s, run_id)
        available = outcome_available(latest_outcomes(s, stored), list(stored.grades))
    by_rubric = [{sc.contestant_id: sc for sc in score_stored_run(stored, r, available)} for r in rubrics]
    return RubricScores(list(stored.grades), stored.names, by_rubric)
