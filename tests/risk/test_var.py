"""Historical VaR/CVaR: known answers computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from grader.risk import MIN_RETURNS, historical_var, horizon_returns


def test_one_day_var_and_cvar_by_hand():
    # 20 returns -10%, -9%, ..., +9%: the 5th percentile sits 0.95 of the way from -10% to -9% (linear
    # interpolation between order statistics) = -9.05%; only -10% is at or below it, so CVaR = -10%.
    daily = np.round(np.arange(-0.10, 0.095, 0.01), 10)
    assert len(daily) == 20
    v = historical_var(daily)
    assert v.var == pytest.approx(-0.0905)
    assert v.cvar == pytest.approx(-0.10)
    assert v.samples == 20 and v.horizon == 1
    assert v.describe() == "VaR95 1d -9.05% (CVaR -10.00%)"


def test_cvar_averages_the_whole_tail():
    # 40 returns: -4%, -3%, then 38 of +1%. 5th percentile at position 39 * 0.05 = 1.95, between the 2nd (-3%)
    # and 3rd (+1%) order statistics: -3% + 0.95 * 4% = +0.8%; the tail (<= +0.8%) is -4% and -3%: CVaR -3.5%.
    daily = np.array([-0.04, -0.03] + [0.01] * 38)
    v = historical_var(daily)
    assert v.var == pytest.approx(0.008)
    assert v.cvar == pytest.approx(-0.035)


def test_too_few_returns_is_not_a_figure():
    assert historical_var(np.full(MIN_RETURNS - 1, -0.01)) is None
    assert historical_var(np.array([np.nan] * 5 + [0.01] * (MIN_RETURNS - 1))) is None


def test_horizon_returns_compound_overlapping_runs():
    daily = np.array([0.10, -0.10, 0.10, 0.05])
    two = horizon_returns(daily, 2)
    assert two == pytest.approx([1.1 * 0.9 - 1, 0.9 * 1.1 - 1, 1.1 * 1.05 - 1])
    assert horizon_returns(daily, 4) == pytest.approx([1.1 * 0.9 * 1.1 * 1.05 - 1])
    assert len(horizon_returns(daily, 5)) == 0
    assert horizon_returns(daily, 1) is not None and list(horizon_returns(daily, 1)) == list(daily)


def test_horizon_var_uses_the_compounded_sample():
    daily = np.round(np.arange(-0.10, 0.095, 0.01), 10)
    v = historical_var(daily, horizon=5)
    sample = np.array([np.prod(1 + daily[i : i + 5]) - 1 for i in range(16)])
    assert v.samples == 16
    assert v.var == pytest.approx(np.quantile(sample, 0.05))
    assert v.cvar == pytest.approx(sample[sample <= v.var].mean())
    # too few overlapping runs for a long horizon: not a figure
    assert historical_var(daily, horizon=15) is None
