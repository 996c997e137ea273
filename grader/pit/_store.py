"""The point-in-time store: every value carries the moment it became known.

A daily close (and every field derived from it) is known from that day's market close, 16:00
America/New_York. A ``fields.csv`` row is known from its ``observed_at``: a date means that day's close,
a timestamp means that instant. A later row for the same symbol and field supersedes the earlier one from
its own ``observed_at`` on. ``snapshot(symbols, as_of)`` returns only values observed at or before ``as_of``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from functools import partial
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

from grader._lazy import LazyMapping
from grader.pit._derived import derivable_names, derive_fields
from grader.pit._types import Observation, Snapshot

MARKET_TZ = ZoneInfo("America/New_York")
MARKET_CLOSE = time(16, 0)


def close_time(day: date) -> datetime:
    """The instant a day's close becomes known (16:00 New York, timezone-aware)."""
    return datetime.combine(day, MARKET_CLOSE, tzinfo=MARKET_TZ)


@dataclass(frozen=True, slots=True)
class FieldRow:
    symbol: str
    field: str
    value: float | str
    observed_at: datetime
    source: str


class _Series:
    """Observations of one (symbol, field), sorted by time, searched by bisection."""

    __slots__ = ("times", "obs")

    def __init__(self, obs: list[Observation]):
        obs.sort(key=lambda o: o.observed_at)
        self.obs = obs
        self.times = [o.observed_at.timestamp() for o in obs]

    def at(self, ts: float) -> Observation | None:
        i = bisect_right(self.times, ts)
        return self.obs[i - 1] if i else None


class _PriceTable:
    """Derived price fields of one symbol as column arrays; observations are built on lookup only."""

    __slots__ = ("symbol", "times", "when", "columns", "_rows")

    def __init__(self, symbol: str, derived: pd.DataFrame):
        self.symbol = symbol
        self.when = [close_time(d) for d in derived.index]
        self.times = [t.timestamp() for t in self.when]  # sorted; bisected (a numpy call per lookup costs 20x)
        columns = {f: derived[f].to_numpy(float) for f in derived.columns}
        # a field never computable for this symbol (e.g. sma200 with 30 closes) is not one of its fields
        self.columns = {f: col for f, col in columns.items() if not np.isnan(col).all()}
        self._rows: dict[int, dict[str, Observation]] = {}

    def row(self, i: int) -> dict[str, Observation]:
        """Every field known at row ``i`` (built once, then reused by later snapshots)."""
        cached = self._rows.get(i)
        if cached is None:
            cached = {}
            for field in self.columns:
                obs = self.get(field, i)
                if obs is not None:
                    cached[field] = obs
            self._rows[i] = cached
        return cached

    def index_at(self, ts: float) -> int:
        return bisect_right(self.times, ts) - 1

    def get(self, field: str, i: int) -> Observation | None:
        col = self.columns.get(field)
        if col is None or i < 0 or np.isnan(col[i]):
            return None
        return Observation(self.symbol, field, float(col[i]), self.when[i], "prices")


def _price_table(
    symbol: str, closes: pd.Series, bench_closes: pd.Series | None, vols: pd.Series | None, derive: bool
) -> _PriceTable:
    derived = derive_fields(closes, bench_closes, vols) if derive else pd.DataFrame({"close": closes})
    return _PriceTable(symbol, derived)


class _DerivedTables(LazyMapping[str, _PriceTable]):
    """Each symbol's price table, its fields derived when the symbol is first asked for (a grading run's first
    prompt needs a few symbols, not the whole universe); ``possible``: every field name some symbol's table can
    have, known without deriving any."""

    def __init__(self, makers: dict[str, Callable[[], _PriceTable]], possible: set[str]) -> None:
        super().__init__(makers, lambda symbol: makers[symbol]())
        self.possible = possible


