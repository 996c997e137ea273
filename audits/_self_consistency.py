"""Self-consistency from stability runs: how much does a judge's score move when it re-grades the same input?

A record is one (contestant, judge) pair graded in several repeats. Its within-record SD is the sample SD of
its repeats; a judge's SD is pooled over its records, SD_within = sqrt(sum (n_i - 1) s_i^2 / sum (n_i - 1)).

Smallest score difference that is signal: two independent grades of the same record differ by noise with
SD = sqrt(2) * SD_within, so a difference larger than 1.96 * sqrt(2) * SD_within (about 2.77 SD_within) is
unlikely (< 5%) to be re-grading noise alone. The same is computed for the panel median (the median of the
judges' composites within each repeat), which is what the Total Score is built from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
from pandas.api.typing import SeriesGroupBy
from pydantic import BaseModel

from audits._inputs import SCORE_AXES, normalize_scores
from audits._stats import Z95, finite

SIGNAL_FACTOR = Z95 * math.sqrt(2)


class RaterConsistency(BaseModel):
    """Pooled within-record SD of one judge (or of the panel median) over its repeated records."""

    rater: str
    n_records: int
    max_repeats: int
    within_sd: float | None
    min_signal_difference: float | None
    axis_within_sd: dict[str, float | None]


class SelfConsistencyResult(BaseModel):
    """Self-consistency of each judge and of the panel median."""

    has_stability_runs: bool
    signal_factor: float
    judges: list[RaterConsistency]
    panel: RaterConsistency | None
    caveats: list[str]


def pooled_within_sd(groups: SeriesGroupBy) -> tuple[float | None, int]:
    """Pooled SD over groups with at least two values; returns (SD, number of such groups)."""
    variances = groups.var(ddof=1)
    counts = groups.count()
    keep = (counts >= 2) & variances.notna()
    if not keep.any():
        return None, 0
    dof = (counts[keep] - 1).astype(float)
    return finite(math.sqrt(float((dof * variances[keep]).sum() / dof.sum()))), int(keep.sum())


def _rater(name: str, frame: pd.DataFrame, key: Sequence[str], axes: Sequence[str]) -> RaterConsistency:
    grouped = frame.groupby(list(key))
    sd, n_records = pooled_within_sd(grouped["composite"])
    axis_sd = {axis: pooled_within_sd(grouped[axis])[0] for axis in axes if axis != "composite"}
    return RaterConsistency(
        rater=name,
        n_records=n_records,
        max_repeats=int(grouped["composite"].count().max()) if len(frame) else 0,
        within_sd=sd,
        min_signal_difference=SIGNAL_FACTOR * sd if sd is not None else None,
        axis_within_sd=axis_sd,
    )


def self_consistency(scores: pd.DataFrame, *, axes: Sequence[str] | None = None) -> SelfConsistencyResult:
    """Within-record SD per judge and for the panel median, and the smallest difference that is signal."""
    scores = normalize_scores(scores)
    wanted = [a for a in (axes if axes is not None else SCORE_AXES) if a in SCORE_AXES]
    repeated = scores.groupby(["contestant_id", "judge_id"])["repeat"].nunique()
    has_runs = bool((repeated >= 2).any())
    if not has_runs:
        return SelfConsistencyResult(
            has_stability_runs=False,
            signal_factor=SIGNAL_FACTOR,
            judges=[],
            panel=None,
            caveats=[
                "No stability runs: every record was graded once, so within-record SD and the smallest "
                "score difference that is signal cannot be measured. Run a stability run (--repeats K) to "
                "measure them."
            ],
        )
    judges = [
        _rater(str(judge), frame, ["contestant_id"], wanted) for judge, frame in scores.groupby("judge_id", sort=True)
    ]
    per_repeat_median = scores.groupby(["contestant_id", "repeat"])[wanted].median().reset_index()
    panel = _rater("panel median", per_repeat_median, ["contestant_id"], wanted)
    caveats: list[str] = []
    few = [j.rater for j in judges if 0 < j.n_records < 5]
    if few:
        caveats.append(f"Fewer than 5 repeated records for {', '.join(few)}: the within-record SD is a rough estimate.")
    missing = [j.rater for j in judges if j.n_records == 0]
    if missing:
        caveats.append(f"No repeated grades for {', '.join(missing)}: its self-consistency is not measured.")
    caveats.append(
        "Stability runs repeat the same prompt: they measure the judge's sampling noise, not how it would "
        "grade a differently worded record of the same decisions."
    )
    return SelfConsistencyResult(
        has_stability_runs=True, signal_factor=SIGNAL_FACTOR, judges=judges, panel=panel, caveats=caveats
    )
