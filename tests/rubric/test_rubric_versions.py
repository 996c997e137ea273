"""The bundled rubric files say what seeds 002 (v0.4) and 003 (v0.3) say."""

from __future__ import annotations

import pytest

from rubric import load_rubric

REASONING = {
    "action_rationale_alignment": 10,
    "thesis_quality": 12,
    "strategy_fit": 10,
    "risk_awareness": 12,
    "portfolio_discipline": 10,
    "temporal_consistency": 10,
    "decision_update_quality": 10,
    "uncertainty_discipline": 8,
    "outcome_independent_reasoning": 8,
    "clarity_specificity": 10,
}
EVIDENCE = {
    "claim_support": 25,
    "valuation_metrics": 15,
    "momentum_technical": 15,
    "analyst_data": 10,
    "sector_industry_context": 10,
    "unsupported_claim_avoidance": 15,
    "no_contradiction": 10,
}


@pytest.mark.parametrize("name", ["v0.3", "v0.4"])
def test_axes_and_weights_match_the_seed_tables(name: str) -> None:
    rubric = load_rubric(name)
    assert rubric.sub_component_weights("reasoning") == REASONING
    assert rubric.sub_component_weights("evidence") == EVIDENCE
    assert list(rubric.sub_component_weights("reasoning")) == list(REASONING)  # seed order kept
    assert rubric.composite.as_dict() == {"reasoning": 40, "evidence": 35, "process": 15, "outcome": 10}
    assert rubric.outcome_redistribution.over == ["reasoning", "evidence"]
    assert rubric.process.weights == {
        "temporal_consistency": 10,
        "portfolio_discipline": 10,
        "decision_update_quality": 10,
    }
    assert (rubric.bands.strong, rubric.bands.mixed) == (67, 45)
    assert rubric.axes.reasoning.sub_components[1].label == "Thesis quality"
    assert rubric.axes.evidence.sub_components[0].label == "Claim support from market data"


def test_v04_is_the_anonymized_three_provider_median_panel_with_efficiency() -> None:
    rubric = load_rubric("v0.4")
    assert rubric.id == "grounded_financial_reasoning_judge_v0.4"
    assert [j.provider_family for j in rubric.panel.judges] == ["openai", "anthropic", "xai"]
    assert rubric.panel.aggregation == "median"
    assert rubric.panel.anonymize is True
    assert rubric.panel.min_judges == 2
    assert (rubric.total.blend.reasoning_median, rubric.total.blend.efficiency) == (90, 10)
    assert rubric.total.efficiency.scale == 100
    assert rubric.total.efficiency.reference == "season_best"
    assert rubric.total.no_timing == "reasoning_median"


def test_v03_is_a_single_openai_judge_whose_composite_is_the_total() -> None:
    rubric = load_rubric("v0.3")
    assert rubric.id == "grounded_financial_reasoning_judge_v0.3"
    assert [(j.id, j.provider_family) for j in rubric.panel.judges] == [("openai", "openai")]
    assert rubric.panel.min_judges == 1
    assert rubric.panel.anonymize is False
    assert (rubric.total.blend.reasoning_median, rubric.total.blend.efficiency) == (100, 0)


@pytest.mark.parametrize("name", ["v0.3", "v0.4"])
def test_instructions_cover_what_the_judge_must_do(name: str) -> None:
    text = load_rubric(name).instructions
    for phrase in [
        "whole horizon",
        "Point in time only",
        "lookahead_check",
        "supported",
        "not_verifiable",
        "contradicted",
        "returnOnEquityTTM",
        "analystTargetPrice",
        "quarterlyEarningsGrowthYOY",
        "never compare or rank contestants",
    ]:
        assert phrase in text, phrase
    assert ("anonymized" in text) is (name == "v0.4")


def test_judge_prompt_lists_every_sub_component_and_no_weights() -> None:
    rubric = load_rubric("v0.4")
    prompt = rubric.judge_prompt()
    assert prompt.startswith(rubric.instructions.rstrip())
    for axis in ("reasoning", "evidence"):
        for sub in getattr(rubric.axes, axis).sub_components:
            assert f"{axis}.sub_scores.{sub.id}: {sub.label}." in prompt
    assert "weight" not in prompt.lower()
    assert "Output schema version: grade-v1" in prompt
