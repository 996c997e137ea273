"""Panel aggregation: the median (or mean) of the judges' composites, with the 2-of-3 rule."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from rubric import Rubric

from ._exact import exact, to_float


class PanelScore(BaseModel):
    """The panel's score for one contestant and whether it may be published as official."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    score: float | None
    """Median (or the rubric's aggregation) of the judges' composites; None with fewer than min_judges."""
    low: float | None
    high: float | None
    n_judges: int
    expected_judges: int
    min_judges: int
    aggregation: str
    judges: dict[str, float]
    """Composites of the judges that produced a usable grade."""
    missing: list[str]
    """Judges that produced no usable grade (given as None, or a panel slot absent from the input)."""
    flagged: bool
    official_eligible: bool
    reasons: list[str]


def aggregate_exact(values: list[Fraction], aggregation: str) -> Fraction:
    if aggregation == "median":
        return statistics.median(values)
    if aggregation == "mean":
        return sum(values, Fraction(0)) / len(values)
    raise ValueError(f"unknown aggregation {aggregation!r}")


def aggregate_panel_exact(composites: Mapping[str, object], rubric: Rubric) -> tuple[PanelScore, Fraction | None]:
    present = {
        judge: exact(value, f"composite of judge {judge}") for judge, value in composites.items() if value is not None
    }
    slot_ids = [slot.id for slot in rubric.panel.judges]
    missing = [judge for judge, value in composites.items() if value is None]
    if set(composites) <= set(slot_ids):
        missing += [slot for slot in slot_ids if slot not in composites]
    n, expected, minimum = len(present), len(slot_ids), rubric.panel.min_judges
    aggregation = rubric.panel.aggregation
    reasons: list[str] = []
    score: Fraction | None = None
    if n < minimum:
        reasons.append(f"{n} of {expected} judges graded; at least {minimum} needed for a score")
    else:
        score = aggregate_exact(sorted(present.values()), aggregation)
        if n < expected:
            reasons.append(f"{n} of {expected} judges graded: score computed, flagged, never official")
        elif n > expected:
            reasons.append(f"{n} judges graded but the panel lists {expected}: flagged, never official")
    flagged = bool(reasons)
    panel = PanelScore(
        score=to_float(score),
        low=to_float(min(present.values())) if present else None,
        high=to_float(max(present.values())) if present else None,
        n_judges=n,
        expected_judges=expected,
        min_judges=minimum,
        aggregation=aggregation,
        judges={judge: float(value) for judge, value in present.items()},
        missing=missing,
        flagged=flagged,
        official_eligible=not flagged,
        reasons=reasons,
    )
    return panel, score


def aggregate_panel(composites: Mapping[str, float | None], rubric: Rubric) -> PanelScore:
    """Aggregate judge composites (judge id -> composite, None for a judge without a usable grade).

    With all panel judges: the median, official-eligible. With fewer but at least ``min_judges``: the
    median of those present, ``flagged=True``, ``official_eligible=False``. With fewer than
    ``min_judges``: ``score=None``, flagged.
    """
    return aggregate_panel_exact(composites, rubric)[0]
