"""Load and validate a season bundle v1 directory.

Every problem found is collected (not only the first) as a :class:`BundleIssue` naming the file, the line
or row and the field; :class:`BundleError` carries them all. Nothing is written anywhere by loading.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from pydantic import ValidationError

from grader.pit import MARKET_TZ, FieldRow, PointInTimeStore, close_time
from grader.season._models import Contestant, Decision, SeasonInfo

REQUIRED_FILES = ("season.yaml", "contestants.yaml", "decisions.jsonl", "market/prices.csv")
OPTIONAL_FILES = ("market/fields.csv",)
_EPS = 1e-9


@dataclass(frozen=True)
class BundleIssue:
    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        return f"{where}: {self.field + ': ' if self.field else ''}{self.message}"


class BundleError(Exception):
    """A bundle failed validation; ``issues`` lists every problem found."""

    def __init__(self, path: Path, issues: list[BundleIssue]):
        self.path = path
        self.issues = issues
        super().__init__(f"{path}: {len(issues)} problem(s)\n" + "\n".join(f"  {i}" for i in issues))


@dataclass
class SeasonBundle:
    """A validated season: typed content, raw market data and the content hashes."""

    path: Path
    info: SeasonInfo
    contestants: list[Contestant]
    decisions: list[Decision]
    prices: pd.DataFrame
    field_rows: list[FieldRow]
    file_hashes: dict[str, str]
    content_hash: str
    extras: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def store(self) -> PointInTimeStore:
        sectors = {
            u.symbol: {k: v for k, v in (("sector", u.sector), ("industry", u.industry)) if v}
            for u in self.info.universe
        }
        # rounds seasons carry only entry/exit closes: nothing is derived from such sparse series
        labels = {
            u.symbol: {k: str(v) for k, v in (("name", u.name), ("sector", u.sector), ("asset_class", u.asset_class),
                                              ("group", u.group)) if v}
            for u in self.info.universe
        }
        return PointInTimeStore(self.prices, self.field_rows, self.info.benchmark, sectors,
                                derive=self.info.format != "rounds", labels=labels)

    def store_for(self, round_id: str | None) -> PointInTimeStore:
        """The point-in-time data a decision could use. In a rounds season (overlapping, independent rounds)
        that is the round's own fields (``source`` naming the round) and the static fields: a model is held
        to what its round showed it, not to a newer value another round published, nor to returns computed
        from the sparse entry/exit closes of the price file."""
        if round_id is None or self.info.format != "rounds":
            return self.store
        cache = self.__dict__.setdefault("_round_stores", {})
        if round_id not in cache:
            suffix = f":{round_id}"
            cache[round_id] = self.store.scoped(
                lambda src: src == "season.yaml" or src == round_id or src.endswith(suffix), prices=False)
        return cache[round_id]

    @cached_property
    def contestant_by_id(self) -> dict[str, Contestant]:
        return {c.id: c for c in self.contestants}

    def decisions_of(self, contestant_id: str) -> list[Decision]:
        """The contestant's decisions in season order (a new list each time)."""
        return list(self._decisions_by_contestant.get(contestant_id, ()))

    @cached_property
    def _decisions_by_contestant(self) -> dict[str, list[Decision]]:
        """Decisions per contestant, built once (a validated bundle's decisions do not change)."""
        out: dict[str, list[Decision]] = {}
        for d in self.decisions:
            out.setdefault(d.contestant_id, []).append(d)
        return out

    @cached_property
    def trading_days(self) -> list[date]:
        """Benchmark trading days inside the season."""
        days = self.prices.loc[self.prices["symbol"] == self.info.benchmark, "date"]
        return sorted(d for d in set(days) if self.info.start <= d <= self.info.end)


