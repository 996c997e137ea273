"""Rank confidence: bootstrap over decisions, intervals, P(band), borderline flags."""

from __future__ import annotations

import pandas as pd
import pytest

from audits import Band, rank_confidence


def _totals(values: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "contestant_id": list(values),
            "contestant_label": [k.upper() for k in values],
            "total": list(values.values()),
            "reasoning_median": list(values.values()),
            "band": None,
        }
    )


def _decisions(per_contestant: dict[str, list[float]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"contestant_id": c, "decision_key": f"d{i}", "score": s}
            for c, scores in per_contestant.items()
            for i, s in enumerate(scores)
        ]
    )


def test_constant_decision_scores_give_zero_width_intervals_and_certain_bands() -> None:
    totals = _totals({"a": 80.0, "b": 50.0, "c": 20.0})
    decisions = _decisions({"a": [80.0] * 10, "b": [50.0] * 10, "c": [20.0] * 10})
    result = rank_confidence(totals, decisions, n_boot=500, seed=1)
    by_id = {c.contestant_id: c for c in result.contestants}
    assert [c.contestant_id for c in result.contestants] == ["a", "b", "c"]
    assert by_id["a"].score_low == by_id["a"].score_high == 80.0
    assert (by_id["b"].rank_low, by_id["b"].rank_high) == (2, 2)
    assert by_id["a"].p_band == {"Strong": 1.0, "Mixed": 0.0, "Weak": 0.0}
    assert by_id["c"].band == "Weak"
    assert not any(c.borderline for c in result.contestants)


def test_contestant_near_a_band_edge_is_borderline_with_split_band_probability() -> None:
    totals = _totals({"edge": 66.0, "far": 90.0})
    decisions = _decisions({"edge": [46.0, 86.0] * 10, "far": [90.0] * 20})
    result = rank_confidence(totals, decisions, n_boot=2000, seed=7)
    edge = next(c for c in result.contestants if c.contestant_id == "edge")
    assert edge.borderline
    assert edge.score_low < 67 <= edge.score_high
    assert 0.2 < edge.p_band["Strong"] < 0.6
    assert edge.p_band["Strong"] + edge.p_band["Mixed"] + edge.p_band["Weak"] == pytest.approx(1.0)
    far = next(c for c in result.contestants if c.contestant_id == "far")
    assert not far.borderline and far.rank == 1


def test_close_contestants_share_a_rank_interval() -> None:
    totals = _totals({"x": 60.0, "y": 59.0, "z": 20.0})
    noisy = [40.0, 80.0] * 15
    result = rank_confidence(
        totals, _decisions({"x": noisy, "y": noisy, "z": [20.0] * 30}), n_boot=1000, seed=2
    )
    by_id = {c.contestant_id: c for c in result.contestants}
    assert (by_id["x"].rank_low, by_id["x"].rank_high) == (1, 2)
    assert (by_id["y"].rank_low, by_id["y"].rank_high) == (1, 2)
    assert (by_id["z"].rank_low, by_id["z"].rank_high) == (3, 3)


def test_seeded_and_reproducible() -> None:
    totals = _totals({"x": 60.0, "y": 55.0})
    decisions = _decisions({"x": [30.0, 70.0, 90.0, 50.0], "y": [55.0, 65.0, 45.0]})
    a = rank_confidence(totals, decisions, n_boot=300, seed=4)
    b = rank_confidence(totals, decisions, n_boot=300, seed=4)
    assert a == b


def test_missing_decision_scores_are_named_and_custom_bands_are_used() -> None:
    totals = _totals({"x": 60.0, "y": 40.0})
    bands = (Band(name="High", low=50, high=100), Band(name="Low", low=0, high=49))
    result = rank_confidence(totals, _decisions({"x": [60.0, 62.0]}), bands, n_boot=100, seed=0)
    assert any("No decision scores for Y" in c for c in result.caveats)
    y = next(c for c in result.contestants if c.contestant_id == "y")
    assert y.score_low == y.score_high == 40.0
    assert y.p_band == {"High": 0.0, "Low": 1.0}
