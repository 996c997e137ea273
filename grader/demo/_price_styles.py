"""Styles that trade on price action: momentum, mean reversion, the thrasher (buys a breakout, re-sells it days
later on the opposite story) and the misquoting buyer of weakness (its rationales cite wrong numbers)."""

from __future__ import annotations

from grader.demo._book import MarketView
from grader.demo._facts import MisquotedFacts
from grader.demo._strategy import Strategy, ranked_symbols


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
            if m.has(s, "return20d", "sma50") and m.price(s) > m.known(s, "sma50") and m.known(s, "return20d") > 0
        ]
        return ranked_symbols(candidates, lambda s: m.get(s, "return20d"), reverse=True)

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
                    out.append(f"Selling {s}: {f.ret(s, 20)}, {f.vs(s)}; it dropped out of the top {self.top_n}.")
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
            lead = ranked_symbols(held, lambda s: book.value(s, m), reverse=True)[0]
            left = self.every - m.index % self.every
            return [
                f"Holding the momentum book; next rebalance in {left} sessions.",
                f"Largest position {lead}: {f.ret(lead, 5)}, {f.rsi(lead)}.",
            ], 0.55
        if ranked:
            return [
                f"Holding cash until the weekly rebalance; best candidate {ranked[0]} has a {f.ret(ranked[0], 20)}."
            ], 0.4
        return ["Holding cash; no name passes the trend filter."], 0.35


class Thrasher(Strategy):
    """Buys the hottest 5-day name, then sells it two sessions later on the opposite story; repeats."""

    style = "thrasher"
    summary = "thrasher: buys on a breakout story and re-sells the same name days later on the opposite story"
    size = 0.3

    @staticmethod
    def hottest(m: MarketView) -> str:
        names = [s for s in m.equities if m.has(s, "close", "return5d", "rsi14", "return1d")]
        return ranked_symbols(names, lambda s: m.get(s, "return5d"), reverse=True)[0]

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
        return ranked_symbols(names, lambda s: m.get(s, "return20d"))

    def plan(self, m, book, p, f):
        held = book.held()
        if m.index % 3 == 0:
            out = []
            if len(held) >= self.max_names:
                s = ranked_symbols(held, lambda s: f.v(s, "return5d"), reverse=True)[0]
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


class MeanReversion(Strategy):
    """Buys oversold names (low RSI, well below the 50-day average); sells on recovery or a time stop."""

    style = "mean_reversion"
    summary = "mean reversion: buys oversold RSI below the 50-day average, sells on recovery or after 12 sessions"
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
        return ranked_symbols(names, lambda s: m.get(s, "rsi14"))

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
                out.append(f"{s} looks oversold: {f.rsi(s)}, {f.vs(s)}; buying about {self.weight:.0%} of the book.")
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
