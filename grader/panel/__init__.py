"""Panels and grading runs: panel files, orchestration, manifests, verification, scored versions."""

from grader.panel._batch import open_batches, refresh_states
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
from grader.panel._costs import JudgeCost, run_costs
from grader.panel._gaps import EXIT_BUSY, EXIT_CODES, failed_attempts, run_gaps
from grader.panel._grade import grade_season
from grader.panel._lease import RunBusy
from grader.panel._mock import MockGrades, start_mock_servers
from grader.panel._pacing import HEADROOM, JudgePacer, retry_delay
from grader.panel._prompts import anonymizer_seed, season_outcomes
from grader.panel._run_checks import effective_run_type
from grader.panel._run_report import GradeReport, RunError
from grader.panel._verify import VerifyResult, verify_run

__all__ = [
    "EXIT_BUSY",
    "EXIT_CODES",
    "HEADROOM",
    "PANELS_DIR",
    "FakeProviderLimits",
    "GradeReport",
    "JudgeCost",
    "JudgePacer",
    "MockGrades",
    "MockSettings",
    "PanelConfig",
    "PanelError",
    "RetryPolicy",
    "RunBusy",
    "RunError",
    "VerifyResult",
    "anonymizer_seed",
    "available_panels",
    "effective_run_type",
    "failed_attempts",
    "grade_season",
    "load_panel",
    "open_batches",
    "refresh_states",
    "retry_delay",
    "run_costs",
    "run_gaps",
    "season_outcomes",
    "start_mock_servers",
    "verify_run",
]
