"""Portfolio replay of a trading season: holdings, cash and NAV per trading day; outcome and process facts.

Definitions (documented in docs/scoring.md):

- The season window runs from the *entry close* (the last benchmark close before the season's first
  trading day, or that day's close when no earlier one exists) to the last close in the season. NAV at
  the entry close is ``starting_cash``. Trades execute at their stated price when they are decided; NAV on
  a day is cash plus holdings valued at that day's close.
- ``return`` = NAV_end / starting_cash - 1; ``benchmark_return`` over the same close-to-close window;
  ``alpha`` = return - benchmark_return.
- Hindsight oracle: the best buy-and-hold asset of the universe over the window (benchmark excluded unless
  it is in the universe). ``oracle_score`` = 100 × return / oracle return, unavailable (None) when the
  oracle return is ≤ 0 and the return is negative (seed 001). ``regret`` = oracle return - return.
- Daily returns r_t of NAV; rf_d = risk_free_rate / 252. ``sharpe`` = mean(r - rf_d) / std(r, ddof=1) ×
  √252; ``sortino`` = mean(r - rf_d) / sqrt(mean(min(0, r - rf_d)²)) × √252; ``volatility`` = std(r) × √252;
  ``max_drawdown`` = max over t of 1 - NAV_t / max_{s≤t} NAV_s (a positive fraction).
- Equal-weight baseline: equal weights in every universe asset bought at the entry close and held.
- Process facts: ``turnover`` = traded notional / mean NAV; ``hhi`` = mean over days of Σ w_i² of position
  weights in NAV (cash excluded); ``max_position_weight``; ``sector_hhi`` likewise over sector weights;
  ``cash_weight_mean``; thrash events = a buy and a sell of the same symbol within 10 trading days
  (either order), each with both rationales attached; ``current_drawdown`` at the end.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from grader._lazy import LazyMapping
from grader.pit import MARKET_TZ
from grader.scoring import oracle_score
from grader.season import Decision, SeasonBundle

THRASH_WINDOW_DAYS = 10
TRADING_DAYS = 252


@dataclass(frozen=True)
class ThrashEvent:
    symbol: str
    first_side: str
    first_at: str
    first_rationale: str
    second_side: str
    second_at: str
    second_rationale: str
    trading_days_apart: int


@dataclass
class OutcomeMetrics:
    available: bool
    portfolio_return: float | None = None
    benchmark_return: float | None = None
    alpha: float | None = None
    oracle_symbol: str | None = None
    oracle_return: float | None = None
    oracle_score: float | None = None
    regret: float | None = None
    sharpe: float | None = None
    sortino: float | None = None
    volatility: float | None = None
    max_drawdown: float | None = None
    equal_weight_return: float | None = None

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class ProcessFacts:
    decisions: int
    trades: int
    hold_decisions: int
    turnover: float
    hhi: float
    max_position_weight: float
    sector_hhi: float
    top_sector: str | None
    top_sector_weight: float
    cash_weight_mean: float
    max_drawdown: float
    current_drawdown: float
    thrash_events: list[ThrashEvent] = field(default_factory=list)

    def as_dict(self) -> dict:
        d = dict(self.__dict__)
        d["thrash_count"] = len(self.thrash_events)
        d["thrash_events"] = [e.__dict__ for e in self.thrash_events]
        return d


@dataclass
class ContestantReplay:
    contestant_id: str
    nav: pd.Series  # date -> NAV at close
    benchmark_nav: pd.Series  # benchmark scaled to starting cash
    holdings: pd.DataFrame  # date x symbol quantities at close
    cash: pd.Series
    outcome: OutcomeMetrics
    facts: ProcessFacts

    @cached_property
    def days(self) -> list[date]:
        """The replay's trading days, in order (the index of ``nav``, ``cash`` and ``holdings``)."""
        return list(self.nav.index)

    def row_through(self, day: date) -> int:
        """Position of the last replay day on or before ``day`` (-1: none)."""
        return bisect_right(self.days, day) - 1

    def row_before(self, day: date) -> int:
        """Position of the last replay day strictly before ``day`` (-1: none)."""
        return bisect_left(self.days, day) - 1

    @cached_property
    def _quantities(self) -> np.ndarray:
        return self.holdings.to_numpy(float)

    @cached_property
    def _symbols(self) -> tuple[str, ...]:
        """The holdings' columns as a tuple: read per decision, and an Arrow-backed index yields each name slowly."""
        return tuple(self.holdings.columns)

    def held_at(self, row: int) -> list[tuple[str, float]]:
        """(symbol, quantity) of each position open at that day's close (quantity above 1e-9), in column order."""
        qty = self._quantities[row]
        return [(symbol, qty[j]) for j, symbol in enumerate(self._symbols) if qty[j] > 1e-9]


