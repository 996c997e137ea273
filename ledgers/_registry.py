"""Field registry: every point-in-time field a claim may cite, with its unit, category and aliases.

Names follow PRODUCT.md ("Point-in-time data") plus every column of the tables CapitalBench rounds show their
models (trailing returns, the decision-context and quality-evidence appendices). Aliases are what rationales and judges actually write
("P/E", "RSI", "50DMA", "7-day"); they are matched after lower-casing and dropping spaces, hyphens,
underscores and parentheses, so "50-day moving average", "50 Day Moving Average" and "50dma" are one key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ledgers._number_words import spelled

Unit = Literal["fraction", "price", "ratio", "count", "text"]
"""fraction: 0.087 = 8.7%; price: an amount in the season currency (a price, a market value);
ratio: a plain number (P/E, beta, RSI points); count: shares or ratings; text: a label (sector)."""

Category = Literal["price_momentum", "volume", "valuation", "analyst", "sector", "market_state"]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One registry field: its canonical name, unit, category, aliases and a short description."""

    name: str
    unit: Unit
    category: Category
    aliases: tuple[str, ...]
    description: str


def _f(name: str, unit: Unit, category: Category, description: str, *aliases: str) -> FieldSpec:
    return FieldSpec(name, unit, category, aliases, description)


_HORIZON_WORDS = {
    "7d": ("7d", "7-day", "seven-day", "1-week", "one-week", "1w", "weekly"),
    "30d": ("30d", "30-day", "thirty-day", "1-month", "one-month", "1m", "monthly"),
    "6m": ("6m", "6-month", "six-month"),
    "1y": ("1y", "1-year", "one-year", "12-month", "1yr"),
}


def _session_words(n: int) -> tuple[str, ...]:
    words = spelled(n)
    return (
        f"{n}s",
        f"{n}-session",
        f"{n} session",
        f"{n}-trading-day",
        f"{n}d",
        f"{n}-day",
        *(f"{w}-session" for w in words),
        *(f"{w} session" for w in words),
        *(f"{w}-day" for w in words),
    )


def _horizon_words(h: str) -> tuple[str, ...]:
    return _HORIZON_WORDS.get(h) or _session_words(int(h[:-1]))


def _column_names(name: str) -> tuple[str, ...]:
    """CapitalBench column names of a field ("activeReturn21d" -> "active_return_21s", "return_21s")."""
    m = re.fullmatch(r"([a-zA-Z]+?)(\d+)([dmy])", name)
    if not m:
        return ()
    base, n, unit = m.groups()
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", base).lower()
    short = {"volatility": "vol", "max_drawdown": "max_dd", "correlation": "corr"}.get(snake)
    out = [f"{snake}_{n}{unit}"]
    if unit == "d":
        out.append(f"{snake}_{n}s")
        if short:
            out.append(f"{short}_{n}s")
        if snake == "correlation":
            out.append(f"corr_spy_{n}s")
        if snake == "beta":
            out.append(f"beta_spy_{n}s")
    if snake == "active_return" and unit != "d" or snake == "active_return" and n in ("7", "30"):
        out.append(f"return_vs_sp500_{n}{unit}")
    return tuple(out)


