"""What a trading style is: a ``Strategy`` places orders through a ``Planner`` and returns a ``Plan`` (orders,
rationale sentences, confidence) whose numbers come from its ``Facts``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from grader.demo._book import Book, MarketView, Planner
from grader.demo._facts import Facts


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


def ranked_symbols(symbols: list[str] | tuple[str, ...], key, reverse: bool = False) -> list[str]:
    """Symbols sorted by ``key`` (ties broken by symbol), highest first when ``reverse``."""
    sign = -1.0 if reverse else 1.0
    return sorted(symbols, key=lambda s: (sign * key(s), s))
