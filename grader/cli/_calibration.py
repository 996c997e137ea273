"""``grader calibration import|export``: human calibration grades collected elsewhere, in and out as CSV.

Import is append-only and all or nothing: every row is checked as the console checks a grade (scores 0-100,
known sub-component ids, an item of the run, a configured annotator) and a bad file writes nothing, with the
file, line and column of every problem. It is idempotent by content: a grade already stored (same annotator,
contestant, scores, sub-scores, comment and, when the file gives it, time) is not appended again. A grade keeps the
time it was given (``created_at``) and how its annotator signed in, so an old export re-imported never becomes the
"latest" grade. Export writes every stored grade (the full append-only history, oldest first); export -> import ->
export gives the same bytes.
"""

from __future__ import annotations

import csv
import hashlib
from datetime import UTC, datetime
from pathlib import Path

import typer
from rich.table import Table

from grader.cli._common import console, fail
from grader.hygiene import for_csv, for_terminal

app = typer.Typer(
    help="Calibration: reference-item sets (sample, grade) and human grades (import, export).",
    no_args_is_help=True,
    add_completion=False,
)

AXES = ("reasoning", "evidence", "outcome", "data_reliability")
DERIVED = ("composite", "rubric_id", "rubric_hash", "display_name", "id")
"""Columns of an export that an import ignores (computed or recorded, never taken from a file; ``id`` is read from
exports written before it was dropped). ``created_at`` and ``sign_in`` are kept: when a grade was given, and how."""
ORIGINAL = ("created_at", "sign_in")


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _grade_key(annotator: str, contestant: str, values: dict) -> tuple:
    """What makes two grades the same grade (the time aside): who, which item, every score and the comment."""

    def num(v) -> float | None:  # noqa: ANN001
        return None if v is None or v == "" else float(v)

    subs = tuple(
        tuple(sorted((k, num(v)) for k, v in (values.get(f"{part}_sub_scores") or {}).items() if num(v) is not None))
        for part in ("reasoning", "evidence")
    )
    return (annotator, contestant, *(num(values.get(a)) for a in AXES), values.get("comment") or "", subs)


