"""Self-consistency: pooled within-record SD and the smallest difference that is signal."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from audits_synthetic import panel_scores

from audits import self_consistency

AXES = ("reasoning", "evidence", "process", "outcome", "data_reliability")


def _row(contestant: str, judge: str, repeat: int, value: float) -> dict[str, object]:
    return {
        "contestant_id": contestant,
        "contestant_label": contestant,
        "contestant_family": "google",
        "judge_id": judge,
        "judge_family": "openai",
        "repeat": repeat,
        "composite": value,
        **{a: value for a in AXES},
    }


def test_no_stability_runs_is_said_plainly() -> None:
    result = self_consistency(panel_scores())
    assert not result.has_stability_runs
    assert result.judges == [] and result.panel is None
    assert "No stability runs" in result.caveats[0]


def test_pooled_within_record_sd_and_signal_threshold_hand_computed() -> None:
    # record a: 50, 52, 54 (var 4, dof 2); record b: 70, 71 (var 0.5, dof 1)
    # pooled SD = sqrt((2*4 + 1*0.5) / 3) = sqrt(8.5/3)
    rows = [_row("a", "j1", r, v) for r, v in enumerate([50, 52, 54])]
    rows += [_row("b", "j1", r, v) for r, v in enumerate([70, 71])]
    result = self_consistency(pd.DataFrame(rows))
    assert result.has_stability_runs
    judge = result.judges[0]
    expected = math.sqrt(8.5 / 3)
    assert judge.within_sd == pytest.approx(expected)
    assert judge.min_signal_difference == pytest.approx(1.96 * math.sqrt(2) * expected)
    assert judge.n_records == 2 and judge.max_repeats == 3
    assert judge.axis_within_sd["reasoning"] == pytest.approx(expected)


def test_panel_median_consistency_uses_the_median_within_each_repeat() -> None:
    rows = []
    for repeat, (x, y, z) in enumerate([(50, 60, 70), (52, 64, 90)]):  # medians 60 and 64
        rows += [_row("a", "j1", repeat, x), _row("a", "j2", repeat, y), _row("a", "j3", repeat, z)]
    result = self_consistency(pd.DataFrame(rows))
    assert result.panel is not None
    assert result.panel.within_sd == pytest.approx(pd.Series([60, 64]).std())


def test_recovers_the_planted_repeat_noise() -> None:
    scores = panel_scores(n_per_family=10, repeats=4, repeat_sd=3.0, seed=8)
    result = self_consistency(scores, axes=["composite"])
    for judge in result.judges:
        # per repeat: jitter sd 3.0 shared by the axes + independent axis noise (sd 1 each), so the composite
        # moves with sd sqrt(9 + 0.4^2 + 0.35^2 + 0.15^2 + 0.1^2) = 3.05
        assert judge.within_sd == pytest.approx(3.05, abs=0.4)
    assert result.panel.within_sd < max(j.within_sd for j in result.judges)
