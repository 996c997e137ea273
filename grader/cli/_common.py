"""Console output helpers shared by the CLI modules."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import typer

from grader.hygiene import SafeConsole, for_terminal

# SafeConsole: no emoji codes, control characters shown and never sent; every value from a bundle interpolated
# into a markup string goes through for_terminal (markup escaped)
console = SafeConsole(highlight=False)
if not console.is_terminal:  # logs and pipes: wide enough for the leaderboard
    console = SafeConsole(highlight=False, width=170)
err_console = SafeConsole(stderr=True, highlight=False, width=None if console.is_terminal else 170)


def load_or_exit(season_dir: Path):
    """Load a bundle or print every problem (file:line: field: message) and exit 1. The bundle is kept for the
    rest of the command (what it prints afterwards reads it again from memory, not from disk)."""
    from grader.season import BundleError, cached_bundle

    try:
        return cached_bundle(season_dir)
    except BundleError as err:
        err_console.print(f"[bold red]invalid season bundle[/] {for_terminal(err.path)}: {len(err.issues)} problem(s)")
        for issue in err.issues:
            err_console.print(f"  [red]✗[/] {for_terminal(issue)}", markup=True, soft_wrap=True)
        raise typer.Exit(1) from None


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` (plain text, never read as markup: it may quote bundle text) and exit ``code``."""
    err_console.print(f"[bold red]error:[/] {for_terminal(message, multiline=True)}")
    raise typer.Exit(code)


def reads(command: Callable) -> Callable:
    """A command that only reads the database: opened read-only, never migrated, no lock file (works on a database
    it may not write; one behind the code's schema is refused with what to run). The mode ends with the command."""

    @functools.wraps(command)
    def read_only(*args, **kwargs):  # noqa: ANN202
        from grader.storage import read_only_access

        read_only_access(True)
        try:
            return command(*args, **kwargs)
        finally:
            read_only_access(False)

    return read_only
