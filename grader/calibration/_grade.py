"""A calibration run: the set's items graded by a panel under the set's rubric, through the same pipeline as any
run (same schema, calls stored before they leave, resumable, ledgers verified), so humans and judges grade
identical material. Mock and reference panels run offline; a real panel needs ``--allow-real-api-calls``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sqlalchemy import select

from grader.calibration._sample import ItemSpec
from grader.storage import CalibrationSetRow, RunRow, SeasonRow, session_scope


def set_items(set_id: str, db_url: str | None = None) -> tuple[dict, list[ItemSpec]]:
    """(the set's stored fields, its items); KeyError when there is no such set."""
    with session_scope(db_url) as s:
        row = s.get(CalibrationSetRow, set_id)
        if row is None:
            raise KeyError(f"no calibration set {set_id!r} in this database")
        meta = {
            "set_id": row.id,
            "source_run_id": row.source_run_id,
            "rubric_id": row.rubric_id,
            "rubric_hash": row.rubric_hash,
            "seed": row.seed,
            "window": row.window,
            "n_items": row.n_items,
            "bundle_path": row.bundle_path,
            "bundle_hash": row.bundle_hash,
            "method": row.method,
        }
        items = [ItemSpec(**item) for item in row.items]
    return meta, items


def grade_set(
    set_id: str,
    *,
    panel_name: str | None = None,
    run_id: str | None = None,
    allow_real_api_calls: bool = False,
    db_url: str | None = None,
    progress: bool = True,
    console=None,
):  # noqa: ANN001, ANN201
    """Grade every item of ``set_id`` (default panel: the source run's); returns the grading report."""
    from grader.panel import grade_season
    from grader.scoring import run_rubric, run_rubric_ref
    from grader.season import load_bundle

    meta, items = set_items(set_id, db_url)
    with session_scope(db_url) as s:
        source_run = s.get_one(RunRow, meta["source_run_id"])
        panel_name = panel_name or source_run.panel_name
        source_path = Path(s.get_one(SeasonRow, source_run.season_id).source_path)
        rubric, rubric_ref = run_rubric(source_run), run_rubric_ref(source_run)
    derived = load_bundle(Path(meta["bundle_path"]))
    if derived.content_hash != meta["bundle_hash"]:
        raise ValueError(f"{meta['bundle_path']} changed since the set was drawn (content hash differs)")
    if rubric.content_hash != meta["rubric_hash"]:
        raise ValueError(
            f"the rubric {meta['rubric_id']} changed since the set was drawn: a calibration set is "
            "graded under the rubric it was drawn with"
        )
    from grader.calibration._build import item_prompts

    source = load_bundle(source_path)
    from grader.storage import alias_secret

    prompts, replays = item_prompts(source, rubric, items, secret=alias_secret(source.info.id, db_url))
    graded = {f"{i.item_id}@{key.split('@', 1)[1]}" for i in items for key in i.decision_keys}
    only_items = replace(derived, decisions=[d for d in derived.decisions if d.key in graded])
    return grade_season(
        Path(meta["bundle_path"]),
        rubric_name=rubric_ref,
        panel_name=panel_name,
        run_id=run_id or f"{set_id}-{panel_name}",
        allow_real_api_calls=allow_real_api_calls,
        db_url=db_url,
        progress=progress,
        console=console,
        bundle=derived,
        prepared=(replays, {}, True, prompts),
        reference_bundle=only_items,
        extra_notes=[
            f"calibration run of set {set_id}: {meta['n_items']} reference item(s) drawn "
            f"from run {meta['source_run_id']}"
        ],
    )


def calibration_set_of(run_id: str, db_url: str | None = None) -> dict | None:
    """The calibration set a run grades (its id, method and items by item id), or None for an ordinary run."""
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            return None
        season = s.get_one(SeasonRow, run.season_id)
        row = s.scalar(select(CalibrationSetRow).where(CalibrationSetRow.bundle_hash == season.content_hash).limit(1))
        if row is None:
            return None
        return {
            "set_id": row.id,
            "method": row.method,
            "window": row.window,
            "source_run_id": row.source_run_id,
            "items": {item["item_id"]: item for item in row.items},
        }
