"""Field registry (names, aliases, units, categories) and unit normalisation."""

from __future__ import annotations

import pytest

from ledgers import FIELD_SPECS, field_spec, normalise, parse_number, resolve_field

# The point-in-time field names of the product brief ("Point-in-time data"), copied here so the test needs
# nothing outside the repository: price/momentum, volume, valuation, analyst, sector.
PRODUCT_FIELDS = """
close return1d return5d return20d sma50 sma200 rsi14 macd macdSignal week52High week52Low volatility20d beta
volume avgVolume20d
peRatio forwardPE pegRatio priceToBookRatio evToEbitda marketCapitalization profitMargin operatingMarginTTM
returnOnEquityTTM returnOnAssetsTTM quarterlyEarningsGrowthYOY quarterlyRevenueGrowthYOY dividendYield
analystTargetPrice analystRatingStrongBuy analystRatingBuy analystRatingHold analystRatingSell
analystRatingStrongSell
sector industry
""".split()


def test_every_product_field_is_registered():
    names = set(PRODUCT_FIELDS)
    assert len(names) == 36
    assert sorted(n for n in names if n not in FIELD_SPECS) == []
    for name in ("return7d", "return30d", "return6m", "return1y"):  # CapitalBench trailing returns
        assert FIELD_SPECS[name].unit == "fraction"


@pytest.mark.parametrize(
    ("alias", "field"),
    [
        ("P/E", "peRatio"),
        ("p/e ratio", "peRatio"),
        ("RSI", "rsi14"),
        ("RSI(14)", "rsi14"),
        ("50-day moving average", "sma50"),
        ("50DMA", "sma50"),
        ("SMA50", "sma50"),
        ("200-day average", "sma200"),
        ("7d return", "return7d"),
        ("7-day", "return7d"),
        ("30-day", "return30d"),
        ("1-year return", "return1y"),
        ("6-month", "return6m"),
        ("forward P/E", "forwardPE"),
        ("ROE", "returnOnEquityTTM"),
        ("52-week high", "week52High"),
        ("52w low", "week52Low"),
        ("price target", "analystTargetPrice"),
        ("market cap", "marketCapitalization"),
        ("EV/EBITDA", "evToEbitda"),
        ("dividend yield", "dividendYield"),
        ("peRatio", "peRatio"),
        ("PERATIO", "peRatio"),
        ("returnOnEquityTTM", "returnOnEquityTTM"),
    ],
)
def test_aliases_resolve(alias, field):
    assert resolve_field(alias) == field


def test_unknown_names_do_not_resolve():
    assert resolve_field("chip sales") is None
    assert resolve_field("peRatioo") is None


def test_units_and_categories():
    assert field_spec("return30d").unit == "fraction" and field_spec("return30d").category == "price_momentum"
    assert field_spec("P/E").unit == "ratio" and field_spec("P/E").category == "valuation"
    assert field_spec("volume").unit == "count" and field_spec("volume").category == "volume"
    assert field_spec("analystTargetPrice").unit == "price" and field_spec("analystTargetPrice").category == "analyst"
    assert field_spec("sector").unit == "text" and field_spec("industry").category == "sector"
    assert field_spec("positive_asset_share_5s").category == "market_state"  # breadth: no option holds it
    assert {s.category for s in FIELD_SPECS.values()} == {
        "price_momentum",
        "volume",
        "valuation",
        "analyst",
        "sector",
        "market_state",
    }


@pytest.mark.parametrize(
    ("text", "unit", "value"),
    [
        ("8.7%", "fraction", 0.087),
        ("+5.6%", "fraction", 0.056),
        ("-3.7%", "fraction", -0.037),
        ("\u22122.5%", "fraction", -0.025),
        ("0.25", "fraction", 0.25),
        ("25", "fraction", 0.25),
        ("25 bps", "fraction", 0.0025),
        ("326 bp", "fraction", 0.0326),
        ("331bp", "fraction", 0.0331),
        ("2.85 percentage points", "fraction", 0.0285),
        ("$2.5T", "price", 2.5e12),
        ("$1.2B", "price", 1.2e9),
        ("85M", "count", 85e6),
        ("57k", "count", 57e3),
        ("3.4 million", "count", 3.4e6),
        ("$1,234.50", "price", 1234.5),
        ("28.5x", "ratio", 28.5),
        ("72%", "ratio", 72.0),
    ],
)
def test_normalise(text, unit, value):
    assert normalise(text, unit) == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "unit", "half"),
    [
        ("8.7%", "fraction", 0.0005),
        ("9%", "fraction", 0.005),
        ("72", "ratio", 0.5),
        ("28.45", "ratio", 0.005),
        ("$2.5T", "price", 0.05e12),
        ("$129", "price", 0.5),
    ],
)
def test_stated_precision(text, unit, half):
    assert parse_number(text).in_unit(unit)[1] == pytest.approx(half)


def test_parse_number_rejects_text_without_number():
    with pytest.raises(ValueError):
        parse_number("no digits here")
