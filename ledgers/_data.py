"""Cached point-in-time look-ups for the verifier: snapshots per (symbol, decided_at), close arrays for
derived returns, and later observations for the lookahead check."""

from __future__ import annotations

from bisect import bisect_right
from datetime import datetime, time, timedelta
from weakref import WeakKeyDictionary

import numpy as np
import pandas as pd

from grader.pit import MARKET_TZ, Observation, PointInTimeStore, close_time

_FAR_FUTURE = datetime(9000, 1, 1, tzinfo=MARKET_TZ)


class _Closes:
    __slots__ = ("days", "times", "values", "symbol", "when")

    def __init__(self, symbol: str, closes: pd.Series):
        self.symbol = symbol
        self.days = np.array([np.datetime64(d, "D") for d in closes.index], dtype="datetime64[D]")
        self.when = [close_time(d) for d in closes.index]
        self.times = [t.timestamp() for t in self.when]  # sorted; bisected (a numpy call per lookup costs 20x)
        self.values = closes.to_numpy(float)

    def index_at(self, ts: float) -> int:
        return bisect_right(self.times, ts) - 1

    def obs(self, i: int) -> Observation:
        return Observation(self.symbol, "close", float(self.values[i]), self.when[i], "prices")


class StoreData:
    """Look-ups against one ``PointInTimeStore``, cached for batch verification."""

    def __init__(self, store: PointInTimeStore, benchmark: str | None = None):
        self.store = store
        self.benchmark = benchmark
        self._later: dict[tuple[str, str, datetime, int], list[Observation]] = {}
        self.known = set(store.symbols)
        self.labels: dict[str, dict[str, str]] = getattr(store, "labels", {}) or {}
        """Static descriptions of each symbol (name, sector, asset class, group): which peer group it is in."""
        self._snaps: dict[tuple[str, datetime], dict[str, Observation]] = {}  # aware datetimes hash by instant
        self._closes: dict[str, _Closes | None] = {}
        self._sector_pe: dict[tuple[str, str, datetime], list[float]] = {}
        self._field_symbols: dict[str, set[str]] = {}
        self._final_sector: dict[str, Observation | None] = {}

    def snapshot(self, symbol: str, as_of: datetime) -> dict[str, Observation]:
        key = (symbol, as_of)
        snap = self._snaps.get(key)
        if snap is None:
            snap = self.store.snapshot((symbol,), as_of).get(symbol, {})
            self._snaps[key] = snap
        return snap

    def obs(self, symbol: str, field: str, as_of: datetime) -> Observation | None:
        return self.snapshot(symbol, as_of).get(field)

    def closes(self, symbol: str) -> _Closes | None:
        if symbol not in self._closes:
            series = self.store.closes(symbol)
            self._closes[symbol] = _Closes(symbol, series) if len(series) else None
        return self._closes[symbol]

    def horizon_base(self, closes: _Closes, i: int, horizon: str) -> int:
        """Index of the base close of a horizon return ending at close ``i`` (-1 when out of range)."""
        n, kind = int(horizon[:-1]), horizon[-1]
        if kind == "T":
            base = i - n
            if base < 0:
                return -1
            gap = int((closes.days[i] - closes.days[base]) / np.timedelta64(1, "D"))
            return base if gap <= n * 7 / 5 + 6 else -1  # sparse closes (weekly prices) cannot give it
        day = pd.Timestamp(closes.days[i])
        if kind == "D":
            target = day - pd.Timedelta(days=n)
        elif kind == "M":
            target = day - pd.DateOffset(months=n)
        else:
            target = day - pd.DateOffset(years=n)
        target_day = np.datetime64(target.date(), "D")
        base = int(np.searchsorted(closes.days, target_day, side="right")) - 1
        if base < 0 or int((target_day - closes.days[base]) / np.timedelta64(1, "D")) > 6:
            return -1  # no close within a week before the horizon start
        return base

    def derived_return(self, symbol: str, horizon: str, as_of: datetime) -> tuple[float, list[Observation]] | None:
        """Return over a horizon from closes known at ``as_of``: (value, [base close, last close])."""
        closes = self.closes(symbol)
        if closes is None:
            return None
        i = closes.index_at(as_of.timestamp())
        if i < 0:
            return None
        base = self.horizon_base(closes, i, horizon)
        if base < 0 or base >= i:
            return None
        return float(closes.values[i] / closes.values[base] - 1.0), [closes.obs(base), closes.obs(i)]

    def later_derived_returns(
        self, symbol: str, horizon: str, as_of: datetime, window_days: int
    ) -> list[tuple[float, list[Observation]]]:
        closes = self.closes(symbol)
        if closes is None:
            return []
        start = closes.index_at(as_of.timestamp()) + 1
        end_ts = (as_of + timedelta(days=window_days)).timestamp()
        out = []
        for i in range(max(start, 0), len(closes.times)):
            if closes.times[i] > end_ts:
                break
            base = self.horizon_base(closes, i, horizon)
            if 0 <= base < i:
                out.append((float(closes.values[i] / closes.values[base] - 1.0), [closes.obs(base), closes.obs(i)]))
        return out

    def later(self, symbol: str, field: str, as_of: datetime, window_days: int) -> list[Observation]:
        """Observations of (symbol, field) made after ``as_of`` and within ``window_days`` (oldest first).

        Uses ``store.history(symbol, field, start, end)`` when the store offers it; otherwise probes the store
        at each of the symbol's later closes in the window (at each calendar day's end for a symbol without
        closes): the value known at each probe.
        """
        key = (symbol, field, as_of, window_days)
        got = self._later.get(key)
        if got is None:
            got = self._later_uncached(symbol, field, as_of, as_of + timedelta(days=window_days))
            self._later[key] = got
        return got

    def _later_uncached(self, symbol: str, field: str, as_of: datetime, end: datetime) -> list[Observation]:
        history = getattr(self.store, "history", None)
        if callable(history):
            return [o for o in history(symbol, field, as_of, end) if o.observed_at > as_of]
        closes = self.closes(symbol)
        if closes is not None:
            i = closes.index_at(as_of.timestamp()) + 1
            j = closes.index_at(end.timestamp()) + 1
            probes = closes.when[i:j] + [end]
        else:
            day = as_of.astimezone(MARKET_TZ).date()
            last = end.astimezone(MARKET_TZ).date()
            probes = []
            while day <= last:
                probes.append(min(datetime.combine(day, time(23, 59, 59), tzinfo=MARKET_TZ), end))
                day += timedelta(days=1)
        seen: dict[datetime, Observation] = {}
        for probe in probes:
            o = self.store.value(symbol, field, probe)
            if o is not None and o.observed_at > as_of:
                seen.setdefault(o.observed_at, o)
        return [seen[k] for k in sorted(seen)]

    def sector_of(self, symbol: str, as_of: datetime) -> str | None:
        """The sector label known at ``as_of``; the latest label is reused when it was already known then."""
        if symbol not in self._final_sector:
            self._final_sector[symbol] = self.store.value(symbol, "sector", _FAR_FUTURE)
        final = self._final_sector[symbol]
        if final is not None and final.observed_at <= as_of:
            return str(final.value)
        o = self.store.value(symbol, "sector", as_of)
        return None if o is None else str(o.value)

    def symbols_with(self, field: str) -> set[str]:
        got = self._field_symbols.get(field)
        if got is None:
            got = {s for s in self.known if self.store.has_field(s, field)}
            self._field_symbols[field] = got
        return got

    def sector_values(self, sector: str, field: str, as_of: datetime) -> list[float]:
        """``field`` of every symbol whose sector is ``sector`` at ``as_of`` (positive values only)."""
        key = (sector, field, as_of)
        got = self._sector_pe.get(key)
        if got is None:
            got = []
            for s in sorted(self.symbols_with(field)):
                if self.sector_of(s, as_of) != sector:
                    continue
                val = self.store.value(s, field, as_of)
                if val is not None and isinstance(val.value, float | int) and val.value > 0:
                    got.append(float(val.value))
            self._sector_pe[key] = got
        return got


_SHARED: WeakKeyDictionary[PointInTimeStore, dict[str | None, StoreData]] = WeakKeyDictionary()


def store_data(store: PointInTimeStore, benchmark: str | None = None) -> StoreData:
    """The shared cache of one store (kept while the store lives), per benchmark symbol."""
    per = _SHARED.setdefault(store, {})
    data = per.get(benchmark)
    if data is None:
        data = StoreData(store, benchmark)
        per[benchmark] = data
    return data
