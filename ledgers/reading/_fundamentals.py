"""Fundamentals and analyst views in words: profitability, growth, valuation, dividend yield, upside to the
analyst target, consensus ratings, sector/industry labels. One reader per kind."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ledgers.reading._emit import Emit

_Q_PROFIT = re.compile(
    r"\b(?P<adj>strong|high|robust|solid|healthy|superior|excellent|industry-leading|best-in-class|weak|low|"
    r"thin|poor|negative|compressed|shrinking)\s+(?P<what>profitability|profit\s+margins?|net\s+margins?|"
    r"operating\s+margins?|margins?|returns?\s+on\s+equity|roe)\b|\b(?P<unprof>unprofitable|loss-making|"
    r"losing\s+money)\b",
    re.I,
)


_Q_GROWTH = re.compile(
    r"\b(?P<adj>strong|robust|solid|high|healthy|accelerating|double-digit|rapid|impressive|weak|slow|"
    r"slowing|negative|declining|sluggish|poor)\s+(?:(?:profitability|margins?)\s+and\s+)?"
    r"(?:(?:Q[1-4]|quarterly|recent|yoy|year-over-year)\s+)*(?P<what>earnings|eps|revenue|sales|top-line|"
    r"profit)?\s*growth\b",
    re.I,
)


_Q_VALUATION = re.compile(
    r"\b(?P<neg>not\s+)?(?:(?P<cheap>cheap(?:ly\s+valued)?|undervalued|inexpensive|attractive(?:ly)?\s+"
    r"valu(?:ed|ations?)|low\s+valuations?|discounted\s+valuations?|valuation\s+discount|bargain)|(?P<exp>"
    r"expensive|overvalued|rich(?:ly)?\s+valu(?:ed|ations?)|stretched\s+valuations?|elevated\s+valuations?|"
    r"premium\s+valuations?|pricey|frothy\s+valuations?|high\s+valuations?|valuation\s+premium))\b",
    re.I,
)


_Q_DIVIDEND = re.compile(
    r"\b(?P<adj>high|attractive|generous|strong|above-average|rich|low|meager|below-average)\s+dividend"
    r"(?:\s+yield)?\b|\b(?P<hy>high[\s-]dividend[\s-]yield)",
    re.I,
)


_Q_UPSIDE = re.compile(
    r"\b(?P<tgt1>analyst|consensus|price)[\s-]target\s+(?:implies|suggests|shows|points\s+to|indicates|signals)"
    r"\s+(?P<d1>upside|downside)|\b(?P<d2>upside|downside)\s+to\s+(?:the\s+|its\s+)?(?:analyst|consensus|"
    r"analysts'|price)\s*(?:price\s+)?target|\banalyst\s+(?P<d3>upside|downside)\b|\banalysts?\s+see\s+"
    r"(?P<d4>upside|downside)|\b(?:trading|trades|sits?|is)\s+(?P<dir>below|above|under)\s+(?:the\s+|its\s+)?"
    r"(?:analyst|consensus|price)\s+target",
    re.I,
)


_LABELS = r"strong[\s-]buy|buy|outperform|overweight|hold|neutral|sell|underperform|underweight|strong[\s-]sell"


_Q_CONSENSUS = re.compile(
    rf"\b(?:analyst\s+)?consensus\s+(?:rating\s+)?(?:is\s+|of\s+|at\s+)?(?:an?\s+)?(?P<l1>{_LABELS})\b"
    rf"|\banalysts?\s+(?:mostly\s+|overwhelmingly\s+)?(?:rate|rates|rating|ratings|call|are)\s+(?:it\s+|the\s+stock\s+)?"
    rf"(?:an?\s+|as\s+an?\s+|as\s+|mostly\s+)?(?P<l2>{_LABELS})\b"
    rf"|\b(?P<l3>strong[\s-]buy|buy|hold|sell)[\s-]rated\b|\brated\s+(?:an?\s+)?(?P<l4>{_LABELS})\s+by\s+analysts"
    rf"|\b(?P<l5>{_LABELS})\s+consensus\b",
    re.I,
)


_Q_CATEGORY = re.compile(
    r"\b(?:is|are|operates|sits|belongs|classified)\s+(?:in|to)\s+(?:the\s+)?(?P<v1>[A-Za-z&][\w&\-]*(?:\s+[\w&\-]+){0,3}?)"
    r"\s+(?P<k1>sector|industry)\b"
    r"|\b(?P<k2>sector|industry)\s*(?:is|:|=|of)\s*(?P<v2>[A-Z][\w&\-]*(?:\s+(?:[A-Z&][\w&\-]*|and))" + r"{0,4})"
    r"|\ban?\s+(?P<v3>[A-Z][\w&\-]*(?:\s+[A-Z&][\w&\-]*){0,3})\s+(?P<k3>sector|industry)\s+"
    r"(?:stock|name|company|play|constituent|holding)\b",
    re.I,
)


def _consensus_label(word: str) -> str:
    w = re.sub(r"[\s-]+", " ", word.lower())
    return {
        "outperform": "buy",
        "overweight": "buy",
        "neutral": "hold",
        "underperform": "sell",
        "underweight": "sell",
    }.get(w, w)


def _sign(word: str, negatives: Iterable[str]) -> int:
    return -1 if word.lower() in negatives else 1


def read_profitability(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_PROFIT.finditer(text):
        if m.group("unprof"):
            pol = -1
        else:
            pol = _sign(m.group("adj"), ("weak", "low", "thin", "poor", "negative", "compressed", "shrinking"))
        add(m, rule="profitability", field="profitMargin", polarity=pol)


def read_growth(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_GROWTH.finditer(text):
        pol = _sign(m.group("adj"), ("weak", "slow", "slowing", "negative", "declining", "sluggish", "poor"))
        what = (m.group("what") or "").lower()
        fld = (
            "quarterlyRevenueGrowthYOY"
            if what in ("revenue", "sales", "top-line")
            else ("quarterlyEarningsGrowthYOY" if what else None)
        )
        joined = re.search(r"\b(?:profitability|margins?)\s+and\s+", m.group(0), re.I)
        span = (m.start() + joined.end(), m.end()) if joined else None
        add(m, span=span, rule="growth", field=fld, polarity=pol)


def read_valuation(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_VALUATION.finditer(text):
        pol = 1 if m.group("cheap") else -1
        if m.group("neg"):
            pol = -pol
        add(m, rule="valuation", field="peRatio", polarity=pol, label="cheap" if pol == 1 else "expensive")


def read_dividend(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_DIVIDEND.finditer(text):
        adj = (m.group("adj") or "high").lower()
        add(
            m,
            rule="dividend_yield",
            field="dividendYield",
            polarity=-1 if adj in ("low", "meager", "below-average") else 1,
        )


def read_upside(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_UPSIDE.finditer(text):
        d = (m.group("d1") or m.group("d2") or m.group("d3") or m.group("d4") or "").lower()
        if m.group("dir"):
            pol = 1 if m.group("dir").lower() in ("below", "under") else -1
        else:
            pol = -1 if d == "downside" else 1
        add(m, rule="upside_direction", field="analystTargetPrice", polarity=pol)


def read_consensus(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_CONSENSUS.finditer(text):
        label = next(g for g in (m.group(f"l{i}") for i in range(1, 6)) if g)
        add(m, rule="consensus", field="analystRatingBuy", label=_consensus_label(label))


def read_category(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_CATEGORY.finditer(text):
        value = m.group("v1") or m.group("v2") or m.group("v3")
        kind = (m.group("k1") or m.group("k2") or m.group("k3")).lower()
        value = re.sub(r"^(?:the|a|an)\s+", "", value.strip(), flags=re.I)
        add(m, rule="categorical", field=kind, label=value)
