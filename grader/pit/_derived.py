"""Fields derived from daily closes, each computed only from closes on or before the as-of day.

Definitions (all on adjusted closes, trading-day index):

- ``close``: the day's close.
- ``return1d``, ``return5d``, ``return20d``: ``close / close.shift(n) - 1``.
- ``sma50``, ``sma200``: simple moving average of the last 50 / 200 closes (needs the full window).
- ``rsi14``: Wilder's RSI over 14 days: average gain and loss seeded with the simple mean of the first 14
  changes, then smoothed ``avg = (prev * 13 + current) / 14``; ``RSI = 100 - 100 / (1 + gain / loss)``
  (100 when there were no losses).
- ``macd``: EMA(12) - EMA(26) of closes (``adjust=False``, span convention); ``macdSignal``: EMA(9) of macd.
  Both need 26 closes before they are reported.
- ``week52High``, ``week52Low``: max / min of the last 252 closes (at least 20 closes).
- ``volatility20d``: standard deviation (ddof=1) of the last 20 daily returns, annualised by sqrt(252).
- ``beta``: covariance of the last 60 daily returns with the benchmark's over the benchmark's variance
  (needs 60 overlapping returns); not computed for the benchmark itself.
- ``avgVolume20d``: mean of the last 20 volumes, when volumes are supplied; ``volume`` is the day's volume.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

DERIVED_PRICE_FIELDS: tuple[str, ...] = (
    "close",
    "return1d",
    "return5d",
    "return20d",
    "sma50",
    "sma200",
    "rsi14",
    "macd",
    "macdSignal",
    "week52High",
    "week52Low",
    "volatility20d",
    "beta",
)
VOLUME_FIELDS: tuple[str, ...] = ("volume", "avgVolume20d")


def derivable_names(derive: bool, has_benchmark: bool, has_volumes: bool) -> set[str]:
    """The names ``derive_fields`` can give a symbol (a short history leaves some of them empty): ``close`` alone
    when nothing is derived, ``beta`` only against a benchmark, the volume fields only with volumes."""
    if not derive:
        return {"close"}
    names = set(DERIVED_PRICE_FIELDS) - (set() if has_benchmark else {"beta"})
    return names | (set(VOLUME_FIELDS) if has_volumes else set())


def wilder_rsi(closes: pd.Series, period: int = 14) -> pd.Series:
    """Wilder's RSI; NaN until ``period`` changes are known."""
    delta = closes.diff().to_numpy()
    n = len(closes)
    out = np.full(n, np.nan)
    if n <= period:
        return pd.Series(out, index=closes.index)
    gains = np.where(delta > 0, delta, 0.0)
    losses = np.where(delta < 0, -delta, 0.0)
    avg_gain = gains[1 : period + 1].mean()
    avg_loss = losses[1 : period + 1].mean()
    for i in range(period, n):
        if i > period:
            avg_gain = (avg_gain * (period - 1) + gains[i]) / period
            avg_loss = (avg_loss * (period - 1) + losses[i]) / period
        out[i] = 100.0 if avg_loss == 0 else 100.0 - 100.0 / (1.0 + avg_gain / avg_loss)
    return pd.Series(out, index=closes.index)


def derive_fields(
    closes: pd.Series, benchmark_closes: pd.Series | None = None, volumes: pd.Series | None = None
) -> pd.DataFrame:
    """Derived fields for one symbol; ``closes`` is indexed by trading date, ascending."""
    closes = closes.astype(float)
    rets = closes.pct_change()
    out = pd.DataFrame(index=closes.index)
    out["close"] = closes
    for n in (1, 5, 20):
        out[f"return{n}d"] = closes / closes.shift(n) - 1.0
    out["sma50"] = closes.rolling(50, min_periods=50).mean()
    out["sma200"] = closes.rolling(200, min_periods=200).mean()
    out["rsi14"] = wilder_rsi(closes)
    ema12 = closes.ewm(span=12, adjust=False).mean()
    ema26 = closes.ewm(span=26, adjust=False).mean()
    macd = ema12 - ema26
    signal = macd.ewm(span=9, adjust=False).mean()
    enough = np.arange(len(closes)) >= 25
    out["macd"] = macd.where(enough)
    out["macdSignal"] = signal.where(enough)
    out["week52High"] = closes.rolling(252, min_periods=20).max()
    out["week52Low"] = closes.rolling(252, min_periods=20).min()
    out["volatility20d"] = rets.rolling(20, min_periods=20).std(ddof=1) * np.sqrt(252.0)
    if benchmark_closes is not None:
        bench = benchmark_closes.reindex(closes.index).astype(float).pct_change()
        cov = rets.rolling(60, min_periods=60).cov(bench)
        var = bench.rolling(60, min_periods=60).var()
        out["beta"] = cov / var
    if volumes is not None and volumes.notna().any():
        out["volume"] = volumes.astype(float)
        out["avgVolume20d"] = volumes.astype(float).rolling(20, min_periods=20).mean()
    return out
