"""``grader grade``, ``grader verify``, ``grader leaderboard``, ``grader rescore``."""

from __future__ import annotations

import signal
from pathlib import Path

import typer
from rich.table import Table

from grader.cli._common import console, err_console, fail, load_or_exit
from grader.cli._gc import start_up_without_collections
from grader.cli._signals import hand_ctrl_c_to_python, terminate_as_interrupt
from grader.hygiene import for_terminal

TOP_ROWS = 25
"""Leaderboard rows ``grader grade`` prints when it is done (a season of 150 would scroll the run's summary away)."""

RUN_LABELS = {
    "baseline": "[yellow]REFERENCE BASELINE[/] — deterministic non-LLM judge, not an LLM grade",
    "mock": "[magenta]MOCK PANEL[/] — scripted judges over local fakes, not real LLM grades; never official",
    "dry-run": "[cyan]DRY RUN[/] — prompts and token estimates stored, nothing sent",
    "official": "official run",
    "stability": "stability run (repeats; never official)",
}


def grade(
    season_dir: Path = typer.Argument(..., help="Season bundle directory"),
    rubric: str = typer.Option("v0.4", "--rubric", help="Rubric version (v0.3, v0.4) or a rubric YAML file"),
    panel: str = typer.Option("reference", "--panel", help="Panel: reference, mock, frontier or a panel YAML"),
    run_id: str = typer.Option(..., "--run-id", help="Run id (re-using it resumes the run)"),
    run_type: str = typer.Option("official", "--run-type", help="official | stability | dry-run"),
    repeats: int = typer.Option(1, "--repeats", help="Stability runs: grade each record K times per judge"),
    allow_real_api_calls: bool = typer.Option(
        False, "--allow-real-api-calls", help="Allow calls to real providers (keys from the environment)"
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar"),
    batch: bool = typer.Option(
        False,
        "--batch",
        help="Send the judge calls through the providers' batch APIs (half price, results within "
        "24 h): submits and returns; `grader batch status|collect RUN` follow up. A mock panel waits for its batches",
    ),
    wait: bool = typer.Option(False, "--wait", help="With --batch: poll until every batch has ended and collect"),
    poll: float = typer.Option(30.0, "--poll", help="With --batch --wait: seconds between status checks"),
    top: int = typer.Option(
        TOP_ROWS,
        "--top",
        min=0,
        help="Leaderboard rows printed at the end (0: all; `grader leaderboard --run RUN` prints every row)",
    ),
) -> None:
    """Grade a season with a judge panel and store the run (resumable; completed calls never repeat).

    Exit codes: 0 complete (or a dry run); 3 complete with gaps (listed, never invented); 4 nothing scored (no
    valid grade: the run is marked failed, never official); 5 another process holds the run; 1 bad input;
    130 interrupted (Ctrl-C), 143 terminated (SIGTERM); 6 database locked, 7 disk full, 8 database not writable,
    9 database schema not this grader's (`grader db upgrade`). After 130, 143, 6 or 7: run the same command again to
    resume."""
    with start_up_without_collections() as resume, terminate_as_interrupt() as stopped:

        def calls_start() -> None:
            resume()
            hand_ctrl_c_to_python()  # asyncio.run's own handler cancels the calls in flight

        try:  # from the first import on: a stop while modules load is a stop like any other
            report = _grade(
                season_dir,
                rubric,
                panel,
                run_id,
                run_type,
                repeats,
                allow_real_api_calls,
                quiet,
                batch,
                wait,
                poll,
                calls_start,
            )
        except Exception:
            if stopped.received is None:
                raise
            stop = True  # a stop a C extension being imported turned into another error (numpy: ImportError)
        except KeyboardInterrupt:
            stop = True
        else:
            stop = False
        if stop:
            flag = " --allow-real-api-calls" if allow_real_api_calls else ""
            extra = f" --run-type {run_type}" + (f" --repeats {repeats}" if repeats > 1 else "")
            what = "terminated (SIGTERM)" if stopped.received == signal.SIGTERM else "interrupted"
            err_console.print(
                f"[yellow]{what}[/]: every reply received so far is stored; calls in flight are marked interrupted "
                f"and never count toward the retry cap. Resume with:\n  grader grade {season_dir} --rubric {rubric} "
                f"--panel {panel} --run-id {run_id}{extra}{flag}",
                soft_wrap=True,
            )
            stopped.reported = True
            raise typer.Exit(stopped.exit_code) from None
    from grader.panel import EXIT_CODES

    console.print(RUN_LABELS.get(report.run_type, report.run_type))
    for note in report.notes:
        err_console.print(f"[yellow]note[/]: {for_terminal(note)}")
    if report.dry_run:
        console.print(
            f"[cyan]dry run[/]: {run_id} — no call sent (pass --allow-real-api-calls to send). Prompt token estimates:"
        )
    _print_prompt_sizes(report.tokens_per_contestant, dry_run=report.dry_run)
    for room in report.headroom:
        console.print(
            f"window {room['judge']}: largest prompt {room['largest_prompt']:,} tokens "
            f"({for_terminal(room['contestant'])}) of {room['window']:,}: {room['left']:.1%} left for the reply"
        )
    from grader.cli._cost import cost_table

    costs = cost_table(run_id)
    if costs is not None and (report.dry_run or report.calls_sent):
        console.print(costs)
    if report.status == "batch_pending":
        print_pending(run_id, report.batch)
        return
    if not report.dry_run:
        console.print(
            f"judge calls: {report.calls_sent} sent, {report.calls_reused} reused from earlier runs, "
            f"{report.attempts_failed} failed attempts; cost ${report.cost_usd:.4f}"
        )
        for gap in report.gaps:
            err_console.print(f"[red]gap[/]: {for_terminal(gap)} — no score invented")
        status = {
            "complete": "[green]complete[/]",
            "complete_with_gaps": "[yellow]complete with gaps[/] (never official)",
            "failed": "[red]failed[/]: no valid grade (never official)",
        }.get(report.status, report.status)
        console.print(f"run {run_id}: {status}")
        if report.status != "failed":
            _print_leaderboard(run_id, top=top)
    code = EXIT_CODES.get(report.status, 0)
    if code:
        raise typer.Exit(code)


def _grade(
    season_dir, rubric, panel, run_id, run_type, repeats, allow_real_api_calls, quiet, batch, wait, poll, resume
):  # noqa: ANN001, ANN202 - the arguments of `grade`; its GradeReport
    """``grade_season`` with its refusals as one line and an exit code (a stop is the caller's to report)."""
    from grader.judges import MissingApiKey, RealApiCallsNotAllowed
    from grader.panel import EXIT_BUSY, PanelError, RunBusy, RunError, grade_season
    from rubric import RubricError

    bundle = load_or_exit(season_dir)  # invalid bundle: every problem listed, nothing written
    try:
        return grade_season(
            season_dir,
            bundle=bundle,
            rubric_name=rubric,
            panel_name=panel,
            run_id=run_id,
            run_type=run_type,
            repeats=repeats,
            allow_real_api_calls=allow_real_api_calls,
            progress=not quiet,
            console=console,
            batch=batch,
            wait=wait,
            poll_s=poll,
            on_poll=print_poll if batch and not quiet else None,
            on_calls_start=resume,
        )
    except RunBusy as exc:
        fail(str(exc), EXIT_BUSY)
    except (RunError, PanelError, RubricError, MissingApiKey, RealApiCallsNotAllowed) as exc:
        fail(str(exc))


def _print_prompt_sizes(sizes: dict[str, dict[str, int]], *, dry_run: bool) -> None:
    """A dry run: every contestant's prompt beside its naive dump (what compaction saves). A paid run: the spread
    in one line (smallest, median, largest and whose), its calls and costs being what follows."""
    if not sizes:
        return
    if not dry_run:
        ranked = sorted(sizes.items(), key=lambda kv: (kv[1]["prompt_tokens"], kv[0]))
        low, high = ranked[0], ranked[-1]
        median = sorted(tok["prompt_tokens"] for _, tok in ranked)[len(ranked) // 2]
        console.print(
            f"prompt tokens per contestant (four characters a token): {len(ranked)} prompt(s), smallest "
            f"{low[1]['prompt_tokens']:,} ({low[0]}), median {median:,}, largest "
            f"{high[1]['prompt_tokens']:,} ({high[0]})"
        )
        return
    t = Table(
        "contestant",
        "prompt tokens",
        "naive dump tokens",
        "saved",
        title="Prompt size per contestant (estimated at four characters a token)",
    )
    for cid, tok in sorted(sizes.items()):
        if tok["naive_tokens"]:
            saved = 1 - tok["prompt_tokens"] / max(1, tok["naive_tokens"])
            t.add_row(for_terminal(cid), f"{tok['prompt_tokens']:,}", f"{tok['naive_tokens']:,}", f"{saved:.0%}")
        else:
            t.add_row(for_terminal(cid), f"{tok['prompt_tokens']:,}", "—", "—")
    console.print(t)


def print_poll(progress) -> None:  # noqa: ANN001 - a grader.panel._batch.BatchProgress
    """One line per batch step: what was submitted and collected, what is still open."""
    from datetime import datetime

    stamp = datetime.now().strftime("%H:%M:%S")
    console.print(
        f"{stamp} batches: {progress.submitted} request(s) submitted, {progress.collected} result(s) "
        f"collected, {len(progress.open_batches)} batch(es) open"
    )
    for problem in progress.problems:
        err_console.print(f"[yellow]batch[/]: {for_terminal(problem)}")


def print_pending(run_id: str, progress) -> None:  # noqa: ANN001
    console.print(
        f"run {run_id}: [cyan]batches submitted[/] — results are collected by "
        f"`grader batch collect --run {run_id}` (status: `grader batch status --run {run_id}`)"
    )
    for line in progress.open_batches:
        console.print(f"  open: {for_terminal(line)}")


def verify(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    season_dir: Path | None = typer.Option(None, "--season", help="Season directory (default: as imported)"),
) -> None:
    """Recompute the run manifest's hashes and name anything that changed."""
    from grader.panel import verify_run

    result = verify_run(run_id, season_dir=season_dir)
    if result.ok:
        console.print(f"[green]✓[/] run {run_id}: {result.checked} hashes verified, nothing changed")
        return
    for p in result.problems:
        err_console.print(f"[red]✗[/] {for_terminal(p)}")
    raise typer.Exit(1)


def leaderboard(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    version: int | None = typer.Option(None, "--version", help="Scored version (default: latest)"),
) -> None:
    """Total, reasoning median, efficiency, outcome, return, band and the judges' low/median/high."""
    _print_leaderboard(run_id, version)


def _fmt(v, spec=".1f", pct=False) -> str:
    if v is None:
        return "—"
    return f"{v * 100:+.2f}%" if pct else format(v, spec)


def _print_leaderboard(run_id: str, version: int | None = None, top: int = 0) -> None:
    """The scored version's table; ``top``: only its first rows, and a line saying how to see the rest."""
    from grader.panel.leaderboard import leaderboard_rows

    try:
        meta, rows = leaderboard_rows(run_id, version)
    except KeyError as exc:
        fail(str(exc.args[0]))
        return
    title = (
        f"{for_terminal(meta['season'])} · run {run_id} ({meta['run_type']}) · rubric {meta['rubric_id']} · "
        f"panel {meta['panel']} · scored version {meta['version']}"
    )
    t = Table(title=title, title_justify="left")
    from grader.reporting import RISK_LEGEND, compact_facts, compact_risk, run_process_facts

    shown = rows[: top or None]
    facts = run_process_facts(run_id, contestants={r["contestant_id"] for r in shown})  # the printed rows' only
    # a trading season: the decisions' VaR95 / CVaR95 under the process facts (as the judges see them)
    risk = {c: f"\nVaR / CVaR95\n{cell}" for c, f in facts.items() if (cell := compact_risk(f, sep="\n")) != "—"}
    for col in (
        "#",
        "contestant",
        "total",
        "band",
        "reasoning median",
        "efficiency",
        "outcome",
        "return",
        "benchmark",
        "alpha",
        "judges low/median/high",
        "n",
        "process",
    ):
        t.add_column(col, justify="right" if col not in ("contestant", "band", "process") else "left")
    for r in shown:
        spread = (
            f"{_fmt(r['judges_low'])} / {_fmt(r['reasoning_median'])} / {_fmt(r['judges_high'])}"
            if r["n_judges"]
            else "—"
        )
        t.add_row(
            str(r["rank"] or "—"),
            for_terminal(r["label"]),
            _fmt(r["total"]),
            r["band"] or "—",
            _fmt(r["reasoning_median"]),
            _fmt(r["efficiency"]),
            _fmt(r["outcome_axis"]),
            _fmt(r["return"], pct=True),
            _fmt(r["benchmark_return"], pct=True),
            _fmt(r["alpha"], pct=True),
            spread,
            f"{r['n_judges']}{'⚑' if r['flagged'] else ''}",
            for_terminal(compact_facts(facts.get(r["contestant_id"]))) + risk.get(r["contestant_id"], ""),
        )
    console.print(t)
    if top and len(rows) > top:
        console.print(f"{len(rows) - top} more: `grader leaderboard --run {run_id}` prints every row")
    if any(r["rounds_scope"] for r in rows):
        console.print(
            "outcome columns of a rounds season: means over each contestant's resolved rounds — "
            + "; ".join(f"{for_terminal(r['label'])} {r['rounds_scope']}" for r in shown),
            style="dim",
        )
    _print_comparison_sets(run_id)
    console.print(
        "n = judges with a valid grade; ⚑ = fewer judges than the panel lists (flagged, never official); "
        "process = turnover (traded notional / mean NAV), mean position HHI, largest position weight and "
        "thrash events (buy and sell of a symbol within 10 trading days); rounds: mean allocation HHI "
        "and holdings.",
        style="dim",
    )
    if risk:
        console.print(RISK_LEGEND, style="dim")
    label = RUN_LABELS.get(meta["run_type"])
    if label:
        console.print(label)
    if meta.get("pending"):
        console.print("season pending: outcome columns withheld")


def _print_comparison_sets(run_id: str) -> None:
    """Rounds seasons: CapitalBench's ranking surface (equal-run comparison sets), all-rounds figures as context."""
    from grader.reporting import COMPARISON_NOTE, comparison_set_rows

    rows = comparison_set_rows(run_id)
    if not rows:
        return
    t = Table(title="Outcome ranking: CapitalBench comparison sets", title_justify="left")
    for col in (
        "set",
        "shared rounds",
        "#",
        "contestant",
        "set score",
        "set mean return",
        "all-rounds score",
        "rounds resolved",
    ):
        t.add_column(col, justify="left" if col == "contestant" else "right")
    for r in rows:
        scope = f"{r['rounds resolved']} of {r['rounds decided']}"
        extra = [
            f"{r['rounds pending']} pending" if r["rounds pending"] else "",
            f"{r['rounds cancelled']} cancelled" if r["rounds cancelled"] else "",
        ]
        scope += "".join(f", {e}" for e in extra if e)
        t.add_row(
            f"{for_terminal(r['set'])} ({r['members']} models)",
            str(r["shared rounds"]),
            str(r["rank"] or "—"),
            for_terminal(r["contestant"]),
            _fmt(r["set score"]),
            _fmt(r["set mean return"], pct=True),
            _fmt(r["all-rounds score"]),
            scope,
        )
    console.print(t)
    console.print(COMPARISON_NOTE, style="dim")


def rescore(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    rubric: str = typer.Option(..., "--rubric", help="Rubric version or file to re-score under"),
    season: Path | None = typer.Option(
        None,
        "--season",
        help="The season bundle as it is now (e.g. re-imported "
        "after a pending round resolved): say who needs a re-grade first",
    ),
) -> None:
    """Re-score a stored run under another rubric without judge calls (when the judge-facing hash matches).

    With --season, first compare the prompts the run's judges saw with the bundle as it is now: contestants
    whose prompt changed (a pending round resolved and added an outcome section) need a re-grade; the others
    keep their grades."""
    from grader.panel.rescore import RescoreNeedsRegrade, regrade_plan, rescore_run

    if season is not None:
        try:
            plan = regrade_plan(run_id, season)
        except KeyError as exc:
            fail(str(exc.args[0]))
            return
        for line in plan.lines():
            console.print(line, markup=False)
        if plan.changed:
            err_console.print(
                f"[yellow]re-grade needed[/] for {len(plan.changed)} contestant(s): run `grader grade "
                f"{season} --rubric {rubric} --panel PANEL --run-id NEW_ID` (unchanged prompts reuse "
                "their stored replies: no call is paid twice)"
            )
            raise typer.Exit(2)

    from rubric import RubricError

    try:
        result = rescore_run(run_id, rubric)
    except RubricError as exc:
        fail(str(exc))
        return
    except RescoreNeedsRegrade as exc:
        err_console.print(f"[yellow]re-grade needed[/]: {for_terminal(exc)}")
        err_console.print(
            f"judges and contestants to re-grade: {', '.join(exc.judges)} × "
            f"{len(exc.contestants)} contestants — run `grader grade SEASON --rubric {rubric} "
            f"--panel {exc.panel} --run-id NEW_ID`"
        )
        raise typer.Exit(2) from None
    except KeyError as exc:
        fail(str(exc.args[0]))
        return
    console.print(
        f"re-scored run {run_id} under {result.rubric_id} as scored version {result.version} "
        f"(old versions kept) in {result.seconds * 1000:.0f} ms"
    )
    console.print("judge calls: 0")
    _print_leaderboard(run_id, result.version)
