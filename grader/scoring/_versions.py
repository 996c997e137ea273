"""Scored versions of a run: computed from stored grades only (no judge call), stored as a new version; and
which version, and which rubric, a run or version was scored under."""

from __future__ import annotations

from sqlalchemy import select

from grader.storage import ContestantScoreRow, RunRow, ScoreVersionRow, record_row_hashes, session_scope
from rubric import Rubric

from ._stored import read_stored_run, score_stored_run


def store_score_version(
    db_url,
    run_id: str,
    rubric,
    outcomes: dict[str, dict],
    pending: bool,  # noqa: ANN001
    panel_judges: list[str] | None,
    judge_calls: int,
    note: str = "",
) -> int:
    """Score the run's stored grades under ``rubric`` and store them as its next scored version; its number."""
    with session_scope(db_url) as s:
        stored = read_stored_run(s, run_id, panel_judges)
        run = stored.run
        available = {c: (not pending) and bool(outcomes.get(c, {}).get("available", False)) for c in stored.grades}
        scores = score_stored_run(stored, rubric, available)
        previous = latest_version(s, run_id)
        number = ((previous.number or 0) if previous else 0) + 1
        version = ScoreVersionRow(
            run_id=run_id,
            number=number,
            rubric_id=rubric.id,
            rubric_hash=rubric.content_hash,
            rubric_doc=rubric.model_dump(mode="json"),
            judge_calls=judge_calls,
            note=note,
        )
        s.add(version)
        s.flush()
        key_to_row = stored.row_ids
        official = run.run_type == "official"
        rows = []
        for sc in scores:
            outcome = dict(outcomes.get(sc.contestant_id, {}))
            if pending:
                outcome = {"available": False, "pending": True}
            rows.append(
                ContestantScoreRow(
                    version_id=version.id,
                    contestant_id=key_to_row[sc.contestant_id],
                    rank=sc.rank,
                    total=sc.total,
                    reasoning_median=sc.reasoning_median,
                    efficiency=sc.efficiency,
                    band=sc.band,
                    judges_low=sc.panel.low,
                    judges_high=sc.panel.high,
                    n_judges=sc.panel.n_judges,
                    flagged=sc.flagged,
                    official_eligible=official and sc.official_eligible,
                    outcome=outcome,
                    details=sc.model_dump(mode="json"),
                )
            )
        s.add_all(rows)
        s.flush()
        record_row_hashes(s, "score_version", [version.id])  # verify names an edit of any version, not only 1
        record_row_hashes(s, "contestant_score", [r.id for r in rows])
        run.official_eligible = official and all(sc.official_eligible for sc in scores)
        return number


def version_by_number(session, run_id: str, number: int | None) -> ScoreVersionRow | None:
    """A run's scored version by its number within the run (1, 2, ...); the latest when ``number`` is None."""
    if number is None:
        return latest_version(session, run_id)
    return session.scalar(
        select(ScoreVersionRow).where(ScoreVersionRow.run_id == run_id, ScoreVersionRow.number == number)
    )


def version_rubric(version: ScoreVersionRow) -> Rubric | None:
    """The rubric a version was scored under (stored with it since 0005; else loaded by id), or None."""
    from rubric import load_rubric, rubric_from_mapping

    try:
        return rubric_from_mapping(version.rubric_doc) if version.rubric_doc else load_rubric(version.rubric_id)
    except Exception:  # noqa: BLE001 - an old version whose rubric file is gone
        return None


def run_rubric_ref(run: RunRow) -> str:
    """How to load the rubric a run was graded under: the file its manifest names while it exists, else its id."""
    from pathlib import Path

    path = ((run.manifest or {}).get("rubric") or {}).get("path")
    return path if path and Path(path).is_file() else run.rubric_id


def run_rubric(run: RunRow) -> Rubric:
    """The rubric a run was graded under (:func:`run_rubric_ref`; its id when the named file no longer loads)."""
    from rubric import load_rubric

    try:
        return load_rubric(run_rubric_ref(run))
    except Exception:  # noqa: BLE001 - fall back to the id when the manifest's file changed into something else
        return load_rubric(run.rubric_id)


def latest_version(session, run_id: str) -> ScoreVersionRow | None:
    return session.scalar(
        select(ScoreVersionRow).where(ScoreVersionRow.run_id == run_id).order_by(ScoreVersionRow.id.desc()).limit(1)
    )
