"""The demo season's universe, its market-data provenance and its illustrative fundamentals.

Closes are real (skfolio's bundled data, see ``ATTRIBUTION``). Names, GICS-style sectors and industries
are public facts. Every valuation and analyst value in ``ILLUSTRATIVE_FIELDS`` is made up for the demo
(ballpark-plausible for the end of 2021, not sourced) and is written to ``fields.csv`` with
``source: illustrative``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd

SKFOLIO_ATTRIBUTION = (
    "Adjusted daily closes, one row per US trading day, extracted unchanged from the data files that ship "
    "inside the PyPI package `skfolio` 1.12.2 (BSD-3-Clause): "
    "`skfolio/datasets/data/{sp500_dataset,factors_dataset,sp500_index}.csv.gz`, cut to dates from "
    "2020-01-01 on. The package describes the set as for testing and examples."
)
"""The attribution line of ``data/market/README.md``; kept wherever the closes are copied."""

DEMO_BENCHMARK = "SP500"
HISTORY_START = date(2021, 1, 4)
SEASON_START = date(2022, 1, 3)
SEASON_END = date(2022, 3, 31)


@dataclass(frozen=True, slots=True)
class Listing:
    """One tradable symbol of a season universe."""

    symbol: str
    name: str
    sector: str
    industry: str
    asset_class: str  # "equity" or "etf"


DEMO_UNIVERSE: tuple[Listing, ...] = (
    Listing("AAPL", "Apple Inc.", "Information Technology", "Technology Hardware, Storage & Peripherals", "equity"),
    Listing(
        "AMD",
        "Advanced Micro Devices, Inc.",
        "Information Technology",
        "Semiconductors & Semiconductor Equipment",
        "equity",
    ),
    Listing("BAC", "Bank of America Corporation", "Financials", "Banks", "equity"),
    Listing("BBY", "Best Buy Co., Inc.", "Consumer Discretionary", "Specialty Retail", "equity"),
    Listing("CVX", "Chevron Corporation", "Energy", "Oil, Gas & Consumable Fuels", "equity"),
    Listing("GE", "General Electric Company", "Industrials", "Industrial Conglomerates", "equity"),
    Listing("HD", "The Home Depot, Inc.", "Consumer Discretionary", "Specialty Retail", "equity"),
    Listing("JNJ", "Johnson & Johnson", "Health Care", "Pharmaceuticals", "equity"),
    Listing("JPM", "JPMorgan Chase & Co.", "Financials", "Banks", "equity"),
    Listing("KO", "The Coca-Cola Company", "Consumer Staples", "Beverages", "equity"),
    Listing("LLY", "Eli Lilly and Company", "Health Care", "Pharmaceuticals", "equity"),
    Listing("MRK", "Merck & Co., Inc.", "Health Care", "Pharmaceuticals", "equity"),
    Listing("MSFT", "Microsoft Corporation", "Information Technology", "Software", "equity"),
    Listing("PEP", "PepsiCo, Inc.", "Consumer Staples", "Beverages", "equity"),
    Listing("PFE", "Pfizer Inc.", "Health Care", "Pharmaceuticals", "equity"),
    Listing("PG", "The Procter & Gamble Company", "Consumer Staples", "Household Products", "equity"),
    Listing("RRC", "Range Resources Corporation", "Energy", "Oil, Gas & Consumable Fuels", "equity"),
    Listing("UNH", "UnitedHealth Group Incorporated", "Health Care", "Health Care Providers & Services", "equity"),
    Listing("WMT", "Walmart Inc.", "Consumer Staples", "Food & Staples Retailing", "equity"),
    Listing("XOM", "Exxon Mobil Corporation", "Energy", "Oil, Gas & Consumable Fuels", "equity"),
    Listing("MTUM", "iShares MSCI USA Momentum Factor ETF", "Multi-Sector", "Factor ETF (momentum)", "etf"),
    Listing("QUAL", "iShares MSCI USA Quality Factor ETF", "Multi-Sector", "Factor ETF (quality)", "etf"),
    Listing("SIZE", "iShares MSCI USA Size Factor ETF", "Multi-Sector", "Factor ETF (size)", "etf"),
    Listing(
        "USMV",
        "iShares MSCI USA Min Vol Factor ETF",
        "Multi-Sector",
        "Factor ETF (minimum volatility)",
        "etf",
    ),
    Listing("VLUE", "iShares MSCI USA Value Factor ETF", "Multi-Sector", "Factor ETF (value)", "etf"),
)

_FIELD_ORDER = (
    "peRatio",
    "forwardPE",
    "profitMargin",
    "returnOnEquityTTM",
    "dividendYield",
    "analystTargetPrice",
    "analystRatingBuy",
    "analystRatingHold",
    "analystRatingSell",
)
# symbol: (peRatio, forwardPE, profitMargin, returnOnEquityTTM, dividendYield, analystTargetPrice,
#          analystRatingBuy, analystRatingHold, analystRatingSell); None = not reported (e.g. no P/E on a loss).
_BEFORE_SEASON: dict[str, tuple[float | None, ...]] = {
    "AAPL": (29.0, 28.3, 0.259, 1.474, 0.0049, 185.0, 28, 8, 1),
    "AMD": (38.5, 42.0, 0.192, 0.426, 0.0, 160.0, 28, 9, 1),
    "BAC": (13.5, 13.1, 0.356, 0.118, 0.019, 51.0, 15, 8, 2),
    "BBY": (10.5, 11.2, 0.048, 0.592, 0.028, 130.0, 12, 10, 1),
    "CVX": (22.0, 12.8, 0.096, 0.113, 0.045, 135.0, 15, 9, 1),
    "GE": (None, 24.5, -0.086, -0.161, 0.0034, 120.0, 12, 6, 1),
    "HD": (25.5, 23.9, 0.109, 1.1, 0.0165, 435.0, 20, 9, 1),
    "JNJ": (24.7, 16.5, 0.221, 0.286, 0.025, 190.0, 9, 8, 0),
    "JPM": (10.2, 12.6, 0.393, 0.19, 0.0253, 185.0, 14, 9, 2),
    "KO": (29.0, 25.4, 0.252, 0.417, 0.0285, 64.0, 14, 6, 0),
    "LLY": (43.0, 35.0, 0.197, 0.595, 0.0125, 295.0, 14, 8, 1),
    "MRK": (14.5, 11.7, 0.27, 0.346, 0.034, 93.0, 12, 7, 1),
    "MSFT": (37.0, 33.5, 0.385, 0.493, 0.0074, 375.0, 33, 4, 0),
    "PEP": (28.5, 25.0, 0.096, 0.534, 0.0248, 182.0, 8, 11, 1),
    "PFE": (15.7, 7.9, 0.27, 0.289, 0.0271, 60.0, 9, 13, 0),
    "PG": (29.5, 27.6, 0.184, 0.313, 0.0213, 166.0, 11, 10, 1),
    "RRC": (14.6, 6.2, 0.138, 0.459, 0.0, 27.0, 8, 11, 3),
    "UNH": (29.0, 21.9, 0.06, 0.249, 0.0115, 540.0, 22, 3, 0),
    "WMT": (39.5, 25.7, 0.024, 0.165, 0.0155, 168.0, 25, 8, 0),
    "XOM": (14.2, 9.7, 0.082, 0.136, 0.057, 74.0, 10, 14, 2),
}
# A mid-season update after the Q4 reports: only the listed fields change, from the observation date on.
_MID_SEASON: dict[str, dict[str, float]] = {
    "AAPL": {"peRatio": 27.1, "forwardPE": 26.2, "analystTargetPrice": 195.0},
    "AMD": {"peRatio": 45.1, "forwardPE": 35.0, "analystTargetPrice": 150.0, "analystRatingBuy": 26},
    "CVX": {"peRatio": 17.9, "forwardPE": 11.9, "analystTargetPrice": 155.0},
    "GE": {"forwardPE": 27.3, "analystTargetPrice": 115.0},
    "KO": {"peRatio": 28.0, "analystTargetPrice": 66.0},
    "MSFT": {"peRatio": 32.5, "forwardPE": 30.1, "analystTargetPrice": 368.0},
    "PFE": {"peRatio": 12.6, "forwardPE": 7.4, "profitMargin": 0.27, "analystTargetPrice": 58.0},
    "RRC": {"peRatio": 21.0, "forwardPE": 7.1, "analystTargetPrice": 30.0},
    "XOM": {"peRatio": 14.8, "forwardPE": 10.4, "profitMargin": 0.08, "analystTargetPrice": 90.0},
}
ILLUSTRATIVE_BEFORE = date(2021, 12, 31)
ILLUSTRATIVE_MID_SEASON = date(2022, 2, 15)


@dataclass(frozen=True, slots=True)
class FieldValue:
    """One ``fields.csv`` row; ``observed_at`` is a date (known from that day's close on)."""

    symbol: str
    field: str
    value: float
    observed_at: date
    source: str


def illustrative_fields() -> list[FieldValue]:
    """The demo's ``fields.csv`` rows, sorted by observation date, symbol and field."""
    rows: list[FieldValue] = []
    for symbol, values in _BEFORE_SEASON.items():
        for field, value in zip(_FIELD_ORDER, values, strict=True):
            if value is not None:
                rows.append(FieldValue(symbol, field, float(value), ILLUSTRATIVE_BEFORE, "illustrative"))
    for symbol, changes in _MID_SEASON.items():
        for field, value in changes.items():
            rows.append(FieldValue(symbol, field, float(value), ILLUSTRATIVE_MID_SEASON, "illustrative"))
    rows.sort(key=lambda r: (r.observed_at, r.symbol, _FIELD_ORDER.index(r.field)))
    return rows


class MarketDataError(ValueError):
    """The market directory is missing files or columns the builder needs."""


_WIDE_FILES = ("stocks_adj_close.csv", "etfs_adj_close.csv", "sp500_index.csv")


def read_market_closes(market_dir: Path, symbols: list[str], start: date, end: date) -> pd.DataFrame:
    """Closes as a long ``date, symbol, close`` frame sorted by date and symbol.

    ``market_dir`` is either a bundle's ``market/`` folder (``prices.csv`` in long form) or the shared
    extract (``stocks_adj_close.csv``, ``etfs_adj_close.csv``, ``sp500_index.csv`` in wide form). Values are
    parsed with round-trip float precision so a copy written with ``repr`` reproduces the source digits.
    """
    market_dir = Path(market_dir)
    long_file = market_dir / "prices.csv"
    if long_file.is_file():
        frame = pd.read_csv(long_file, float_precision="round_trip", dtype={"symbol": str})
        missing = {"date", "symbol", "close"} - set(frame.columns)
        if missing:
            raise MarketDataError(f"{long_file}: line 1: missing column(s) {sorted(missing)}")
        frame = frame[["date", "symbol", "close"]]
    elif all((market_dir / name).is_file() for name in _WIDE_FILES):
        parts = []
        for name in _WIDE_FILES:
            wide = pd.read_csv(market_dir / name, float_precision="round_trip")
            if "Date" not in wide.columns:
                raise MarketDataError(f"{market_dir / name}: line 1: missing column 'Date'")
            parts.append(wide.melt(id_vars="Date", var_name="symbol", value_name="close"))
        frame = pd.concat(parts, ignore_index=True).rename(columns={"Date": "date"})
    else:
        raise MarketDataError(
            f"{market_dir}: expected prices.csv (date,symbol,close) or the wide-form source extract "
            f"({', '.join(_WIDE_FILES)})"
        )
    frame["date"] = pd.to_datetime(frame["date"]).dt.date
    absent = sorted(set(symbols) - set(frame["symbol"]))
    if absent:
        raise MarketDataError(f"{market_dir}: no closes for symbol(s) {absent}")
    frame = frame[frame["symbol"].isin(symbols) & (frame["date"] >= start) & (frame["date"] <= end)]
    if frame["close"].isna().any():
        bad = frame[frame["close"].isna()].iloc[0]
        raise MarketDataError(f"{market_dir}: missing close for {bad['symbol']} on {bad['date']}")
    return frame.sort_values(["date", "symbol"]).reset_index(drop=True)
