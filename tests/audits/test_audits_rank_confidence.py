"""Rank confidence: a bootstrap over the run's judges and their repeats; intervals, P(band), borderline flags;
no source of variation is said, never hidden."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from audits import Band, rank_confidence


def _scores(grades: dict[str, dict[str, list[float]]]) -> pd.DataFrame:
    """contestant -> judge -> composites by repeat."""
    rows = []
    for c, per_judge in grades.items():
        for j, values in per_judge.items():
            for r, v in enumerate(values):
                rows.append(
                    {
                        "contestant_id": c,
                        "contestant_label": c.upper(),
                        "contestant_family": "f",
                        "judge_id": j,
                        "judge_family": j,
                        "repeat": r,
                        "composite": v,
                        "reasoning": v,
                        "evidence": v,
                        "process": v,
                        "outcome": v,
                        "data_reliability": v,
                    }
                )
    return pd.DataFrame(rows)


def _totals(scores: pd.DataFrame, timings_factor: dict[str, float] | None = None) -> pd.DataFrame:
    main = scores[scores["repeat"] == 0].groupby("contestant_id")["composite"].median()
    factor = timings_factor or {}
    return pd.DataFrame(
        {
            "contestant_id": list(main.index),
            "contestant_label": [c.upper() for c in main.index],
            "reasoning_median": main.values,
            "total": [m * factor.get(c, 1.0) for c, m in main.items()],
            "band": None,
        }
    )


def test_agreeing_judges_give_zero_width_intervals_and_certain_bands():
    scores = _scores(
        {
            "a": {"j1": [80.0], "j2": [80.0], "j3": [80.0]},
            "b": {"j1": [50.0], "j2": [50.0], "j3": [50.0]},
            "c": {"j1": [20.0], "j2": [20.0], "j3": [20.0]},
        }
    )
    result = rank_confidence(_totals(scores), scores, n_boot=500, seed=1)
    by_id = {c.contestant_id: c for c in result.contestants}
    assert [c.contestant_id for c in result.contestants] == ["a", "b", "c"]
    assert by_id["a"].score_low == by_id["a"].score_high == 80.0
    assert (by_id["b"].rank_low, by_id["b"].rank_high) == (2, 2)
    assert by_id["a"].p_band == {"Strong": 1.0, "Mixed": 0.0, "Weak": 0.0}
    assert not any(c.borderline for c in result.contestants)
    assert result.sources == ["panel: the run's 3 judges resampled with replacement"]
    assert by_id["a"].n_grades == 3


def test_split_panel_near_a_band_edge_by_hand():
    # judges 60, 70, 80 on "edge": 27 equally likely draws of 3 judges with replacement; the median is 60 in
    # 7 of them (two or three 60s: 1 + 3*2 = 7), 80 in 7, 70 in 13. Total = median here (no timings).
    scores = _scores(
        {"edge": {"j1": [60.0], "j2": [70.0], "j3": [80.0]}, "far": {"j1": [95.0], "j2": [95.0], "j3": [95.0]}}
    )
    result = rank_confidence(_totals(scores), scores, n_boot=20_000, seed=7)
    edge = next(c for c in result.contestants if c.contestant_id == "edge")
    assert edge.p_band["Mixed"] == pytest.approx(7 / 27, abs=0.01)  # median 60 < 67
    assert edge.p_band["Strong"] == pytest.approx(20 / 27, abs=0.01)
    assert (edge.score_low, edge.score_high) == (60.0, 80.0) and edge.borderline
    far = next(c for c in result.contestants if c.contestant_id == "far")
    assert not far.borderline and far.rank == 1


def test_total_scales_with_the_median_when_efficiency_is_blended():
    # total = 0.9 m + 0.1 e with e proportional to m: total_b = total * m_b / m
    scores = _scores({"x": {"j1": [50.0], "j2": [60.0], "j3": [70.0]}})
    totals = _totals(scores, {"x": 1.1})  # total 66 for median 60
    result = rank_confidence(totals, scores, n_boot=5000, seed=3)
    x = result.contestants[0]
    assert (x.score_low, x.score_high) == (pytest.approx(55.0), pytest.approx(77.0))  # 66 * 50/60, 66 * 70/60


def test_repeats_are_a_source_of_variation_even_with_one_judge():
    scores = _scores({"x": {"ref": [60.0, 64.0, 68.0]}, "y": {"ref": [62.0, 62.0, 62.0]}})
    result = rank_confidence(_totals(scores), scores, n_boot=3000, seed=2)
    assert result.sources == ["repeats: one of up to 3 gradings per judge and record, drawn at random"]
    by_id = {c.contestant_id: c for c in result.contestants}
    # x's replicate is 60, 64 or 68 (scaled from its main-run median 60): 60, 64, 68 each about a third
    assert (by_id["x"].score_low, by_id["x"].score_high) == (60.0, 68.0)
    assert (by_id["x"].rank_low, by_id["x"].rank_high) == (1, 2)
    assert by_id["y"].score_low == by_id["y"].score_high == 62.0


def test_one_judge_and_no_repeats_is_said_unmeasured_not_certain():
    scores = _scores({"x": {"ref": [60.0]}, "y": {"ref": [40.0]}})
    result = rank_confidence(_totals(scores), scores, n_boot=100, seed=0)
    assert result.sources == []
    assert any("unmeasured here, not zero" in c for c in result.caveats)
    assert all(c.score_low == c.score_high == c.total for c in result.contestants)


def test_a_judge_gap_draws_no_value_and_custom_bands_are_used():
    scores = _scores({"x": {"j1": [60.0], "j2": [62.0]}, "y": {"j1": [40.0]}})  # j2 has no grade for y
    bands = (Band(name="High", low=50, high=100), Band(name="Low", low=0, high=49))
    result = rank_confidence(_totals(scores), scores, bands, n_boot=500, seed=0)
    y = next(c for c in result.contestants if c.contestant_id == "y")
    assert y.score_low == y.score_high == 40.0 and y.p_band == {"High": 0.0, "Low": 1.0}
    assert y.n_grades == 1


def test_seeded_and_reproducible():
    scores = _scores({"x": {"j1": [30.0], "j2": [70.0], "j3": [90.0]}, "y": {"j1": [55.0], "j2": [65.0], "j3": [45.0]}})
    a = rank_confidence(_totals(scores), scores, n_boot=300, seed=4)
    b = rank_confidence(_totals(scores), scores, n_boot=300, seed=4)
    assert a == b
    assert not np.isnan([c.score_low for c in a.contestants]).any()


def test_the_reports_method_note_says_what_rank_confidence_resamples() -> None:
    """Issue 31: the method note said "bootstrap over decisions of per-decision quality scores", which the code
    never did; it must name what the bootstrap draws (judges, repeats) and what it does not cover (decisions)."""
    import audits._rank_confidence as rc
    from audits._sections_judges import RANK_CONFIDENCE_METHOD

    assert "over decisions" not in RANK_CONFIDENCE_METHOD and "per-decision" not in RANK_CONFIDENCE_METHOD
    assert "judges" in RANK_CONFIDENCE_METHOD and "repeats" in RANK_CONFIDENCE_METHOD
    assert "sampling of decisions within a record is not covered" in RANK_CONFIDENCE_METHOD
    doc = rc.__doc__ or ""
    assert "the run's judges are drawn with replacement" in doc and "sampling of decisions within a record" in doc
