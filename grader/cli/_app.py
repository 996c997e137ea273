"""The Typer application: registers every verb."""

from __future__ import annotations

import gc
import sys

import typer

from grader.cli import _cost, _ledger, _runs, _season, _tools
from grader.cli._gc import tune_process

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
app.command("verify")(_runs.verify)
app.command("leaderboard")(_runs.leaderboard)
app.command("cost")(_cost.cost)
app.command("rescore")(_runs.rescore)
app.command("audit")(_tools.audit)
app.command("report")(_tools.report)
app.command("ledger")(_ledger.ledger)
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

claims_app = typer.Typer(help="Claim ledgers: verify claims against point-in-time fields.", no_args_is_help=True)
claims_app.command("verify")(_tools.claims_verify)
app.add_typer(claims_app, name="claims")


def main() -> None:
    tune_process()
    try:
        app()
    finally:
        # The process is ending: flush what it printed, then freeze the heap so the interpreter's exit does not
        # scan every live object once more (0.4 s after a 150-contestant run). Files and database sessions are
        # closed by the commands themselves.
        sys.stdout.flush()
        sys.stderr.flush()
        gc.freeze()
