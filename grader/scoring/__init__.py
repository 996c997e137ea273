"""The scoring engine: pure functions from stored grades to composites, panel scores and totals.

No I/O and no judge calls. Every formula runs on exact rationals (see ``_exact``) and rounds once, so
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

__all__ = [
    "AXIS_MEDIAN_KEYS",
    "BandName",
    "ContestantScore",
    "JudgeComposite",
    "PanelScore",
    "aggregate_panel",
    "axis_score",
    "band",
    "comparison_set_score",
    "composite_weights",
    "efficiency_scores",
    "judge_composite",
    "median_decision_seconds",
    "oracle_score",
    "process_quality",
    "score_run",
    "total_score",
]
