"""Styles that hold a portfolio by a rule: value/quality (cheap, profitable names, reviewed on new fundamentals), the
risk manager (low-volatility sleeve with a cash floor) and the benchmark hugger (equal-weight factor-ETF basket)."""

from __future__ import annotations

from grader.demo import _wording as w
from grader.demo._book import MarketView
from grader.demo._strategy import Strategy, ranked_symbols


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
            return {s: i for i, s in enumerate(ranked_symbols(names, key, reverse))}

        cheap = rank(lambda s: m.get(s, "peRatio"), False)
        margin = rank(lambda s: m.get(s, "profitMargin"), True)
        roe = rank(lambda s: m.get(s, "returnOnEquityTTM"), True)
        return sorted(names, key=lambda s: (cheap[s] + margin[s] + roe[s], s))

    def plan(self, m, book, p, f):
        names = m.shared(
            "value.names",
            lambda: [s for s in m.equities if m.has(s, "close", "peRatio", "profitMargin", "returnOnEquityTTM")],
        )
        stamp = m.shared("value.stamp", lambda: {s: m.observed(s, "peRatio") for s in names})
        review = m.index == 0 or stamp != self.seen
        self.seen = stamp
        held = book.held()
        nav = book.nav(m)
        if review and names:
            best = m.shared("value.scored", lambda: self.scored(m, names))[: self.top_n]
            out = ["Reviewing the book on valuation and quality (cheap on P/E, high margins and return on equity)."]
            if held:
                out[0] = "New fundamentals are in; " + out[0][0].lower() + out[0][1:]
            leaving = [s for s in reversed(self.scored(m, held)) if s not in best][: self.max_swaps]
            for s in leaving:
                p.sell(s)
                out.append(f"Selling {s}: {f.pe(s)} and a {f.margin(s)}; it no longer ranks in my top {self.top_n}.")
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
        return ranked_symbols(
            [s for s in names if m.known(s, "volatility20d") < self.entry_vol],
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
                    out.append(f"Trimming {s} by half: its {f.vol(s)} is above my {self.vol_limit:.0%} limit.")
            return out, 0.55
        if dd > self.dd_limit and invested > 0.3:
            out.append(f"The drawdown breaches my {self.dd_limit:.0%} limit; cutting each position by a third.")
            for s in held:
                p.sell(s, max(1, book.shares[s] // 3))
            return out, 0.45
        calm = [s for s in m.shared(f"risk.calm.{self.entry_vol}", lambda: self.calm(m)) if s not in held]
        if invested < 1.0 - self.cash_floor - self.weight and dd < self.dd_limit / 2 and len(held) < self.n and calm:
            for s in calm[: self.n - len(held)]:
                if p.cash - self.weight * nav < self.cash_floor * nav:
                    break
                if p.buy_value(s, self.weight * nav):
                    out.append(f"Adding {s}: its {f.vol(s)} and {f.beta(s)} fit the low-risk sleeve.")
            if len(out) > 1:
                return out, 0.65
        if held:
            lead = ranked_symbols(held, lambda s: book.value(s, m), reverse=True)[0]
            out.append(
                f"All positions are within limits. Largest position {lead} at {book.weight(lead, m, nav):.1%} "
                "of the book."
            )
            out.append(f"{lead}: {f.vol(lead)}, {f.below_high(lead)}.")
            return out, 0.6
        out.append("Staying in cash; nothing passes the volatility screen.")
        return out, 0.4


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
        return ranked_symbols(names, lambda s: abs((m.get(s, "beta") or 0.0) - 1.0))[:5]

    def plan(self, m, book, p, f):
        basket = self._basket(m)
        target = self.invested / len(basket)
        nav = book.nav(m)
        gaps = {s: book.weight(s, m, nav) - target for s in basket}
        if m.index == 0 or m.new_month or max(abs(g) for g in gaps.values()) > self.drift:
            reason = "Opening" if m.index == 0 else "Monthly rebalance of" if m.new_month else "Drift rebalance of"
            out = [
                f"{reason} the equal-weight factor-ETF basket (about {target:.0%} each) to stay close to the S&P 500."
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
