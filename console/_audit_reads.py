"""Read side of the Audits page: whether the viewer may see the run's audit report, and the report built live
from storage (re-exported by ``console._queries``)."""

from __future__ import annotations

from console._blind import Blind


def audits_withheld(blind: Blind) -> str | None:
    """Why the run's audit report is withheld from this viewer (None: it is not). On a calibration run the report
    names every item's judges' scores and the human-vs-judge agreement, so it waits until the viewer has graded
    every item."""
    if not blind.hides_any:
        return None
    return (
        f"This is a calibration run: its audits show every item's judge scores, so they are withheld until "
        f"you have graded every item ({len(blind.hidden_rows)} still to grade by you; sign in to grade)."
    )


def audit_report(
    run_id: str,
    db_url: str | None = None,
    *,
    n_boot_rank: int = 500,
    n_boot_alpha: int = 300,
    n_permutations: int = 2000,
    seed: int = 0,
):
    """The run's audit report, built live from storage (human grades included).

    The console uses fewer resamples than the published report by default so the page stays quick; the
    settings are part of the report and shown with it.
    """
    from audits import build_report
    from grader.reporting import collect_audit_inputs

    inputs = collect_audit_inputs(run_id, db_url)
    return build_report(
        inputs, seed=seed, n_boot_rank=n_boot_rank, n_boot_alpha=n_boot_alpha, n_permutations=n_permutations
    )


def audit_document(run_id: str, db_url: str | None = None):  # noqa: ANN201
    """The run's report as a renderer-neutral document (sections of paragraphs, tables and charts)."""
    from audits import report_document

    return report_document(audit_report(run_id, db_url))
