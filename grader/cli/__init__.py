"""The ``grader`` command line (Typer + Rich). One module per verb group; heavy imports stay inside commands
so that, e.g., ``grader claims verify`` never imports a provider SDK.

``main`` (the ``grader`` script) installs the stop signals' handlers before anything heavy is imported, so a
Ctrl-C or SIGTERM while the command line itself loads ends like any other stop (a message, 130 or 143), not with a
traceback or a silent death; ``app`` (the Typer application) is imported on first use."""

from __future__ import annotations

from typing import Any

__all__ = ["app", "main"]


def main() -> None:
    from grader.cli._signals import install, stopped_while_loading

    install()  # SIGTERM as Ctrl-C, and which of them arrived, from here on (grader.cli._signals)
    try:
        from grader.cli._app import main as run
    except KeyboardInterrupt:  # stopped while the command line loads: nothing has been read or written yet
        stopped_while_loading()
    run()


def __getattr__(name: str) -> Any:
    if name == "app":
        from grader.cli._app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
