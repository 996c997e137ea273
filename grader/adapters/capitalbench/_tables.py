"""The tables a CapitalBench round shows its models, read into point-in-time fields.

Three tables exist (see data/capitalbench/README.md): ``universe_trailing_returns.csv`` (every round; later
rounds add relative returns, ranks, volatility, drawdown, 52-week distances, correlation and beta),
``universe_decision_context.json`` (from mid-July: N-session returns, active returns vs SPY, volatility,
drawdown, volume z-score, correlation, beta, distance from the 52-week high) and
``universe_quality_evidence.json`` (percentile ranks and a quality score). Each column maps to one registry
field (``ledgers`` FIELD_SPECS) by one rule per column family; a column no rule maps is reported as not used,
never dropped silently.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import SupportsFloat, SupportsIndex

from ledgers import FIELD_SPECS

# columns that describe a row rather than measure the option (never fields)
_DESCRIPTIVE = frozenset(
    {
        "option_id",
        "symbol",
        "name",
        "asset_class",
        "category",
        "option_group",
        "risk_bucket",
        "economic_exposure_cluster",
        "as_of_date_requested",
        "as_of_price_date",
        "as_of_adj_close",
        "status",
        "message",
        "path_observations_30d",
    }
)
_CALENDAR = r"(?P<h>7d|30d|6m|1y)"
_RULES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern), make)
    for pattern, make in (
        (rf"return_{_CALENDAR}", lambda m: f"return{m['h']}"),
        (rf"return_vs_sp500_{_CALENDAR}", lambda m: f"activeReturn{m['h']}"),
        (rf"rank_{_CALENDAR}", lambda m: f"rank{m['h']}"),
        (r"return_(?P<n>\d+)s", lambda m: f"return{m['n']}d"),
        (r"active_return_(?P<n>\d+)s", lambda m: f"activeReturn{m['n']}d"),
        (r"prior_(?P<n>\d+)s_active_return", lambda m: f"priorActiveReturn{m['n']}d"),
        (r"volatility_(?P<n>\d+)s", lambda m: f"volatility{m['n']}d"),
        (r"volatility_(?P<h>30d)", lambda m: f"volatility{m['h']}"),
        (r"max_drawdown_(?P<n>\d+)s", lambda m: f"maxDrawdown{m['n']}d"),
        (r"max_drawdown_(?P<h>30d)", lambda m: f"maxDrawdown{m['h']}"),
        (r"up_day_share_(?P<h>30d)", lambda m: f"upDayShare{m['h']}"),
        (r"distance_(?:from_)?52w_high", lambda m: "distance52wHigh"),
        (r"distance_(?:from_)?52w_low", lambda m: "distance52wLow"),
        (r"corr_spy_(?P<n>\d+)s", lambda m: f"correlation{m['n']}d"),
        (r"corr_to_sp500_(?P<h>1y)", lambda m: f"correlation{m['h']}"),
        (r"beta_spy_(?P<n>\d+)s", lambda m: f"beta{m['n']}d"),
        (r"beta_to_sp500_(?P<h>1y)", lambda m: f"beta{m['h']}"),
        (r"volume_zscore_(?P<a>\d+)v(?P<b>\d+)", lambda m: f"volumeZscore{m['a']}v{m['b']}"),
        (r"quality_evidence_score", lambda m: "qualityEvidenceScore"),
        (r"positive_asset_share_(?P<n>\d+)s", lambda m: f"positiveAssetShare{m['n']}d"),
        (r"active_return_dispersion_(?P<n>\d+)s", lambda m: f"activeReturnDispersion{m['n']}d"),
        (r"prior_active_rank", lambda m: "priorActiveRank"),
        (r"recent_active_reversal_rank", lambda m: "recentPullbackRank"),
        (r"low_volatility_rank", lambda m: "lowVolatilityRank"),
        (r"shallow_drawdown_rank", lambda m: "shallowDrawdownRank"),
    )
)

_STATE_KEY = re.compile(r"(?P<ticker>[a-z]{2,5})_(?P<what>return|minus_spy)_(?P<n>\d+)s")
_STATE_MARKET_WIDE = re.compile(r"(?:positive_asset_share|active_return_dispersion)_\d+s")
"""Market-wide figures of the decision context (share of options up, dispersion): no option holds them."""

TABLE_FILES = {
    "trailing_returns": "universe_trailing_returns.csv",
    "decision_context": "universe_decision_context.json",
    "quality_evidence": "universe_quality_evidence.json",
}


def column_field(column: str) -> str | None:
    """The registry field a table column holds, or None (descriptive column, or one no rule knows)."""
    for pattern, make in _RULES:
        m = pattern.fullmatch(column)
        if m:
            name = make(m)
            return name if name in FIELD_SPECS else None
    return None


@dataclass
class TableRow:
    """One option's values in one table of a round."""

    option_id: str
    as_of_price_date: date
    close: float | None
    returns: dict[str, float]  # registry field -> value (fractions for returns)
    table: str = "trailing_returns"


@dataclass
class TableRead:
    rows: list[TableRow] = field(default_factory=list)
    by_ticker: dict[str, dict[str, float]] = field(default_factory=dict)  # market_state figures per ETF ticker
    market_wide: dict[str, float] = field(
        default_factory=dict
    )  # market_state figures of no option (breadth, dispersion)
    as_of: date | None = None
    unused: set[str] = field(default_factory=set)  # columns no rule maps (reported by the import)
    problems: list[tuple[int | None, str | None, str]] = field(default_factory=list)  # (line, column, message)


