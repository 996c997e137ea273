"""``grader validate`` and ``grader import``."""

from __future__ import annotations

from pathlib import Path

import typer

from grader.cli._common import console, load_or_exit


def validate(season_dir: Path = typer.Argument(..., help="Season bundle directory")) -> None:
    """Validate a season bundle; list every problem with file, line and field."""
    bundle = load_or_exit(season_dir)
    console.print(
        f"[green]✓[/] {season_dir}: season [bold]{bundle.info.id}[/] is valid — "
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
        f"[green]✓[/] season [bold]{bundle.info.id}[/] {verb}: id {result.season_id}, "
        f"{result.contestants} contestants, {result.decisions} decisions → {database_url()}"
    )
