"""Properties that hold for any grades: convexity of the composite, order-free medians, bounds."""

from __future__ import annotations

import itertools
import statistics
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from grader.scoring import aggregate_panel, efficiency_scores, judge_composite, oracle_score, total_score
from rubric import load_rubric, synthetic_grade

V04 = load_rubric("v0.4")
SCORE = st.integers(min_value=0, max_value=100)
REASONING_IDS = V04.axes.reasoning.ids()
EVIDENCE_IDS = V04.axes.evidence.ids()


@given(
    reasoning=st.lists(SCORE, min_size=len(REASONING_IDS), max_size=len(REASONING_IDS)),
    evidence=st.lists(SCORE, min_size=len(EVIDENCE_IDS), max_size=len(EVIDENCE_IDS)),
    outcome=st.one_of(st.none(), SCORE),
    outcome_available=st.booleans(),
)
def test_composite_lies_within_its_axis_scores(reasoning, evidence, outcome, outcome_available) -> None:
    grade = synthetic_grade(
        V04,
        reasoning=dict(zip(REASONING_IDS, reasoning, strict=True)),
        evidence=dict(zip(EVIDENCE_IDS, evidence, strict=True)),
        outcome=outcome,
    )
    result = judge_composite(grade, V04, outcome_available)
    parts = [result.reasoning, result.evidence, result.process]
    if result.outcome_used:
        parts.append(result.outcome)
    assert min(parts) <= result.composite <= max(parts)
    assert abs(sum(result.weights.values()) - 100) < 1e-9


@given(st.lists(st.floats(min_value=0, max_value=100, allow_nan=False), min_size=2, max_size=3))
def test_median_is_invariant_to_judge_order(composites) -> None:
    judges = ["openai", "anthropic", "xai"][: len(composites)]
    scores = {
        tuple(order): aggregate_panel(dict(zip(order, composites, strict=True)), V04).score
        for order in itertools.permutations(judges)
    }
    assert len(set(scores.values())) == 1
    # the median of the values as written (exact), rounded once
    assert next(iter(scores.values())) == float(statistics.median(Fraction(repr(c)) for c in composites))


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=4),
        st.tuples(SCORE, st.floats(min_value=0.01, max_value=600, allow_nan=False)),
        min_size=1,
        max_size=8,
    )
)
def test_efficiency_is_bounded_and_the_best_scores_100(data) -> None:
    scores = efficiency_scores({c: r for c, (r, _) in data.items()}, {c: s for c, (_, s) in data.items()})
    values = [v for v in scores.values() if v is not None]
    assert all(0 <= v <= 100 for v in values)
    if any(r > 0 for r, _ in data.values()):
        assert max(values) == 100


@given(SCORE, st.one_of(st.none(), st.floats(min_value=0, max_value=100, allow_nan=False)))
def test_total_lies_between_reasoning_and_efficiency(reasoning, efficiency) -> None:
    total = total_score(reasoning, efficiency, V04)
    if efficiency is None:
        assert total == reasoning
    else:
        assert min(reasoning, efficiency) <= total <= max(reasoning, efficiency)


@given(
    st.floats(min_value=-0.5, max_value=0.5, allow_nan=False),
    st.floats(min_value=-0.5, max_value=0.5, allow_nan=False),
    st.floats(min_value=1e-4, max_value=0.5, allow_nan=False),
)
def test_oracle_score_preserves_the_order_of_returns(r1, r2, oracle) -> None:
    low, high = sorted((r1, r2))
    assert oracle_score(low, oracle) <= oracle_score(high, oracle)
