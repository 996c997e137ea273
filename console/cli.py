"""``grader annotators add|list|remove``: manage the console's annotators (tokens are shown once)."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Console annotators: add (prints a token once), list, remove.", no_args_is_help=True, add_completion=False
)

FILE_HELP = "Annotators file (default: $GRADER_ANNOTATORS_FILE or ./annotators.yaml)"


@app.command("add")
def add(
    name: str = typer.Argument(..., help="Annotator name (letters, digits, _ . @ -)"),
    email: str | None = typer.Option(None, "--email", help="E-mail for Streamlit's built-in login"),
    replace: bool = typer.Option(False, "--replace", help="Re-issue the token of an existing annotator"),
    file: str | None = typer.Option(None, "--file", help=FILE_HELP),
) -> None:
    """Create an annotator and print their token once (only its salted SHA-256 hash is stored)."""
    from console._auth import AnnotatorDirectory, AuthError  # loaded by these commands only

    directory = AnnotatorDirectory(file)
    try:
        token = directory.add(name, email=email, replace=replace)
    except AuthError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"annotator {name!r} written to {directory.path}")
    typer.echo("token (shown once, store it now; it cannot be recovered):")
    typer.echo(token)


@app.command("list")
def list_(file: str | None = typer.Option(None, "--file", help=FILE_HELP)) -> None:
    """List the configured annotators (names and e-mails; never tokens)."""
    from console._auth import AnnotatorDirectory, AuthError  # loaded by these commands only

    directory = AnnotatorDirectory(file)
    try:
        records = directory.records()
    except AuthError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    if not records:
        typer.echo(f"no annotators in {directory.path}")
    for r in records:
        typer.echo(f"{r.name}\t{r.email or '-'}\t{r.created_at or '-'}")


@app.command("remove")
def remove(name: str = typer.Argument(...), file: str | None = typer.Option(None, "--file", help=FILE_HELP)) -> None:
    """Remove an annotator (their grades and annotations stay: they are append-only)."""
    from console._auth import AnnotatorDirectory, AuthError  # loaded by these commands only

    directory = AnnotatorDirectory(file)
    try:
        directory.remove(name)
    except AuthError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"removed {name!r} from {directory.path}")
