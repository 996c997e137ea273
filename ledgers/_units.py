"""Unit normalisation: a number as written ("+8.7%", "$2.5T", "85M", "28.5x", "25 bps") in a field's unit.

Rules:

- ``%`` (and "percent", "percentage points", "pp") divides by 100; "bps" divides by 10,000.
- ``K``/``M``/``B``/``T`` (also "k", "mn", "bn", "thousand", "million", "billion", "trillion") multiply by
  1e3/1e6/1e9/1e12; ``$`` marks a currency amount and is otherwise ignored; thousands commas are dropped.
- A number for a ``fraction`` field written without ``%`` is read as a fraction when its magnitude is at most
  1.5 ("profitMargin 0.25") and as a percentage otherwise ("profit margin 25").
- For ``ratio``, ``price`` and ``count`` fields a ``%`` sign is ignored (an "RSI of 72%" means 72).
- The stated precision is half a unit of the last written digit, in the field's unit: "8.7%" -> 0.0005,
  "$2.5T" -> 0.05e12, "72" -> 0.5.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledgers._registry import Unit

NUMBER_PATTERN = (
    r"(?P<sign>[+\-\u2212\u2013])?\s?(?P<cur>\$)?\s?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s?(?P<suffix>%|percentage\s+points?|percent|pp|bps?\b|basis\s+points|x\b|[kKmMbBtT]\b|mn\b|bn\b|"
    r"thousand\b|million\b|billion\b|trillion\b))?"
)
_NUMBER_RE = re.compile(NUMBER_PATTERN)

_MULTIPLIERS = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "t": 1e12,
    "trillion": 1e12,
}


@dataclass(frozen=True, slots=True)
class StatedNumber:
    """A number as written: signed value, decimals shown, and what its suffix says about the unit."""

    raw: str
    value: float  # signed, multiplier applied, percent NOT applied
    decimals: int
    percent: bool = False
    bps: bool = False
    currency: bool = False
    multiplier: float = 1.0
    explicit_sign: bool = False

    def in_unit(self, unit: Unit) -> tuple[float, float]:
        """(value, half of the last written digit) in the field's unit."""
        half = 0.5 * 10.0 ** (-self.decimals) * self.multiplier
        value = self.value
        if unit == "fraction":
            if self.bps:
                return value / 1e4, half / 1e4
            if self.percent or abs(value) > 1.5:
                return value / 100.0, half / 100.0
            return value, half
        if self.bps:
            return value / 1e4, half / 1e4
        return value, half

    def negated(self) -> StatedNumber:
        return StatedNumber(
            self.raw,
            -abs(self.value),
            self.decimals,
            self.percent,
            self.bps,
            self.currency,
            self.multiplier,
            True,
        )


def number_from_match(match: re.Match[str]) -> StatedNumber:
    """StatedNumber from a match of ``NUMBER_PATTERN``."""
    num = match.group("num").replace(",", "")
    decimals = len(num.split(".", 1)[1]) if "." in num else 0
    value = float(num)
    sign = match.group("sign")
    negative = sign is not None and sign != "+"
    if negative:
        value = -value
    suffix = (match.group("suffix") or "").lower()
    suffix_key = suffix.split()[0] if suffix else ""
    multiplier = _MULTIPLIERS.get(suffix_key, 1.0)
    percent = suffix_key in ("%", "percentage", "percent", "pp")
    bps = suffix_key in ("bps", "bp", "basis")
    return StatedNumber(
        raw=match.group(0).strip(),
        value=value * multiplier,
        decimals=decimals,
        percent=percent,
        bps=bps,
        currency=match.group("cur") is not None,
        multiplier=multiplier,
        explicit_sign=sign is not None,
    )


def parse_number(text: str) -> StatedNumber:
    """Parse one written number ("+8.7%", "$1.2B", "28.5x"); ValueError when there is none."""
    match = _NUMBER_RE.search(text.strip())
    if match is None:
        raise ValueError(f"no number in {text!r}")
    return number_from_match(match)


def normalise(text: str, unit: Unit) -> float:
    """A written number in a field's unit: ``normalise("8.7%", "fraction") == 0.087``."""
    return parse_number(text).in_unit(unit)[0]


def format_value(value: float | str, unit: Unit) -> str:
    """A value as a person reads it: fractions as percentages, large amounts with a suffix."""
    if isinstance(value, str):
        return value
    if unit == "fraction":
        return f"{value * 100:+.2f}%"
    magnitude = abs(value)
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if magnitude >= size:
            return f"{value / size:.2f}{suffix}"
    if unit == "count":
        return f"{value:,.0f}"
    return f"{value:.2f}"
