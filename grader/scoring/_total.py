"""Efficiency (reasoning per second, normalised to the season's best), the Total Score and bands."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Literal

from rubric import Rubric

from ._exact import exact, to_float

BandName = Literal["strong", "mixed", "weak"]


def median_decision_seconds_exact(seconds: Iterable[float | None]) -> Fraction | None:
    values: list[float | int | Fraction] = []
    for raw in seconds:
        if raw is None or (isinstance(raw, float) and math.isnan(raw)):  # None or NaN: no timing
            continue
        value: float | int | Fraction = raw
        if type(raw) not in (float, int):
            value = exact(raw, "decision_seconds")
        elif type(raw) is float and not math.isfinite(raw):
            raise ValueError(f"decision_seconds must be finite, got {raw!r}")
        if value < 0:
            raise ValueError(f"decision_seconds must not be negative, got {value!r}")
        values.append(value)
    if not values:
        return None
    # sort natively: the order of floats is the order of the decimals they are read as
    values.sort()
    middle = len(values) // 2
    if len(values) % 2:
        return exact(values[middle], "decision_seconds")
    return (exact(values[middle - 1], "decision_seconds") + exact(values[middle], "decision_seconds")) / 2


def median_decision_seconds(seconds: Iterable[float | None]) -> float | None:
    """Median of a contestant's ``decision_seconds``, ignoring decisions without timing (None/NaN)."""
    return to_float(median_decision_seconds_exact(seconds))


def efficiency_scores_exact(
    reasoning_by_contestant: Mapping[str, object],
    median_seconds_by_contestant: Mapping[str, object],
    scale: object = 100,
) -> dict[str, Fraction | None]:
    per_second: dict[str, Fraction | None] = {}
    for contestant, reasoning in reasoning_by_contestant.items():
        seconds = median_seconds_by_contestant.get(contestant)
        if reasoning is None or seconds is None:
            per_second[contestant] = None
            continue
        if isinstance(seconds, float) and not math.isfinite(seconds):
            per_second[contestant] = None
            continue
        seconds_exact = exact(seconds, f"median seconds of {contestant}")
        # zero seconds cannot be normalised (infinite rate): treated as no usable timing
        per_second[contestant] = (
            exact(reasoning, f"reasoning of {contestant}") / seconds_exact if seconds_exact > 0 else None
        )
    rates = [r for r in per_second.values() if r is not None]
    if not rates:
        return dict.fromkeys(per_second)
    best = max(rates)
    factor = exact(scale, "efficiency scale")
    return {
        contestant: None if rate is None else (factor * rate / best if best > 0 else Fraction(0))
        for contestant, rate in per_second.items()
    }


def efficiency_scores(
    reasoning_by_contestant: Mapping[str, float | None],
    median_seconds_by_contestant: Mapping[str, float | None],
    scale: float = 100,
) -> dict[str, float | None]:
    """Reasoning quality per second of decision time, normalised so the season's best scores ``scale``.

    rate = reasoning median / median decision seconds; efficiency = scale * rate / max(rate). None for a
    contestant without timing (or without a reasoning score, or a zero median time).
    """
    exact_scores = efficiency_scores_exact(reasoning_by_contestant, median_seconds_by_contestant, scale)
    return {contestant: to_float(value) for contestant, value in exact_scores.items()}


def total_score_exact(reasoning_median: object, efficiency: object, rubric: Rubric) -> Fraction | None:
    if reasoning_median is None:
        return None
    reasoning = exact(reasoning_median, "reasoning median")
    if efficiency is None:
        return reasoning  # no timing: the reasoning median alone
    blend = rubric.total.blend
    w_reasoning, w_efficiency = exact(blend.reasoning_median), exact(blend.efficiency)
    return (w_reasoning * reasoning + w_efficiency * exact(efficiency, "efficiency")) / (w_reasoning + w_efficiency)


def total_score(reasoning_median: float | None, efficiency: float | None, rubric: Rubric) -> float | None:
    """Total Score = blend of reasoning median and efficiency (v0.4: 90/10).

    Without timing (``efficiency`` None) it is the reasoning median alone; without a reasoning median
    there is no total.
    """
    return to_float(total_score_exact(reasoning_median, efficiency, rubric))


def band(score: float | Fraction, rubric: Rubric) -> BandName:
    """strong at or above ``bands.strong``, mixed at or above ``bands.mixed``, else weak (unrounded)."""
    value = exact(score, "score")
    if value >= exact(rubric.bands.strong):
        return "strong"
    if value >= exact(rubric.bands.mixed):
        return "mixed"
    return "weak"