def hash_bundle_files(path: Path) -> tuple[dict[str, str], str]:
    """SHA-256 of every file in the bundle and one hash over all of them (path-sorted)."""
    hashes: dict[str, str] = {}
    for p in sorted(path.rglob("*")):
        if p.is_file():
            hashes[p.relative_to(path).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for rel, h in sorted(hashes.items()):
        digest.update(f"{rel}\0{h}\n".encode())
    return hashes, digest.hexdigest()


class _Collector:
    def __init__(self) -> None:
        self.issues: list[BundleIssue] = []

    def add(self, file: str, line: int | None, fld: str | None, message: str) -> None:
        self.issues.append(BundleIssue(file, line, fld, message))

    def pydantic(self, file: str, line: int | None, err: ValidationError, prefix: str = "") -> None:
        for e in err.errors():
            loc = ".".join(str(x) for x in e["loc"])
            self.add(file, line, f"{prefix}{loc}" if loc else prefix or None, e["msg"])


def _read_text(root: Path, rel: str, col: _Collector, required: bool = True) -> str | None:
    p = root / rel
    if not p.is_file():
        if required:
            col.add(rel, None, None, "file is missing")
        return None
    if not p.resolve().is_relative_to(root.resolve()):
        col.add(rel, None, None, "is a link out of the bundle (not read)")  # never read or echo its content
        return None
    data = p.read_bytes()
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is fine
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col.add(rel, line, None, f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); save the "
                                 "file as UTF-8")
        return None
    if not text.strip():
        col.add(rel, None, None, "file is empty")
        return None
    return text


