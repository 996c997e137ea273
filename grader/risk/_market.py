"""A season's market for its risk figures: daily closes (date x symbol) and their trailing windows, point-in-time
(nothing after a window's last close is read), and the season's decision interval. Re-exported by ``grader.risk``
(``season_market``, ``decision_interval``)."""

from __future__ import annotations

from datetime import date

import numpy as np
import pandas as pd

from grader.pit import MARKET_TZ
from grader.risk._correlation import ClassCorrelations, class_correlations
from grader.risk._var import LOOKBACK_SESSIONS
from grader.season import SeasonBundle


class SeasonMarket:
    """Daily closes of a trading season (date x symbol, sorted; no fill) and their trailing windows, held as numpy
    arrays: a season of 250 sessions and 50 contestants asks for 12,500 windows."""

    def __init__(self, bundle: SeasonBundle):
        self.wide = bundle.prices.pivot(index="date", columns="symbol", values="close").sort_index()
        self.filled = self.wide.ffill()
        self.dates = list(self.wide.index)
        self.column = {s: i for i, s in enumerate(self.wide.columns)}
        self._closes = self.wide.to_numpy(float)
        self._filled = self.filled.to_numpy(float)
        self._days = np.array(self.dates, dtype="datetime64[D]")
        self._row = {d: i for i, d in enumerate(self.dates)}
        self._stats: dict[date, ClassCorrelations] = {}
        self._returns: dict[date, np.ndarray] = {}

    def last_close_before(self, day: date) -> date | None:
        i = int(np.searchsorted(self._days, np.datetime64(day), side="left"))
        return self.dates[i - 1] if i > 0 else None

    def returns_to(self, as_of: date) -> np.ndarray:
        """The ``LOOKBACK_SESSIONS`` daily returns ending at ``as_of`` (sessions x symbols, NaN where a close is
        missing; closes after ``as_of`` are never read)."""
        if as_of not in self._returns:
            end = self._row[as_of] + 1
            closes = self._closes[max(0, end - LOOKBACK_SESSIONS - 1) : end]
            with np.errstate(divide="ignore", invalid="ignore"):
                self._returns[as_of] = closes[1:] / closes[:-1] - 1.0
        return self._returns[as_of]

    def stats(self, as_of: date, class_of: dict[str, str]) -> ClassCorrelations:
        if as_of not in self._stats:
            frame = pd.DataFrame(self.returns_to(as_of), columns=self.wide.columns)
            self._stats[as_of] = class_correlations(frame, class_of)
        return self._stats[as_of]

    def close(self, as_of: date, symbol: str) -> float | None:
        col = self.column.get(symbol)
        if col is None:
            return None
        v = self._filled[self._row[as_of], col]
        return None if np.isnan(v) else float(v)


def season_market(bundle: SeasonBundle) -> SeasonMarket:
    """The season's market (closes and cached trailing-window statistics) to share between calls of
    :func:`contestant_risk` on one bundle: the statistics at a date are the same for every contestant."""
    return SeasonMarket(bundle)


def decision_interval(bundle: SeasonBundle) -> int:
    """The season's decision interval in sessions: the median gap between a contestant's consecutive decision
    sessions (a property of the season's schedule, not of the market); a rounds season's median round length.
    At least 1."""
    if bundle.info.format == "rounds":
        lengths = [
            int(np.busday_count(r.entry_date, r.exit_date)) for r in bundle.info.rounds or [] if r.exit_date is not None
        ]
        return max(1, int(np.median(lengths))) if lengths else 1
    days = np.array(bundle.trading_days, dtype="datetime64[D]")
    gaps = []
    for c in bundle.contestants:
        sessions = sorted(
            {
                int(np.searchsorted(days, np.datetime64(d.decided_at.astimezone(MARKET_TZ).date())))
                for d in bundle.decisions_of(c.id)
            }
        )
        gaps += [b - a for a, b in zip(sessions, sessions[1:], strict=False)]
    return max(1, int(np.median(gaps))) if gaps else 1
