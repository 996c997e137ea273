"""``grader audit``, ``grader report``, ``grader console``, ``grader rubric ...``, ``grader claims verify``."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from grader.cli._common import console, fail, load_or_exit


def audit(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    version: int | None = typer.Option(None, "--version", help="Scored version (default: latest)"),
) -> None:
    """Print the judge audits of a run: self-preference, agreement, consistency, calibration, grounding."""
    from audits import build_report
    from grader.reporting import collect_audit_inputs

    try:
        report = build_report(collect_audit_inputs(run_id, version=version))
    except KeyError as exc:
        fail(str(exc.args[0]))
        return
    from audits import render_markdown

    console.print(render_markdown(report), markup=False, highlight=False)


def report(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    out: Path = typer.Option(..., "--out", help="Output directory"),
    version: int | None = typer.Option(None, "--version", help="Scored version (default: latest)"),
) -> None:
    """Write the judge-agreement report (HTML, Markdown, JSON, CSV) of a run."""
    from audits import build_report, write_report
    from grader.probe import probe_rows
    from grader.reporting import (
        collect_audit_inputs,
        comparison_set_rows,
        real_claims_section,
        round_outcome_rows,
        run_identity_probe,
        run_process_facts,
        run_risk_evidence,
    )

    try:
        inputs = collect_audit_inputs(run_id, version=version)
    except KeyError as exc:
        fail(str(exc.args[0]))
        return
    summary, examples = real_claims_section(run_id)
    if summary is not None:
        inputs = inputs.model_copy(update={"claims_summary": summary, "examples": examples})
    rounds = round_outcome_rows(run_id)
    if rounds:
        inputs = inputs.model_copy(update={"round_outcomes": rounds})
    sets = comparison_set_rows(run_id)
    if sets:
        inputs = inputs.model_copy(update={"comparison_sets": sets})
    probe = run_identity_probe(run_id)
    if probe is not None:
        inputs = inputs.model_copy(update={"identity_probe": probe})
    guesses = probe_rows(run_id)
    if guesses:
        inputs = inputs.model_copy(update={"judge_probe": guesses})
    facts = run_process_facts(run_id)
    if facts:
        inputs = inputs.model_copy(update={"process_facts": facts})
    risk = run_risk_evidence(run_id, pending=inputs.meta.season_status == "pending")
    if risk is not None:
        inputs = inputs.model_copy(update={"risk": risk})
    paths = write_report(build_report(inputs), out)
    for name, path in sorted(paths.items()):
        console.print(f"[green]✓[/] {name}: {path}")


def console_cmd(
    port: int = typer.Option(8501, "--port", help="Port on 127.0.0.1"),
    headless: bool = typer.Option(True, "--headless/--browser", help="Do not open a browser"),
) -> None:
    """Start the Streamlit annotation console on 127.0.0.1."""
    import subprocess
    import sys

    app_path = Path(__file__).resolve().parents[2] / "console" / "app.py"
    cmd = [  # streamlit run, the pages' modules imported before the server answers (console/_serve.py)
        sys.executable,
        "-m",
        "console._serve",
        str(app_path),
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--server.headless",
        "true" if headless else "false",
        "--browser.gatherUsageStats",
        "false",
        "--client.toolbarMode",
        "minimal",
        "--server.fileWatcherType",
        "none",
    ]
    console.print(f"console on http://127.0.0.1:{port}")
    raise typer.Exit(subprocess.call(cmd))


def rubric_list() -> None:
    """List the bundled rubric versions with their hashes."""
    from rubric import available_rubrics, load_rubric

    t = Table("version", "id", "content hash", "judge-facing hash")
    for name in available_rubrics():
        r = load_rubric(name)
        t.add_row(name, r.id, r.content_hash[:12], r.judge_facing_hash[:12])
    console.print(t)


def rubric_diff(
    a: str = typer.Argument(..., help="Rubric A (version or file)"),
    b: str = typer.Argument(..., help="Rubric B (version or file)"),
    run_id: str | None = typer.Option(None, "--run", help="Show each contestant under both"),
) -> None:
    """What changed between two rubrics; with --run, each contestant's score, rank and band under both."""
    from grader.panel.compare import print_rubric_diff
    from rubric import RubricError

    try:
        print_rubric_diff(a, b, run_id, console)
    except RubricError as exc:
        fail(str(exc))


def rubric_show(name: str = typer.Argument(..., help="Rubric version or file")) -> None:
    """A rubric's identity, hashes, composite weights, bands, panel, blend and sub-components."""
    from rubric import RubricError, load_rubric

    try:
        r = load_rubric(name)
    except RubricError as exc:
        fail(str(exc))
        return
    console.print(f"{r.id} (version {r.version}): {r.title}")
    console.print(
        f"content hash {r.content_hash[:12]}, judge-facing hash {r.judge_facing_hash[:12]}, "
        f"output schema {r.output_schema_version}"
    )
    console.print("composite: " + ", ".join(f"{k} {v:g}%" for k, v in r.composite.model_dump().items()))
    console.print(f"bands: strong >= {r.bands.strong:g}, mixed >= {r.bands.mixed:g}, else weak")
    console.print(
        f"panel: {', '.join(j.provider_family for j in r.panel.judges)} "
        f"({r.panel.aggregation}; anonymized: {r.panel.anonymize})"
    )
    for axis in ("reasoning", "evidence"):
        t = Table("sub-component", "weight", title=f"{axis} sub-components")
        for sub in getattr(r.axes, axis).sub_components:
            t.add_row(f"{sub.id} ({sub.label})", f"{sub.weight:g}")
        console.print(t)