def _lines(text: str) -> list[str]:
    """Lines split on "\\n" only (str.splitlines also splits inside JSON strings at U+2028, NEL, ...)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


class _StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser when present: same nodes
    """SafeLoader that refuses a mapping key given twice (PyYAML keeps the last one silently)."""

    def construct_mapping(self, node, deep=False):  # noqa: ANN001
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (first on line {seen[key]})", key_node.start_mark)
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def _yaml(rel: str, text: str | None, col: _Collector) -> Any:
    if text is None:
        return None
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", "") or ""
        if "given twice" in problem:  # which value counts would be ambiguous
            col.add(rel, mark.line + 1 if mark else None, None, problem)
        else:
            col.add(rel, mark.line + 1 if mark else None, None, f"not valid YAML (truncated?): {exc}")
        return None


def _yaml_line(text: str, key: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(f"{key}:"):
            return i
    return None


def parse_aware(value: Any, file: str, line: int | None, fld: str, col: _Collector) -> datetime | None:
    """An ISO 8601 timestamp that must carry an offset."""
    if not isinstance(value, str):
        col.add(file, line, fld, f"expected an ISO 8601 timestamp string, got {value!r}")
        return None
    try:
        ts = datetime.fromisoformat(value)
    except ValueError:
        col.add(file, line, fld, f"not an ISO 8601 timestamp: {value!r}")
        return None
    if ts.tzinfo is None:
        col.add(file, line, fld, f"timestamp has no UTC offset: {value!r}")
        return None
    return ts


def _number(raw: str, file: str, line: int, fld: str, col: _Collector, positive: bool = False) -> float | None:
    try:
        value = float(raw)
    except (TypeError, ValueError):
        col.add(file, line, fld, f"not a number: {raw!r}")
        return None
    if math.isnan(value) or math.isinf(value):
        col.add(file, line, fld, f"not a finite number: {raw!r}")
        return None
    if positive and value <= 0:
        col.add(file, line, fld, f"must be positive: {raw!r}")
        return None
    return value


def _check_finite(obj: Any, file: str, line: int, prefix: str, col: _Collector) -> None:
    """JSON lets NaN/Infinity through; the bundle does not."""
    if isinstance(obj, float) and (math.isnan(obj) or math.isinf(obj)):
        col.add(file, line, prefix, f"not a finite number: {obj!r}")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _check_finite(v, file, line, f"{prefix}.{k}" if prefix else k, col)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            _check_finite(v, file, line, f"{prefix}[{i}]", col)


def _csv_rows(rel: str, text: str, required_cols: tuple[str, ...], col: _Collector):
    reader = csv.reader(_lines(text))
    try:
        header = next(reader)
    except StopIteration:
        col.add(rel, 1, None, "no header row")
        return []
    header = [h.strip() for h in header]
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:  # the second column would silently win
        col.add(rel, 1, ",".join(twice), "column given twice in the header")
        return []
    missing = [c for c in required_cols if c not in header]
    if missing:
        col.add(rel, 1, ",".join(missing), "missing column(s) in header")
        return []
    rows = []
    for lineno, row in enumerate(reader, start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            col.add(rel, lineno, None, f"expected {len(header)} columns, got {len(row)} (truncated row?)")
            continue
        rows.append((lineno, dict(zip(header, (c.strip() for c in row), strict=True))))
    if not rows:
        col.add(rel, None, None, "file has a header but no rows")
    return rows


def load_bundle(path: str | Path) -> SeasonBundle:
    """Load and validate a bundle; raise :class:`BundleError` listing every problem."""
    root = Path(path)
    col = _Collector()
    if not root.is_dir():
        raise BundleError(root, [BundleIssue(str(root), None, None, "not a directory")])

    season_text = _read_text(root, "season.yaml", col)
    season_raw = _yaml("season.yaml", season_text, col)
    info: SeasonInfo | None = None
    if season_raw is not None:
        if not isinstance(season_raw, dict):
            col.add("season.yaml", 1, None, "expected a mapping")
        else:
            try:
                info = SeasonInfo.model_validate(season_raw)
            except ValidationError as err:
                for e in err.errors():
                    loc = ".".join(str(x) for x in e["loc"])
                    col.add("season.yaml", _yaml_line(season_text or "", str(e["loc"][0])), loc, e["msg"])
            if info is not None and info.start > info.end:
                col.add("season.yaml", _yaml_line(season_text or "", "end"), "end", "season ends before it starts")
            if info is not None:
                seen: set[str] = set()
                for i, u in enumerate(info.universe):
                    if u.symbol in seen:
                        col.add("season.yaml", None, f"universe[{i}].symbol", f"duplicate symbol {u.symbol!r}")
                    seen.add(u.symbol)

    contestants: list[Contestant] = []
    c_text = _read_text(root, "contestants.yaml", col)
    c_raw = _yaml("contestants.yaml", c_text, col)
    if c_raw is not None:
        if not isinstance(c_raw, list):
            col.add("contestants.yaml", 1, None, "expected a list of contestants")
        else:
            ids: set[str] = set()
            for i, item in enumerate(c_raw):
                try:
                    c = Contestant.model_validate(item)
                except ValidationError as err:
                    col.pydantic("contestants.yaml", None, err, prefix=f"[{i}].")
                    continue
                if c.id in ids:
                    col.add("contestants.yaml", None, f"[{i}].id", f"duplicate contestant id {c.id!r}")
                ids.add(c.id)
                contestants.append(c)

    symbols = info.symbols() | {info.benchmark} if info else set()
    if info and info.rounds:
        symbols |= {r.cash_symbol for r in info.rounds if r.cash_symbol}

    # market/prices.csv
    prices = pd.DataFrame(columns=["date", "symbol", "close"])
    p_text = _read_text(root, "market/prices.csv", col)
    if p_text is not None:
        records = []
        seen_px: set[tuple[date, str]] = set()
        for lineno, row in _csv_rows("market/prices.csv", p_text, ("date", "symbol", "close"), col):
            try:
                d = date.fromisoformat(row["date"])
            except ValueError:
                col.add("market/prices.csv", lineno, "date", f"not a date: {row['date']!r}")
                continue
            sym = row["symbol"]
            if symbols and sym not in symbols:
                col.add("market/prices.csv", lineno, "symbol", f"unknown symbol {sym!r} (not in the universe)")
                continue
            close = _number(row["close"], "market/prices.csv", lineno, "close", col, positive=True)
            if close is None:
                continue
            rec: dict[str, Any] = {"date": d, "symbol": sym, "close": close}
            for opt in ("open", "high", "low", "volume"):
                if row.get(opt):
                    v = _number(row[opt], "market/prices.csv", lineno, opt, col)
                    if v is not None:
                        rec[opt] = v
            if (d, sym) in seen_px:
                col.add("market/prices.csv", lineno, "date", f"duplicate price row for {sym} on {d}")
                continue
            seen_px.add((d, sym))
            records.append(rec)
        if records:
            prices = pd.DataFrame.from_records(records)
        if info is not None and records and info.benchmark not in set(prices["symbol"]):
            col.add("market/prices.csv", None, "symbol", f"no prices for the benchmark {info.benchmark!r}")

    # market/fields.csv (optional)
    field_rows: list[FieldRow] = []
    f_text = _read_text(root, "market/fields.csv", col, required=False)
    if f_text is not None:
        seen_f: set[tuple[str, str, datetime, str]] = set()
        cols = ("symbol", "field", "value", "observed_at", "source")
        for lineno, row in _csv_rows("market/fields.csv", f_text, cols, col):
            sym = row["symbol"]
            if symbols and sym not in symbols:
                col.add("market/fields.csv", lineno, "symbol", f"unknown symbol {sym!r}")
                continue
            if not row["field"]:
                col.add("market/fields.csv", lineno, "field", "empty field name")
                continue
            obs = _observed_at(row["observed_at"], "market/fields.csv", lineno, col)
            if obs is None:
                continue
            if info is not None and obs.astimezone(MARKET_TZ).date() > info.end:
                col.add(
                    "market/fields.csv", lineno, "observed_at",
                    f"observed {row['observed_at']} after the season end {info.end}: cannot be known in the season",
                )
                continue
            raw = row["value"]
            value: float | str
            if row["field"] in ("sector", "industry"):
                value = raw
            else:
                v = _number(raw, "market/fields.csv", lineno, "value", col)
                if v is None:
                    continue
                value = v
            # rounds seasons keep each round's own rows (source "capitalbench:<round>"): one per source
            key = (sym, row["field"], obs, row["source"] if info is not None and info.format == "rounds" else "")
            if key in seen_f:
                col.add("market/fields.csv", lineno, "observed_at", f"duplicate row for {sym}.{row['field']} at {obs}")
                continue
            seen_f.add(key)
            field_rows.append(FieldRow(sym, row["field"], value, obs, row["source"] or "fields.csv"))

    decisions = _load_decisions(root, info, contestants, symbols, col)
    if info is not None and info.format == "trading" and not prices.empty:
        _check_against_prices(decisions, prices, info, "decisions.jsonl", col)

    if col.issues:
        raise BundleError(root, col.issues)
    assert info is not None
    hashes, content_hash = hash_bundle_files(root)
    return SeasonBundle(root, info, contestants, decisions, prices, field_rows, hashes, content_hash)


def _observed_at(raw: str, file: str, line: int, col: _Collector) -> datetime | None:
    if len(raw) == 10:
        try:
            return close_time(date.fromisoformat(raw))
        except ValueError:
            col.add(file, line, "observed_at", f"not a date: {raw!r}")
            return None
    return parse_aware(raw, file, line, "observed_at", col)


def _load_decisions(root, info, contestants, symbols, col) -> list[Decision]:
    rel = "decisions.jsonl"
    text = _read_text(root, rel, col)
    if text is None:
        return []
    known = {c.id for c in contestants}
    round_ids = {r.id for r in (info.rounds or [])} if info else set()
    decisions: list[Decision] = []
    seen: dict[tuple[str, datetime], int] = {}
    for lineno, line in enumerate(_lines(text), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line, object_pairs_hook=_no_duplicate_keys)
        except json.JSONDecodeError as exc:
            col.add(rel, lineno, None, f"not valid JSON (truncated line?): {exc.msg}")
            continue
        except _DuplicateKey as exc:
            col.add(rel, lineno, exc.key, "key given twice in one object (which one counts is ambiguous)")
            continue
        if not isinstance(raw, dict):
            col.add(rel, lineno, None, "expected a JSON object")
            continue
        _check_finite(raw, rel, lineno, "", col)
        ts = parse_aware(raw.get("decided_at"), rel, lineno, "decided_at", col) if "decided_at" in raw else None
        if "decided_at" not in raw:
            col.add(rel, lineno, "decided_at", "missing")
        if ts is None:
            continue
        raw = {**raw, "decided_at": ts, "line": lineno}
        try:
            d = Decision.model_validate(raw)
        except ValidationError as err:
            col.pydantic(rel, lineno, err)
            continue
        if known and d.contestant_id not in known:
            col.add(rel, lineno, "contestant_id", f"unknown contestant {d.contestant_id!r}")
            continue
        if info is not None:
            day = d.decided_at.astimezone(MARKET_TZ).date()
            if not info.start <= day <= info.end:
                col.add(rel, lineno, "decided_at", f"{day} is outside the season {info.start}..{info.end}")
        for i, t in enumerate(d.trades):
            if symbols and t.symbol not in symbols:
                col.add(rel, lineno, f"trades[{i}].symbol", f"unknown symbol {t.symbol!r}")
        if d.allocation is not None:
            for i, a in enumerate(d.allocation):
                if symbols and a.symbol not in symbols:
                    col.add(rel, lineno, f"allocation[{i}].symbol", f"unknown symbol {a.symbol!r}")
            total = sum(a.weight for a in d.allocation)
            if abs(total - 1.0) > 1e-6:
                col.add(rel, lineno, "allocation", f"weights sum to {total:.6f}, expected 1")
        if d.round_id is not None and round_ids and d.round_id not in round_ids:
            col.add(rel, lineno, "round_id", f"unknown round {d.round_id!r}")
        if d.decision_seconds is not None and d.decision_seconds < 0:
            col.add(rel, lineno, "decision_seconds", "must not be negative")
        key = (d.contestant_id, d.decided_at)
        if key in seen:
            col.add(rel, lineno, "decided_at", f"duplicate decision for {d.contestant_id} (first on line {seen[key]})")
            continue
        seen[key] = lineno
        decisions.append(d)
    _check_holdings(decisions, rel, col)
    decisions.sort(key=lambda d: (d.decided_at, d.contestant_id))
    return decisions


PRICE_TOLERANCE = 0.25
"""A trade's price may differ from the close of its decision day (or the last close before it) by at most this
fraction: a fill at ten times (or a tenth of) the market is a data error that would change every return."""
CASH_TOLERANCE = 0.01
"""Cash may go below zero by at most this fraction of the starting cash (rounding), unless ``allow_margin``."""


def _check_against_prices(decisions: list[Decision], prices: pd.DataFrame, info: SeasonInfo, rel: str,
                          col: _Collector) -> None:
    """Trades against the season's closes: every traded symbol has prices, a decision has price history before
    it, a fill is near the market, and buys stay within the cash held (unless the season declares margin)."""
    closes: dict[str, tuple[list, list[float]]] = {}
    for sym, frame in prices.sort_values("date").groupby("symbol"):
        closes[str(sym)] = (list(frame["date"]), [float(v) for v in frame["close"]])
    first_day = min((dates[0] for dates, _ in closes.values()), default=None)
    cash: dict[str, float] = {}
    for d in sorted(decisions, key=lambda d: (d.decided_at, d.line)):
        day = d.decided_at.astimezone(MARKET_TZ).date()
        if first_day is not None and day < first_day:
            col.add(rel, d.line, "decided_at", f"{day} is before any price history (first close {first_day})")
            continue
        balance = cash.setdefault(d.contestant_id, float(info.starting_cash))
        for i, t in enumerate(d.trades):
            series = closes.get(t.symbol)
            if series is None:
                col.add(rel, d.line, f"trades[{i}].symbol", f"{t.symbol} has no prices in market/prices.csv")
                continue
            dates, values = series
            k = bisect_right(dates, day) - 1
            if k < 0:
                col.add(rel, d.line, f"trades[{i}].price", f"no close of {t.symbol} on or before {day}")
                continue
            ref = values[k]
            if abs(t.price / ref - 1.0) > PRICE_TOLERANCE:
                col.add(rel, d.line, f"trades[{i}].price",
                        f"{t.price:g} is {t.price / ref:.2f}x the {t.symbol} close of {dates[k]} ({ref:g}); "
                        f"a fill must lie within {PRICE_TOLERANCE:.0%} of the market")
            balance += (-1 if t.side == "buy" else 1) * t.quantity * t.price
        if balance < -CASH_TOLERANCE * info.starting_cash and not info.allow_margin:
            col.add(rel, d.line, "trades", f"buys beyond the cash held: cash would be {balance:,.2f} "
                                           f"{info.currency} (the season declares no margin)")
        cash[d.contestant_id] = balance


def _check_holdings(decisions: list[Decision], rel: str, col: _Collector) -> None:
    """Replay share counts in time order: a sell may not exceed what is held."""
    held: dict[str, dict[str, float]] = {}
    for d in sorted(decisions, key=lambda d: (d.decided_at, d.line)):
        book = held.setdefault(d.contestant_id, {})
        for t in sorted(d.trades, key=lambda t: t.side != "sell"):
            if t.side == "buy":
                book[t.symbol] = book.get(t.symbol, 0.0) + t.quantity
            else:
                have = book.get(t.symbol, 0.0)
                if t.quantity > have + _EPS:
                    col.add(
                        rel, d.line, f"trades[{d.trades.index(t)}].quantity",
                        f"sells {t.quantity:g} {t.symbol} but holds {have:g}",
                    )
                book[t.symbol] = max(0.0, have - t.quantity)
