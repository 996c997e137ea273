"""Byte-stable writers for the files of a season bundle.

Stable means: fixed key order in YAML, sorted keys in JSON, ``repr`` (shortest round-trip) text for floats,
``\\n`` line endings, UTF-8, and nothing that depends on the clock or the machine.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from pathlib import Path

import pandas as pd
import yaml

from grader.demo._universe import FieldValue


def _number(value: float) -> str:
    """Whole numbers without a fraction (``18``), other floats in shortest round-trip form."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def write_yaml(path: Path, data: object, header: str = "") -> None:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
    comment = "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines())
    path.write_text(comment + text, encoding="utf-8", newline="\n")


def write_decisions(path: Path, records: Iterable[Mapping[str, object]]) -> int:
    """One JSON object per line, keys sorted; returns the number of lines."""
    n = 0
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(json.dumps(record, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n")
            n += 1
    return n


def write_prices(path: Path, prices: pd.DataFrame) -> None:
    """``date,symbol,close`` in the frame's order, closes in shortest round-trip text."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["date", "symbol", "close"])
        for day, symbol, close in prices[["date", "symbol", "close"]].itertuples(index=False):
            writer.writerow([day.isoformat(), symbol, repr(float(close))])


def write_fields(path: Path, rows: Sequence[FieldValue]) -> None:
    """``symbol,field,value,observed_at,source`` in the given order."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["symbol", "field", "value", "observed_at", "source"])
        for r in rows:
            observed = r.observed_at.isoformat() if isinstance(r.observed_at, date) else str(r.observed_at)
            writer.writerow([r.symbol, r.field, _number(r.value), observed, r.source])
