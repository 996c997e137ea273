"""``grader batch status|collect --run RUN``: follow a run whose judge calls went through provider batch APIs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer
from rich.table import Table

from grader.cli._common import console, err_console, fail
from grader.hygiene import for_terminal

app = typer.Typer(help="Provider batches of a run (grader grade --batch): status, collect.", no_args_is_help=True)


def _run_inputs(run_id: str, rubric: str | None, season: Path | None, allow_real_api_calls: bool):
    """(run row, season dir, rubric, panel) a batch run was submitted with; exits with the reason when one is
    missing or changed."""
    from grader.panel import PanelConfig
    from grader.storage import RunRow, SeasonRow, session_scope
    from rubric import RubricError, load_rubric

    with session_scope() as s:
        run = s.get(RunRow, run_id)
        if run is None:
            fail(f"no run {run_id!r} in this database")
        s.expunge(run)
        season_row = s.get(SeasonRow, run.season_id)
        if season_row is None:
            fail(f"run {run_id!r}: no season row {run.season_id} in this database")
        source = Path(season_row.source_path)
    if not run.panel_doc:
        fail(f"run {run_id!r} stored no panel; it cannot be followed up here")
    panel = PanelConfig.model_validate(run.panel_doc)
    if panel.kind == "real" and not allow_real_api_calls:
        fail(
            f"run {run_id!r} was graded by the real panel {panel.name!r}: pass --allow-real-api-calls to ask its "
            "providers (keys from the environment)"
        )
    try:
        loaded = load_rubric(rubric or run.rubric_id)
    except RubricError as exc:
        fail(f"{exc} (pass --rubric FILE: the rubric file the run was graded under)")
    if loaded.content_hash != run.rubric_hash:
        fail(
            f"rubric {rubric or run.rubric_id} is not the one run {run_id!r} was graded under (hash "
            f"{run.rubric_hash[:12]}); pass --rubric FILE with that rubric"
        )
    return run, season or source, loaded, panel


@app.command("status")
def status(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    allow_real_api_calls: bool = typer.Option(
        False, "--allow-real-api-calls", help="Ask real providers (a real panel's batches)"
    ),
) -> None:
    """Where each batch of the run stands (asked of the provider and stored); nothing is collected or sent."""
    from sqlalchemy import func, select

    from grader.judges import make_judge
    from grader.panel import PanelConfig, open_batches, refresh_states
    from grader.storage import JudgeCallRow, RunRow, session_scope

    with session_scope() as s:
        run = s.get(RunRow, run_id)
        if run is None:
            fail(f"no run {run_id!r} in this database")
        panel_doc, run_status = run.panel_doc, run.status
        calls = dict(
            s.execute(
                select(JudgeCallRow.status, func.count())
                .where(JudgeCallRow.run_id == run_id)
                .group_by(JudgeCallRow.status)
            ).all()
        )
    if not open_batches(None, run_id):
        console.print(f"run {run_id}: no provider batch (graded with synchronous calls)")
        return
    panel = PanelConfig.model_validate(panel_doc)
    rows = open_batches(None, run_id)
    live = [b for b in rows if b.status == "submitted"]
    if live and panel.kind == "mock":
        err_console.print(
            "[yellow]note[/]: a mock panel's fake servers lived only in the grading process; shown as last stored"
        )
    elif live and panel.kind == "real" and not allow_real_api_calls:
        err_console.print("[yellow]note[/]: shown as last stored (pass --allow-real-api-calls to ask the providers)")
    else:
        from grader.judges import MissingApiKey, RealApiCallsNotAllowed

        try:
            judges = {
                j.judge_id: make_judge(j, allow_real_api_calls=allow_real_api_calls)
                for j in panel.judges
                if any(b.judge_id == j.judge_id for b in live)
            }
        except (MissingApiKey, RealApiCallsNotAllowed) as exc:
            fail(str(exc))

        async def ask():
            try:
                return await refresh_states(None, run_id, judges)
            finally:
                for j in judges.values():
                    await j.aclose()

        rows = asyncio.run(ask()) if judges else rows
    t = Table(
        "judge",
        "provider",
        "batch",
        "status",
        "provider says",
        "requests",
        "counts",
        "submitted",
        "checked",
        title=f"Batches of run {run_id} ({run_status})",
    )
    for b in rows:
        counts = ", ".join(f"{k} {v}" for k, v in (b.counts or {}).items() if v)
        t.add_row(
            b.judge_id,
            b.provider,
            b.provider_batch_id or "—",
            b.status,
            b.provider_status or "—",
            str(b.request_count),
            counts or "—",
            f"{b.submitted_at:%Y-%m-%d %H:%M}",
            f"{b.checked_at:%Y-%m-%d %H:%M:%S}" if b.checked_at else "—",
        )
    console.print(t)
    for b in rows:
        if b.error_message:
            err_console.print(
                f"[yellow]{b.judge_id}[/] batch {b.provider_batch_id or b.id}: {for_terminal(b.error_message)}"
            )
    console.print("calls: " + ", ".join(f"{n} {k}" for k, n in sorted(calls.items())))


@app.command("collect")
def collect(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    wait: bool = typer.Option(False, "--wait", help="Poll until every batch has ended"),
    poll: float = typer.Option(30.0, "--poll", help="With --wait: seconds between status checks"),
    rubric: str | None = typer.Option(
        None, "--rubric", help="The rubric file the run was graded under (default: its id)"
    ),
    season: Path | None = typer.Option(None, "--season", help="Season directory (default: as imported)"),
    allow_real_api_calls: bool = typer.Option(
        False, "--allow-real-api-calls", help="Ask real providers (a real panel's batches)"
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress lines"),
) -> None:
    """Store the results of every ended batch (raw replies first), send failed requests that may be retried in a
    new batch (linked, capped), and finish the run (grades, ledgers, scores, manifest) once nothing is pending.
    Safe to run again at any time."""
    from grader.cli._common import load_or_exit
    from grader.cli._runs import TOP_ROWS, grade
    from grader.panel import open_batches

    if not open_batches(None, run_id):
        fail(
            f"run {run_id!r} has no provider batch (graded with synchronous calls, or no such run): nothing to collect"
        )
    run, season_dir, loaded, panel = _run_inputs(run_id, rubric, season, allow_real_api_calls)
    load_or_exit(season_dir)
    run_type = run.run_type if run.run_type in ("official", "stability") else "official"
    grade(
        season_dir,
        rubric=str(rubric or run.rubric_id),
        panel=panel,
        run_id=run_id,
        run_type=run_type,
        repeats=run.repeats,
        allow_real_api_calls=allow_real_api_calls,
        quiet=quiet,
        batch=True,
        wait=wait,
        poll=poll,
        top=TOP_ROWS,
    )
