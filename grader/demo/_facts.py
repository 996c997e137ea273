"""The numbers a simulated contestant cites: ``Facts`` reads them from its point-in-time ``MarketView`` in the wording
of ``grader.demo._wording``; ``MisquotedFacts`` cites deliberately wrong ones (the planted contradicted claims)."""

from __future__ import annotations

from grader.demo import _wording as w
from grader.demo._book import MarketView


class Facts:
    """Phrases stating the true point-in-time value of a field for one symbol."""

    def __init__(self, market: MarketView):
        self.m = market

    def v(self, symbol: str, name: str) -> float:
        value = self.m.get(symbol, name)
        if value is None:
            raise KeyError(f"{symbol}.{name} unknown at {self.m.decided_at.isoformat()}")
        return value

    def close(self, s: str) -> str:
        return w.close(self.v(s, "close"))

    def ret(self, s: str, days: int) -> str:
        return w.ret(days, self.v(s, f"return{days}d"))

    def rsi(self, s: str) -> str:
        return w.rsi(self.v(s, "rsi14"))

    def vs(self, s: str, window: int = 50) -> str:
        return w.vs_average(self.v(s, "close"), self.v(s, f"sma{window}"), window)

    def below_high(self, s: str) -> str:
        return w.below_high(self.v(s, "close"), self.v(s, "week52High"))

    def vol(self, s: str) -> str:
        return w.volatility(self.v(s, "volatility20d"))

    def beta(self, s: str) -> str:
        return w.beta(self.v(s, "beta"))

    def macd(self, s: str) -> str:
        return w.macd(self.v(s, "macd"), self.v(s, "macdSignal"))

    def pe(self, s: str) -> str:
        return w.pe(self.v(s, "peRatio"))

    def forward_pe(self, s: str) -> str:
        return w.forward_pe(self.v(s, "forwardPE"))

    def margin(self, s: str) -> str:
        return w.margin(self.v(s, "profitMargin"))

    def roe(self, s: str) -> str:
        return w.roe(self.v(s, "returnOnEquityTTM"))

    def dividend(self, s: str) -> str:
        return w.dividend(self.v(s, "dividendYield"))

    def target(self, s: str) -> str:
        return w.target(self.v(s, "analystTargetPrice"))

    def ratings(self, s: str) -> str:
        return w.ratings(self.v(s, "analystRatingBuy"), self.v(s, "analystRatingHold"), self.v(s, "analystRatingSell"))


def _away(value: float, step: float) -> float:
    """``value`` with its sign flipped and its size grown by ``step`` (a zero counts as positive)."""
    sign = 1.0 if value >= 0 else -1.0
    return -sign * (abs(value) + step)


class MisquotedFacts(Facts):
    """Phrases in the same wording but with materially wrong values (the planted contradictions).

    RSI is quoted 28 points high (28 low above 70); returns and the gap to the 50-/200-day average
    have the wrong sign and a larger size; the close is quoted 7% high; P/E 60% high; volatility halved.
    """

    def rsi(self, s: str) -> str:
        true = self.v(s, "rsi14")
        return w.rsi(true + 28.0 if true <= 70 else true - 28.0)

    def ret(self, s: str, days: int) -> str:
        return w.ret(days, _away(self.v(s, f"return{days}d"), 0.02))

    def vs(self, s: str, window: int = 50) -> str:
        true = self.v(s, "close") / self.v(s, f"sma{window}") - 1.0
        return w.gap(_away(true, 0.015), window)

    def close(self, s: str) -> str:
        return w.close(self.v(s, "close") * 1.07)

    def pe(self, s: str) -> str:
        return w.pe(self.v(s, "peRatio") * 1.6)

    def vol(self, s: str) -> str:
        return w.volatility(self.v(s, "volatility20d") * 0.5)
