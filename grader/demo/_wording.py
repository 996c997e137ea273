"""Natural wording of point-in-time fields, one phrase per field, shared by every rationale template.

Each phrase states one field's value with a fixed precision, so a claim extractor (and the demo tests) can
map the text back to ``(field, value)``:

==========================================  ====================================  =============
phrase                                      field                                 precision
==========================================  ====================================  =============
``last close of $172.45``                   close                                 0.01
``1-day / 5-day / 20-day return of +4.1%``  return1d / return5d / return20d       0.1 pt
``RSI(14) at 62.3``                         rsi14                                 0.1
``trading 3.2% above its 50-day average``   close / sma50 - 1 (200-day: sma200)   0.1 pt
``50-day average of $170.12``               sma50 (200-day: sma200)               0.01
``4.5% below its 52-week high``             1 - close / week52High                0.1 pt
``52-week high of $182.01`` (low)           week52High / week52Low                0.01
``20-day volatility of 28.4%``              volatility20d (annualised)            0.1 pt
``beta of 1.12``                            beta                                  0.01
``MACD of 1.23 against a signal of 0.98``   macd, macdSignal                      0.01
``P/E of 28.5`` / ``forward P/E of 25.1``   peRatio / forwardPE                   0.1
``profit margin of 25.9%``                  profitMargin                          0.1 pt
``return on equity of 147.4%``              returnOnEquityTTM                     0.1 pt
``dividend yield of 2.85%``                 dividendYield                         0.01 pt
``analyst target price of $185.00``         analystTargetPrice                    0.01
``28 Buy, 8 Hold and 1 Sell ratings``       analystRatingBuy / Hold / Sell        1
==========================================  ====================================  =============

A sentence that carries a phrase names exactly one ticker, the one the phrase is about.
"""

from __future__ import annotations


def pct(value: float, signed: bool = False) -> str:
    """A fraction as a percentage with one decimal (``0.041`` -> ``4.1%``; signed -> ``+4.1%``)."""
    return f"{value:+.1%}" if signed else f"{value:.1%}"


def money(value: float) -> str:
    return f"${value:,.2f}"


def close(value: float) -> str:
    return f"last close of {money(value)}"


def ret(days: int, value: float) -> str:
    return f"{days}-day return of {pct(value, signed=True)}"


def rsi(value: float) -> str:
    return f"RSI(14) at {value:.1f}"


def vs_average(close_value: float, average: float, window: int) -> str:
    return gap(close_value / average - 1.0, window)


def gap(value: float, window: int) -> str:
    """``value`` is ``close / average - 1``."""
    side = "above" if value >= 0 else "below"
    return f"trading {abs(value):.1%} {side} its {window}-day average"


def average(window: int, value: float) -> str:
    return f"{window}-day average of {money(value)}"


def below_high(close_value: float, high: float) -> str:
    return f"{1.0 - close_value / high:.1%} below its 52-week high"


def week52(kind: str, value: float) -> str:
    return f"52-week {kind} of {money(value)}"


def volatility(value: float) -> str:
    return f"20-day volatility of {pct(value)}"


def beta(value: float) -> str:
    return f"beta of {value:.2f}"


def macd(value: float, signal: float) -> str:
    return f"MACD of {value:.2f} against a signal of {signal:.2f}"


def pe(value: float) -> str:
    return f"P/E of {value:.1f}"


def forward_pe(value: float) -> str:
    return f"forward P/E of {value:.1f}"


def margin(value: float) -> str:
    return f"profit margin of {pct(value)}"


def roe(value: float) -> str:
    return f"return on equity of {pct(value)}"


def dividend(value: float) -> str:
    return f"dividend yield of {value:.2%}"


def target(value: float) -> str:
    return f"analyst target price of {money(value)}"


def ratings(buy: float, hold: float, sell: float) -> str:
    return f"{buy:.0f} Buy, {hold:.0f} Hold and {sell:.0f} Sell ratings"


def join(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
