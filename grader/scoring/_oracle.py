"""CapitalBench-style outcome scores against the hindsight oracle (seed 001)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ._exact import exact, to_float


def _ratio_score(portfolio: Fraction, oracle: Fraction) -> Fraction | None:
    if oracle > 0:
        return 100 * portfolio / oracle
    if oracle == 0 and portfolio == 0:
        return Fraction(100)  # matching a zero-return oracle (cash at 0%) scores 100
    # oracle <= 0 with a loss: no finite, order-preserving ratio; oracle == 0 with a gain or oracle < 0:
    # the "best asset" was not the best, so the ratio means nothing either
    return None


def oracle_score(portfolio_return: float, oracle_return: float) -> float | None:
    """CapitalBench Score: 100 * portfolio_return / oracle_return (returns as fractions, 0.0393 = 3.93%).

    100 matches the best asset; 0 is no net return; below 0 is a loss (a smaller loss scores higher).
    Unavailable (None) when the oracle return is <= 0 and the portfolio lost money; a zero-return oracle
    matched by a zero return scores 100. Any other non-positive oracle is also None (no meaningful ratio).
    """
    return to_float(_ratio_score(exact(portfolio_return, "portfolio return"), exact(oracle_return, "oracle return")))


def comparison_set_score(returns: Sequence[float], oracle_returns: Sequence[float]) -> float | None:
    """Comparison-set CapitalBench Score: 100 * sum(portfolio returns) / sum(oracle returns).

    Rounds are summed, not compounded; the same availability rule as ``oracle_score`` applies to the
    sums. None for an empty set.
    """
    if len(returns) != len(oracle_returns):
        raise ValueError(f"{len(returns)} portfolio returns but {len(oracle_returns)} oracle returns")
    if not returns:
        return None
    portfolio = sum((exact(r, "portfolio return") for r in returns), Fraction(0))
    oracle = sum((exact(o, "oracle return") for o in oracle_returns), Fraction(0))
    return to_float(_ratio_score(portfolio, oracle))
