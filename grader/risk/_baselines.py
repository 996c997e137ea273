"""PortBench's classical baselines that a season's data supports (seed 004, section 4 and Appendix C.3), each
bought at the season's entry close and held (like the equal-weight baseline of the outcome columns):

- equal weight over every universe asset with an entry price;
- 60/40: 60% spread equally over the equities class and 40% over the bonds class (only when both exist);
- inverse volatility (PortBench's risk parity, ``w_i ~ 1 / sigma_i``) with ``sigma_i`` from the trailing daily
  returns known at the entry close (``LOOKBACK_SESSIONS``; an asset with fewer than ``MIN_RETURNS`` is left out).

PortBench rebalances its baselines at every rebalance date; ours are held, so they need no schedule. The
covariance risk parity and minimum-variance baselines are not computed (they need an optimiser and more
history than most seasons carry); docs/scoring.md says so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from grader.risk._stress import max_drawdown
from grader.risk._var import LOOKBACK_SESSIONS, MIN_RETURNS

TRADING_DAYS = 252


@dataclass(frozen=True)
class Baseline:
    name: str
    weights: dict[str, float] | None
    nav: pd.Series | None  # starting cash at the entry close, then every season close
    note: str = ""  # why the baseline is unavailable, or a caveat

    def figures(self, risk_free_rate: float = 0.0) -> dict[str, float | None]:
        if self.nav is None:
            return {"return": None, "max_drawdown": None, "volatility": None, "sharpe": None}
        v = self.nav.to_numpy(float)
        r = v[1:] / v[:-1] - 1.0
        sd = float(np.std(r, ddof=1)) if len(r) > 1 else 0.0
        ex = r - risk_free_rate / TRADING_DAYS
        return {
            "return": float(v[-1] / v[0] - 1.0),
            "max_drawdown": max_drawdown(v),
            "volatility": sd * np.sqrt(TRADING_DAYS) if len(r) > 1 else None,
            "sharpe": float(ex.mean() / sd * np.sqrt(TRADING_DAYS)) if sd > 0 else None,
        }


def _hold(weights: dict[str, float], closes: pd.DataFrame, cash: float) -> pd.Series:
    entry = closes.iloc[0]
    value = sum(cash * w / entry[s] * closes[s].ffill() for s, w in weights.items())
    return pd.Series(np.asarray(value, dtype=float), index=closes.index)


def classical_baselines(
    closes: pd.DataFrame, history: pd.DataFrame, class_of: dict[str, str], starting_cash: float
) -> list[Baseline]:
    """``closes``: the season's closes (entry close first; columns: universe symbols); ``history``: closes up to
    and including the entry close (for the trailing volatilities)."""
    priced = [s for s in closes.columns if s in class_of and pd.notna(closes.iloc[0][s])]
    out = []
    if priced:
        w = {s: 1.0 / len(priced) for s in priced}
        out.append(Baseline("equal weight", w, _hold(w, closes, starting_cash)))
    else:
        out.append(Baseline("equal weight", None, None, "no universe asset has an entry price"))
    eq = [s for s in priced if class_of[s] == "equities"]
    bd = [s for s in priced if class_of[s] == "bonds"]
    if eq and bd:
        w = {**{s: 0.6 / len(eq) for s in eq}, **{s: 0.4 / len(bd) for s in bd}}
        out.append(Baseline("60/40", w, _hold(w, closes, starting_cash)))
    else:
        out.append(Baseline("60/40", None, None, "the universe has no " + ("bonds" if eq else "equities")))
    rets = history[priced].pct_change(fill_method=None).iloc[1:].tail(LOOKBACK_SESSIONS)
    sd = rets.std(ddof=1)
    usable = [s for s in priced if rets[s].notna().sum() >= MIN_RETURNS and sd[s] > 0]
    if usable:
        inv = {s: 1.0 / sd[s] for s in usable}
        total = sum(inv.values())
        w = {s: v / total for s, v in inv.items()}
        note = "" if len(usable) == len(priced) else f"{len(priced) - len(usable)} asset(s) without enough history"
        out.append(Baseline("inverse volatility", w, _hold(w, closes, starting_cash), note))
    else:
        out.append(
            Baseline(
                "inverse volatility", None, None, f"no asset has {MIN_RETURNS} daily returns before the entry close"
            )
        )
    return out
