"""The Typer application: registers every verb."""

from __future__ import annotations

import gc
import sys

import typer

from grader.cli import _cost, _ledger, _runs, _season, _tools
from grader.cli._common import err_console, reads
from grader.cli._gc import tune_process
from grader.cli._signals import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    STOP,
    end_stopped,
    hand_ctrl_c_to_python,
    report_stop,
)
from grader.cli._signals import install as install_stop_signals
from grader.hygiene import for_terminal

app = typer.Typer(
    name="grader",
    help="Grade LLM trading seasons with a panel of LLM judges; audit the judges; publish reports.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.command("validate")(_season.validate)
app.command("import")(_season.import_)
app.command("anonymize")(_season.anonymize)
app.command("import-capitalbench")(_season.import_capitalbench)
app.command("grade")(_runs.grade)
app.command("verify")(reads(_runs.verify))
app.command("leaderboard")(reads(_runs.leaderboard))
app.command("cost")(reads(_cost.cost))
app.command("rescore")(_runs.rescore)
app.command("audit")(reads(_tools.audit))
app.command("report")(reads(_tools.report))
app.command("ledger")(reads(_ledger.ledger))
app.command("probe")(_tools.probe)
app.command("probe-judges")(_tools.probe_judges)
app.command("console")(_tools.console_cmd)

rubric_app = typer.Typer(help="Rubric versions: list, show, diff.", no_args_is_help=True)
rubric_app.command("diff")(_tools.rubric_diff)
rubric_app.command("list")(_tools.rubric_list)
rubric_app.command("show")(_tools.rubric_show)
app.add_typer(rubric_app, name="rubric")

from console.cli import app as annotators_app  # noqa: E402 - registered after the core verbs
from grader.cli._batch import app as batch_app  # noqa: E402
from grader.cli._calibration import app as calibration_app  # noqa: E402

app.add_typer(calibration_app, name="calibration")
app.add_typer(batch_app, name="batch")
app.add_typer(annotators_app, name="annotators", help="Console annotators: add (prints a token once), list, remove.")

db_app = typer.Typer(
    help="The database: its schema revision; migrations (reading commands never migrate).", no_args_is_help=True
)
db_app.command("upgrade")(_tools.db_upgrade)
db_app.command("status")(reads(_tools.db_status))
app.add_typer(db_app, name="db")

claims_app = typer.Typer(help="Claim ledgers: verify claims against point-in-time fields.", no_args_is_help=True)
claims_app.command("verify")(_tools.claims_verify)
app.add_typer(claims_app, name="claims")


def main() -> None:
    install_stop_signals()  # SIGTERM stops any command as Ctrl-C does (grader.cli._signals); grader.cli.main did
    tune_process()
    hand_ctrl_c_to_python()  # loaded: a command that records Ctrl-C itself says so (grade, while it loads)
    try:
        try:
            app()
        except KeyboardInterrupt:  # while Typer builds the command line, before any command ran
            sys.exit(EXIT_INTERRUPTED)
    except SystemExit as done:  # Typer turns Ctrl-C into exit 130; a SIGTERM says 143; one line unless said
        if done.code in (EXIT_INTERRUPTED, EXIT_TERMINATED):
            if not STOP.reported:
                report_stop(
                    "the command stopped before it ended (each database write is committed whole or not at all)"
                )
            _close_storage()
            end_stopped()
        raise
    except Exception as exc:  # a locked database, a full disk, ...: one line and an exit code of its own
        failure = _storage_failure(exc)
        if failure is None:
            raise
        err_console.print(f"[bold red]error:[/] {for_terminal(failure.message)}", soft_wrap=True)
        sys.exit(failure.code)
    finally:
        _close_storage()
        # The process is ending: flush what it printed, then freeze the heap so the interpreter's exit does not
        # scan every live object once more (0.4 s after a 150-contestant run). Files and database sessions are
        # closed by the commands themselves.
        sys.stdout.flush()
        sys.stderr.flush()
        gc.freeze()


def _storage_failure(exc: BaseException):  # noqa: ANN202 - a grader.storage.StorageFailure or None
    if "grader.storage" not in sys.modules:
        return None
    from grader.storage import storage_failure

    return storage_failure(exc)


def _close_storage() -> None:
    """Engines closed; a SQLite file this process wrote left complete in its ``.db`` (``close_engines``)."""
    if "grader.storage._engine" in sys.modules:
        from grader.storage import close_engines

        close_engines()
