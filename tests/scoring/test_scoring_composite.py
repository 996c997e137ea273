"""Axis scores, process quality and the per-judge composite, pinned with exact arithmetic."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grader.scoring import axis_score, composite_weights, judge_composite, process_quality
from rubric import grade_model_for, load_rubric, synthetic_grade

V04 = load_rubric("v0.4")
V03 = load_rubric("v0.3")

REASONING = {
    "action_rationale_alignment": 80,  # x10
    "thesis_quality": 70,  # x12
    "strategy_fit": 60,  # x10
    "risk_awareness": 50,  # x12
    "portfolio_discipline": 90,  # x10
    "temporal_consistency": 40,  # x10
    "decision_update_quality": 60,  # x10
    "uncertainty_discipline": 75,  # x8
    "outcome_independent_reasoning": 65,  # x8
    "clarity_specificity": 85,  # x10
}
EVIDENCE = {
    "claim_support": 60,  # x25
    "valuation_metrics": 70,  # x15
    "momentum_technical": 80,  # x15
    "analyst_data": 50,  # x10
    "sector_industry_context": 90,  # x10
    "unsupported_claim_avoidance": 40,  # x15
    "no_contradiction": 100,  # x10
}
# reasoning = (800+840+600+600+900+400+600+600+520+850)/100 = 6710/100
# evidence  = (1500+1050+1200+500+900+600+1000)/100 = 6750/100
# process   = (40+90+60)/3 = 190/3


def test_axis_score_is_weighted_sum_over_total_weight() -> None:
    assert axis_score(REASONING, V04.sub_component_weights("reasoning")) == 67.1
    assert axis_score(EVIDENCE, V04.sub_component_weights("evidence")) == 67.5
    assert axis_score({"a": 50, "b": 100}, {"a": 1, "b": 3}) == 87.5
    # decimal inputs are read as written: (0.1*1 + 0.2*1)/2 is exactly 0.15
    assert axis_score({"a": 0.1, "b": 0.2}, {"a": 1, "b": 1}) == 0.15


def test_axis_score_refuses_missing_and_unknown_ids() -> None:
    weights = V04.sub_component_weights("evidence")
    partial = {k: v for k, v in EVIDENCE.items() if k != "analyst_data"}
    with pytest.raises(ValueError, match="missing sub-scores analyst_data"):
        axis_score(partial, weights)
    with pytest.raises(ValueError, match="unknown sub-score ids vibes"):
        axis_score({**EVIDENCE, "vibes": 1}, weights)


def test_process_quality_is_mean_of_the_three_named_sub_scores() -> None:
    assert process_quality(REASONING, V04) == 190 / 3
    assert (
        process_quality({"temporal_consistency": 10, "portfolio_discipline": 20, "decision_update_quality": 60}, V04)
        == 30
    )


def test_composite_with_outcome() -> None:
    grade = synthetic_grade(V04, reasoning=REASONING, evidence=EVIDENCE, outcome=30, data_reliability=54)
    result = judge_composite(grade, V04, outcome_available=True)
    assert (result.reasoning, result.evidence, result.process, result.outcome) == (67.1, 67.5, 190 / 3, 30)
    # (40*67.1 + 35*67.5 + 15*190/3 + 10*30) / 100 = (2684 + 2362.5 + 950 + 300) / 100
    assert result.composite == 62.965
    assert result.outcome_used is True
    assert result.data_reliability == 54
    assert result.weights == {"reasoning": 40, "evidence": 35, "process": 15, "outcome": 10}


def test_composite_without_outcome_redistributes_40_to_35() -> None:
    grade = synthetic_grade(V04, reasoning=REASONING, evidence=EVIDENCE, outcome=30)
    result = judge_composite(grade, V04, outcome_available=False)
    assert result.weights == {"reasoning": 40 + 10 * 40 / 75, "evidence": 35 + 10 * 35 / 75, "process": 15}
    assert composite_weights(V04, False) == result.weights
    assert Fraction(136, 3) == 40 + Fraction(10 * 40, 75)
    # (136/3 * 67.1 + 119/3 * 67.5 + 15 * 190/3) / 100 = 20008.1 / 300
    assert result.composite == 200081 / 3000
    assert result.outcome is None and result.outcome_used is False


def test_null_outcome_score_is_redistributed_even_when_outcomes_exist() -> None:
    grade = synthetic_grade(V04, reasoning=REASONING, evidence=EVIDENCE, outcome=None)
    with_flag = judge_composite(grade, V04, outcome_available=True)
    assert with_flag.outcome_used is False
    assert with_flag.composite == judge_composite(grade, V04, outcome_available=False).composite


def test_seed_003_worked_example_lands_mid_mixed() -> None:
    """Reasoning 46, evidence 57, outcome 61 -> Total 51 (process sub-scores taken equal to reasoning)."""
    grade = synthetic_grade(V03, reasoning=46, evidence=57, outcome=61, data_reliability=54)
    result = judge_composite(grade, V03, outcome_available=True)
    # 0.40*46 + 0.35*57 + 0.15*46 + 0.10*61 = 18.4 + 19.95 + 6.9 + 6.1
    assert result.composite == 51.35
    assert round(result.composite) == 51


def test_grade_model_and_dict_give_the_same_composite() -> None:
    raw = synthetic_grade(V04, reasoning=REASONING, evidence=EVIDENCE, outcome=30)
    model = grade_model_for(V04).model_validate(raw)
    assert judge_composite(model, V04, True) == judge_composite(raw, V04, True)


def test_grade_missing_an_axis_is_refused() -> None:
    raw = synthetic_grade(V04)
    del raw["evidence"]
    with pytest.raises(ValueError, match="grade: no 'evidence'"):
        judge_composite(raw, V04, True)
