"""The Typer application: registers every verb."""

from __future__ import annotations

import typer

from grader.cli import _season

app = typer.Typer(
    name="grader",
    help="Grade LLM trading seasons with a panel of LLM judges; audit the judges; publish reports.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.command("validate")(_season.validate)
app.command("import")(_season.import_)


def main() -> None:
    app()
