"""Calibration against human grades: bias, limits of agreement, ICC, weighted kappa, human baseline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pandas as pd
import pytest
from audits_synthetic import panel_scores

from audits import calibration


def _grades(
    items: list[str], scores: list[float], annotator: str = "ann", axis: str = "composite", minutes: int = 0
) -> pd.DataFrame:
    at = datetime(2024, 1, 1, tzinfo=UTC) + timedelta(minutes=minutes)
    return pd.DataFrame({"item_id": items, "annotator": annotator, "axis": axis, "score": scores, "created_at": at})


def test_no_human_grades_yet_is_said_plainly() -> None:
    result = calibration(panel_scores(), pd.DataFrame(columns=["item_id", "annotator", "axis", "score", "created_at"]))
    assert not result.has_human_grades
    assert result.caveats == ["No human grades yet: the judges' absolute scale is not yet anchored to human judgement."]
    assert calibration(panel_scores(), None).has_human_grades is False


def test_judge_five_points_above_humans_has_bias_five_and_zero_width_limits() -> None:
    scores = panel_scores(seed=4)
    main = scores[scores["repeat"] == 0]
    judge = main[main["judge_id"] == "judge-openai"].set_index("contestant_id")["composite"]
    grades = _grades(list(judge.index), list(judge - 5.0))
    result = calibration(scores, grades)
    row = next(r for r in result.judges if r.rater == "judge-openai")
    assert row.n_items == 12
    assert row.mean_bias == pytest.approx(5.0)
    assert row.loa_low == pytest.approx(5.0) and row.loa_high == pytest.approx(5.0)
    assert 0.9 < row.icc2_1 < 1.0  # absolute agreement is penalised by the constant offset
    assert any(r.rater == "panel median" for r in result.judges)
    assert {p.rater for p in result.points} >= {"judge-openai", "panel median"}


def test_weighted_kappa_on_bands_matches_the_quadratic_formula() -> None:
    scores = panel_scores(seed=5)
    main = scores[(scores["repeat"] == 0) & (scores["judge_id"] == "judge-xai")].set_index("contestant_id")
    human = main["composite"] + np.where(np.arange(12) % 3 == 0, 15.0, 0.0)  # some items moved up a band
    human = human.clip(0, 100)
    result = calibration(scores, _grades(list(human.index), list(human)))
    row = next(r for r in result.judges if r.rater == "judge-xai")

    def band(v: float) -> int:
        return 2 if v >= 67 else 1 if v >= 45 else 0

    a = np.array([band(v) for v in main["composite"]])
    b = np.array([band(v) for v in human])
    observed = np.zeros((3, 3))
    for x, y in zip(a, b, strict=True):
        observed[x, y] += 1
    observed /= observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    weights = np.array([[(i - j) ** 2 for j in range(3)] for i in range(3)], float)
    kappa = 1 - (weights * observed).sum() / (weights * expected).sum()
    assert row.weighted_kappa == pytest.approx(kappa)


def test_human_human_baseline_when_two_annotators_grade_the_same_items() -> None:
    scores = panel_scores(seed=6)
    items = sorted(scores["contestant_id"].unique())[:6]
    first = _grades(items, [50, 60, 70, 40, 55, 80], annotator="alice")
    second = _grades(items, [52, 58, 75, 41, 50, 82], annotator="bob")
    result = calibration(scores, pd.concat([first, second]))
    assert result.n_annotators == 2 and result.n_items == 6
    assert len(result.human_baseline) == 1
    baseline = result.human_baseline[0]
    assert (baseline.rater, baseline.reference) == ("alice", "bob")
    assert baseline.mean_bias == pytest.approx(np.mean([-2, 2, -5, -1, 5, -2]))
    assert not any("no human-human baseline" in c for c in result.caveats)


def test_latest_grade_of_an_annotator_replaces_the_earlier_one() -> None:
    scores = panel_scores(seed=6)
    items = sorted(scores["contestant_id"].unique())[:5]
    early = _grades(items, [10, 10, 10, 10, 10], minutes=0)
    late = _grades(items, [60, 60, 60, 60, 60], minutes=5)
    result = calibration(scores, pd.concat([late, early]))
    assert {p.human for p in result.points} == {60.0}
    assert any("no human-human baseline" in c for c in result.caveats)


def test_few_items_and_unknown_items_get_caveats() -> None:
    scores = panel_scores(seed=6)
    grades = _grades(["openai-0", "openai-1", "nobody"], [50, 60, 70])
    result = calibration(scores, grades)
    text = " ".join(result.caveats)
    assert "Only 2 human-graded item(s)" in text
    assert "no judge grade in this run" in text
    assert all(r.icc2_1 is None for r in result.judges)
