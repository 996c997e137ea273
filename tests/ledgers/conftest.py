"""Ledger fixtures: a point-in-time store over real closes (2020-07..2021-12) and illustrative fields."""

from __future__ import annotations

import csv
from datetime import date, datetime
from pathlib import Path

import pandas as pd
import pytest

from grader.pit import FieldRow, PointInTimeStore, close_time

FIXTURES = Path(__file__).parent / "fixtures"
SECTORS = {
    "AAPL": {"sector": "Technology", "industry": "Technology Hardware"},
    "MSFT": {"sector": "Technology", "industry": "Software"},
    "AMD": {"sector": "Technology", "industry": "Semiconductors"},
    "XOM": {"sector": "Energy", "industry": "Oil & Gas Integrated"},
    "JPM": {"sector": "Financials", "industry": "Banks"},
    "KO": {"sector": "Consumer Staples", "industry": "Beverages"},
}


def _when(text: str) -> datetime:
    if "T" in text:
        return datetime.fromisoformat(text)
    return close_time(date.fromisoformat(text))


def field_rows(path: Path = FIXTURES / "fields.csv") -> list[FieldRow]:
    lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("#")]
    rows = []
    for r in csv.DictReader(lines):
        value: float | str = float(r["value"])
        rows.append(FieldRow(r["symbol"], r["field"], value, _when(r["observed_at"]), r["source"]))
    return rows


def build_store() -> PointInTimeStore:
    prices = pd.read_csv(FIXTURES / "prices.csv", comment="#")
    return PointInTimeStore(prices, field_rows(), benchmark="SP500", sectors=SECTORS)


@pytest.fixture(scope="session")
def store() -> PointInTimeStore:
    return build_store()