# the field tables stay as written (one field a line, read as a table): not reformatted
# fmt: off
def _capitalbench_fields() -> list[FieldSpec]:
    """Fields of the tables CapitalBench rounds show their models, one per (measure, horizon) that the public
    rounds use; the adapter maps each column to one of these (``grader.adapters``)."""
    out: list[FieldSpec] = [
        _f("return3d", "fraction", "price_momentum", "3-trading-day (3-session) return",
           *[f"{w} return" for w in _session_words(3)], "3-session", "3s"),
        _f("return21d", "fraction", "price_momentum", "21-trading-day (21-session) return",
           *[f"{w} return" for w in _session_words(21)]),
    ]
    for h, what in (("7d", "7 calendar days"), ("30d", "30 calendar days"), ("6m", "6 months"),
                    ("1y", "1 year"), ("5d", "5 sessions"), ("21d", "21 sessions")):
        words = _horizon_words(h)
        out.append(_f(
            f"activeReturn{h}", "fraction", "price_momentum",
            f"return minus the benchmark's (SPY) return over {what}",
            # not "alpha" / "outperformance": models use them for the plain return too ("return_or_relative")
            *[f"{w} {k}" for w in words for k in ("active return", "return vs spy", "return vs sp500",
                                                  "return vs s&p 500")]))
        if h in ("7d", "30d", "6m", "1y"):
            out.append(_f(f"rank{h}", "count", "price_momentum",
                          f"rank of the {what} return in the round's universe (1 = highest)",
                          *[f"{w} rank" for w in words]))
    for n in (16, 105):
        out.append(_f(f"priorActiveReturn{n}d", "fraction", "price_momentum",
                      f"active return vs SPY over the {n} sessions before the latest window",
                      *[f"prior {w} active return" for w in _session_words(n)], f"prior {n}s active return",
                      *[f"prior {w} active" for w in _session_words(n)], f"prior_{n}s_active", f"prior {n}s active"))
    for h, what in (("30d", "30 calendar days"), ("21d", "21 sessions"), ("63d", "63 sessions")):
        words = _horizon_words(h)
        out.append(_f(f"volatility{h}", "fraction", "price_momentum",
                      f"annualised volatility of daily returns over {what}",
                      *[f"{w} {k}" for w in words for k in ("volatility", "vol", "realized volatility")]))
        out.append(_f(f"maxDrawdown{h}", "fraction", "price_momentum",
                      f"maximum drawdown over {what} (a negative fraction)",
                      *[f"{w} {k}" for w in words for k in ("max drawdown", "maximum drawdown", "drawdown")]))
    # a measure named without its window ("-11.7% active", "drawdown -16.8%", "corr -0.27"): never stored;
    # the verifier checks the windows the store has (WINDOW_FAMILIES)
    out += [
        _f("activeReturn", "fraction", "price_momentum", "active return vs SPY, window not stated",
           "active return", "active", "relative return", "excess return vs spy", "minus spy", "minus_spy"),
        _f("maxDrawdown", "fraction", "price_momentum", "maximum drawdown, window not stated",
           "max drawdown", "maximum drawdown", "drawdown", "max dd"),
        _f("correlation", "ratio", "price_momentum", "correlation with SPY, window not stated",
           "correlation", "corr", "correlation to spy", "correlation with spy", "corr to spy", "corr_spy", "corr spy"),
        _f("priorActiveReturn", "fraction", "price_momentum", "prior-window active return, window not stated",
           "prior active return", "prior-window active return", "prior window active return",
           "prior-window active", "prior active trend", "prior-window trend", "prior active"),
        _f("volumeZscore", "ratio", "volume", "volume z-score, windows not stated",
           "volume z-score", "volume z", "volume zscore", "volume z score", "vol_z", "vol z", "volume_z"),
    ]
    for n in (5, 21):  # the market's state, held by the benchmark's row (no option has it)
        words = _session_words(n)
        out.append(_f(f"positiveAssetShare{n}d", "fraction", "market_state",
                      f"share of the round's options with a positive {n}-session return (breadth)",
                      *[f"{w} positive asset share" for w in words], *[f"{w} breadth" for w in words],
                      f"positive_asset_share_{n}s", f"breadth_{n}s", f"breadth {n}s"))
        out.append(_f(f"activeReturnDispersion{n}d", "fraction", "market_state",
                      f"cross-sectional dispersion of the options' {n}-session active returns",
                      *[f"{w} dispersion" for w in words], *[f"{w} active-return dispersion" for w in words],
                      f"active_return_dispersion_{n}s", f"dispersion_{n}s", f"dispersion {n}s"))
    out += [
        _f("positiveAssetShare", "fraction", "market_state", "breadth, window not stated",
           "positive asset share", "positive-asset share", "breadth", "share of assets positive",
           "share of options positive"),
        _f("activeReturnDispersion", "fraction", "market_state", "active-return dispersion, window not stated",
           "dispersion", "active-return dispersion", "active return dispersion", "return dispersion"),
    ]
    out.append(_f("upDayShare30d", "fraction", "price_momentum", "share of up days over 30 calendar days",
                  "up-day share", "up day share", "30d up-day share", "share of up days", "up days"))
    out.append(_f("distance52wHigh", "fraction", "price_momentum",
                  "close / 52-week high - 1 (zero or negative)",
                  "distance from 52-week high", "distance from the 52-week high", "distance to 52-week high",
                  "distance from 52w high", "below 52-week high", "off the 52-week high", "off its 52-week high",
                  "distance_52w_high", "distance_from_52w_high", "distance to 52w high", "distance to the 52-week high",
                  "distance 52w high", "distance 52-week high", "52w drawdown", "52-week drawdown", "dist_52w",
                  "dist 52w", "dist_52w_high",
                  "distance to the 52w high"))
    out.append(_f("distance52wLow", "fraction", "price_momentum", "close / 52-week low - 1 (zero or positive)",
                  "distance from 52-week low", "distance from the 52-week low", "above 52-week low",
                  "distance from 52w low", "distance_52w_low", "distance_from_52w_low"))
    for h, what in (("1y", "1 year of daily returns"), ("63d", "63 sessions"), ("252d", "252 sessions")):
        words = _horizon_words(h) if h == "1y" else _session_words(int(h[:-1]))
        out.append(_f(f"correlation{h}", "ratio", "price_momentum", f"correlation with SPY over {what}",
                      *[f"{w} {k}" for w in words for k in ("correlation", "corr", "correlation to spy",
                                                            "correlation with spy")],
                      *(("corr_to_sp500_1y",) if h == "1y" else ())))
        out.append(_f(f"beta{h}", "ratio", "price_momentum", f"beta to SPY over {what}",
                      *[f"{w} beta" for w in words], *(("beta_to_sp500_1y",) if h == "1y" else ())))
    for a, b in ((5, 60), (20, 120)):
        out.append(_f(f"volumeZscore{a}v{b}", "ratio", "volume",
                      f"z-score of the {a}-session average volume against the preceding {b}-session baseline",
                      f"volume z-score {a}v{b}", f"{a}v{b} volume z-score", f"volume zscore {a}v{b}"))
    for name, what, *aliases in (
        ("qualityEvidenceScore", "CapitalBench quality evidence score (0..1)",
         "quality evidence score", "quality score", "quality-evidence score", "evidence score"),
        ("priorActiveRank", "percentile rank (0..1) of the prior-window active return", "prior active rank",
         "prior rank", "prior-trend rank", "prior trend rank"),
        ("recentPullbackRank", "percentile rank (0..1) of the recent active pullback (reversal)",
         "recent pullback rank", "pullback rank", "recent active reversal rank", "reversal rank", "recent-pullback rank"),
        ("lowVolatilityRank", "percentile rank (0..1) of low volatility", "low volatility rank",
         "low-volatility rank", "low_vol_rank", "low vol rank", "low-vol rank"),
        ("shallowDrawdownRank", "percentile rank (0..1) of a shallow drawdown", "shallow drawdown rank",
         "shallow-drawdown rank"),
    ):
        out.append(_f(name, "ratio", "price_momentum", what, *aliases))
    # the raw column names models quote ("active_return_21s +5.30%", "vol_63s 30.26%")
    return [FieldSpec(f.name, f.unit, f.category, (*f.aliases, *_column_names(f.name)), f.description)
            for f in out]


