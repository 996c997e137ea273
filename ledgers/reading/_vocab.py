"""Word lists every reader shares: months, benchmark references, moving-average words, and the context
(briefing) words that make a number a macro or news figure rather than a point-in-time field."""

from __future__ import annotations

import re

_MONTH_WORDS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)


DATE_BEFORE = re.compile(rf"\b(?:{_MONTH_WORDS})\.?\s*$", re.I)


DATE_AFTER = re.compile(rf"^\s*(?:{_MONTH_WORDS})\b", re.I)

# benchmark references ("vs SPY", "the S&P 500", "the market")
BENCH_WORDS = (
    r"SPY|SPX|S&P(?:\s?500)?|SP500|the\s+(?:broad\s+)?market|broad\s+market|the\s+benchmark|benchmark|the\s+index"
)


DOWN_WORDS = frozenset(
    "down fell lost dropped declined slipped slid shed sank tumbled surrendered".split() + ["gave back"]
)
SIGN_WORDS = (
    r"up|down|rose|fell|gained|lost|dropped|declined|slipped|slid|climbed|rallied|advanced|shed|sank|jumped|"
    r"surged|tumbled|gave\s+back|surrendered"
)
"""Words that say which way a figure moved ("down 1.90%"): a figure right after one is signed."""
SIGN_WORD_BEFORE = re.compile(
    rf"(?<![\w-])(?P<w>{SIGN_WORDS})\s+(?:(?:another|a\s+further|an\s+additional)\s+)?"
    r"(?:by\s+)?$",
    re.I,
)


def sign_word_before(before: str, negated: bool) -> str | None:
    """The word right before a figure that says which way it moved, lower case, when it agrees with how the figure
    was read (``negated``); None otherwise (no word, or the word and the reading disagree: no sign is certain)."""
    m = SIGN_WORD_BEFORE.search(before)
    if m is None or (" ".join(m["w"].lower().split()) in DOWN_WORDS) != negated:
        return None
    return m["w"].lower()


MA_WORDS = r"(?:simple\s+)?(?:moving[\s-]averages?|mas?|smas?|averages?|dmas?|lines?)"


# measure words the registry knows (alpha, drawdown, correlation, up-day share, quality score) are not context
# words: a number they name is a field of the season, or a briefing figure when the season lacks that field
_CONTEXT = (
    r"CPI|PPI|PCE|GDP|payrolls?|nonfarm|unemployment|jobless|yields?|\d+\s*-?\s*y(?:ea)?r?\s+(?:yield|treasury|note)"
    r"|10y|2y|30y|10-year|2-year|30-year|treasur(?:y|ies)|WTI|Brent|crude|oil|VIX|PMI|ISM|sentiment|UMich"
    r"|confidence|CAPE|chip\s+sales|sales|exports?|imports?|budget|capex|revenues?|inflation|fed\s+funds"
    r"|rates?|probability|odds|implied|guidance|Kospi|Dow|Nasdaq|Russell|Nikkei|retail|housing|orders"
    r"|spending|deficit|tariffs?|GM|gross\s+margin|estimates?|spreads?|hikes?|cuts?|dollar|bitcoin|wages?"
    r"|quarter|QoQ|YoY|MoM|y/y|q/q|m/m"
    r"|year[\s-]over[\s-]year|quarter[\s-]over[\s-]quarter|month[\s-]over[\s-]month|YTD|year[\s-]to[\s-]date"
    r"|annuali[sz]ed(?!\s+(?:\d{1,3}\s*-?\s*(?:d|days?|sessions?|s)\s+)?(?:vol|volatility)\b)|expansion|contraction|GDPNow|earnings\s+season|margins?\s+of\s+error|index|points?|Q[1-4]"
    rf"|{_MONTH_WORDS}"
)


CONTEXT_RE = re.compile(rf"(?<![\w/])(?:{_CONTEXT})(?![\w/])", re.I)


CONTEXT_JUST_BEFORE = re.compile(
    rf"(?<![\w/])(?:{_CONTEXT})\s*(?:at|of|was|is|:)?\s*[~\u2248]?\s*[+\-\u2212]?\s*$", re.I
)


CONTEXT_SUFFIX = re.compile(rf"^[\s,]*(?:[\w/&'-]+\s+){{0,2}}?(?:{_CONTEXT})\b", re.I)