def claims_verify(
    season_dir: Path = typer.Option(..., "--season", help="Season bundle directory"),
    claims: Path = typer.Option(..., "--claims", help="Input JSONL: {id, decided_at, symbol, text, fields}"),
    out: Path = typer.Option(..., "--out", help="Output JSONL: {id, status, reason, evidence}"),
) -> None:
    """Verify claims against the season's point-in-time fields (no provider SDK is imported)."""
    from ledgers import ClaimsFileError, verify_claims_jsonl

    bundle = load_or_exit(season_dir)
    try:
        counts = verify_claims_jsonl(claims, out, bundle.store)
    except ClaimsFileError as exc:
        fail(str(exc))
        return
    console.print(f"[green]✓[/] {out}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


def probe(
    season_dir: Path = typer.Argument(..., help="Season bundle directory"),
    rubric: str = typer.Option("v0.4", "--rubric", help="Rubric whose judge-facing text sets the aliases"),
) -> None:
    """Can a judge tell who wrote a record? The offline stylometric probe of the anonymized rationales."""
    from grader.reporting import season_identity_probe

    result = season_identity_probe(season_dir, rubric)
    if result is None:
        fail("too little to test: the probe needs 2 provider families, 20 decisions and 3 rounds or days")
        return
    console.print(result.summary())
    console.print("recall per family: " + ", ".join(f"{k} {v:.0%}" for k, v in sorted(result.recall.items())))


def probe_judges(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run whose panel and season to probe"),
    n: int = typer.Option(60, "--n", min=2, help="Items (an even sample over the families)"),
    seed: int = typer.Option(0, "--seed", help="Sampling seed"),
    allow_real_api_calls: bool = typer.Option(
        False, "--allow-real-api-calls", help="Needed for a real panel (paid calls)"
    ),
) -> None:
    """Can a judge tell who wrote a record? Ask each judge of a run's panel, in calls of its own, which family wrote
    anonymized decisions; print each judge's leak rate against chance (stored with the run, shown in its report)."""
    from audits import judge_guess_stats
    from grader.probe import ProbeError, probe_rows, run_judge_probe

    try:
        result = run_judge_probe(run_id, n=n, seed=seed, allow_real_api_calls=allow_real_api_calls)
    except ProbeError as exc:
        fail(str(exc))
        return
    console.print(
        f"this probe: {result.items} items (--n {n}, --seed {seed}), candidates "
        f"{', '.join(result.candidates)}; {result.calls_made} call(s) made, {result.reused} answer(s) reused "
        "from earlier probes of this run"
    )
    rows = probe_rows(run_id)
    merged = len({r["item_key"] for r in rows})
    if merged != result.items:  # the stored answers of earlier probes (another --n or --seed) are merged in
        console.print(
            f"the table merges every item probed in this run so far: {merged} items ({result.items} of "
            f"this probe and {merged - result.items} more from earlier probes with another --n or --seed); "
            f"its leak rates and chance are over those {merged} items, not this probe's {result.items}"
        )
    else:
        console.print(f"the table covers this probe's {merged} items")
    t = Table(
        "judge",
        "items",
        "named correctly",
        "leak rate",
        "chance",
        "p (Holm)",
        "verdict",
        title=f"Identity-guess probe of run {run_id}: {merged} items",
        title_justify="left",
    )
    for g in judge_guess_stats(rows):
        t.add_row(
            g.judge_id,
            str(g.items),
            str(g.correct),
            f"{g.leak_rate:.0%}",
            f"{g.chance:.0%}",
            f"{g.p_value_holm:.3g}",
            "can tell" if g.flagged else "no evidence",
        )
    console.print(t)
    if any(result.failed.values()):
        console.print("[yellow]unanswered:[/] " + ", ".join(f"{j} {k}" for j, k in sorted(result.failed.items()) if k))


def db_upgrade() -> None:
    """Migrate the database (GRADER_DATABASE_URL) to this grader's schema. Commands that write do it themselves;
    commands that only read never do (they work on a database they may not write)."""
    from grader.storage import database_url, upgrade_database

    before, after = upgrade_database()
    where = database_url()
    if before == after:
        console.print(f"{where}: schema already at revision {after}; nothing to do", markup=False)
    else:
        console.print(f"{where}: schema migrated from revision {before or '(none)'} to {after}", markup=False)


def db_status() -> None:
    """The database's schema revision beside this grader's (read-only: nothing migrated, nothing written)."""
    from grader.storage import database_url, schema_revisions

    current, head = schema_revisions()
    state = "up to date" if current == head else "behind: run `grader db upgrade`"
    console.print(
        f"{database_url()}: schema revision {current or '(none)'}, this grader expects {head} ({state})", markup=False
    )
