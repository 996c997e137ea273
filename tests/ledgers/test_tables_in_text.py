"""A markdown table inside a rationale: each row is the option its cell names, each figure the field its column's
header names (ledgers/reading/_tables.py), never whatever field the figure happens to equal."""

from __future__ import annotations

from datetime import date

import pandas as pd

from grader.pit import FieldRow, PointInTimeStore, close_time
from ledgers import VerifierConfig, extract_claims, verify_many
from ledgers.reading._tables import table_rows
from tests.ledgers.test_reading_classes import DECIDED, LABELS, UNIVERSE

VALUES = {  # return7d, return30d, volatility30d, activeReturn30d
    "SP500": (0.0055, 0.0162, 0.1285, 0.0),
    "ENERGY": (0.0423, -0.0033, 0.2191, -0.0195),
    "HEALTHCARE": (-0.0120, 0.0337, 0.1520, 0.0175),
    "TECHNOLOGY": (0.0248, 0.0110, 0.2010, -0.0052),
}
TABLE = """Picks this week:
| option | 7d | 30d | vol 30d | vs SPY 30d | note |
|---|---|---|---|---|---|
| XLE | +4.23% | -0.33% | 20.13% | -1.95% | oil tailwind |
| Healthcare Sector | -1.20% | +3.37% | 15.20% | +1.75% | defensive |
"""


def _store() -> PointInTimeStore:
    when = close_time(date(2026, 7, 17))
    fields = ("return7d", "return30d", "volatility30d", "activeReturn30d")
    rows = [
        FieldRow(s, f, v, when, "capitalbench:R")
        for s, vals in VALUES.items()
        for f, v in zip(fields, vals, strict=True)
    ]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": s, "close": 100.0} for s in VALUES])
    labels = {s: {"name": UNIVERSE[s][0], "sector": LABELS[s][0], "asset_class": LABELS[s][1]} for s in VALUES}
    return PointInTimeStore(prices, rows, benchmark="SP500", labels=labels)


def _read(text: str, default: str = "TECHNOLOGY"):
    store = _store()
    claims = extract_claims(text, DECIDED, default, UNIVERSE, benchmark="SP500")
    verdicts = verify_many(claims, store, VerifierConfig(benchmark="SP500"))
    return [(c.symbol, c.assertions[0].field, v.status) for c, v in zip(claims, verdicts, strict=True)]


def test_each_cell_is_its_row_s_option_and_its_column_s_field():
    got = _read(TABLE)
    assert ("ENERGY", "return7d", "supported") in got
    assert ("ENERGY", "activeReturn30d", "supported") in got  # "vs SPY 30d": the row's, against SPY, not SPY's
    assert ("HEALTHCARE", "return30d", "supported") in got
    # XLE's volatility is 21.91%: 20.13% is its 6-month return elsewhere, never matched to it by value
    assert ("ENERGY", "volatility30d", "contradicted") in got
    assert all(sym != "SP500" for sym, _, _ in got)


def test_a_row_that_names_no_option_is_left_to_the_ordinary_reader():
    rows = table_rows(
        TABLE.replace("| XLE |", "| cyclicals |"), lambda cell: {"Healthcare Sector": "HEALTHCARE"}.get(cell)
    )
    assert [r.symbol for r in rows] == ["HEALTHCARE"]


def test_lines_between_pipes_without_a_separator_are_no_table():
    text = "| XLE | +4.23% | -0.33% |\n| Healthcare Sector | -1.20% | +3.37% |"
    assert table_rows(text, lambda cell: "ENERGY" if cell == "XLE" else None) == []


def test_a_prose_cell_is_read_with_its_row_s_option():
    got = _read(TABLE.replace("oil tailwind", "recent relative strength"))
    assert ("ENERGY", None, "not_verifiable") in got  # 30d behind SPY, 7d ahead: the windows disagree
