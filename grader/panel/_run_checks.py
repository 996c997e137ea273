"""What kind a grading run is and what refuses it before anything is written: the run types, whether the panel fits
the rubric (and the rubric re-cut to a run's own judges), whether every judge has a batch API."""

from __future__ import annotations

from grader.judges import provider_labels, providers_with
from grader.panel._config import PanelConfig
from grader.panel._run_report import RunError

RUN_TYPES = ("official", "stability", "dry-run")


def effective_run_type(panel: PanelConfig, requested: str, allow_real: bool) -> str:
    if requested not in RUN_TYPES:
        raise RunError(f"run type must be one of {RUN_TYPES}, got {requested!r}")
    if panel.kind == "reference":
        return "baseline"
    if panel.kind == "mock":
        return "mock"
    if requested == "dry-run" or not allow_real:
        return "dry-run"
    return requested


def panel_fit(rubric, panel: PanelConfig) -> list[str]:
    """Whether the panel is the one the rubric defines (its judges' provider families). A real panel that does not
    fit is refused (RunError); a reference or mock panel may grade under any rubric, and the mismatch is returned
    as a note stored with the run and shown in its report."""
    want = sorted(j.provider_family for j in rubric.panel.judges)
    have = sorted(j.family for j in panel.judges)
    if want == have:
        return []
    what = (
        f"rubric {rubric.id} is graded by {len(want)} judge(s) of the families {', '.join(want)}; "
        f"panel {panel.name!r} has {len(have)} ({', '.join(have)})"
    )
    if panel.kind == "real":
        raise RunError(
            f"{what}. Use a panel with those families (e.g. --panel openai for v0.3, --panel frontier for "
            "v0.4 and v0.5) or a rubric file whose panel section names yours"
        )
    return [f"{what}: the median of this run's own panel is reported ({panel.kind} panel, never official)"]


def check_batch_panel(panel: PanelConfig) -> None:
    """A batch run needs every judge on a provider with a batch API (``Provider.batch_api``)."""
    if panel.kind == "reference":
        raise RunError("the reference panel makes no provider calls: --batch is for provider (or mock) panels")
    without = [j.judge_id for j in panel.judges if not j.provider_class.batch_api]
    if without:
        raise RunError(
            f"no provider batch API for judge(s) {', '.join(without)} (batches exist for "
            f"{provider_labels(providers_with(batch_api=True))}); grade without --batch"
        )
