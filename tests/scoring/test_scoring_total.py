"""Efficiency normalisation, the Total Score blend with its no-timing fallback, and band borders."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from grader.scoring import band, efficiency_scores, median_decision_seconds, total_score
from rubric import VERSIONS_DIR, load_rubric

V04 = load_rubric("v0.4")
V03 = load_rubric("v0.3")


def test_median_decision_seconds_ignores_missing_timings() -> None:
    assert median_decision_seconds([3.0, None, 1.0, 2.5, float("nan")]) == 2.5
    assert median_decision_seconds([4, 1, 2, 3]) == 2.5
    assert median_decision_seconds([None, None]) is None
    assert median_decision_seconds([]) is None
    with pytest.raises(ValueError, match="must not be negative"):
        median_decision_seconds([1.0, -2.0])


def test_efficiency_is_reasoning_per_second_normalised_to_the_best() -> None:
    scores = efficiency_scores(
        {"a": 80, "b": 60, "c": 90, "d": None},
        {"a": 10.0, "b": 5.0, "d": 1.0},
    )
    # a: 8 /s, b: 12 /s (best), c: no timing, d: no reasoning score
    assert scores == {"a": 200 / 3, "b": 100, "c": None, "d": None}


def test_same_reasoning_faster_model_is_more_efficient() -> None:
    scores = efficiency_scores({"slow": 70, "fast": 70}, {"slow": 14.0, "fast": 7.0})
    assert scores == {"slow": 50, "fast": 100}


def test_efficiency_without_any_timing_or_with_zero_time() -> None:
    assert efficiency_scores({"a": 80, "b": 60}, {}) == {"a": None, "b": None}
    assert efficiency_scores({"a": 80, "b": 60}, {"a": 0.0, "b": 2.0}) == {"a": None, "b": 100}
    assert efficiency_scores({"a": 0, "b": 0}, {"a": 1.0, "b": 2.0}) == {"a": 0, "b": 0}


def test_total_blends_90_10_and_falls_back_without_timing() -> None:
    assert total_score(80, 200 / 3, V04) == 236 / 3  # 0.9*80 + 0.1*200/3 = 72 + 20/3
    assert total_score(60, 100, V04) == 64
    assert total_score(90, None, V04) == 90  # no timing: reasoning median alone
    assert total_score(None, 100, V04) is None
    assert total_score(80, 20, V03) == 80  # v0.3: the judge's composite is the total


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        (0, "weak"),
        (44, "weak"),
        (44.999, "weak"),
        (45, "mixed"),
        (66, "mixed"),
        (66.99, "mixed"),
        (67, "strong"),
        (100, "strong"),
    ],
)
def test_band_borders(score: float, expected: str) -> None:
    assert band(score, V04) == expected


def test_bands_follow_the_rubric(tmp_path: Path) -> None:
    data = yaml.safe_load((VERSIONS_DIR / "v0.4.yaml").read_text(encoding="utf-8"))
    data["bands"] = {"strong": 70, "mixed": 50}
    path = tmp_path / "bands.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    strict = load_rubric(path)
    assert [band(s, strict) for s in (49, 50, 69, 70)] == ["weak", "mixed", "mixed", "strong"]


def test_numpy_and_decimal_inputs_are_read_exactly() -> None:
    from decimal import Decimal

    import numpy as np

    assert median_decision_seconds(np.array([1.5, np.nan, 2.5, 4.0])) == 2.5
    assert median_decision_seconds([np.int64(3), np.int64(5)]) == 4
    assert total_score(np.float64(80.1), Decimal("50.1"), V04) == 77.1  # 0.9*80.1 + 0.1*50.1 = 72.09 + 5.01
