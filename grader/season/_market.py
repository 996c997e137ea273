"""The market files of a bundle: ``market/prices.csv`` and ``market/fields.csv``, each row validated (file, line,
field) before it can reach the point-in-time store."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from grader.pit import MARKET_TZ, FieldRow, close_time
from grader.season._models import MAX_PRICE, MIN_PRICE, SeasonInfo
from grader.season._reading import Collector, csv_rows, number, parse_aware, parse_day, read_text

PRICES = "market/prices.csv"
FIELDS = "market/fields.csv"
MAX_FIELD_VALUE = 1e18
"""Largest magnitude of a numeric point-in-time field (a market capitalisation in a small currency fits)."""


def read_prices(
    root: Path, info: SeasonInfo | None, symbols: set[str], col: Collector, refused: set[str]
) -> pd.DataFrame:
    prices = pd.DataFrame(columns=["date", "symbol", "close"])
    text = read_text(root, PRICES, col, refused)
    if text is None:
        return prices
    records = []
    seen: set[tuple[date, str]] = set()
    for lineno, row in csv_rows(PRICES, text, ("date", "symbol", "close"), col):
        d = parse_day(row["date"], PRICES, lineno, "date", col)
        if d is None:
            continue
        sym = row["symbol"]
        if symbols and sym not in symbols:
            col.add(PRICES, lineno, "symbol", f"unknown symbol {sym!r} (not in the universe)")
            continue
        close = number(row["close"], PRICES, lineno, "close", col, positive=True, limit=MAX_PRICE)
        if close is None:
            continue
        if close < MIN_PRICE:
            col.add(PRICES, lineno, "close", f"{row['close']!r} is below {MIN_PRICE:g} (not a price)")
            continue
        rec: dict[str, Any] = {"date": d, "symbol": sym, "close": close}
        for opt in ("open", "high", "low", "volume"):
            if row.get(opt):
                v = number(row[opt], PRICES, lineno, opt, col, limit=MAX_FIELD_VALUE)
                if v is not None:
                    rec[opt] = v
        if (d, sym) in seen:
            col.add(PRICES, lineno, "date", f"duplicate price row for {sym} on {d}")
            continue
        seen.add((d, sym))
        records.append(rec)
    if records:
        prices = pd.DataFrame.from_records(records)
    if info is not None and records and info.benchmark not in set(prices["symbol"]):
        col.add(PRICES, None, "symbol", f"no prices for the benchmark {info.benchmark!r}")
    return prices


def read_fields(
    root: Path, info: SeasonInfo | None, symbols: set[str], col: Collector, refused: set[str]
) -> list[FieldRow]:
    field_rows: list[FieldRow] = []
    text = read_text(root, FIELDS, col, refused, required=False)
    if text is None:
        return field_rows
    seen: set[tuple[str, str, datetime, str]] = set()
    for lineno, row in csv_rows(FIELDS, text, ("symbol", "field", "value", "observed_at", "source"), col):
        sym = row["symbol"]
        if symbols and sym not in symbols:
            col.add(FIELDS, lineno, "symbol", f"unknown symbol {sym!r}")
            continue
        if not row["field"]:
            col.add(FIELDS, lineno, "field", "empty field name")
            continue
        obs = _observed_at(row["observed_at"], lineno, col)
        if obs is None:
            continue
        if info is not None and obs.astimezone(MARKET_TZ).date() > info.end:
            col.add(
                FIELDS,
                lineno,
                "observed_at",
                f"observed {row['observed_at']} after the season end {info.end}: cannot be known in the season",
            )
            continue
        raw = row["value"]
        value: float | str
        if row["field"] in ("sector", "industry"):
            value = raw
        else:
            v = number(raw, FIELDS, lineno, "value", col, limit=MAX_FIELD_VALUE)
            if v is None:
                continue
            value = v
        # rounds seasons keep each round's own rows (source "capitalbench:<round>"): one per source
        key = (sym, row["field"], obs, row["source"] if info is not None and info.format == "rounds" else "")
        if key in seen:
            col.add(FIELDS, lineno, "observed_at", f"duplicate row for {sym}.{row['field']} at {obs}")
            continue
        seen.add(key)
        field_rows.append(FieldRow(sym, row["field"], value, obs, row["source"] or "fields.csv"))
    return field_rows


def _observed_at(raw: str, line: int, col: Collector) -> datetime | None:
    if len(raw) == 10:
        day = parse_day(raw, FIELDS, line, "observed_at", col)
        return close_time(day) if day is not None else None
    return parse_aware(raw, FIELDS, line, "observed_at", col)