FIELDS: tuple[FieldSpec, ...] = (
    # price / momentum
    _f("close", "price", "price_momentum", "the day's (adjusted) close",
       "price", "closing price", "last price", "share price", "stock price", "last close", "adj close",
       "adjusted close", "close price", "closed", "closed at", "trading at", "trades at", "last traded at"),
    _f("return1d", "fraction", "price_momentum", "1-trading-day return",
       "1d return", "1-day return", "one-day return", "daily return", "1d", "1-day"),
    _f("return5d", "fraction", "price_momentum", "5-trading-day return",
       "5d return", "5-day return", "five-day return", "5d", "5-day", "5-session return", "return_5s", "5s return"),
    _f("return20d", "fraction", "price_momentum", "20-trading-day return",
       "20d return", "20-day return", "twenty-day return", "20d", "20-day"),
    _f("return7d", "fraction", "price_momentum", "return since the close 7 calendar days earlier (CapitalBench)",
       "7d return", "7-day return", "seven-day return", "7d", "7-day", "1-week return", "one-week return",
       "7-day trailing return", "trailing 7-day return", "7d trailing return", "trailing 7d return",
       "weekly return", "1w return", "1w", "week return"),
    _f("return30d", "fraction", "price_momentum", "return since the close 30 calendar days earlier (CapitalBench)",
       "30d return", "30-day return", "thirty-day return", "30d", "30-day", "1-month return",
       "30-day trailing return", "trailing 30-day return", "30d trailing return", "trailing 30d return",
       "one-month return", "monthly return", "1m return", "30-day momentum", "30d momentum"),
    _f("return6m", "fraction", "price_momentum", "return since the close 6 months earlier (CapitalBench)",
       "6m return", "6-month return", "six-month return", "6m", "6-month", "6mo", "6-month trailing return",
       "trailing 6-month return"),
    _f("return1y", "fraction", "price_momentum", "return since the close 1 year earlier (CapitalBench)",
       "1y return", "1-year return", "one-year return", "12-month return", "1y", "1-year", "12m",
       "trailing 12-month return", "1yr"),
    _f("sma50", "price", "price_momentum", "simple moving average of the last 50 closes",
       "50-day moving average", "50 day moving average", "50-day average", "50-day ma", "50-day sma",
       "50dma", "50-dma", "sma50", "sma 50", "50d ma", "50d sma", "50-day simple moving average", "ma50"),
    _f("sma200", "price", "price_momentum", "simple moving average of the last 200 closes",
       "200-day moving average", "200 day moving average", "200-day average", "200-day ma", "200-day sma",
       "200dma", "200-dma", "sma200", "sma 200", "200d ma", "200d sma", "200-day simple moving average",
       "ma200"),
    _f("rsi14", "ratio", "price_momentum", "Wilder's 14-day RSI (0-100)",
       "rsi", "rsi14", "rsi(14)", "14-day rsi", "relative strength index", "rsi-14"),
    _f("macd", "price", "price_momentum", "EMA(12) - EMA(26) of closes", "macd", "macd line"),
    _f("macdSignal", "price", "price_momentum", "EMA(9) of macd", "macd signal", "signal line", "macdsignal"),
    _f("week52High", "price", "price_momentum", "highest close of the last 252 trading days",
       "52-week high", "52 week high", "52w high", "52-wk high", "year high", "annual high", "52wk high"),
    _f("week52Low", "price", "price_momentum", "lowest close of the last 252 trading days",
       "52-week low", "52 week low", "52w low", "52-wk low", "year low", "annual low", "52wk low"),
    _f("volatility20d", "fraction", "price_momentum", "annualised 20-day volatility of daily returns",
       "volatility", "vol", "20-day volatility", "realized volatility", "realised volatility",
       "annualized volatility", "annualised volatility", "historical volatility"),
    _f("beta", "ratio", "price_momentum", "60-day beta to the benchmark", "beta", "market beta", "beta to spy",
       "beta vs spy", "beta versus spy", "beta to the s&p 500", "beta to sp500", "beta to the s&p", "spy beta"),
    # tables of CapitalBench rounds (trailing returns, decision context, quality evidence; docs/ledgers.md).
    # "Nd" is N trading days (sessions, the tables' "Ns"), except the calendar horizons 7d/30d/6m/1y.
    *_capitalbench_fields(),
    # volume
    _f("volume", "count", "volume", "the day's volume", "volume", "daily volume", "trading volume"),
    _f("avgVolume20d", "count", "volume", "mean volume of the last 20 days",
       "average volume", "avg volume", "20-day average volume", "avg daily volume", "average daily volume",
       "adv"),
    # valuation / fundamentals
    _f("peRatio", "ratio", "valuation", "trailing price / earnings",
       "p/e", "pe", "pe ratio", "p/e ratio", "price/earnings", "price-to-earnings", "price to earnings",
       "trailing p/e", "trailing pe", "earnings multiple", "ttm p/e", "times earnings", "x earnings",
       "times trailing earnings"),
    _f("forwardPE", "ratio", "valuation", "price / forward earnings",
       "forward p/e", "forward pe", "fwd p/e", "fwd pe", "forward price-to-earnings", "forward multiple",
       "times forward earnings", "x forward earnings"),
    _f("pegRatio", "ratio", "valuation", "P/E over earnings growth", "peg", "peg ratio"),
    _f("priceToBookRatio", "ratio", "valuation", "price / book value",
       "p/b", "pb", "price-to-book", "price to book", "price/book", "p/b ratio"),
    _f("evToEbitda", "ratio", "valuation", "enterprise value / EBITDA",
       "ev/ebitda", "ev to ebitda", "enterprise value to ebitda", "ev-to-ebitda"),
    _f("marketCapitalization", "price", "valuation", "market value of equity",
       "market cap", "market capitalization", "market capitalisation", "market value", "mcap"),
    _f("profitMargin", "fraction", "valuation", "net income / revenue (TTM)",
       "profit margin", "net margin", "net profit margin", "profit margins"),
    _f("operatingMarginTTM", "fraction", "valuation", "operating income / revenue (TTM)",
       "operating margin", "op margin", "operating margins", "ebit margin"),
    _f("returnOnEquityTTM", "fraction", "valuation", "net income / shareholders' equity (TTM)",
       "roe", "return on equity"),
    _f("returnOnAssetsTTM", "fraction", "valuation", "net income / total assets (TTM)",
       "roa", "return on assets"),
    _f("quarterlyEarningsGrowthYOY", "fraction", "valuation", "latest quarter's earnings vs a year earlier",
       "earnings growth", "eps growth", "quarterly earnings growth", "profit growth", "earnings growth yoy"),
    _f("quarterlyRevenueGrowthYOY", "fraction", "valuation", "latest quarter's revenue vs a year earlier",
       "revenue growth", "sales growth", "quarterly revenue growth", "top-line growth", "revenue growth yoy"),
    _f("dividendYield", "fraction", "valuation", "annual dividend / price", "dividend yield", "div yield"),
    # analyst
    _f("analystTargetPrice", "price", "analyst", "consensus analyst price target",
       "analyst target", "price target", "target price", "analyst target price", "consensus target",
       "analyst price target", "consensus price target"),
    _f("analystRatingStrongBuy", "count", "analyst", "number of Strong Buy ratings",
       "strong buy ratings", "strong buys"),
    _f("analystRatingBuy", "count", "analyst", "number of Buy ratings", "buy ratings"),
    _f("analystRatingHold", "count", "analyst", "number of Hold ratings", "hold ratings"),
    _f("analystRatingSell", "count", "analyst", "number of Sell ratings", "sell ratings"),
    _f("analystRatingStrongSell", "count", "analyst", "number of Strong Sell ratings",
       "strong sell ratings", "strong sells"),
    # sector
    _f("sector", "text", "sector", "sector label", "sector", "gics sector"),
    _f("industry", "text", "sector", "industry label", "industry", "sub-industry", "gics industry"),
)

