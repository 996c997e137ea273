"""What a simulated contestant sees (a point-in-time view) and what it owns (a cash-and-shares book).

A contestant decides at 15:30 New York on trading day ``d``; its ``MarketView`` is the point-in-time snapshot
at that instant, so the latest close in it is day ``d-1``'s. Orders fill at that close (the last price known
when the decision was made). Sells are placed before buys, never exceed the shares held, and buys never take
cash below zero.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, TypeVar

from grader.pit import Snapshot

T = TypeVar("T")

CASH_BUFFER = 0.01
"""Dollars a buy always leaves in cash, so float rounding in a re-computation can never go negative."""


@dataclass(frozen=True, slots=True)
class PointInTimeValues:
    """A snapshot with its numeric values unpacked (shared by every decision that sees the same snapshot)."""

    snapshot: Snapshot
    values: dict[str, dict[str, float]]
    tradable: tuple[str, ...]
    memo: dict[str, Any] = field(default_factory=dict)  # book-independent results, computed once per snapshot

    @classmethod
    def of(cls, snapshot: Snapshot, symbols: tuple[str, ...]) -> PointInTimeValues:
        values = {
            symbol: {f: float(o.value) for f, o in fields.items() if isinstance(o.value, int | float)}
            for symbol, fields in snapshot.items()
        }
        return cls(snapshot, values, tuple(s for s in symbols if "close" in values.get(s, {})))


@dataclass(frozen=True, slots=True)
class MarketView:
    """The point-in-time values a contestant may use for the decision of one trading day."""

    day: date
    decided_at: datetime
    index: int  # 0-based trading day of the season
    n_days: int
    pit: PointInTimeValues
    equities: tuple[str, ...]
    etfs: tuple[str, ...]
    new_month: bool  # first trading day of a calendar month

    @property
    def snapshot(self) -> Snapshot:
        return self.pit.snapshot

    @property
    def tradable(self) -> tuple[str, ...]:
        """Equities and ETFs with a known close."""
        return self.pit.tradable

    def shared(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()`` once per snapshot: for rankings that do not depend on a contestant's book."""
        memo = self.pit.memo
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def get(self, symbol: str, name: str) -> float | None:
        fields = self.pit.values.get(symbol)
        return None if fields is None else fields.get(name)

    def observed(self, symbol: str, name: str) -> datetime | None:
        obs = self.pit.snapshot.get(symbol, {}).get(name)
        return None if obs is None else obs.observed_at

    def price(self, symbol: str) -> float:
        value = self.get(symbol, "close")
        if value is None:
            raise KeyError(f"no close known for {symbol} at {self.decided_at.isoformat()}")
        return value

    def known(self, symbol: str, name: str) -> float:
        """A field :meth:`has` found known (KeyError when it is not)."""
        value = self.get(symbol, name)
        if value is None:
            raise KeyError(f"no {name} known for {symbol} at {self.decided_at.isoformat()}")
        return value

    def has(self, symbol: str, *names: str) -> bool:
        fields = self.pit.values.get(symbol)
        if fields is None:
            return False
        for name in names:
            if name not in fields:
                return False
        return True


@dataclass(slots=True)
class Book:
    """Cash and whole shares held by one contestant."""

    cash: float
    shares: dict[str, int] = field(default_factory=dict)

    def held(self) -> list[str]:
        return sorted(s for s, n in self.shares.items() if n > 0)

    def value(self, symbol: str, market: MarketView) -> float:
        return self.shares.get(symbol, 0) * market.price(symbol)

    def nav(self, market: MarketView) -> float:
        return self.cash + sum(self.value(s, market) for s in self.held())

    def weight(self, symbol: str, market: MarketView, nav: float | None = None) -> float:
        nav = self.nav(market) if nav is None else nav
        return self.value(symbol, market) / nav if nav > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Order:
    symbol: str
    side: str  # "buy" | "sell"
    quantity: int
    price: float

    def as_json(self) -> dict[str, object]:
        return {"price": self.price, "quantity": self.quantity, "side": self.side, "symbol": self.symbol}


class Planner:
    """Orders of one decision, checked against the book as they are placed; ``commit`` applies them."""

    def __init__(self, book: Book, market: MarketView):
        self.book = book
        self.market = market
        self.cash = book.cash
        self.shares = dict(book.shares)
        self.sells: list[Order] = []
        self.buys: list[Order] = []

    def sell(self, symbol: str, quantity: int | None = None) -> int:
        """Sell ``quantity`` shares (all when None), capped at the shares held; returns shares sold."""
        held = self.shares.get(symbol, 0)
        qty = held if quantity is None else min(int(quantity), held)
        if qty <= 0:
            return 0
        if self.buys:
            raise RuntimeError("place sells before buys")
        price = self.market.price(symbol)
        self.shares[symbol] = held - qty
        self.cash += qty * price
        self.sells.append(Order(symbol, "sell", qty, price))
        return qty

    def sell_value(self, symbol: str, amount: float) -> int:
        return self.sell(symbol, int(amount // self.market.price(symbol)))

    def buy_value(self, symbol: str, amount: float) -> int:
        """Buy whole shares worth at most ``amount`` and at most the spare cash; returns shares bought."""
        price = self.market.price(symbol)
        spend = min(amount, self.cash - CASH_BUFFER)
        qty = int(spend // price) if spend > 0 else 0
        if qty <= 0:
            return 0
        self.shares[symbol] = self.shares.get(symbol, 0) + qty
        self.cash -= qty * price
        self.buys.append(Order(symbol, "buy", qty, price))
        return qty

    def orders(self) -> list[Order]:
        return self.sells + self.buys

    def commit(self) -> list[Order]:
        """Apply the orders to the book in file order (sells, then buys) and return them."""
        for order in self.orders():
            held = self.book.shares.get(order.symbol, 0)
            if order.side == "sell":
                if order.quantity > held:
                    raise RuntimeError(f"sell of {order.quantity} {order.symbol} exceeds {held} held")
                self.book.shares[order.symbol] = held - order.quantity
                self.book.cash += order.quantity * order.price
            else:
                self.book.shares[order.symbol] = held + order.quantity
                self.book.cash -= order.quantity * order.price
                if self.book.cash < 0:
                    raise RuntimeError(f"buy of {order.quantity} {order.symbol} takes cash below zero")
        self.book.shares = {s: n for s, n in self.book.shares.items() if n > 0}
        return self.orders()