@app.command("import")
def import_(
    file: Path = typer.Argument(
        ...,
        help="CSV: annotator, contestant, reasoning, evidence[, outcome, "
        "data_reliability, comment, reasoning.<sub_id>, evidence.<sub_id>]",
    ),
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run the grades are for"),
    annotators: str | None = typer.Option(
        None, "--annotators", help="Annotators file (default: $GRADER_ANNOTATORS_FILE or ./annotators.yaml)"
    ),
) -> None:
    """Append human grades from a CSV (all rows or none; same checks as the console)."""
    from pydantic import ValidationError
    from sqlalchemy import select

    from console import (
        AnnotatorDirectory,
        AuthError,
        HumanGradeInput,
        WriteError,
        describe_error,
        record_human_grades,
    )
    from grader.storage import ContestantRow, HumanGradeRow, RunRow, session_scope

    try:
        raw = file.read_bytes()
        text = raw.decode("utf-8-sig")
    except OSError as exc:
        fail(f"{file}: {exc.strerror or exc}")
        return
    except UnicodeDecodeError as exc:
        fail(f"{file}: not UTF-8 text (byte {exc.start})")
        return
    reader = csv.DictReader(text.splitlines())
    columns = reader.fieldnames or []
    problems: list[str] = []
    known = {"annotator", "contestant", "comment", *AXES, *DERIVED, *ORIGINAL}
    for col in columns:
        if col not in known and not col.startswith(("reasoning.", "evidence.")):
            problems.append(f"{file}: line 1, column {col!r}: unknown column")
    for col in ("annotator", "contestant", "reasoning", "evidence"):
        if col not in columns:
            problems.append(f"{file}: line 1: missing column {col!r}")
    if problems:
        fail("\n".join(problems))
        return
    with session_scope() as s:
        run = s.get(RunRow, run_id)
        if run is None:
            fail(f"no run {run_id!r} in this database")
            return
        items = {
            c.contestant_key: c.id
            for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
        }
        from grader.scoring import run_rubric

        rubric = run_rubric(run)
        run_rubric_hash = run.rubric_hash
        keys = {v: k for k, v in items.items()}
        stored_at: set[tuple] = set()  # (grade, time) of every stored grade
        stored: set[tuple] = set()  # the grade alone
        for h in s.scalars(select(HumanGradeRow).where(HumanGradeRow.run_id == run_id)):
            subs = h.sub_scores or {}
            grade_key = _grade_key(
                h.annotator,
                keys.get(h.contestant_id, ""),
                {
                    **{a: getattr(h, a) for a in AXES},
                    "comment": h.comment,
                    **{f"{p}_sub_scores": subs.get(p) or {} for p in ("reasoning", "evidence")},
                },
            )
            stored.add(grade_key)
            stored_at.add((grade_key, _utc(h.created_at)))
    for col in columns:
        part, _, sub = col.partition(".")
        if part in ("reasoning", "evidence") and sub and sub not in rubric.sub_component_weights(part):
            problems.append(f"{file}: line 1, column {col!r}: unknown sub-component id {sub!r} for {rubric.id}")
    directory = AnnotatorDirectory(annotators)
    grades, originals, already, untimed = [], [], 0, 0
    now = datetime.now(UTC)
    for line, row in enumerate(reader, start=2):
        where = f"{file}: line {line}"
        try:
            who = directory.sign_in_import((row.get("annotator") or "").strip())
        except AuthError as exc:
            problems.append(f"{where}, column 'annotator': {exc}")
            continue
        key = (row.get("contestant") or "").strip()
        if key not in items:
            problems.append(f"{where}, column 'contestant': {key!r} is not a contestant of run {run_id}")
            continue
        given_hash = (row.get("rubric_hash") or "").strip()
        if given_hash and given_hash != run_rubric_hash:
            problems.append(
                f"{where}, column 'rubric_hash': the grade was given under another rubric "
                f"({given_hash[:12]}…) than run {run_id}'s ({run_rubric_hash[:12]}…)"
            )
            continue
        values: dict = {a: (row.get(a) or "").strip() or None for a in AXES}
        values["comment"] = row.get("comment") or ""
        for part in ("reasoning", "evidence"):
            values[f"{part}_sub_scores"] = {
                c.split(".", 1)[1]: (row.get(c) or "").strip() or None for c in columns if c.startswith(f"{part}.")
            }
        when = (row.get("created_at") or "").strip()
        try:
            given_at = _utc(datetime.fromisoformat(when)) if when else None
        except ValueError:
            problems.append(f"{where}, column 'created_at': {when!r} is not an ISO 8601 time")
            continue
        if given_at is not None and given_at > now:
            problems.append(f"{where}, column 'created_at': {when} is in the future")
            continue
        try:
            grade = HumanGradeInput(**values)
        except (ValidationError, WriteError) as exc:
            problems.append(f"{where}: {describe_error(exc)}")
            continue
        content = _grade_key(who.name, key, grade.model_dump())
        if (content, given_at) in stored_at or (given_at is None and content in stored):
            already += 1  # stored before (an export re-imported, or a line given twice): not appended again
            untimed += given_at is None
            continue
        stored_at.add((content, given_at))
        stored.add(content)
        grades.append((who, items[key], grade))
        originals.append({"created_at": given_at, "sign_in": (row.get("sign_in") or "").strip() or None})
    if problems:
        fail(f"nothing imported ({len(problems)} problem(s)):\n" + "\n".join(problems))
        return
    if not grades and not already:
        fail(f"{file}: no rows")
        return
    source = f"{file.name} sha256:{hashlib.sha256(raw).hexdigest()[:16]}"
    said = [
        f"{n} already stored ({why}), not appended again"
        for n, why in ((already - untimed, "same grade, same time"), (untimed, "same grade; the file gives no time"))
        if n
    ]
    skipped = "".join(f"; {x}" for x in said)
    if not grades:
        console.print(f"[green]✓[/] 0 human grade(s) appended to run {run_id} from {source}{skipped}")
        return
    try:
        ids = record_human_grades(run_id, grades, source, directory=directory, originals=originals)
    except WriteError as exc:
        fail(f"nothing imported: {exc}")
        return
    console.print(
        f"[green]✓[/] {len(ids)} human grade(s) appended to run {run_id} from {source} "
        f"({len({w.name for w, _, _ in grades})} annotator(s)){skipped}"
    )


@app.command("export")
def export(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    out: Path = typer.Option(..., "--out", help="CSV file to write"),
) -> None:
    """Write every stored human grade of a run (the append-only history, oldest first) as CSV."""
    from sqlalchemy import select

    from grader.storage import ContestantRow, HumanGradeRow, RunRow, session_scope

    with session_scope() as s:
        if s.get(RunRow, run_id) is None:
            fail(f"no run {run_id!r} in this database")
            return
        people = {c.id: c for c in s.scalars(select(ContestantRow))}
        rows = s.scalars(
            select(HumanGradeRow)
            .where(HumanGradeRow.run_id == run_id)
            .order_by(HumanGradeRow.created_at, HumanGradeRow.id)
        ).all()
        subs = sorted(
            {
                f"{part}.{k}"
                for h in rows
                for part in ("reasoning", "evidence")
                for k in ((h.sub_scores or {}).get(part) or {})
            }
        )
        header = [
            "created_at",
            "annotator",
            "contestant",
            "display_name",
            "rubric_id",
            "rubric_hash",
            *AXES,
            "composite",
            "sign_in",
            "comment",
            *subs,
        ]
        records = []
        for h in rows:
            sub = h.sub_scores or {}
            records.append(
                {
                    "created_at": _utc(h.created_at).isoformat(),
                    "annotator": h.annotator,
                    "contestant": people[h.contestant_id].contestant_key,
                    "display_name": people[h.contestant_id].display_name,
                    "rubric_id": h.rubric_id,
                    "rubric_hash": h.rubric_hash or "",
                    **{a: getattr(h, a) for a in AXES},
                    "composite": h.composite,
                    "sign_in": sub.get("sign_in", ""),
                    "comment": h.comment,
                    **{c: (sub.get(c.split(".", 1)[0]) or {}).get(c.split(".", 1)[1]) for c in subs},
                }
            )
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        writer.writerows({k: for_csv(v) for k, v in r.items()} for r in records)
    console.print(f"[green]✓[/] {len(records)} human grade(s) of run {run_id} written to {out}")


