"""Horizons written in text ("7d", "30-day", "5 sessions", "weekly", "last month") and their canonical keys:
'7D' (calendar days), '20T' (trading days / sessions), '6M' (months), '1Y' (years)."""

from __future__ import annotations

import re

from ledgers._number_words import NUMBER_WORDS

_WORD_NUM = NUMBER_WORDS
WORD_NUMBERS = "|".join(k.replace("-", r"[\s-]") for k in sorted(_WORD_NUM, key=len, reverse=True))
"""The numbers a window is written in words with ("over twenty-one sessions"), longest first."""


_HZ_UNIT = r"(?:trading[\s-]days?|sessions?|days?|d|weeks?|wks?|w|months?|mos?|m|years?|yrs?|y|s)"
"""'s' is a session, as the CapitalBench tables write it ("21s", "5s")."""


_HZ_NUM = rf"(?:\d+|{WORD_NUMBERS})"


HORIZON = rf"(?P<hn>{_HZ_NUM})\s*-?\s*(?P<hu>{_HZ_UNIT})\b"


HORIZON_RE = re.compile(rf"(?<![\w.])(?:{HORIZON}|(?P<hw>week|month|year)(?:ly)?\b)", re.I)


HORIZON_AFTER_NUM = re.compile(
    r"^\s?-?\s?(?:trading[\s-]days?|sessions?|days?|d|weeks?|wks?|w|months?|mos?|years?|yrs?|y|s)\b|^-?[qQhH]\b"
)


SUFFIX_HORIZON = re.compile(
    r"^\s*(?:(?:over|in|across|during|for|on)\s+)?(?:(?:the|a)\s+)?(?:(?:past|last|prior|trailing)\s+)?"
    + HORIZON.replace("(?P<hn>", "(?P<n>").replace("(?P<hu>", "(?P<u>")
    + r"(?P<rel>\s+(?:active|relative|excess|benchmark[\s-]relative|alpha|outperformance))?",
    re.I,
)


SUFFIX_WORD_HORIZON = re.compile(
    r"^\s*(?:(?:over|in|across|during|for|on)\s+)?(?:(?:the|a)\s+)?(?:(?:past|last|prior|trailing|this)\s+)?"
    r"(?:one[\s-])?(?P<w>weekly|monthly|yearly|annual|week|month|year|day|session)\b(?![\s-]*(?:to|over|on)[\s-])",
    re.I,
)


def horizon_key(n: int, unit: str) -> str:
    """Canonical horizon: '7D' (calendar days), '20T' (trading days), '6M' (months), '1Y' (years)."""
    u = unit.lower()
    if u.startswith(("trading", "session")) or u == "s":
        return f"{n}T"
    if u in ("d", "day", "days"):
        if n in (7, 14, 30) or n >= 60:
            return f"{n}D"
        return f"{n}T"
    if u.startswith("w"):
        return f"{7 * n}D"
    if u in ("m", "mo", "mos") or u.startswith("month"):
        if n == 12:
            return "1Y"
        return "30D" if n == 1 else f"{n}M"
    if u.startswith("y"):
        return f"{n}Y"
    raise ValueError(unit)


def match_horizon(m: re.Match[str]) -> str:
    """Horizon key of a numeric ("7d", "30-day") or word ("weekly", "last month") horizon match."""
    groups = m.groupdict()
    n_key = "n" if groups.get("n") else "hn"
    if groups.get(n_key):
        return horizon_key(hz_num(groups[n_key]), groups["u" if n_key == "n" else "hu"])
    word = (groups.get("w") or groups.get("hw") or "").lower()
    return {
        "week": "7D",
        "weekly": "7D",
        "month": "30D",
        "monthly": "30D",
        "year": "1Y",
        "yearly": "1Y",
        "annual": "1Y",
        "day": "1T",
        "session": "1T",
    }.get(word, "7D")


def is_rate_tenor(m: re.Match[str]) -> bool:
    """'10y', '30Y', '2-year' (a Treasury tenor) or '49-month high' (a record): not a return horizon."""
    groups = m.groupdict()
    n, u = groups.get("n") or groups.get("hn"), groups.get("u") or groups.get("hu")
    if re.match(r"[\s-]*(?:highs?|lows?|records?|peaks?|troughs?)\b", m.string[m.end() :], re.I):
        return True
    return bool(n and u and u.lower().startswith("y") and hz_num(n) >= 2)


HORIZON_FIELDS: dict[str, str] = {
    "1T": "return1d",
    "3T": "return3d",
    "5T": "return5d",
    "20T": "return20d",
    "21T": "return21d",
    "7D": "return7d",
    "30D": "return30d",
    "6M": "return6m",
    "1Y": "return1y",
}


FIELD_HORIZONS: dict[str, str] = {v: k for k, v in HORIZON_FIELDS.items()}


def hz_num(token: str) -> int:
    token = re.sub(r"[\s-]+", "-", token.lower())
    return _WORD_NUM[token] if token in _WORD_NUM else int(token)