class PointInTimeStore:
    """Prices, derived fields and ``fields.csv`` values, queried as of an instant."""

    _history_from: PointInTimeStore | None  # set on a scoped view only: the whole store, for later observations

    def __init__(
        self,
        prices: pd.DataFrame,
        field_rows: Iterable[FieldRow] = (),
        benchmark: str | None = None,
        sectors: dict[str, dict[str, str]] | None = None,
        derive: bool = True,
        labels: dict[str, dict[str, str]] | None = None,
    ):
        """``derive=False`` keeps only the closes: for sparse price files (e.g. round entry/exit closes), where
        returns and averages over consecutive rows would not be what their names say. ``labels`` describe each
        symbol (name, asset class, group: ``season.yaml``'s universe); they are not point-in-time fields and never
        appear in a snapshot, but say which options a phrase like "among defensive sectors" means."""
        self.labels: dict[str, dict[str, str]] = labels or {}
        self._series: dict[str, dict[str, _Series]] = {}
        self._closes: dict[str, pd.Series] = {}
        prices = prices.copy()
        prices["date"] = pd.to_datetime(prices["date"]).dt.date
        bench_closes = None
        if benchmark is not None:
            b = prices[prices["symbol"] == benchmark].sort_values("date")
            bench_closes = pd.Series(b["close"].to_numpy(float), index=b["date"].to_numpy())
        tables: dict[str, Callable[[], _PriceTable]] = {}
        possible: set[str] = set()
        for key, frame in prices.groupby("symbol", sort=True):
            symbol = str(key)
            frame = frame.sort_values("date")
            closes = pd.Series(frame["close"].to_numpy(float), index=frame["date"].to_numpy())
            self._closes[symbol] = closes
            vols = frame["volume"] if "volume" in frame.columns else None
            if vols is not None:
                vols = pd.Series(vols.to_numpy(float), index=closes.index)
            symbol_bench = None if symbol == benchmark else bench_closes
            tables[symbol] = partial(_price_table, symbol, closes, symbol_bench, vols, derive)
            possible |= derivable_names(derive, symbol_bench is not None, vols is not None and bool(vols.notna().any()))
        self._prices: Mapping[str, _PriceTable] = _DerivedTables(tables, possible)
        grouped: dict[tuple[str, str], list[Observation]] = {}
        for row in field_rows:
            grouped.setdefault((row.symbol, row.field), []).append(
                Observation(row.symbol, row.field, row.value, row.observed_at, row.source)
            )
        for (symbol, field), obs in grouped.items():
            self._series.setdefault(symbol, {})[field] = _Series(obs)
        for symbol, info in (sectors or {}).items():
            for field, value in info.items():
                if value and field not in self._series.get(symbol, {}):
                    epoch = datetime(1900, 1, 1, tzinfo=MARKET_TZ)
                    self._series.setdefault(symbol, {})[field] = _Series(
                        [Observation(symbol, field, value, epoch, "season.yaml")]
                    )

    def scoped(self, keep, prices: bool = True) -> PointInTimeStore:
        """A view whose ``fields.csv`` values are only those whose ``source`` passes ``keep`` — e.g. the data
        one round's models were shown, when rounds overlap — with the price series or (``prices=False``)
        without them."""
        view = object.__new__(PointInTimeStore)
        # later observations (the lookahead check) come from the whole store: a value another round published
        # after this decision is exactly what a claim must not have known
        view._history_from = getattr(self, "_history_from", None) or self
        view.labels = self.labels
        view._prices, view._closes = (self._prices, self._closes) if prices else ({}, {})
        view._series = {}
        for symbol, per_field in self._series.items():
            for field, series in per_field.items():
                obs = [o for o in series.obs if keep(o.source)]
                if obs:
                    view._series.setdefault(symbol, {})[field] = _Series(obs)
        return view

    @property
    def symbols(self) -> list[str]:
        return sorted(set(self._series) | set(self._prices))

    def field_names(self) -> list[str]:
        """Every field some symbol has (``fields`` of each symbol, united). Symbols' fields are derived only while
        they could still add a name: once every name a price table can have is among them, no more are."""
        names = {f for per_field in self._series.values() for f in per_field}
        possible: set[str] = getattr(self._prices, "possible", set())
        for symbol in self._prices:
            if possible <= names:
                break
            names |= set(self._prices[symbol].columns)
        return sorted(names)

    def fields(self, symbol: str) -> list[str]:
        table = self._prices.get(symbol)
        return sorted(set(self._series.get(symbol, {})) | set(table.columns if table else ()))

    def has_field(self, symbol: str, field: str) -> bool:
        """``field in self.fields(symbol)``, without deriving the symbol's price table when no price table can have
        that name (a ``fields.csv`` field: "peRatio", "sector")."""
        if field in self._series.get(symbol, {}):
            return True
        possible: set[str] | None = getattr(self._prices, "possible", None)
        if possible is not None and field not in possible:
            return False
        return field in self.fields(symbol)

    def closes(self, symbol: str) -> pd.Series:
        """Daily closes of a symbol indexed by date (empty when unknown)."""
        return self._closes.get(symbol, pd.Series(dtype=float))

    def value(self, symbol: str, field: str, as_of: datetime) -> Observation | None:
        ts = _ts(as_of)
        series = self._series.get(symbol, {}).get(field)
        if series is not None:  # fields.csv values take precedence over a derived name
            return series.at(ts)
        table = self._prices.get(symbol)
        return table.get(field, table.index_at(ts)) if table else None

    def snapshot(self, symbols: Iterable[str], as_of: datetime, fields: Iterable[str] | None = None) -> Snapshot:
        """Latest value of each field of each symbol observed at or before ``as_of``."""
        ts = _ts(as_of)
        wanted = None if fields is None else set(fields)
        out: Snapshot = {}
        for symbol in symbols:
            snap: dict[str, Observation] = {}
            table = self._prices.get(symbol)
            if table is not None:
                i = table.index_at(ts)
                if i >= 0:
                    row = table.row(i)
                    snap.update(row if wanted is None else {f: o for f, o in row.items() if f in wanted})
            for field, series in self._series.get(symbol, {}).items():
                if wanted is not None and field not in wanted:
                    continue
                obs = series.at(ts)
                if obs is not None:
                    snap[field] = obs
            if snap:
                out[symbol] = snap
        return out

    def history(self, symbol: str, field: str, start: datetime, end: datetime) -> list[Observation]:
        """Observations of (symbol, field) made in ``(start, end]``, oldest first (for lookahead checks); a scoped
        view answers from the whole store it was cut from."""
        parent = getattr(self, "_history_from", None)
        if parent is not None:
            return parent.history(symbol, field, start, end)
        lo, hi = _ts(start), _ts(end)
        series = self._series.get(symbol, {}).get(field)
        if series is not None:
            i, j = bisect_right(series.times, lo), bisect_right(series.times, hi)
            return series.obs[i:j]
        table = self._prices.get(symbol)
        if table is None or field not in table.columns:
            return []
        i, j = bisect_right(table.times, lo), bisect_right(table.times, hi)
        return [o for o in (table.get(field, k) for k in range(i, j)) if o is not None]

    def observations(self) -> Iterable[Observation]:
        """Every stored observation (for audits and property tests)."""
        for table in self._prices.values():
            for field in table.columns:
                for i in range(len(table.times)):
                    obs = table.get(field, i)
                    if obs is not None:
                        yield obs
        for per_field in self._series.values():
            for series in per_field.values():
                yield from series.obs


def _ts(as_of: datetime) -> float:
    if as_of.tzinfo is None:
        raise ValueError(f"as_of must carry a timezone offset: {as_of!r}")
    return as_of.timestamp()
