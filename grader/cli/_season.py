"""``grader validate`` and ``grader import``."""

from __future__ import annotations

import secrets
from pathlib import Path

import typer

from grader.cli._common import console, load_or_exit
from grader.hygiene import for_terminal


def validate(season_dir: Path = typer.Argument(..., help="Season bundle directory")) -> None:
    """Validate a season bundle; list every problem with file, line and field."""
    bundle = load_or_exit(season_dir)
    console.print(
        f"[green]✓[/] {for_terminal(season_dir)}: season [bold]{for_terminal(bundle.info.id)}[/] is valid — "
        f"{len(bundle.contestants)} contestants, {len(bundle.decisions)} decisions, "
        f"{bundle.prices['symbol'].nunique()} symbols, content hash {bundle.content_hash[:12]}"
    )


def import_(season_dir: Path = typer.Argument(..., help="Season bundle directory")) -> None:
    """Import a season into the database (one transaction; the same content is imported once)."""
    from grader.storage import database_url, import_season, session_scope

    bundle = load_or_exit(season_dir)
    with session_scope() as session:
        result = import_season(session, bundle)
    verb = "imported" if result.created else "already imported (same content hash)"
    console.print(
        f"[green]✓[/] season [bold]{for_terminal(bundle.info.id)}[/] {verb}: id {result.season_id}, "
        f"{result.contestants} contestants, {result.decisions} decisions → {database_url()}"
    )


def anonymize(
    season_dir: Path = typer.Argument(..., help="Season bundle directory"),
    out: Path = typer.Option(..., "--out", help="Output directory for the judge's view"),
    seed: str | None = typer.Option(
        None,
        "--seed",
        help="Alias seed (default: a new random secret, recorded "
        "grader-side in the mapping file; pass it again to reproduce the view)",
    ),
) -> None:
    """Write the judge's view of a season: same layout, contestants reduced to aliases, identities scrubbed."""
    from grader.anonymizer import AnonymizationLeakError, write_anonymized_bundle
    from grader.cli._common import fail

    load_or_exit(season_dir)  # a bad bundle: file, line and field, nothing written
    try:
        # never the content hash: anyone holding the public bundle could recompute which alias is which contestant
        result = write_anonymized_bundle(season_dir, out, seed or secrets.token_hex(32))
    except (AnonymizationLeakError, FileExistsError) as exc:
        fail(str(exc))
        return
    console.print(
        f"[green]✓[/] judge's view written to {result.out_dir}: {result.contestants} contestants as "
        f"aliases, {result.decisions} decisions, {result.replacements} identity mentions scrubbed"
    )
    if result.by_kind:
        console.print("scrubbed by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(result.by_kind.items())))
    if result.kept:
        console.print(
            "kept verbatim as market context (companies, not the author; each in the scrub log with "
            "its reason): " + ", ".join(f"{for_terminal(name)} {n}" for name, n in result.kept.items())
        )
    console.print(f"grader-side only (never show to a judge): {result.mapping_path}, {result.scrub_log_path}")
    for mention in result.season_yaml_mentions:
        console.print(
            f"[yellow]note[/]: season.yaml (name and attribution dropped; briefings kept) mentions {for_terminal(repr(mention))}"
        )


def import_capitalbench(
    rounds_dir: Path = typer.Argument(..., help="Directory of CapitalBench rounds (rounds/<round_id>/)"),
    track: str = typer.Option(..., "--track", help="1W or 1M"),
    date_from: str | None = typer.Option(None, "--from", help="First decision date (YYYY-MM-DD)"),
    date_to: str | None = typer.Option(None, "--to", help="Last decision date (YYYY-MM-DD)"),
    out: Path = typer.Option(..., "--out", help="Season bundle directory to write"),
    round_ids: list[str] | None = typer.Option(None, "--round", help="Import only this round (repeatable)"),
    season_id: str | None = typer.Option(None, "--season-id", help="Season id of the bundle (default: derived)"),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing bundle at --out"),
) -> None:
    """Turn CapitalBench rounds (CC BY 4.0, Ishtiaq Rahman) into a season bundle (format: rounds).

    Prints one line per round: resolved, pending (scoring job scheduled: graded with the outcome weight
    redistributed; import again when it resolves) or never resolved (cancelled upstream), and every round
    left out with its reason; one bad round never refuses the rest."""
    import sys
    from datetime import date

    from grader.adapters import CapitalBenchError, import_capitalbench_with_summary
    from grader.cli._common import err_console

    try:
        summary = import_capitalbench_with_summary(
            rounds_dir,
            track,
            date.fromisoformat(date_from) if date_from else None,
            date.fromisoformat(date_to) if date_to else None,
            out,
            overwrite=overwrite,
            round_ids=round_ids or None,
            season_id=season_id,
            command="grader " + " ".join(a for a in sys.argv[1:] if a != "--overwrite"),
        )
    except CapitalBenchError as exc:
        err_console.print(f"[bold red]refused:[/] {for_terminal(exc, multiline=True)}")
        raise typer.Exit(2) from None
    for line in summary.lines():
        console.print(for_terminal(line))
    bundle = load_or_exit(out)
    console.print(
        f"[green]✓[/] {out} is a valid bundle: {len(bundle.contestants)} contestants, {len(bundle.decisions)} decisions"
    )
