"""The ``grader`` command line (Typer + Rich). One module per verb group; heavy imports stay inside commands
so that, e.g., ``grader claims verify`` never imports a provider SDK."""

from grader.cli._app import app, main

__all__ = ["app", "main"]