@app.command("sample")
def sample(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run whose season and grades to draw from"),
    n: int = typer.Option(20, "--n", help="Number of reference items"),
    window: int = typer.Option(1, "--window", help="Consecutive decisions per item (1: one decision)"),
    seed: int = typer.Option(0, "--seed", help="Seed of the draw (the same seed draws the same set)"),
    set_id: str | None = typer.Option(None, "--set-id", help="Id of the set (default RUN-calNwKsS)"),
    out: Path | None = typer.Option(None, "--out", help="Folder of the set's bundle (default calibration/SET_ID)"),
) -> None:
    """Draw a calibration set: N reference items (one decision, or K consecutive ones, with the snapshot the
    judges are shown), stratified over contestants and bands with the items where judges disagree most; seeded,
    stored with the run's rubric, written as a season bundle whose contestants are the items."""
    from grader.calibration import SampleError, build_set
    from grader.season import BundleError

    try:
        made = build_set(run_id, n, window=window, seed=seed, set_id=set_id, out=out)
    except (SampleError, KeyError, FileExistsError, BundleError) as exc:
        fail(str(exc).strip("'\""))
        return
    t = Table("item", "stratum", "decisions", "why", title=f"Calibration set {made['set_id']}")
    for item in made["items"]:
        t.add_row(
            for_terminal(item["label"]),
            for_terminal(item["stratum"]),
            f"{item['first'] + 1}-{item['last'] + 1}",
            for_terminal(item["reason"]),
        )
    console.print(t)
    console.print(for_terminal(made["method"], multiline=True))
    if made.get("existing"):
        console.print(
            f"set {made['set_id']} was drawn before with these parameters: the same items (nothing new written)"
        )
    console.print(
        f"[green]✓[/] set {made['set_id']}: {made['n_items']} item(s) in {made['bundle_path']}; grade it "
        f"with `grader calibration grade --set {made['set_id']}`"
    )


@app.command("grade")
def grade_items(
    set_id: str = typer.Option(..., "--set", help="Calibration set id"),
    panel: str | None = typer.Option(None, "--panel", help="Panel (default: the source run's)"),
    run_id: str | None = typer.Option(None, "--run-id", help="Run id (default SET-PANEL; re-using it resumes the run)"),
    allow_real_api_calls: bool = typer.Option(False, "--allow-real-api-calls", help="Allow calls to real providers"),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar"),
) -> None:
    """Grade a calibration set's items with a panel under the set's rubric (item-sized prompts, the same schema
    and audit trail as any run; mock and reference offline, a real panel only with --allow-real-api-calls)."""
    from grader.calibration import grade_set
    from grader.judges import MissingApiKey, RealApiCallsNotAllowed
    from grader.panel import EXIT_BUSY, EXIT_CODES, PanelError, RunBusy, RunError
    from grader.season import BundleError
    from rubric import RubricError

    try:
        report = grade_set(
            set_id,
            panel_name=panel,
            run_id=run_id,
            allow_real_api_calls=allow_real_api_calls,
            progress=not quiet,
            console=console,
        )
    except RunBusy as exc:
        fail(str(exc), EXIT_BUSY)
        return
    except (
        KeyError,
        ValueError,
        RunError,
        PanelError,
        RubricError,
        MissingApiKey,
        RealApiCallsNotAllowed,
        BundleError,
    ) as exc:
        fail(str(exc).strip("'\""))
        return
    from audits import RUN_TYPE_LABELS

    console.print(RUN_TYPE_LABELS.get(report.run_type, report.run_type))
    for note in report.notes:
        console.print(f"note: {for_terminal(note)}")
    sizes = [t["prompt_tokens"] for t in report.tokens_per_contestant.values()]
    if sizes:
        console.print(f"item prompts: {len(sizes)}, {min(sizes):,}-{max(sizes):,} tokens (estimate)")
    console.print(
        f"run {report.run_id}: {report.status}; human grades for it are entered on the console's "
        "Calibration page (pick this run)"
    )
    code = EXIT_CODES.get(report.status, 0)
    if code:
        raise typer.Exit(code)
