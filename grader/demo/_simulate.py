"""Run simulated contestants through a season day by day and produce bundle-v1 decision records.

Timing: contestant ``k`` decides at 15:``(30 + 3k) mod 60`` New York time on every trading day of the season,
always before that day's 16:00 close, so its snapshot holds closes up to the previous trading day. Trades fill
at those previous closes. ``decision_seconds`` are synthetic: a per-style log-normal draw from a generator
seeded by the season seed and the contestant id, plus a per-trade increment; one style reports none.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time

from grader.demo._book import Book, MarketView, PointInTimeValues
from grader.demo._strategies import STRATEGIES
from grader.demo._strategy import Strategy
from grader.pit import MARKET_TZ, PointInTimeStore, close_time


@dataclass(frozen=True, slots=True)
class Timing:
    """Synthetic decision-time profile: median seconds, log-normal spread, seconds added per trade."""

    median: float
    spread: float
    per_trade: float


TIMINGS: dict[str, Timing | None] = {
    "momentum": Timing(9.0, 0.25, 1.5),
    "value_quality": Timing(22.0, 0.3, 3.0),
    "thrasher": Timing(6.5, 0.35, 0.5),
    "risk_manager": Timing(31.0, 0.2, 4.0),
    "misquoting": Timing(84.0, 0.3, 6.0),
    "benchmark_hugger": None,  # exercises the no-timing fallback of the efficiency blend
    "mean_reversion": Timing(14.0, 0.3, 2.0),
}

LEAKS: dict[str, str] = {
    "openai": "As an OpenAI model, I only use the data in this snapshot.",
    "anthropic": "Claude here:",
    "xai": "Grok's view:",
    "google": "Speaking as Gemini, I keep this brief.",
    "deepseek": "DeepSeek-R1 reasoning summary:",
}
"""Planted identity leaks by provider family, put in front of a few rationales for the anonymizer to catch."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A simulated contestant: its bundle identity, its style and the days its rationale leaks identity."""

    id: str
    display_name: str
    provider_family: str
    model: str
    style: str
    leak_days: tuple[int, ...] = ()

    def contestant(self) -> dict[str, str]:
        return {
            "id": self.id,
            "display_name": self.display_name,
            "provider_family": self.provider_family,
            "model": self.model,
        }


def decision_time(day: date, k: int) -> datetime:
    """When contestant ``k`` decides on ``day`` (timezone-aware, before the 16:00 close)."""
    return datetime.combine(day, time(15, (30 + 3 * k) % 60), tzinfo=MARKET_TZ)


class _Snapshots:
    """Snapshots cached per interval between consecutive observation instants (identical inside one)."""

    def __init__(self, store: PointInTimeStore, symbols: Sequence[str], instants: list[float]):
        self.store = store
        self.symbols = tuple(symbols)
        self.instants = sorted(set(instants))
        self.cache: dict[int, PointInTimeValues] = {}

    def at(self, when: datetime) -> PointInTimeValues:
        key = bisect_right(self.instants, when.timestamp())
        pit = self.cache.get(key)
        if pit is None:
            pit = self.cache[key] = PointInTimeValues.of(self.store.snapshot(self.symbols, when), self.symbols)
        return pit


def simulate(
    store: PointInTimeStore,
    equities: Sequence[str],
    etfs: Sequence[str],
    days: Sequence[date],
    entrants: Sequence[Entrant],
    starting_cash: float,
    seed: int,
    observation_instants: list[float],
) -> list[dict[str, object]]:
    """Decision records (JSON-ready dicts) for every entrant on every day, sorted by time then contestant.

    ``observation_instants`` are the timestamps at which any value in ``store`` becomes known (every close
    time and every ``fields.csv`` observation); snapshots are shared between decisions with no instant between
    them, which is exact and keeps large synthetic seasons fast.
    """
    snapshots = _Snapshots(store, [*equities, *etfs], observation_instants)
    strategies: list[Strategy] = [STRATEGIES[e.style]() for e in entrants]
    books = [Book(cash=float(starting_cash)) for _ in entrants]
    clocks = [random.Random(f"{seed}:{e.id}") for e in entrants]
    records: list[tuple[datetime, str, dict[str, object]]] = []
    for index, day in enumerate(days):
        new_month = index > 0 and days[index - 1].month != day.month
        for k, entrant in enumerate(entrants):
            decided_at = decision_time(day, k)
            if decided_at >= close_time(day):
                raise AssertionError(f"decision time {decided_at} is not before the close of {day}")
            market = MarketView(
                day=day,
                decided_at=decided_at,
                index=index,
                n_days=len(days),
                pit=snapshots.at(decided_at),
                equities=tuple(equities),
                etfs=tuple(etfs),
                new_month=new_month,
            )
            plan = strategies[k].decide(market, books[k])
            orders = plan.planner.commit()
            rationale = " ".join(plan.sentences)
            if index in entrant.leak_days:
                rationale = f"{LEAKS[entrant.provider_family]} {rationale}"
            record: dict[str, object] = {
                "contestant_id": entrant.id,
                "decided_at": decided_at.isoformat(),
                "trades": [o.as_json() for o in orders],
                "rationale": rationale,
                "decision_seconds": _seconds(TIMINGS[entrant.style], clocks[k], len(orders)),
            }
            if plan.confidence is not None:
                record["confidence"] = plan.confidence
            records.append((decided_at, entrant.id, record))
    records.sort(key=lambda r: (r[0], r[1]))
    return [r[2] for r in records]


def _seconds(timing: Timing | None, rng: random.Random, n_trades: int) -> float | None:
    if timing is None:
        return None
    draw = timing.median * math.exp(rng.gauss(0.0, timing.spread)) + timing.per_trade * n_trades
    return round(max(draw, 0.5), 1)
