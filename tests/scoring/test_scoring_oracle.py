"""CapitalBench-style scores against the hindsight oracle, with seed 001's worked examples."""

from __future__ import annotations

import pytest

from grader.scoring import comparison_set_score, oracle_score


def test_seed_001_single_round_examples() -> None:
    assert round(oracle_score(0.0393, 0.0462), 1) == 85.1
    assert oracle_score(0.0393, 0.0462) == 39300 / 462  # 100 * 393 / 462, exact then rounded once
    assert oracle_score(-0.02, 0.04) == -50
    assert oracle_score(-0.01, 0.04) == -25  # the smaller loss ranks above the larger one


def test_matching_the_oracle_and_no_net_return() -> None:
    assert oracle_score(0.0462, 0.0462) == 100
    assert oracle_score(0.0, 0.05) == 0


def test_zero_or_negative_oracle() -> None:
    assert oracle_score(0.0, 0.0) == 100  # matching cash at 0% against a zero-return oracle
    assert oracle_score(-0.01, 0.0) is None  # a loss has no finite ratio
    assert oracle_score(-0.03, -0.01) is None  # oracle <= 0 and a loss: unavailable
    assert oracle_score(0.01, 0.0) is None
    assert oracle_score(0.0, -0.01) is None


def test_seed_001_comparison_set_example() -> None:
    assert comparison_set_score([0.04, -0.01], [0.08, 0.02]) == 30  # 100 * (4 - 1) / (8 + 2)


def test_comparison_set_edge_cases() -> None:
    assert comparison_set_score([], []) is None
    assert comparison_set_score([0.0, 0.0], [0.0, 0.0]) == 100
    assert comparison_set_score([-0.02, 0.01], [0.01, -0.01]) is None  # summed oracle 0, summed loss
    with pytest.raises(ValueError, match="2 portfolio returns but 1 oracle returns"):
        comparison_set_score([0.01, 0.02], [0.03])


def test_non_finite_returns_are_refused() -> None:
    with pytest.raises(ValueError, match="portfolio return: expected a finite number"):
        oracle_score(float("nan"), 0.04)