FIELD_SPECS: dict[str, FieldSpec] = {spec.name: spec for spec in FIELDS}
KNOWN_FIELDS: frozenset[str] = frozenset(FIELD_SPECS)

# fmt: on
_KEY_DROP = re.compile(r"[\s\-_()]+")


def field_key(name: str) -> str:
    """Normalised lookup key: lower case without spaces, hyphens, underscores or parentheses."""
    return _KEY_DROP.sub("", name.strip().lower())


_ALIASES: dict[str, str] = {}
for _spec in FIELDS:
    for _alias in (_spec.name, *_spec.aliases):
        _ALIASES.setdefault(field_key(_alias), _spec.name)


def resolve_field(name: str) -> str | None:
    """Canonical field name for a name or alias ("P/E" -> "peRatio"); None when unknown."""
    return _ALIASES.get(field_key(name))


def field_spec(name: str) -> FieldSpec | None:
    """Registry entry of a canonical name or an alias."""
    canonical = resolve_field(name)
    return FIELD_SPECS.get(canonical) if canonical else None


# Generic words ("beta", "volatility", "max drawdown", "correlation") resolve to one canonical field; a store
# may hold the same measure over another window (CapitalBench: beta1y, beta63d, volatility21d, ...). These are
# the measures whose window a claim often leaves unsaid; returns are not among them (7d and 30d differ too much).
WINDOW_FAMILIES: dict[str, tuple[str, ...]] = {
    "beta": ("beta", "beta1y", "beta63d", "beta252d"),
    "volatility20d": ("volatility20d", "volatility21d", "volatility30d", "volatility63d"),
    "maxDrawdown": ("maxDrawdown21d", "maxDrawdown30d", "maxDrawdown63d"),
    "correlation": ("correlation1y", "correlation63d", "correlation252d"),
    "activeReturn": (
        "activeReturn5d",
        "activeReturn7d",
        "activeReturn21d",
        "activeReturn30d",
        "activeReturn6m",
        "activeReturn1y",
    ),
    "volumeZscore": ("volumeZscore5v60", "volumeZscore20v120"),
    "priorActiveReturn": ("priorActiveReturn16d", "priorActiveReturn105d"),
    "positiveAssetShare": ("positiveAssetShare5d", "positiveAssetShare21d"),
    "activeReturnDispersion": ("activeReturnDispersion5d", "activeReturnDispersion21d"),
}
"""canonical field of a generic word -> every field of that measure (any window)."""


RETURN_WINDOWS: tuple[str, ...] = (
    "return1d",
    "return3d",
    "return5d",
    "return7d",
    "return20d",
    "return21d",
    "return30d",
    "return6m",
    "return1y",
)
"""An option's own returns over every window a store may hold (not a window family: a claim names its horizon)."""


def sibling_windows(name: str) -> tuple[str, ...]:
    """The fields of the same measure over every window, returns included (empty when the field has none)."""
    return RETURN_WINDOWS if name in RETURN_WINDOWS else window_family(name)


def window_family(name: str) -> tuple[str, ...]:
    """The fields of the same measure over other windows (empty when the field has no family)."""
    for generic, members in WINDOW_FAMILIES.items():
        if name == generic or name in members:
            return members
    return ()


def alias_phrases() -> list[tuple[str, str]]:
    """(alias phrase, canonical field) pairs for text matching, longest phrase first."""
    pairs = {(a.lower(), s.name) for s in FIELDS for a in (s.name, *s.aliases)}
    return sorted(pairs, key=lambda p: (-len(p[0]), p[0]))
