"""Technical states in words: above/below a moving average, golden/death cross, MACD vs its signal,
overbought/oversold, at/near a 52-week extreme. One reader per kind."""

from __future__ import annotations

import re
from typing import Any

from ledgers.reading._emit import Emit
from ledgers.reading._vocab import MA_WORDS

# qualitative phrases ------------------------------------------------------------------------------------
_Q_SMA = re.compile(
    r"\b(?P<neg>not\s+|no\s+longer\s+)?(?:(?:trading|trades|traded|sits?|sitting|is|are|remains?|stays?|"
    r"closed|holding|holds|broke|broken|moved|back|reclaimed|crossed|price)\s+)?(?P<dir>above|below|under|beneath)\s+"
    r"(?:both\s+)?(?:its\s+|the\s+|their\s+)?(?P<terms>(?:(?:50|200)-?(?:[\s-]?(?:day|d))?(?:\s*(?:and|&|/|,)\s*"
    r"(?:the\s+|its\s+)?)?)+)[\s-]?" + MA_WORDS + r"\b"
    r"|\b(?P<neg2>not\s+)?(?P<dir2>above|below|under)\s+(?:its\s+|the\s+)?(?:(?P<n2>50|200)[\s-]?dma|sma[\s-]?(?P<n3>50|200))\b",
    re.I,
)


_GENERIC_STATE_BEFORE = re.compile(
    r"(?:\b(?:an|any|no|for|seeking|looking\s+for|screen(?:s|ing)?\s+for|requires?|filters?\s*\(?)\s+$|\(\s*$)", re.I
)


_PLURAL_SUBJECT = re.compile(r"\b(?:names|stocks|those|these|holdings|candidates|ones|companies)\s+$", re.I)


_Q_CROSS = re.compile(
    r"\b(?P<golden>golden\s+cross)|\b(?P<death>death\s+cross)|\b50[\s-]?(?:day|d)\s+(?:"
    + MA_WORDS
    + r"\s+)?(?:is\s+|sits\s+|trading\s+|crossed\s+)?(?P<dir>above|below|under)\s+(?:the\s+|its\s+)?200[\s-]?(?:day|d)",
    re.I,
)


_Q_MACD = re.compile(
    r"\b(?P<adj>bullish|bearish|positive|negative)\s+macd\b|\bmacd\s+(?:line\s+)?(?:is\s+|sits\s+|crossed\s+)?"
    r"(?P<dir>above|below|under)\s+(?:its\s+|the\s+)?signal|\bmacd\s+(?:is\s+)?(?P<adj2>bullish|bearish)",
    re.I,
)


_Q_RSI = re.compile(r"\b(?P<neg>not\s+|no\s+longer\s+|isn't\s+|never\s+)?(?P<state>overbought|oversold)\b", re.I)


_Q_52W = re.compile(
    r"\b(?P<neg>not\s+)?(?P<deg>at|near|close\s+to|approaching|hitting|hit|new|fresh|record|just\s+below|"
    r"just\s+under|nearing|within\s+reach\s+of|touching)\s+(?:a\s+|its\s+|the\s+|new\s+|fresh\s+)*52[\s-]?"
    r"(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?)\b"
    r"|\b(?P<none>no|zero)\s+(?:drawdown|distance)\s+from\s+(?:its\s+|the\s+)?(?:52[\s-]?(?:weeks?|wks?|w)\s+)?"
    r"(?P<hl2>highs?)\b",
    re.I,
)
"""'at its 52-week high', 'near 52w lows', and 'no drawdown from highs' (at the high: the 52-week one, the only
high the tables show)."""


