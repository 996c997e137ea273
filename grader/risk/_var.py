"""Historical-simulation Value at Risk and Conditional VaR (PortBench T2 and S5).

``VaR_a = quantile(r, 1 - a)`` of a sample of returns (numpy's linear interpolation between order statistics),
``CVaR_a`` = the mean of the returns at or below that VaR. Both are returns, so a loss reads negative: a one-day
VaR95 of -1.2% means one day in twenty is expected to lose at least 1.2%. Over a horizon of ``h`` sessions the
sample is every overlapping run of ``h`` consecutive daily returns, compounded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

VAR_LEVEL = 0.95
LOOKBACK_SESSIONS = 60
"""Trailing daily returns a decision's VaR and correlations are estimated from (PortBench's 60-day lookback)."""
MIN_RETURNS = 20
"""Fewer trailing daily returns than this and a figure is not computed (said as such, never guessed)."""
MIN_HORIZON_SAMPLES = 10
"""An h-session VaR needs at least this many overlapping h-session returns."""


@dataclass(frozen=True)
class VarEstimate:
    level: float
    horizon: int
    var: float
    cvar: float
    samples: int

    def describe(self) -> str:
        return f"VaR{self.level * 100:.0f} {self.horizon}d {self.var * 100:+.2f}% (CVaR {self.cvar * 100:+.2f}%)"


def horizon_returns(daily: np.ndarray, horizon: int) -> np.ndarray:
    """Every overlapping run of ``horizon`` consecutive daily returns, compounded."""
    daily = np.asarray(daily, dtype=float)
    if horizon <= 1:
        return daily
    if len(daily) < horizon:
        return np.empty(0)
    growth = np.log1p(daily)
    csum = np.concatenate([[0.0], np.cumsum(growth)])
    return np.expm1(csum[horizon:] - csum[:-horizon])


def historical_var(daily: np.ndarray, level: float = VAR_LEVEL, horizon: int = 1) -> VarEstimate | None:
    """VaR and CVaR at ``level`` over ``horizon`` sessions from daily returns; None when there are too few."""
    daily = np.asarray(daily, dtype=float)
    daily = daily[np.isfinite(daily)]
    if len(daily) < MIN_RETURNS:
        return None
    sample = horizon_returns(daily, horizon)
    if horizon > 1 and len(sample) < MIN_HORIZON_SAMPLES:
        return None
    var = float(np.quantile(sample, 1.0 - level))
    tail = sample[sample <= var]
    cvar = float(tail.mean()) if len(tail) else var
    return VarEstimate(level=level, horizon=max(1, horizon), var=var, cvar=cvar, samples=len(sample))
