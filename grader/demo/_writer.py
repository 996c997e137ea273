"""The demo's bundle files as text, written by :func:`grader.season.write_bundle`.

Byte-stable: fixed key order in YAML, sorted keys in JSON, ``repr`` (shortest round-trip) text for floats,
``\\n`` line endings, UTF-8, and nothing that depends on the clock or the machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date

import pandas as pd

from grader.demo._universe import FieldValue
from grader.season import csv_text, jsonl_text, yaml_text

#: The YAML line width of the demo's season.yaml and contestants.yaml.
YAML_WIDTH = 100


def _number(value: float) -> str:
    """Whole numbers without a fraction (``18``), other floats in shortest round-trip form."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def yaml_file(data: object, header: str = "") -> str:
    return yaml_text(data, header=header, width=YAML_WIDTH)


def decisions_file(records: Iterable[Mapping[str, object]]) -> str:
    """One JSON object per line, keys sorted."""
    return jsonl_text(records, sort_keys=True, allow_nan=False)


def prices_file(prices: pd.DataFrame) -> str:
    """``date,symbol,close`` in the frame's order, closes in shortest round-trip text."""
    return csv_text(
        ["date", "symbol", "close"],
        (
            [day.isoformat(), symbol, repr(float(close))]
            for day, symbol, close in prices[["date", "symbol", "close"]].itertuples(index=False)
        ),
    )


def fields_file(rows: Sequence[FieldValue]) -> str:
    """``symbol,field,value,observed_at,source`` in the given order."""
    return csv_text(
        ["symbol", "field", "value", "observed_at", "source"],
        (
            [
                r.symbol,
                r.field,
                _number(r.value),
                r.observed_at.isoformat() if isinstance(r.observed_at, date) else str(r.observed_at),
                r.source,
            ]
            for r in rows
        ),
    )
