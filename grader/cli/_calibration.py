"""``grader calibration import|export``: human calibration grades collected elsewhere, in and out as CSV.

Import is append-only and all or nothing: every row is checked as the console checks a grade (scores 0-100,
known sub-component ids, an item of the run, a configured annotator) and a bad file writes nothing, with the
file, line and column of every problem. Export writes every stored grade (the full append-only history).
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import typer

from grader.cli._common import console, fail

app = typer.Typer(help="Human calibration grades: import a CSV collected elsewhere, export every stored grade.",
                  no_args_is_help=True, add_completion=False)

AXES = ("reasoning", "evidence", "outcome", "data_reliability")
DERIVED = ("composite", "created_at", "rubric_id", "rubric_hash", "display_name", "sign_in", "id")
"""Columns of an export that an import ignores (they are computed or recorded, never taken from a file)."""


@app.command("import")
def import_(file: Path = typer.Argument(..., help="CSV: annotator, contestant, reasoning, evidence[, outcome, "
                                                  "data_reliability, comment, reasoning.<sub_id>, evidence.<sub_id>]"),
            run_id: str = typer.Option(..., "--run", "--run-id", help="Run the grades are for"),
            annotators: str | None = typer.Option(None, "--annotators", help="Annotators file (default: "
                                                  "$GRADER_ANNOTATORS_FILE or ./annotators.yaml)")) -> None:
    """Append human grades from a CSV (all rows or none; same checks as the console)."""
    from pydantic import ValidationError
    from sqlalchemy import select

    from console import AnnotatorDirectory, AuthError, HumanGradeInput, WriteError, record_human_grades
    from console._writes import describe_error
    from grader.storage import ContestantRow, RunRow, session_scope

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
    known = {"annotator", "contestant", "comment", *AXES, *DERIVED}
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
        items = {c.contestant_key: c.id for c in s.scalars(select(ContestantRow).where(
            ContestantRow.season_id == run.season_id))}
        from console._writes import _rubric_of

        rubric = _rubric_of(run)
        run_rubric_hash = run.rubric_hash
    for col in columns:
        part, _, sub = col.partition(".")
        if part in ("reasoning", "evidence") and sub and sub not in rubric.sub_component_weights(part):
            problems.append(f"{file}: line 1, column {col!r}: unknown sub-component id {sub!r} for {rubric.id}")
    directory = AnnotatorDirectory(annotators)
    grades = []
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
            problems.append(f"{where}, column 'rubric_hash': the grade was given under another rubric "
                            f"({given_hash[:12]}…) than run {run_id}'s ({run_rubric_hash[:12]}…)")
            continue
        values: dict = {a: (row.get(a) or "").strip() or None for a in AXES}
        values["comment"] = row.get("comment") or ""
        for part in ("reasoning", "evidence"):
            values[f"{part}_sub_scores"] = {c.split(".", 1)[1]: (row.get(c) or "").strip() or None
                                            for c in columns if c.startswith(f"{part}.")}
        try:
            grades.append((who, items[key], HumanGradeInput(**values)))
        except (ValidationError, WriteError) as exc:
            problems.append(f"{where}: {describe_error(exc)}")
    if problems:
        fail(f"nothing imported ({len(problems)} problem(s)):\n" + "\n".join(problems))
        return
    if not grades:
        fail(f"{file}: no rows")
        return
    source = f"{file.name} sha256:{hashlib.sha256(raw).hexdigest()[:16]}"
    try:
        ids = record_human_grades(run_id, grades, source, directory=directory)
    except WriteError as exc:
        fail(f"nothing imported: {exc}")
        return
    console.print(f"[green]✓[/] {len(ids)} human grade(s) appended to run {run_id} from {source} "
                  f"({len({w.name for w, _, _ in grades})} annotator(s))")


@app.command("export")
def export(run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
           out: Path = typer.Option(..., "--out", help="CSV file to write")) -> None:
    """Write every stored human grade of a run (the append-only history, oldest first) as CSV."""
    from sqlalchemy import select

    from grader.storage import ContestantRow, HumanGradeRow, RunRow, session_scope

    with session_scope() as s:
        if s.get(RunRow, run_id) is None:
            fail(f"no run {run_id!r} in this database")
            return
        people = {c.id: c for c in s.scalars(select(ContestantRow))}
        rows = s.scalars(select(HumanGradeRow).where(HumanGradeRow.run_id == run_id)
                         .order_by(HumanGradeRow.created_at, HumanGradeRow.id)).all()
        subs = sorted({f"{part}.{k}" for h in rows for part in ("reasoning", "evidence")
                       for k in ((h.sub_scores or {}).get(part) or {})})
        header = ["id", "created_at", "annotator", "contestant", "display_name", "rubric_id", "rubric_hash", *AXES,
                  "composite", "sign_in", "comment", *subs]
        records = []
        for h in rows:
            sub = h.sub_scores or {}
            records.append({"id": h.id, "created_at": h.created_at.isoformat(), "annotator": h.annotator,
                            "contestant": people[h.contestant_id].contestant_key,
                            "display_name": people[h.contestant_id].display_name, "rubric_id": h.rubric_id,
                            "rubric_hash": h.rubric_hash or "",
                            **{a: getattr(h, a) for a in AXES}, "composite": h.composite,
                            "sign_in": sub.get("sign_in", ""), "comment": h.comment,
                            **{c: (sub.get(c.split(".", 1)[0]) or {}).get(c.split(".", 1)[1]) for c in subs}})
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        writer.writerows(records)
    console.print(f"[green]✓[/] {len(records)} human grade(s) of run {run_id} written to {out}")