def _close_matrix(bundle: SeasonBundle, days: list[date], entry: date) -> pd.DataFrame:
    prices = bundle.prices
    wide = prices.pivot(index="date", columns="symbol", values="close").sort_index()
    wide = wide.ffill()
    return wide.loc[[entry, *days]] if entry not in days else wide.loc[days]


def _day_row(closes: pd.DataFrame, day: date) -> pd.Series:
    """One day's closes by symbol (the matrix has one row a day)."""
    row = closes.loc[day]
    if not isinstance(row, pd.Series):
        raise ValueError(f"{day}: more than one row of closes")
    return row


def replay_season(bundle: SeasonBundle) -> dict[str, ContestantReplay]:
    """Replay every contestant of a trading season (``format: trading``)."""
    return dict(SeasonReplays(bundle))


class SeasonReplays(LazyMapping[str, ContestantReplay]):
    """:func:`replay_season` as a mapping that replays a contestant when first asked (a streamed grading run's
    first prompt does not wait for every contestant's replay); what every replay shares (the season's closes, the
    benchmark, the oracle) once, up front."""

    def __init__(self, bundle: SeasonBundle) -> None:
        basis = _ReplayBasis.of(bundle)
        super().__init__(
            basis.by_contestant if basis is not None else (), basis.replay if basis is not None else _no_replay
        )


def _no_replay(contestant_id: str) -> ContestantReplay:
    raise KeyError(contestant_id)  # never called: a season without trading days has no keys


