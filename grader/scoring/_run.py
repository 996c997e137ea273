"""Score a whole run from stored grades: composites, panel, efficiency, total, band and rank.

Pure computation on grades already stored; no judge call and no I/O. This is what ``grader rescore``
runs under another rubric (when the judge-facing hash is unchanged).
"""

from __future__ import annotations

import numbers
import statistics
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from rubric import Rubric

from ._composite import JudgeComposite, composite_model, judge_composite_exact
from ._exact import exact, to_float
from ._panel import PanelScore, aggregate_panel_exact
from ._total import (
    BandName,
    band,
    efficiency_scores_exact,
    median_decision_seconds_exact,
    total_score_exact,
)

AXIS_MEDIAN_KEYS: tuple[str, ...] = ("reasoning", "evidence", "process", "outcome", "data_reliability")


class ContestantScore(BaseModel):
    """Everything the leaderboard shows for one contestant under one rubric."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    contestant_id: str
    judges: dict[str, JudgeComposite]
    """Per-judge axis scores and composite, for the judges with a usable grade."""
    panel: PanelScore
    axis_medians: dict[str, float | None]
    """Median over judges of reasoning, evidence, process, outcome and data reliability."""
    reasoning_median: float | None
    """The panel's aggregate of the judges' composites (the "reasoning median")."""
    median_decision_seconds: float | None
    efficiency: float | None
    total: float | None
    band: BandName | None
    rank: int | None
    """1 = best Total Score; ties share a rank (1, 2, 2, 4); None without a total."""
    flagged: bool
    official_eligible: bool


def _median_seconds(value: Any, contestant: str) -> Fraction | None:
    if value is None:
        return None
    if not isinstance(value, (numbers.Real, Decimal, str, bytes)):  # a list, tuple, array... of seconds
        return median_decision_seconds_exact(value)
    number = exact(value, f"median decision seconds of {contestant}")
    if number < 0:
        raise ValueError(f"median decision seconds of {contestant} must not be negative, got {value!r}")
    return number


def score_run(
    grades_by_contestant_and_judge: Mapping[str, Mapping[str, Any]],
    rubric: Rubric,
    timings: Mapping[str, Any] | None = None,
    outcome_available: bool | Mapping[str, bool] = True,
) -> list[ContestantScore]:
    """Score every contestant of a run from its stored grades, ordered by rank.

    - ``grades_by_contestant_and_judge``: contestant id -> judge id -> grade (a grade model or its JSON
      dict), or None for a judge whose grade is missing or invalid (never scored).
    - ``timings``: contestant id -> its decisions' ``decision_seconds`` (a list; None entries ignored) or
      an already computed median; a contestant absent or with no timing gets the reasoning median alone.
    - ``outcome_available``: one flag for the run or one per contestant (absent means False).

    ValueError (naming contestant and judge) when a grade does not fit the rubric's sub-components:
    such grades need a re-grade, not a re-score.
    """
    timings = timings or {}
    composites_exact: dict[str, dict[str, dict[str, Any]]] = {}
    for contestant, by_judge in grades_by_contestant_and_judge.items():
        has_outcome = (
            bool(outcome_available.get(contestant, False))
            if isinstance(outcome_available, Mapping)
            else bool(outcome_available)
        )
        composites_exact[contestant] = {}
        for judge, grade in by_judge.items():
            if grade is None:
                continue
            try:
                composites_exact[contestant][judge] = judge_composite_exact(grade, rubric, has_outcome)
            except ValueError as exc:
                raise ValueError(f"contestant {contestant}, judge {judge}: {exc}") from None

    panels: dict[str, tuple[PanelScore, Fraction | None]] = {}
    for contestant, by_judge in grades_by_contestant_and_judge.items():
        judged = composites_exact[contestant]
        composites: dict[str, object] = {j: judged[j]["composite"] if j in judged else None for j in by_judge}
        panels[contestant] = aggregate_panel_exact(composites, rubric)

    reasoning = {c: panel_and_score[1] for c, panel_and_score in panels.items()}
    seconds = {c: _median_seconds(timings.get(c), c) for c in grades_by_contestant_and_judge}
    efficiency = efficiency_scores_exact(reasoning, seconds, rubric.total.efficiency.scale)
    totals = {c: total_score_exact(reasoning[c], efficiency[c], rubric) for c in grades_by_contestant_and_judge}

    order = sorted(((t, c) for c, t in totals.items() if t is not None), key=lambda tc: (-tc[0], tc[1]))
    ranks: dict[str, int] = {}
    for position, (contestant_total, contestant) in enumerate(order):
        tied = position > 0 and order[position - 1][0] == contestant_total
        ranks[contestant] = ranks[order[position - 1][1]] if tied else position + 1

    results = []
    for contestant in grades_by_contestant_and_judge:
        panel = panels[contestant][0]
        judged = composites_exact[contestant]
        axis_medians: dict[str, float | None] = {}
        for key in AXIS_MEDIAN_KEYS:
            values = [parts[key] for parts in judged.values() if parts[key] is not None]
            axis_medians[key] = to_float(statistics.median(values)) if values else None
        total = totals[contestant]
        results.append(
            ContestantScore(
                contestant_id=contestant,
                judges={judge: composite_model(parts) for judge, parts in judged.items()},
                panel=panel,
                axis_medians=axis_medians,
                reasoning_median=panel.score,
                median_decision_seconds=to_float(seconds[contestant]),
                efficiency=to_float(efficiency[contestant]),
                total=to_float(total),
                band=None if total is None else band(total, rubric),
                rank=ranks.get(contestant),
                flagged=panel.flagged,
                official_eligible=panel.official_eligible,
            )
        )
    results.sort(key=lambda s: (s.rank is None, s.rank or 0, s.contestant_id))
    return results
