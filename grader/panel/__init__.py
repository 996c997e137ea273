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
from grader.panel._grade import GradeReport, RunError, effective_run_type, grade_season
from grader.panel._manifest import VerifyResult, verify_run
from grader.panel._pacing import HEADROOM, JudgePacer, retry_delay
from grader.panel._prompts import season_outcomes

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
    "load_panel",
    "retry_delay",
    "season_outcomes",
    "verify_run",
]