@dataclass
class _ReplayBasis:
    """What every contestant's replay of a season shares."""

    info: Any
    days: list[date]
    by_contestant: dict[str, list[Decision]]
    symbols: list[str]
    col_of: dict[str, int]
    px: np.ndarray
    day_index: dict[date, int]
    sector_of: dict[str, str]
    bench_ret: float
    bench_nav: pd.Series
    oracle_sym: str | None
    oracle_ret: float | None
    ew_ret: float | None

    @classmethod
    def of(cls, bundle: SeasonBundle) -> _ReplayBasis | None:
        info = bundle.info
        days = bundle.trading_days
        if not days:
            return None
        bench_days = sorted(bundle.prices.loc[bundle.prices["symbol"] == info.benchmark, "date"])
        before = [d for d in bench_days if d < days[0]]
        entry = before[-1] if before else days[0]
        closes = _close_matrix(bundle, days, entry)
        season_closes = closes.loc[days]
        universe = [u.symbol for u in info.universe if u.symbol in closes.columns]
        sector_of = {u.symbol: (u.sector or "unknown") for u in info.universe}

        entry_px = _day_row(closes, entry)
        end_px = _day_row(closes, days[-1])
        bench_ret = float(end_px[info.benchmark] / entry_px[info.benchmark] - 1.0)
        asset_rets = {s: float(end_px[s] / entry_px[s] - 1.0) for s in universe if not math.isnan(entry_px[s])}
        oracle_sym = max(asset_rets, key=asset_rets.__getitem__) if asset_rets else None
        oracle_ret = asset_rets[oracle_sym] if oracle_sym else None
        ew_ret = float(np.mean(list(asset_rets.values()))) if asset_rets else None
        bench_nav = info.starting_cash * season_closes[info.benchmark] / entry_px[info.benchmark]

        by_contestant: dict[str, list[Decision]] = {c.id: [] for c in bundle.contestants}
        for d in bundle.decisions:
            by_contestant.setdefault(d.contestant_id, []).append(d)
        symbols = list(season_closes.columns)
        px = season_closes.to_numpy(float)
        px = np.where(np.isnan(px), 0.0, px)
        return cls(
            info=info,
            days=days,
            by_contestant=by_contestant,
            symbols=symbols,
            col_of={s: i for i, s in enumerate(symbols)},
            px=px,
            day_index={d: i for i, d in enumerate(days)},
            sector_of=sector_of,
            bench_ret=bench_ret,
            bench_nav=bench_nav,
            oracle_sym=oracle_sym,
            oracle_ret=oracle_ret,
            ew_ret=ew_ret,
        )

    def replay(self, cid: str) -> ContestantReplay:
        info, days, day_index, symbols, col_of, px = (
            self.info,
            self.days,
            self.day_index,
            self.symbols,
            self.col_of,
            self.px,
        )
        sector_of, bench_ret, oracle_ret = self.sector_of, self.bench_ret, self.oracle_ret
        decisions = self.by_contestant[cid]
        qty_delta = np.zeros((len(days), len(symbols)))
        cash_delta = np.zeros(len(days))
        notional = 0.0
        trade_log: list[tuple[int, str, str, Decision]] = []
        n_trades = 0
        for d in decisions:
            day = d.decided_at.astimezone(MARKET_TZ).date()
            i = day_index.get(day)
            if i is None:  # a non-trading day: the trade settles into the next trading day's close
                later = [k for k in days if k > day]
                if not later:
                    continue
                i = day_index[later[0]]
            for t in d.trades:
                sign = 1.0 if t.side == "buy" else -1.0
                qty_delta[i, col_of[t.symbol]] += sign * t.quantity
                cash_delta[i] -= sign * t.quantity * t.price
                notional += t.quantity * t.price
                trade_log.append((i, t.symbol, t.side, d))
                n_trades += 1
        qty = np.cumsum(qty_delta, axis=0)
        cash = info.starting_cash + np.cumsum(cash_delta)
        values = qty * px
        nav = cash + values.sum(axis=1)
        nav_s = pd.Series(nav, index=days)
        full_nav = np.concatenate([[info.starting_cash], nav])
        rets = full_nav[1:] / full_nav[:-1] - 1.0
        rf_d = info.risk_free_rate / TRADING_DAYS
        excess = rets - rf_d
        sd = float(np.std(rets, ddof=1)) if len(rets) > 1 else 0.0
        downside = float(np.sqrt(np.mean(np.minimum(0.0, excess) ** 2)))
        peak = np.maximum.accumulate(full_nav)
        dd = 1.0 - full_nav / peak
        port_ret = float(nav[-1] / info.starting_cash - 1.0)
        outcome = OutcomeMetrics(
            available=True,
            portfolio_return=port_ret,
            benchmark_return=bench_ret,
            alpha=port_ret - bench_ret,
            oracle_symbol=self.oracle_sym,
            oracle_return=oracle_ret,
            oracle_score=oracle_score(port_ret, oracle_ret) if oracle_ret is not None else None,
            regret=(oracle_ret - port_ret) if oracle_ret is not None else None,
            sharpe=float(excess.mean() / sd * math.sqrt(TRADING_DAYS)) if sd > 0 else None,
            sortino=float(excess.mean() / downside * math.sqrt(TRADING_DAYS)) if downside > 0 else None,
            volatility=sd * math.sqrt(TRADING_DAYS),
            max_drawdown=float(dd.max()),
            equal_weight_return=self.ew_ret,
        )
        pos_w = np.divide(values, nav[:, None], out=np.zeros_like(values), where=nav[:, None] > 0)
        pos_w = np.clip(pos_w, 0.0, None)
        hhi = float((pos_w**2).sum(axis=1).mean())
        sectors = sorted({sector_of.get(s, "unknown") for s in symbols})
        sec_w = np.zeros((len(days), len(sectors)))
        for s, j in col_of.items():
            if s in sector_of:
                sec_w[:, sectors.index(sector_of[s])] += pos_w[:, j]
        mean_sec = sec_w.mean(axis=0)
        top = int(mean_sec.argmax()) if mean_sec.size and mean_sec.max() > 0 else None
        facts = ProcessFacts(
            decisions=len(decisions),
            trades=n_trades,
            hold_decisions=sum(1 for d in decisions if not d.trades and d.allocation is None),
            turnover=float(notional / nav.mean()) if nav.mean() > 0 else 0.0,
            hhi=hhi,
            max_position_weight=float(pos_w.max()) if pos_w.size else 0.0,
            sector_hhi=float((sec_w**2).sum(axis=1).mean()),
            top_sector=sectors[top] if top is not None else None,
            top_sector_weight=float(mean_sec[top]) if top is not None else 0.0,
            cash_weight_mean=float(np.mean(np.divide(cash, nav, out=np.zeros_like(nav), where=nav > 0))),
            max_drawdown=float(dd.max()),
            current_drawdown=float(dd[-1]),
            thrash_events=_thrash(trade_log),
        )
        return ContestantReplay(
            contestant_id=cid,
            nav=nav_s,
            benchmark_nav=self.bench_nav,
            holdings=pd.DataFrame(qty, index=days, columns=symbols),
            cash=pd.Series(cash, index=days),
            outcome=outcome,
            facts=facts,
        )


def _thrash(trade_log: list[tuple[int, str, str, Decision]]) -> list[ThrashEvent]:
    """A buy and a sell of the same symbol within ``THRASH_WINDOW_DAYS`` trading days (either order)."""
    events: list[ThrashEvent] = []
    last: dict[str, tuple[int, str, Decision]] = {}
    for i, symbol, side, d in sorted(trade_log, key=lambda x: (x[0], x[3].decided_at)):
        prev = last.get(symbol)
        if prev is not None and prev[1] != side and i - prev[0] <= THRASH_WINDOW_DAYS:
            events.append(
                ThrashEvent(
                    symbol=symbol,
                    first_side=prev[1],
                    first_at=prev[2].decided_at.isoformat(),
                    first_rationale=prev[2].rationale,
                    second_side=side,
                    second_at=d.decided_at.isoformat(),
                    second_rationale=d.rationale,
                    trading_days_apart=i - prev[0],
                )
            )
        last[symbol] = (i, side, d)
    return events