def _number(raw: object) -> float | None | str:
    """A finite float, None for an empty cell, or the text of a bad value."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        return str(raw)
    if not isinstance(raw, str | bytes | SupportsFloat | SupportsIndex):  # float() refuses it (TypeError)
        return str(raw)
    try:
        v = float(raw)
    except (TypeError, ValueError):
        return str(raw)
    return v if math.isfinite(v) else str(raw)


def _values(row: dict[str, object], read: TableRead, line: int | None) -> dict[str, float]:
    out: dict[str, float] = {}
    for col, raw in row.items():
        if col in _DESCRIPTIVE or col.startswith("price_date_"):
            continue
        name = column_field(col)
        if name is None:
            read.unused.add(col)
            continue
        v = _number(raw)
        if isinstance(v, str):
            read.problems.append((line, col, f"not a finite number: {v!r}"))
        elif v is not None:
            out[name] = v
    return out


def read_trailing_table(path: Path) -> TableRead:
    """``universe_trailing_returns.csv``: every measure column, plus the as-of close."""
    read = TableRead()
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        need = ("option_id", "as_of_price_date", "as_of_adj_close", "return_7d", "return_30d", "return_6m", "return_1y")
        missing = [c for c in need if c not in (reader.fieldnames or [])]
        if missing:
            read.problems.append((1, ",".join(missing), "missing column(s) in header"))
            return read
        for line, row in enumerate(reader, start=2):
            try:
                as_of = date.fromisoformat((row.get("as_of_price_date") or "").strip())
            except ValueError:
                read.problems.append((line, "as_of_price_date", "not a date"))
                continue
            close = _number(row.get("as_of_adj_close"))
            if isinstance(close, str) or (close is not None and close <= 0):
                read.problems.append((line, "as_of_adj_close", f"not a positive number: {close!r}"))
                continue
            read.rows.append(TableRow(row["option_id"].strip(), as_of, close, _values(row, read, line)))
    return read


def read_json_table(path: Path, table: str, default_as_of: date | None) -> TableRead:
    """``universe_decision_context.json`` or ``universe_quality_evidence.json``: ``rows`` of values, as of the
    row's ``as_of_price_date`` or the table's ``as_of_date_requested``."""
    read = TableRead()
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        read.problems.append((None, None, f"cannot read: {err}"))
        return read
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        read.problems.append((None, "rows", "expected an object with a list of rows"))
        return read
    try:
        table_as_of = (
            date.fromisoformat(str(doc.get("as_of_date_requested")))
            if doc.get("as_of_date_requested")
            else default_as_of
        )
    except ValueError:
        read.problems.append((None, "as_of_date_requested", "not a date"))
        return read
    read.as_of = table_as_of
    state = doc.get("market_state")
    if isinstance(state, dict):  # "uso_return_5s", "rsp_minus_spy_21s": figures the table shows per ETF
        for key, raw in state.items():
            m = _STATE_KEY.fullmatch(str(key))
            v = _number(raw)
            if m is None or not isinstance(v, float):
                wide = column_field(str(key)) if _STATE_MARKET_WIDE.fullmatch(str(key)) else None
                if wide is not None and isinstance(v, float):
                    read.market_wide[wide] = v  # kept with the benchmark's row: the market's own state
                elif not _STATE_MARKET_WIDE.fullmatch(str(key)):
                    read.unused.add(f"market_state.{key}")
                continue
            name = f"return{m['n']}d" if m["what"] == "return" else f"activeReturn{m['n']}d"
            read.by_ticker.setdefault(m["ticker"].upper(), {})[name] = v
    for i, row in enumerate(doc["rows"]):
        if not isinstance(row, dict) or not str(row.get("option_id") or "").strip():
            read.problems.append((None, f"rows[{i}].option_id", "missing"))
            continue
        as_of = table_as_of
        if row.get("as_of_price_date"):
            try:
                as_of = date.fromisoformat(str(row["as_of_price_date"]))
            except ValueError:
                read.problems.append((None, f"rows[{i}].as_of_price_date", "not a date"))
                continue
        if as_of is None:
            read.problems.append((None, f"rows[{i}]", "no as-of date (row or table)"))
            continue
        values = _values(row, read, None)
        read.rows.append(TableRow(str(row["option_id"]).strip(), as_of, None, values, table))
    return read


def derive_returns_from_active(read: TableRead) -> int:
    """The decision context defines an active return as "option return minus SPY return": where a row shows only
    the active return over N sessions and the market state shows SPY's return over the same N, the option's own
    N-session return is their sum (a value the model could read off the table). Returns how many were added."""
    spy = read.by_ticker.get("SPY", {})
    shown = {(r.option_id, f) for r in read.rows for f in r.returns}  # a value the table gives itself wins
    added = 0
    for row in read.rows:
        for name, active in list(row.returns.items()):
            m = re.fullmatch(r"activeReturn(\d+)d", name)
            if m is None:
                continue
            plain = f"return{m[1]}d"
            if (row.option_id, plain) not in shown and plain in spy and plain in FIELD_SPECS:
                row.returns[plain] = active + spy[plain]
                added += 1
    return added
