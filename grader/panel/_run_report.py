"""What a grading run reports: `GradeReport` when it ends, `RunError` when it is refused or fails."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class RunError(RuntimeError):
    pass


@dataclass
class GradeReport:
    run_id: str
    run_type: str
    panel: str
    dry_run: bool
    calls_sent: int = 0
    calls_reused: int = 0
    attempts_failed: int = 0
    gaps: list[str] = field(default_factory=list)
    tokens_per_contestant: dict[str, dict[str, int]] = field(default_factory=dict)
    cost_usd: float = 0.0
    score_version: int | None = None
    leaks: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    status: str = "running"
    """complete | complete_with_gaps | failed (no valid grade) | dry-run | batch_pending (provider batches still
    running: ``grader batch collect``): see ``grader.panel._gaps.EXIT_CODES``."""
    headroom: list[dict] = field(default_factory=list)
    """Per judge with a context window: the largest prompt and the share of the window left for the reply
    (``grader.panel._prompts.headroom``; prompts built before any call only)."""
    batch: Any = None
    """A batch run's progress (``grader.panel._batch.BatchProgress``), else None."""
