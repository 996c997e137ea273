"""Panels and grading runs: panel files, orchestration, manifests, verification, scored versions."""

from grader.panel._config import (
    PANELS_DIR,
    FakeProviderLimits,
    MockSettings,
    PanelConfig,
    PanelError,
    RetryPolicy,
    available_panels,
    load_panel,
)
from grader.panel._grade import grade_season
from grader.panel._manifest import VerifyResult, verify_run
from grader.panel._pacing import HEADROOM, JudgePacer, retry_delay
from grader.panel._prompts import season_outcomes
from grader.panel._run_checks import effective_run_type
from grader.panel._run_report import GradeReport, RunError
from grader.panel._scores import latest_version, run_inputs, store_score_version

__all__ = [
    "HEADROOM",
    "PANELS_DIR",
    "FakeProviderLimits",
    "GradeReport",
    "JudgePacer",
    "MockSettings",
    "PanelConfig",
    "PanelError",
    "RetryPolicy",
    "RunError",
    "VerifyResult",
    "available_panels",
    "effective_run_type",
    "grade_season",
    "latest_version",
    "load_panel",
    "retry_delay",
    "run_inputs",
    "season_outcomes",
    "store_score_version",
    "verify_run",
]
