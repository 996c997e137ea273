"""Scoring: the one owner of scoring grades under a rubric, and of a run's scored versions.

The engine (``_composite``, ``_panel``, ``_total``, ``_run``, ``_oracle``) is pure: no I/O and no judge calls.
``_stored`` reads a stored run's grades, timings and outcomes and scores them (every caller that scores a stored
run: re-scoring, a grading run's scored version, ``grader rubric diff``, the console); ``_versions`` stores a
scored version and finds a run's versions and rubrics (both imported on first use, so the engine alone loads no
database layer). No module here calls a judge. Every formula runs on exact rationals (see ``_exact``) and rounds once, so
re-scoring is reproducible to the last bit. Formulas (rubric v0.4 numbers):

- axis score = sum(weight * sub-score) / sum(weight)
- process quality = weighted mean of the rubric's named reasoning sub-scores
- judge composite = 40% reasoning + 35% evidence + 15% process + 10% outcome; without an outcome the
  10% is shared over reasoning and evidence in proportion 40:35
- reasoning median = median of the judges' composites (2 of 3: computed, flagged, never official)
- efficiency = 100 * rate / best rate, rate = reasoning median / median decision seconds
- Total Score = 90% reasoning median + 10% efficiency, or the reasoning median alone without timing
- CapitalBench score = 100 * return / oracle return (seed 001)
"""

from grader._lazy import lazy_exports

from ._composite import (
    JudgeComposite,
    axis_score,
    composite_weights,
    judge_composite,
    process_quality,
)
from ._oracle import comparison_set_score, oracle_score
from ._panel import PanelScore, aggregate_panel
from ._run import AXIS_MEDIAN_KEYS, ContestantScore, score_run
from ._total import (
    BandName,
    band,
    efficiency_scores,
    median_decision_seconds,
    total_score,
)

_STORED: dict[str, str] = {
    **dict.fromkeys(
        [
            "SCORED_PARTS",
            "RubricScores",
            "StoredRun",
            "latest_outcomes",
            "outcome_available",
            "read_stored_run",
            "rubric_for_judges",
            "score_stored_run",
            "scores_under",
        ],
        "grader.scoring._stored",
    ),
    **dict.fromkeys(
        [
            "latest_version",
            "run_rubric",
            "run_rubric_ref",
            "store_score_version",
            "version_by_number",
            "version_rubric",
        ],
        "grader.scoring._versions",
    ),
}
"""Names that read or write storage, imported on first use (PEP 562): the pure engine loads no database layer."""

__getattr__, __dir__ = lazy_exports("grader.scoring", _STORED, globals())

__all__ = [
    "AXIS_MEDIAN_KEYS",
    "SCORED_PARTS",
    "BandName",
    "ContestantScore",
    "JudgeComposite",
    "PanelScore",
    "RubricScores",
    "StoredRun",
    "aggregate_panel",
    "axis_score",
    "band",
    "comparison_set_score",
    "composite_weights",
    "efficiency_scores",
    "judge_composite",
    "latest_outcomes",
    "latest_version",
    "median_decision_seconds",
    "oracle_score",
    "outcome_available",
    "process_quality",
    "read_stored_run",
    "rubric_for_judges",
    "run_rubric",
    "run_rubric_ref",
    "score_run",
    "score_stored_run",
    "scores_under",
    "store_score_version",
    "total_score",
    "version_by_number",
    "version_rubric",
]
