"""Deterministic trading styles of the simulated contestants, each with its own rationale templates.

Every strategy reads only its ``MarketView`` (the point-in-time snapshot at its decision time) and its own
memory of earlier views; it returns orders through a ``Planner`` (so sells never exceed holdings and cash never
goes negative) and a rationale whose numbers come from ``Facts`` -- the snapshot values in the wording of
``grader.demo._wording``. One style, ``misquoting``, cites deliberately wrong numbers through
``MisquotedFacts``: the planted contradicted claims.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from grader.demo import _wording as w
from grader.demo._book import Book, MarketView, Planner


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
        return w.ratings(
            self.v(s, "analystRatingBuy"), self.v(s, "analystRatingHold"), self.v(s, "analystRatingSell")
        )


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


@dataclass(frozen=True, slots=True)
class Plan:
    """One decision before it is written: orders (unapplied), rationale sentences, confidence."""

    planner: Planner
    sentences: list[str]
    confidence: float | None


class Strategy(ABC):
    """A deterministic trading style; one instance per contestant (it may remember earlier views)."""

    style: ClassVar[str]
    summary: ClassVar[str]
    grounded: ClassVar[bool] = True  # every cited number is the true point-in-time value
    facts: ClassVar[type[Facts]] = Facts
    reports_confidence: ClassVar[bool] = True

    def decide(self, market: MarketView, book: Book) -> Plan:
        planner = Planner(book, market)
        sentences, confidence = self.plan(market, book, planner, self.facts(market))
        return Plan(planner, sentences, round(confidence, 2) if self.reports_confidence else None)

    @abstractmethod
    def plan(self, m: MarketView, book: Book, p: Planner, f: Facts) -> tuple[list[str], float]:
        """Place orders on ``p`` and return the rationale sentences and a confidence in 0..1."""


def _ranked(symbols: list[str] | tuple[str, ...], key, reverse: bool = False) -> list[str]:
    """Symbols sorted by ``key`` (ties broken by symbol), highest first when ``reverse``."""
    sign = -1.0 if reverse else 1.0
    return sorted(symbols, key=lambda s: (sign * key(s), s))


class Momentum(Strategy):
    """Weekly rebalance into the top 20-day returns among names above their 50-day average; trend stop."""

    style = "momentum"
    summary = "momentum: weekly rebalance into the strongest 20-day returns above the 50-day average"
    top_n = 4
    every = 5
    weight = 0.24

    @staticmethod
    def ranked(m: MarketView) -> list[str]:
        """Names above their 50-day average with a positive 20-day return, strongest first."""
        candidates = [
            s
            for s in m.tradable
            if m.has(s, "return20d", "sma50") and m.price(s) > m.get(s, "sma50") and m.get(s, "return20d") > 0
        ]
        return _ranked(candidates, lambda s: m.get(s, "return20d"), reverse=True)

    def plan(self, m, book, p, f):
        ranked = m.shared("momentum.ranked", lambda: self.ranked(m))
        held = book.held()
        if m.index % self.every == 0:
            top = ranked[: self.top_n]
            out = [
                "Weekly momentum rebalance: ranking the universe by 20-day return among names trading above "
                "their 50-day average."
            ]
            for s in held:
                if s not in top:
                    p.sell(s)
                    out.append(
                        f"Selling {s}: {f.ret(s, 20)}, {f.vs(s)}; it dropped out of the top {self.top_n}."
                    )
            nav = book.nav(m)
            for s in top:
                if s not in held and p.buy_value(s, self.weight * nav):
                    out.append(f"Buying {s}: {f.ret(s, 20)}, {f.vs(s)}.")
                elif s in held:
                    out.append(f"Keeping {s}: {f.ret(s, 20)}.")
            if not top:
                out.append("No name has a positive 20-day return above its 50-day average; holding cash.")
                return out, 0.35
            out.append(f"Target weight is about {self.weight:.0%} per name, the rest in cash.")
            return out, 0.5 + min(0.4, 2.0 * f.v(top[0], "return20d"))
        stops = [s for s in held if m.price(s) < f.v(s, "sma50")]
        if stops:
            out = []
            for s in stops:
                p.sell(s)
                out.append(f"Trend stop on {s}: now {f.vs(s)} with a {f.ret(s, 5)}; exiting.")
            return out, 0.6
        if held:
            lead = _ranked(held, lambda s: book.value(s, m), reverse=True)[0]
            left = self.every - m.index % self.every
            return [
                f"Holding the momentum book; next rebalance in {left} sessions.",
                f"Largest position {lead}: {f.ret(lead, 5)}, {f.rsi(lead)}.",
            ], 0.55
        if ranked:
            return [
                f"Holding cash until the weekly rebalance; best candidate {ranked[0]} has a "
                f"{f.ret(ranked[0], 20)}."
            ], 0.4
        return ["Holding cash; no name passes the trend filter."], 0.35


class ValueQuality(Strategy):
    """Six cheap, profitable names from the valuation fields; reviews only when fundamentals change."""

    style = "value_quality"
    summary = "value/quality: low P/E with high margins and ROE; reviews only on new fundamentals"
    top_n = 6
    weight = 0.15
    max_swaps = 2
    max_weight = 0.22

    def __init__(self) -> None:
        self.seen: dict[str, object] = {}

    @staticmethod
    def scored(m: MarketView, names: list[str]) -> list[str]:
        """Best first by the sum of ranks: low P/E, high profit margin, high return on equity."""

        def rank(key, reverse):
            return {s: i for i, s in enumerate(_ranked(names, key, reverse))}

        cheap = rank(lambda s: m.get(s, "peRatio"), False)
        margin = rank(lambda s: m.get(s, "profitMargin"), True)
        roe = rank(lambda s: m.get(s, "returnOnEquityTTM"), True)
        return sorted(names, key=lambda s: (cheap[s] + margin[s] + roe[s], s))

    def plan(self, m, book, p, f):
        names = m.shared(
            "value.names",
            lambda: [
                s for s in m.equities if m.has(s, "close", "peRatio", "profitMargin", "returnOnEquityTTM")
            ],
        )
        stamp = m.shared("value.stamp", lambda: {s: m.observed(s, "peRatio") for s in names})
        review = m.index == 0 or stamp != self.seen
        self.seen = stamp
        held = book.held()
        nav = book.nav(m)
        if review and names:
            best = m.shared("value.scored", lambda: self.scored(m, names))[: self.top_n]
            out = [
                "Reviewing the book on valuation and quality (cheap on P/E, high margins and return on equity)."
            ]
            if held:
                out[0] = "New fundamentals are in; " + out[0][0].lower() + out[0][1:]
            leaving = [s for s in reversed(self.scored(m, held)) if s not in best][: self.max_swaps]
            for s in leaving:
                p.sell(s)
                out.append(
                    f"Selling {s}: {f.pe(s)} and a {f.margin(s)}; it no longer ranks in my top {self.top_n}."
                )
            slots = self.top_n - (len(held) - len(leaving))
            for s in [s for s in best if s not in held][: max(slots, 0)]:
                if p.buy_value(s, self.weight * nav):
                    upside = f"{f.target(s)} against a {f.close(s)}" if m.has(s, "analystTargetPrice") else ""
                    tail = f"; {upside}" if upside else ""
                    out.append(f"Buying {s}: {f.pe(s)}, {f.margin(s)} and {f.roe(s)}{tail}.")
            if len(out) == 1:
                out.append("The ranking is unchanged; no trades.")
            return out, 0.7
        heavy = [s for s in held if book.weight(s, m, nav) > self.max_weight]
        if heavy:
            out = []
            for s in heavy:
                p.sell_value(s, book.value(s, m) - self.weight * nav)
                out.append(
                    f"Trimming {s} back to about {self.weight:.0%} of the book after it grew to "
                    f"{book.weight(s, m, nav):.1%}; {f.pe(s)}."
                )
            return out, 0.65
        if held:
            s = held[m.index % len(held)]
            extra = f.dividend(s) if m.has(s, "dividendYield") else f.forward_pe(s)
            return ["Holding; no new fundamentals since the last review.", f"{s}: {f.pe(s)}, {extra}."], 0.65
        return ["Holding cash; no name has the valuation fields I need."], 0.3


class Thrasher(Strategy):
    """Buys the hottest 5-day name, then sells it two sessions later on the opposite story; repeats."""

    style = "thrasher"
    summary = "thrasher: buys on a breakout story and re-sells the same name days later on the opposite story"
    size = 0.3

    @staticmethod
    def hottest(m: MarketView) -> str:
        names = [s for s in m.equities if m.has(s, "close", "return5d", "rsi14", "return1d")]
        return _ranked(names, lambda s: m.get(s, "return5d"), reverse=True)[0]

    def plan(self, m, book, p, f):
        phase = m.index % 3
        held = book.held()
        if phase == 2 and held:
            out = []
            for s in held:
                p.sell(s)
                r1 = f.v(s, "return1d")
                why = "confirms the move is exhausted" if r1 < 0 else "is just a last gasp of a tired move"
                out.append(
                    f"Reversing on {s}: {f.rsi(s)} looks stretched and the {f.ret(s, 1)} {why}; "
                    "selling the whole position."
                )
            return out, 0.8
        if phase == 0 and not held:
            s = m.shared("thrasher.hottest", lambda: self.hottest(m))
            p.buy_value(s, self.size * book.nav(m))
            story = "strong momentum" if f.v(s, "return5d") > 0 else "a sharp rebound setup"
            return [
                f"{s} is breaking out: the {f.ret(s, 5)} and {f.rsi(s)} show {story}; buying "
                f"about {self.size:.0%} of the book."
            ], 0.85
        if held:
            s = held[0]
            return [f"Watching {s}: {f.ret(s, 1)}."], 0.5
        return ["Flat; waiting for the next breakout."], 0.45


class RiskManager(Strategy):
    """Low-volatility sleeve with a cash floor; trims volatile names and de-risks on drawdown."""

    style = "risk_manager"
    summary = "risk manager: low-volatility sleeve, 40% cash floor, volatility and drawdown limits"
    n = 5
    weight = 0.12
    vol_limit = 0.30
    entry_vol = 0.25
    dd_limit = 0.03
    cash_floor = 0.4
    min_weight = 0.02  # a trim that would leave less than this exits the position instead

    def __init__(self) -> None:
        self.peak = 0.0

    def calm(self, m: MarketView) -> list[str]:
        """Names under the entry volatility, calmest first."""
        names = [s for s in m.tradable if m.has(s, "volatility20d", "beta", "week52High")]
        return _ranked(
            [s for s in names if m.get(s, "volatility20d") < self.entry_vol],
            lambda s: m.get(s, "volatility20d"),
        )

    def plan(self, m, book, p, f):
        nav = book.nav(m)
        self.peak = max(self.peak, nav)
        dd = 1.0 - nav / self.peak
        held = book.held()
        invested = 1.0 - book.cash / nav
        out = [
            f"Risk check at the prior closes: book value {w.money(nav)}, {dd:.1%} below its peak of "
            f"{w.money(self.peak)}; cash is {book.cash / nav:.1%} of the book."
        ]
        hot = [s for s in held if f.v(s, "volatility20d") > self.vol_limit]
        if hot:
            for s in hot:
                if book.weight(s, m, nav) < 2 * self.min_weight:
                    p.sell(s)
                    out.append(f"Exiting {s}: its {f.vol(s)} is above my {self.vol_limit:.0%} limit.")
                else:
                    p.sell(s, book.shares[s] // 2)
                    out.append(
                        f"Trimming {s} by half: its {f.vol(s)} is above my {self.vol_limit:.0%} limit."
                    )
            return out, 0.55
        if dd > self.dd_limit and invested > 0.3:
            out.append(
                f"The drawdown breaches my {self.dd_limit:.0%} limit; cutting each position by a third."
            )
            for s in held:
                p.sell(s, max(1, book.shares[s] // 3))
            return out, 0.45
        calm = [s for s in m.shared(f"risk.calm.{self.entry_vol}", lambda: self.calm(m)) if s not in held]
        if (
            invested < 1.0 - self.cash_floor - self.weight
            and dd < self.dd_limit / 2
            and len(held) < self.n
            and calm
        ):
            for s in calm[: self.n - len(held)]:
                if p.cash - self.weight * nav < self.cash_floor * nav:
                    break
                if p.buy_value(s, self.weight * nav):
                    out.append(f"Adding {s}: its {f.vol(s)} and {f.beta(s)} fit the low-risk sleeve.")
            if len(out) > 1:
                return out, 0.65
        if held:
            lead = _ranked(held, lambda s: book.value(s, m), reverse=True)[0]
            out.append(
                f"All positions are within limits. Largest position {lead} at {book.weight(lead, m, nav):.1%} "
                "of the book."
            )
            out.append(f"{lead}: {f.vol(lead)}, {f.below_high(lead)}.")
            return out, 0.6
        out.append("Staying in cash; nothing passes the volatility screen.")
        return out, 0.4


class Misquoting(Strategy):
    """Buys the weakest 20-day names believing they are strong: its rationales misquote the data."""

    style = "misquoting"
    summary = "misquoting: buys what it wrongly describes as strength, citing wrong numbers (planted)"
    grounded = False
    facts = MisquotedFacts
    size = 0.15
    max_names = 4

    @staticmethod
    def weakest(m: MarketView) -> list[str]:
        names = [s for s in m.equities if m.has(s, "close", "rsi14", "return20d", "return5d", "sma50")]
        return _ranked(names, lambda s: m.get(s, "return20d"))

    def plan(self, m, book, p, f):
        held = book.held()
        if m.index % 3 == 0:
            out = []
            if len(held) >= self.max_names:
                s = _ranked(held, lambda s: f.v(s, "return5d"), reverse=True)[0]
                p.sell(s)
                out.append(f"Selling {s}: the {f.ret(s, 5)} and a {f.close(s)} show the trend has turned.")
            weakest = m.shared("misquoting.weakest", lambda: self.weakest(m))
            fresh = [s for s in weakest if s not in held]
            if fresh and p.buy_value(fresh[0], self.size * book.nav(m)):
                s = fresh[0]
                out.append(f"Buying {s}: {f.rsi(s)}, a {f.ret(s, 20)} and {f.vs(s)} confirm the uptrend.")
            if out:
                return out, 0.9
        if held:
            s = held[m.index % len(held)]
            return [f"Holding {s}: {f.rsi(s)} and {f.vs(s)}; the thesis is intact."], 0.85
        return ["Holding cash today."], 0.5


class BenchmarkHugger(Strategy):
    """Equal-weight basket of the factor ETFs, rebalanced monthly or on drift: tracks the index."""

    style = "benchmark_hugger"
    summary = "benchmark hugger: equal-weight factor-ETF basket, monthly or drift rebalance"
    reports_confidence = False
    invested = 0.95
    drift = 0.03

    def _basket(self, m: MarketView) -> list[str]:
        etfs = [s for s in m.etfs if m.has(s, "close")]
        if etfs:
            return etfs
        names = [s for s in m.equities if m.has(s, "close", "beta")]
        return _ranked(names, lambda s: abs((m.get(s, "beta") or 0.0) - 1.0))[:5]

    def plan(self, m, book, p, f):
        basket = self._basket(m)
        target = self.invested / len(basket)
        nav = book.nav(m)
        gaps = {s: book.weight(s, m, nav) - target for s in basket}
        if m.index == 0 or m.new_month or max(abs(g) for g in gaps.values()) > self.drift:
            reason = (
                "Opening" if m.index == 0 else "Monthly rebalance of" if m.new_month else "Drift rebalance of"
            )
            out = [
                f"{reason} the equal-weight factor-ETF basket (about {target:.0%} each) to stay close to "
                "the S&P 500."
            ]
            for s in basket:
                if gaps[s] > 0.005 and p.sell_value(s, gaps[s] * nav):
                    out.append(f"Trimming {s} from {book.weight(s, m, nav):.1%} of the book; {f.beta(s)}.")
            for s in basket:
                if gaps[s] < -0.005 and p.buy_value(s, -gaps[s] * nav):
                    weight = book.weight(s, m, nav)
                    verb = f"Topping up {s} from {weight:.1%} of the book" if weight else f"Buying {s}"
                    out.append(f"{verb}; {f.beta(s)}.")
            if len(out) == 1:
                out.append("Weights are already on target; no trades.")
            return out, 0.0
        s = basket[m.index % len(basket)]
        return [f"Holding the basket; tracking the index. {s}: {f.beta(s)}, {f.ret(s, 5)}."], 0.0


class MeanReversion(Strategy):
    """Buys oversold names (low RSI, well below the 50-day average); sells on recovery or a time stop."""

    style = "mean_reversion"
    summary = (
        "mean reversion: buys oversold RSI below the 50-day average, sells on recovery or after 12 sessions"
    )
    max_names = 5
    weight = 0.12
    entry_rsi = 38.0
    exit_rsi = 55.0
    max_days = 12

    def __init__(self) -> None:
        self.entered: dict[str, int] = {}

    @staticmethod
    def by_rsi(m: MarketView) -> list[str]:
        names = [s for s in m.equities if m.has(s, "close", "rsi14", "sma50", "return5d")]
        return _ranked(names, lambda s: m.get(s, "rsi14"))

    def plan(self, m, book, p, f):
        held = book.held()
        out: list[str] = []
        for s in held:
            if f.v(s, "rsi14") > self.exit_rsi:
                p.sell(s)
                out.append(f"{s} has reverted: {f.rsi(s)}; taking the profit.")
            elif m.index - self.entered.get(s, m.index) >= self.max_days:
                p.sell(s)
                out.append(f"Time stop on {s} after {self.max_days} sessions: {f.rsi(s)}, {f.ret(s, 5)}.")
        sold = {o.symbol for o in p.sells}
        for s in sold:
            self.entered.pop(s, None)
        by_rsi = m.shared("reversion.by_rsi", lambda: self.by_rsi(m))
        oversold = [
            s
            for s in by_rsi
            if m.get(s, "rsi14") < self.entry_rsi and m.price(s) < 0.97 * m.get(s, "sma50") and s not in held
        ]
        room = self.max_names - (len(held) - len(sold))
        nav = book.nav(m)
        for s in oversold[: max(room, 0)]:
            if p.buy_value(s, self.weight * nav):
                self.entered[s] = m.index
                out.append(
                    f"{s} looks oversold: {f.rsi(s)}, {f.vs(s)}; buying about {self.weight:.0%} of the book."
                )
        if out:
            return out, 0.6
        if held:
            out.append(f"Holding {', '.join(held)}.")
        if by_rsi:
            low = by_rsi[0]
            out.append(
                "No new setup passes both entry filters (an oversold RSI and a close well under the "
                f"50-day line); the lowest reading is {low} with {f.rsi(low)}."
            )
            return out, 0.5
        return [*out, "No data to act on; holding."], 0.3


STRATEGIES: dict[str, type[Strategy]] = {
    cls.style: cls
    for cls in (Momentum, ValueQuality, Thrasher, RiskManager, Misquoting, BenchmarkHugger, MeanReversion)
}
"""Style name -> strategy class, in the order the synthetic generator cycles them."""
