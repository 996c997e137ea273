"""Panel aggregation: median, the 2-of-3 rule, fewer than min_judges."""

from __future__ import annotations

from grader.scoring import aggregate_panel
from rubric import load_rubric

V04 = load_rubric("v0.4")
V03 = load_rubric("v0.3")


def test_median_of_three_is_official() -> None:
    # seed 002's agreement table, OpenAI GPT-5 row: low 57, median 81, high 83
    panel = aggregate_panel({"openai": 83, "anthropic": 57, "xai": 81}, V04)
    assert (panel.low, panel.score, panel.high) == (57, 81, 83)
    assert panel.n_judges == 3 and panel.expected_judges == 3
    assert panel.flagged is False and panel.official_eligible is True
    assert panel.reasons == [] and panel.missing == []


def test_one_outlier_cannot_move_the_median() -> None:
    assert aggregate_panel({"openai": 70, "anthropic": 72, "xai": 0}, V04).score == 70
    assert aggregate_panel({"openai": 70, "anthropic": 72, "xai": 100}, V04).score == 72


def test_two_of_three_is_computed_flagged_and_never_official() -> None:
    panel = aggregate_panel({"openai": 57.5, "anthropic": None, "xai": 83}, V04)
    assert panel.score == 70.25  # (57.5 + 83) / 2
    assert panel.flagged is True
    assert panel.official_eligible is False
    assert panel.missing == ["anthropic"]
    assert panel.reasons == ["2 of 3 judges graded: score computed, flagged, never official"]


def test_absent_slot_counts_as_missing() -> None:
    panel = aggregate_panel({"openai": 60, "xai": 70}, V04)
    assert panel.score == 65 and panel.flagged and panel.missing == ["anthropic"]


def test_fewer_than_min_judges_gives_no_score() -> None:
    panel = aggregate_panel({"openai": 60, "anthropic": None, "xai": None}, V04)
    assert panel.score is None
    assert panel.flagged is True and panel.official_eligible is False
    assert panel.reasons == ["1 of 3 judges graded; at least 2 needed for a score"]
    assert aggregate_panel({}, V04).score is None


def test_more_judges_than_the_panel_lists_is_flagged() -> None:
    panel = aggregate_panel({"a": 50, "b": 60, "c": 70, "d": 80}, V04)
    assert panel.score == 65 and panel.flagged and not panel.official_eligible


def test_single_judge_rubric_uses_that_judges_composite() -> None:
    panel = aggregate_panel({"openai": 51.35}, V03)
    assert panel.score == 51.35 and panel.official_eligible
