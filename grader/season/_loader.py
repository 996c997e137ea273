"""Load and validate a season bundle v1 directory.

Every problem found is collected (not only the first) as a :class:`BundleIssue` naming the file, the line
or row and the field; :class:`BundleError` carries them all. Nothing is written anywhere by loading.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import ValidationError

from grader.pit import MARKET_TZ, FieldRow, PointInTimeStore
from grader.season._errors import BundleError, BundleIssue, Collector
from grader.season._market import read_fields, read_prices
from grader.season._models import Contestant, Decision, SeasonInfo
from grader.season._reading import (
    lines_of,
    load_yaml,
    parse_aware,
    parse_json_object,
    read_text,
    regular_files,
    scan_tree,
)
from grader.season._round_prices import read_round_prices

__all__ = [
    "BundleError",
    "BundleIssue",
    "SeasonBundle",
    "hash_bundle_files",
    "load_bundle",
    "parse_aware",
    "refused_entries",
]

REQUIRED_FILES = ("season.yaml", "contestants.yaml", "decisions.jsonl", "market/prices.csv")
OPTIONAL_FILES = ("market/fields.csv",)
_EPS = 1e-9


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
            u.symbol: {
                k: str(v)
                for k, v in (("name", u.name), ("sector", u.sector), ("asset_class", u.asset_class), ("group", u.group))
                if v
            }
            for u in self.info.universe
        }
        return PointInTimeStore(
            self.prices,
            self.field_rows,
            self.info.benchmark,
            sectors,
            derive=self.info.format != "rounds",
            labels=labels,
        )

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
                lambda src: src == "season.yaml" or src == round_id or src.endswith(suffix), prices=False
            )
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
    """SHA-256 of every regular file in the bundle and one hash over all of them (path-sorted); links and special
    files are never read (``load_bundle`` refuses a bundle holding any)."""
    hashes: dict[str, str] = {}
    for p in regular_files(path):
        hashes[p.relative_to(path).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for rel, h in sorted(hashes.items()):
        digest.update(f"{rel}\0{h}\n".encode())
    return hashes, digest.hexdigest()


def refused_entries(path: Path) -> list[str]:
    """Links and special files under ``path`` (relative paths), found without following or reading any."""
    return sorted(scan_tree(path, Collector()))


def load_bundle(path: str | Path) -> SeasonBundle:
    """Load and validate a bundle; raise :class:`BundleError` listing every problem."""
    root = Path(path)
    col = Collector()
    if not root.is_dir():
        raise BundleError(root, [BundleIssue(str(root), None, None, "not a directory")])
    refused = scan_tree(root, col)  # links and special files: reported, never read

    info = _season(root, col, refused)
    contestants = _contestants(root, col, refused)
    symbols = info.symbols() | {info.benchmark} if info else set()
    if info and info.rounds:
        symbols |= {r.cash_symbol for r in info.rounds if r.cash_symbol}
    prices = read_prices(root, info, symbols, col, refused)
    field_rows = read_fields(root, info, symbols, col, refused)
    round_prices = read_round_prices(root, info, symbols, col, refused)
    decisions = _load_decisions(root, info, contestants, symbols, col, refused)
    if info is not None and info.format == "trading" and not prices.empty:
        _check_against_prices(decisions, prices, info, "decisions.jsonl", col)

    if col.issues:
        raise BundleError(root, col.issues)
    assert info is not None
    hashes, content_hash = hash_bundle_files(root)
    extras: dict[str, Any] = {} if round_prices is None else {"round_prices": round_prices}
    return SeasonBundle(root, info, contestants, decisions, prices, field_rows, hashes, content_hash, extras)


def _season(root: Path, col: Collector, refused: set[str]) -> SeasonInfo | None:
    rel = "season.yaml"
    raw, lines = load_yaml(rel, read_text(root, rel, col, refused), col)
    if raw is None:
        return None
    if not isinstance(raw, dict):
        col.add(rel, 1, None, "expected a mapping")
        return None
    try:
        info = SeasonInfo.model_validate(raw)
    except ValidationError as err:
        col.pydantic(rel, None, err, lines=lines)
        return None
    if info.start > info.end:
        col.add(rel, lines.get(("end",)), "end", "season ends before it starts")
    seen: set[str] = set()
    for i, u in enumerate(info.universe):
        if u.symbol in seen:
            col.add(rel, lines.get(("universe", i)), f"universe[{i}].symbol", f"duplicate symbol {u.symbol!r}")
        seen.add(u.symbol)
    round_ids: set[str] = set()
    for i, r in enumerate(info.rounds or []):
        if r.id in round_ids:
            col.add(rel, lines.get(("rounds", i)), f"rounds[{i}].id", f"duplicate round id {r.id!r}")
        round_ids.add(r.id)
    if info.format == "rounds" and not info.rounds:
        col.add(rel, lines.get(("format",)), "rounds", "a rounds season needs a non-empty rounds list")
    return info


def _contestants(root: Path, col: Collector, refused: set[str]) -> list[Contestant]:
    rel = "contestants.yaml"
    raw, lines = load_yaml(rel, read_text(root, rel, col, refused), col)
    contestants: list[Contestant] = []
    if raw is None:
        return contestants
    if not isinstance(raw, list):
        col.add(rel, 1, None, "expected a list of contestants")
        return contestants
    ids: set[str] = set()
    for i, item in enumerate(raw):
        try:
            c = Contestant.model_validate(item)
        except ValidationError as err:
            col.pydantic(
                rel, lines.get((i,)), err, prefix=f"[{i}].", lines={k[1:]: v for k, v in lines.items() if k[:1] == (i,)}
            )
            continue
        if c.id in ids:
            col.add(rel, lines.get((i, "id")), f"[{i}].id", f"duplicate contestant id {c.id!r}")

        ids.add(c.id)
        contestants.append(c)
    return contestants


def _load_decisions(root, info, contestants, symbols, col, refused) -> list[Decision]:  # noqa: ANN001
    rel = "decisions.jsonl"
    text = read_text(root, rel, col, refused)
    if text is None:
        return []
    known = {c.id for c in contestants}
    round_ids = {r.id for r in (info.rounds or [])} if info else set()
    decisions: list[Decision] = []
    seen: dict[tuple[str, datetime], int] = {}
    for lineno, line in enumerate(lines_of(text), 1):
        if not line.strip():
            continue
        raw = parse_json_object(rel, lineno, line, col)
        if raw is None:
            continue
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
            _check_allocation(d, info, symbols, rel, col)
        elif d.trades and info is not None and info.format == "rounds":
            col.add(
                rel,
                lineno,
                "trades",
                "trades in a rounds season (format: rounds) would be ignored: a round "
                "scores each contestant's target allocation; give an allocation",
            )
        if d.round_id is not None and info is not None and d.round_id not in round_ids:
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


def _check_allocation(d: Decision, info: SeasonInfo | None, symbols: set[str], rel: str, col: Collector) -> None:
    """A target allocation: known symbols, weights summing to 1, and a season that scores it. A trading season
    replays trades only, so an allocation there would be silently ignored: refused (a rounds season scores
    allocations, one per round)."""
    assert d.allocation is not None
    if info is not None and info.format == "trading":
        col.add(
            rel,
            d.line,
            "allocation",
            "a target allocation in a trading season (format: trading) would be "
            "ignored: a trading season replays trades; give trades, or declare "
            "format: rounds with the decision's round_id",
        )
    if info is not None and info.format == "rounds" and d.round_id is None:
        col.add(rel, d.line, "round_id", "an allocation in a rounds season names its round (round_id)")
    for i, a in enumerate(d.allocation):
        if symbols and a.symbol not in symbols:
            col.add(rel, d.line, f"allocation[{i}].symbol", f"unknown symbol {a.symbol!r}")
    total = sum(a.weight for a in d.allocation)
    if abs(total - 1.0) > 1e-6:
        col.add(rel, d.line, "allocation", f"weights sum to {total:.6f}, expected 1")


PRICE_TOLERANCE = 0.25
"""A trade's price may differ from the close of its decision day (or the last close before it) by at most this
fraction: a fill at ten times (or a tenth of) the market is a data error that would change every return."""
CASH_TOLERANCE = 0.01
"""Cash may go below zero by at most this fraction of the starting cash (rounding), unless ``allow_margin``."""


def _check_against_prices(
    decisions: list[Decision], prices: pd.DataFrame, info: SeasonInfo, rel: str, col: Collector
) -> None:
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
                col.add(
                    rel,
                    d.line,
                    f"trades[{i}].price",
                    f"{t.price:g} is {t.price / ref:.2f}x the {t.symbol} close of {dates[k]} ({ref:g}); "
                    f"a fill must lie within {PRICE_TOLERANCE:.0%} of the market",
                )
            balance += (-1 if t.side == "buy" else 1) * t.quantity * t.price
        if balance < -CASH_TOLERANCE * info.starting_cash and not info.allow_margin:
            col.add(
                rel,
                d.line,
                "trades",
                f"buys beyond the cash held: cash would be {balance:,.2f} "
                f"{info.currency} (the season declares no margin)",
            )
        cash[d.contestant_id] = balance


def _check_holdings(decisions: list[Decision], rel: str, col: Collector) -> None:
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
                        rel,
                        d.line,
                        f"trades[{d.trades.index(t)}].quantity",
                        f"sells {t.quantity:g} {t.symbol} but holds {have:g}",
                    )
                book[t.symbol] = max(0.0, have - t.quantity)