def read_sma(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_SMA.finditer(text):
        if re.search(r"\btheir\b", m.group(0), re.I) or _PLURAL_SUBJECT.search(
            text[max(0, m.start() - 30) : m.start()]
        ):
            continue  # "names trading above their 50-day average": a screen, not a claim about one symbol
        d = (m.group("dir") or m.group("dir2")).lower()
        pol = 1 if d == "above" else -1
        if m.group("neg") or m.group("neg2"):
            pol = -pol
        windows = list(dict.fromkeys(re.findall(r"50|200", m.group("terms") or "") or [m.group("n2") or m.group("n3")]))
        for i, n in enumerate(windows):  # "above its 50- and 200-day averages": one assertion per window
            add(m, keep=i == len(windows) - 1, rule="sma_position", field=f"sma{n}", polarity=pol, window=int(n))


def read_cross(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_CROSS.finditer(text):
        if m.group("golden"):
            pol = 1
        elif m.group("death"):
            pol = -1
        else:
            pol = 1 if m.group("dir").lower() == "above" else -1
        add(m, rule="ma_cross", field="sma50", polarity=pol)


def read_macd(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_MACD.finditer(text):
        word = (m.group("adj") or m.group("adj2") or m.group("dir") or "").lower()
        add(
            m, rule="macd_signal", field="macd", polarity=-1 if word in ("bearish", "negative", "below", "under") else 1
        )


def read_rsi(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_RSI.finditer(text):
        if _GENERIC_STATE_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
            continue  # "filters (an oversold RSI ...)", "looking for oversold names": a criterion, not a claim
        pol = 1 if m.group("state").lower() == "overbought" else -1
        add(m, rule="rsi_state", field="rsi14", polarity=pol, label="not" if m.group("neg") else None)


def read_52w(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_52W.finditer(text):
        if m.group("none"):
            add(m, rule="near_52w_extreme", field="week52High", label="at", polarity=1)
            continue
        hl = "week52High" if m.group("hl").lower().startswith("h") else "week52Low"
        near = m.group("deg").lower().startswith(("near", "close", "approach", "just", "within"))
        add(m, rule="near_52w_extreme", field=hl, label="near" if near else "at", polarity=-1 if m.group("neg") else 1)


_NEAR_HIGHS = re.compile(
    r"\b(?P<neg>not\s+)?(?P<deg>at|near|close\s+to|nearing|just\s+below|just\s+under)\s+(?:its\s+|their\s+|the\s+|"
    r"recent\s+)?(?P<hl>highs|lows)\b(?!\s+(?:of|for|in|on|from|set|made|since)\b)",
    re.I,
)
_CLAUSE_CUT = re.compile(r"[,;:(]|\b(?:and|but|while|with|as|after)\b", re.I)
_LINK_ONLY = re.compile(
    r"^\s*(?:(?:is|are|was|were|now|still|also|trading|trades|traded|sits|sitting|remains|remain|holding|holds|"
    r"priced|already|shares|prices)\s+)*$",
    re.I,
)


_MARKET_BEFORE = re.compile(
    r"^\s*(?:the\s+)?(?:broad\s+)?(?:market|index|s&p(?:\s*500)?|benchmark)\s+(?:(?:is|are|was|now|still|trading|sits|"
    r"remains)\s+)*$",
    re.I,
)


def read_near_highs(text: str, add: Emit, named_before, benchmark: str | None = None) -> None:
    """'XLI near highs', 'is trading near its highs', '...; positive alpha and near highs': highs with no window.
    Near the 52-week high is near any shorter window's high too, so the 52-week distance supports the words; it
    never refutes them (a fund 10% under its 52-week high may sit at its month's high): the window is inferred.
    The subject must be certain: an option named right before (only link words between: "XLI is trading near
    highs"), or none in the phrase's clause, which then opens with it (the option under discussion). Anything else
    ("With the S&P near highs" where "S&P" names no option) is not read."""
    for m in _NEAR_HIGHS.finditer(text):
        cuts = [c.end() for c in _CLAUSE_CUT.finditer(text, 0, m.start())]
        clause_from = cuts[-1] if cuts else 0
        named = named_before(clause_from, m.start()) if named_before is not None else None
        kw: dict[str, Any] = {}
        if named is not None and _LINK_ONLY.match(re.sub(r"^['\u2019]s?\s*", "", text[named.end : m.start()])):
            kw["symbol"] = named.symbol
        elif named is None and benchmark is not None and _MARKET_BEFORE.match(text[clause_from : m.start()]):
            kw["symbol"] = benchmark  # "Broad market at highs", "with the S&P near highs"
        elif named is not None or not _LINK_ONLY.match(text[clause_from : m.start()]):
            continue
        high = m["hl"].lower().startswith("h")
        add(
            m,
            rule="near_52w_extreme",
            field="week52High" if high else "week52Low",
            label="at" if m["deg"].lower() == "at" else "near",
            polarity=-1 if m["neg"] else 1,
            inferred=True,
            **kw,
        )
