"""Claim text -> assertions: which field a number belongs to, and which qualitative rule a phrase triggers.

A number is bound to a field by the words right after it ("+5.6% 7d", "14.9% vol", "8% below its 52-week
high", "+9.8% vs SPY") or, failing that, by the closest field phrase before it within five words ("RSI at
72", "P/E of 28.5", "30-day momentum at 29.68%"). A closer context word (CPI, GDP, yields, QoQ, YoY, chip
sales, ...) makes it a briefing figure: not a point-in-time field. Plain integers that bind to nothing
(dates, counts, "S&P 500") are not claims. A forecast or opinion word ("will", "expect", "should",
"could", "likely", ...) earlier in the same clause makes what follows a forecast.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ledgers._intent import number_intent
from ledgers._models import Assertion
from ledgers._ranking import find_rankings, find_signs
from ledgers._registry import FIELD_SPECS, alias_phrases, resolve_field
from ledgers._units import NUMBER_PATTERN, StatedNumber, number_from_match

# --------------------------------------------------------------------------------------------- patterns

_NUM_RE = re.compile(r"(?=[+\-\u2212\u2013$\d.])(?<![\w.&/])" + NUMBER_PATTERN)
_WORD_NUM = {"one": 1, "two": 2, "three": 3, "five": 5, "six": 6, "seven": 7, "twelve": 12, "twenty": 20,
             "thirty": 30}
_HZ_UNIT = (r"(?:trading[\s-]days?|sessions?|days?|d|weeks?|wks?|w|months?|mos?|m|years?|yrs?|y)")
_HZ_NUM = r"(?:\d+|one|two|three|five|six|seven|twelve|twenty|thirty)"
HORIZON = rf"(?P<hn>{_HZ_NUM})\s*-?\s*(?P<hu>{_HZ_UNIT})\b"
_HORIZON_RE = re.compile(rf"(?<![\w.])(?:{HORIZON}|(?P<hw>week|month|year)(?:ly)?\b)", re.I)
_HORIZON_AFTER_NUM = re.compile(
    r"^\s?-?\s?(?:trading[\s-]days?|sessions?|days?|d|weeks?|wks?|w|months?|mos?|years?|yrs?|y|s)\b|^-?[qQhH]\b"
)
_SUFFIX_HORIZON = re.compile(
    r"^\s*(?:(?:over|in|across|during|for|on)\s+)?(?:(?:the|a)\s+)?(?:(?:past|last|prior|trailing)\s+)?"
    + HORIZON.replace("(?P<hn>", "(?P<n>").replace("(?P<hu>", "(?P<u>")
    + r"(?P<rel>\s+(?:active|relative|excess|benchmark[\s-]relative|alpha|outperformance))?",
    re.I,
)
_SUFFIX_WORD_HORIZON = re.compile(
    r"^\s*(?:(?:over|in|across|during|for|on)\s+)?(?:(?:the|a)\s+)?(?:(?:past|last|prior|trailing|this)\s+)?"
    r"(?:one[\s-])?(?P<w>weekly|monthly|yearly|annual|week|month|year|day|session)\b(?![\s-]*(?:to|over|on)[\s-])",
    re.I,
)
_MONTH_WORDS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_DATE_BEFORE = re.compile(rf"\b(?:{_MONTH_WORDS})\.?\s*$", re.I)
_DATE_AFTER = re.compile(rf"^\s*(?:{_MONTH_WORDS})\b", re.I)

_CONTEXT = (
    r"CPI|PPI|PCE|GDP|payrolls?|nonfarm|unemployment|jobless|yields?|\d+\s*-?\s*y(?:ea)?r?\s+(?:yield|treasury|note)"
    r"|10y|2y|30y|10-year|2-year|30-year|treasur(?:y|ies)|WTI|Brent|crude|oil|VIX|PMI|ISM|sentiment|UMich"
    r"|confidence|CAPE|chip\s+sales|sales|exports?|imports?|budget|capex|revenues?|inflation|fed\s+funds"
    r"|rates?|probability|odds|implied|guidance|Kospi|Dow|Nasdaq|Russell|Nikkei|retail|housing|orders"
    r"|spending|deficit|tariffs?|GM|gross\s+margin|estimates?|spreads?|alpha|score|up[\s-]days?|up[\s-]day"
    r"|breadth|drawdowns?|correlation|hikes?|cuts?|dollar|bitcoin|wages?|quarter|QoQ|YoY|MoM|y/y|q/q|m/m"
    r"|year[\s-]over[\s-]year|quarter[\s-]over[\s-]quarter|month[\s-]over[\s-]month|YTD|year[\s-]to[\s-]date"
    r"|annuali[sz]ed|expansion|contraction|GDPNow|earnings\s+season|margins?\s+of\s+error|index|points?|Q[1-4]"
    rf"|{_MONTH_WORDS}"
)
_CONTEXT_JUST_BEFORE = re.compile(rf"(?<![\w/])(?:{_CONTEXT})\s*(?:at|of|was|is|:)?\s*[~\u2248]?\s*[+\-\u2212]?\s*$", re.I)
_CONTEXT_SUFFIX = re.compile(rf"^[\s,]*(?:[\w/&'-]+\s+){{0,2}}?(?:{_CONTEXT})\b", re.I)
_PORTFOLIO_SUFFIX = re.compile(
    r"^\s*(?:of\s+(?:the\s+)?(?:portfolio|capital|assets|allocation)|caps?\b|allocation|allocated|weights?"
    r"|weighting|position|sleeve|stake|limit|max(?:imum)?|exposure\s+cap|in\s+cash|cash\b|each\b|equal)",
    re.I,
)
_PORTFOLIO_PREFIX = re.compile(
    r"(?:allocat\w*|weights?|weighting|(?<!market\s)cap(?:ped)?|at\s+most|max(?:imum)?|limit(?:ed)?|equal|confidence)"
    r"\s*(?:of|at|to|:|=)?\s*$",
    re.I,
)
_APPROX_PREFIX = re.compile(
    r"(?:\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|close\s+to|some|circa)\s*|[~\u2248])$",
    re.I,
)
_OP_PREFIX = re.compile(
    r"(?:\b(?P<gt>above|over|greater\s+than|more\s+than|exceed(?:s|ing)?|at\s+least|north\s+of|higher\s+than"
    r"|in\s+excess\s+of)|(?P<gt2>>=?)|\b(?P<lt>below|under|less\s+than|at\s+most|beneath|south\s+of"
    r"|lower\s+than)|(?P<lt2><=?))\s*$",
    re.I,
)
_NEG_PREFIX = re.compile(
    r"\b(?:down|fell|fall(?:en|ing)?|dropped|drop(?:ping)?|declined?|declining|lost|slid|slipped|sank|sunk"
    r"|lower|off|shed|pullback\s+of|drawdown\s+of|decline\s+of|loss\s+of|slump(?:ed)?\s+|tumbled|plunged)"
    r"(?:\s+(?:by|of|some|about|around|roughly|nearly|almost))?\s*[~\u2248]?\s*$",
    re.I,
)
_NEG_SUFFIX = re.compile(
    r"^\s*(?:decline|drop|loss|pullback|pull-back|sell-?off|fall|slide|slump|drawdown|retreat|correction"
    r"|lower|down)\b",
    re.I,
)
_TICKER_AFTER = re.compile(r"^\s+(?:in\s+|into\s+)?[A-Z][A-Z0-9_]{1,14}\b(?!\s*(?:at|of|is|was|=)\b)")
_PARAMETER_BEFORE = re.compile(r"\b(?:RSI|SMA|EMA|MA|MACD|ATR|ADX|CCI|ROC|BB|Bollinger|Stoch\w*|Williams\s*%R)\s*"
                               r"\((?:\s*\d+\s*,)*\s*$", re.I)
_INDEX_NAME_BEFORE = re.compile(r"(?:S&P|SP|Russell|Nasdaq|NASDAQ|FTSE|Stoxx|STOXX|Nikkei|MSCI\s+\w+)[\s-]?$")
_CONNECTOR_WORDS = re.compile(r"[A-Za-z][\w'/&.-]*")

_FORECAST_RE = re.compile(
    r"\b(?:will|won't|expect(?:s|ed|ing|ation|ations)?|should|could|would|might|likely|unlikely"
    r"|forecast(?:s|ed|ing)?|anticipat\w*|project(?:s|ed|ion|ions)?|poised|set\s+to|going\s+to"
    r"|estimate[sd]?|predict\w*|believe|think|outlook|implying|implies|potential(?:ly)?|can|suggests?"
    r"|hope|bet|plausible|probably|possibly|may"
    r"|seek(?:s|ing)?|aim(?:s|ing)?|targeting|intend(?:s|ed)?|to\s+capture|positioned\s+to)\b",
    re.I,
)
_CLAUSE_BREAK = re.compile(r"[;,:()\[\]\u2014]|\s-\s|\.\s")

# benchmark references ("vs SPY", "the S&P 500", "the market")
_BENCH_WORDS = r"SPY|SPX|S&P(?:\s?500)?|SP500|the\s+(?:broad\s+)?market|broad\s+market|the\s+benchmark|benchmark|the\s+index"


_TOKEN_RE = re.compile(r"[a-z0-9$][a-z0-9/&']*(?:\(\d+\))?")
_PHRASES: dict[tuple[str, ...], str] = {}
for _alias, _field in alias_phrases():
    if FIELD_SPECS[_field].unit != "text":
        _PHRASES.setdefault(tuple(t for t in re.split(r"[\s\-_]+", _alias.lower()) if t), _field)
_MAX_PHRASE = max(len(k) for k in _PHRASES)
_SUFFIX_FILLERS = frozenset("in of on the its a trailing ttm annual current latest".split())


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN_RE.finditer(text.lower()))


def last_field_phrase(text: str) -> tuple[int, int, str] | None:
    """The field phrase ending last in ``text`` (longest on ties): (start, end, field)."""
    toks = _tokens(text)
    best: tuple[int, int, str] | None = None
    words = [t.group(0) for t in toks]
    for i in range(len(toks)):
        for n in range(min(_MAX_PHRASE, len(toks) - i), 0, -1):
            field = _PHRASES.get(tuple(words[i:i + n]))
            if field is not None:
                end = toks[i + n - 1].end()
                if best is None or end > best[1]:
                    best = (toks[i].start(), end, field)
                break
    return best


def leading_field_phrase(text: str) -> tuple[int, str] | None:
    """A field phrase right at the start of ``text`` (after "of the", "trailing", ...): (end, field)."""
    toks = _tokens(text[:60])
    if not toks or text[:toks[0].start()].strip():
        return None
    words = [t.group(0) for t in toks]
    i = 0
    while i < len(words) and words[i] in _SUFFIX_FILLERS and i < 3:
        i += 1
    for n in range(min(_MAX_PHRASE, len(words) - i), 0, -1):
        field = _PHRASES.get(tuple(words[i:i + n]))
        if field is not None:
            gap = text[toks[i - 1].end() if i else 0:toks[i].start()] if i else ""
            if i and gap.strip():
                return None
            return toks[i + n - 1].end(), field
    return None
_CONTEXT_RE = re.compile(rf"(?<![\w/])(?:{_CONTEXT})(?![\w/])", re.I)

_MA_WORDS = r"(?:simple\s+)?(?:moving[\s-]averages?|mas?|smas?|averages?|dmas?|lines?)"
_SUFFIX_DISTANCE = re.compile(
    r"^\s*(?P<dir>below|under|beneath|off|from|shy\s+of|short\s+of|above|over|over\s+and\s+above)\s+"
    r"(?:(?:its|the|a|their)\s+)?(?:"
    r"(?P<w52>52[\s-]?(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?))"
    r"|(?P<ma>(?:(?P<man>50|200)[\s-]?(?:day|d)[\s-]?" + _MA_WORDS + r"|(?P<man2>50|200)[\s-]?dma|sma[\s-]?(?P<man3>50|200)))"
    r"|(?P<tgt>(?:(?:analyst|consensus|analysts'|price)\s+)+target(?:\s+price)?))",
    re.I,
)
_SUFFIX_WITHIN = re.compile(r"^\s*of\s+(?:(?:its|the|a|their)\s+)?52[\s-]?(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?)", re.I)
_NOT_A_RETURN = re.compile(
    r"^\s*(?:realized\s+|realised\s+|annualized\s+|price\s+)?(?:vol|volatility|drawdown|max\s+drawdown|up[\s-]days?|"
    r"beta|correlation|sharpe|range|average\s+volume|avg\s+volume)\b",
    re.I,
)
_RELATIVE_BEFORE = re.compile(
    r"\b(?:relative|active|excess|benchmark-relative)\s+(?:momentum|performance|outperformance|return|returns|"
    r"strength|gains?)\s*[(:]?\s*(?:of\s+|at\s+)?$",
    re.I,
)
_SUFFIX_MULTIPLE = re.compile(r"^\s*(?:times\s+)?(?:(?:trailing|ttm)\s+)?(?P<fwd>forward\s+|fwd\s+)?(?:earnings|eps)\b", re.I)
_SUFFIX_UPSIDE = re.compile(
    r"^\s*(?:of\s+)?(?:(?:potential|implied|further|analyst|remaining)\s+)?(?P<d>upside|downside)\b"
    r"(?P<tgt>[^.;]{0,40}?\btarget)?",
    re.I,
)
_SUFFIX_RELATIVE = re.compile(
    rf"^\s*(?:vs\.?|versus|relative\s+to|against|ahead\s+of|above|over|better\s+than|more\s+than)\s+(?:the\s+)?"
    rf"(?P<ref>{_BENCH_WORDS})\b",
    re.I,
)
_PREFIX_RELATIVE = re.compile(
    rf"(?:outperform\w*|beat\w*|ahead\s+of|led|lead\w*|topp?\w*|underperform\w*|lag\w*|trail\w*)\s+"
    rf"(?:the\s+)?(?P<ref>{_BENCH_WORDS})\s+(?:by\s+)?(?:about\s+|around\s+|roughly\s+|~)?$",
    re.I,
)
_PREFIX_UPSIDE = re.compile(
    r"(?P<d>upside|downside)\s+(?:of\s+|to\s+)?(?:about\s+|around\s+|roughly\s+|~)?$", re.I
)
_PREFIX_DISTANCE = re.compile(
    r"(?P<w52>52[\s-]?(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?))\s*(?:of|at|:|is)?\s*$", re.I
)

# qualitative phrases ------------------------------------------------------------------------------------
_Q_SMA = re.compile(
    r"\b(?P<neg>not\s+|no\s+longer\s+)?(?:(?:trading|trades|traded|sits?|sitting|is|are|remains?|stays?|"
    r"closed|holding|holds|broke|broken|moved|back|reclaimed|crossed|price)\s+)?(?P<dir>above|below|under|beneath)\s+"
    r"(?:both\s+)?(?:its\s+|the\s+|their\s+)?(?P<terms>(?:(?:50|200)-?(?:[\s-]?(?:day|d))?(?:\s*(?:and|&|/|,)\s*"
    r"(?:the\s+|its\s+)?)?)+)[\s-]?" + _MA_WORDS + r"\b"
    r"|\b(?P<neg2>not\s+)?(?P<dir2>above|below|under)\s+(?:its\s+|the\s+)?(?:(?P<n2>50|200)[\s-]?dma|sma[\s-]?(?P<n3>50|200))\b",
    re.I,
)
_NOT_A_RETURN_BEFORE = re.compile(
    r"\b(?:share|breadth|participation|probability|chance|odds|weight(?:ing)?|allocation|yield|rate|ratio|"
    r"percent(?:age)?\s+of|z[\s-]?score|zscore|score|hit\s+rate|win\s+rate|up[\s-]days?)\s*(?:of|at|was|is|were|"
    r"near|around|about|:)?\s*[~\u2248]?\s*\(?\s*$", re.I)
"""A horizon after the number does not make it a return when the words before it name another measure."""
_GENERIC_STATE_BEFORE = re.compile(
    r"(?:\b(?:an|any|no|for|seeking|looking\s+for|screen(?:s|ing)?\s+for|requires?|filters?\s*\(?)\s+$|\(\s*$)",
    re.I)
_PLURAL_SUBJECT = re.compile(r"\b(?:names|stocks|those|these|holdings|candidates|ones|companies)\s+$", re.I)
_Q_CROSS = re.compile(
    r"\b(?P<golden>golden\s+cross)|\b(?P<death>death\s+cross)|\b50[\s-]?(?:day|d)\s+(?:" + _MA_WORDS
    + r"\s+)?(?:is\s+|sits\s+|trading\s+|crossed\s+)?(?P<dir>above|below|under)\s+(?:the\s+|its\s+)?200[\s-]?(?:day|d)",
    re.I,
)
_Q_MACD = re.compile(
    r"\b(?P<adj>bullish|bearish|positive|negative)\s+macd\b|\bmacd\s+(?:line\s+)?(?:is\s+|sits\s+|crossed\s+)?"
    r"(?P<dir>above|below|under)\s+(?:its\s+|the\s+)?signal|\bmacd\s+(?:is\s+)?(?P<adj2>bullish|bearish)",
    re.I,
)
_Q_RSI = re.compile(r"\b(?P<neg>not\s+|no\s+longer\s+|isn't\s+|never\s+)?(?P<state>overbought|oversold)\b", re.I)
_MOM_ADJ_POS = ("positive", "strong", "strongest", "stronger", "bullish", "upward", "rising", "robust", "solid",
                "dominant", "accelerating", "exceptional", "improving", "upside", "persistent")
_MOM_ADJ_NEG = ("negative", "weak", "weaker", "weakest", "weakening", "bearish", "downward", "falling", "fading",
                "poor", "deteriorating", "decelerating", "declining")
_Q_MOMENTUM = re.compile(
    r"\b(?P<adj>" + "|".join(_MOM_ADJ_POS + _MOM_ADJ_NEG) + r")\s+"
    r"(?P<mods>(?:(?:recent|near-term|short-term|price|trailing|relative|cross-horizon|sector|trend|"
    r"medium-term|\d+[\s-]?(?:d|day|days|w|week|m|month|months|y|year)|one-week|one-month|1-week|1-month|"
    r"six-month|6-month|and|,)\s*)*)"
    r"(?P<what>momentum|uptrend|trend|price\s+action|performance|returns?)\b"
    r"|\b(?P<trend>uptrend|downtrend|up-trend|down-trend)\b|\btrending\s+(?P<tdir>higher|up|lower|down)\b",
    re.I,
)
_Q_RELSTRENGTH = re.compile(
    r"\b(?:(?P<adj>strong|strongest|positive|robust|solid|weak|negative|poor|notable)\s+)?(?:(?:recent|near-term|"
    r"sector|30-day|7-day|\d+[\s-]?d)\s+)*relative\s+(?P<what>strength|weakness|outperformance|underperformance)\b"
    rf"|\b(?P<verb>outperform\w*|underperform\w*)\s+(?:the\s+)?(?P<ref>{_BENCH_WORDS})\b",
    re.I,
)
_Q_52W = re.compile(
    r"\b(?P<neg>not\s+)?(?P<deg>at|near|close\s+to|approaching|hitting|hit|new|fresh|record|just\s+below|"
    r"just\s+under|nearing|within\s+reach\s+of|touching)\s+(?:a\s+|its\s+|the\s+|new\s+|fresh\s+)*52[\s-]?"
    r"(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?)\b",
    re.I,
)
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
_Q_BETA = re.compile(r"\b(?P<adj>low|lower|high|higher|elevated|below-market|above-market)[\s-]beta\b", re.I)
_Q_VOL = re.compile(
    r"\b(?P<adj>low|lower|high|higher|elevated|subdued|muted|modest|moderate)\s+(?:realized\s+|historical\s+|"
    r"price\s+)?(?:volatility|vol)\b(?!\s+(?:equities|etf|fund|stocks))",
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


# ------------------------------------------------------------------------------------------ data classes


@dataclass(frozen=True, slots=True)
class Mention:
    start: int
    end: int
    symbol: str
    reference: bool = False  # "vs SPY", "than the S&P 500": a comparison reference, not a subject


@dataclass(slots=True)
class Parsed:
    """Assertions found in a text, each with its character span."""

    assertions: list[Assertion] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    forecast_spans: list[tuple[int, int]] = field(default_factory=list)
    numbers: list[NumberHit | None] = field(default_factory=list)  # the number each assertion states

    def add(self, assertion: Assertion, span: tuple[int, int], hit: NumberHit | None = None) -> None:
        self.assertions.append(assertion)
        self.spans.append(span)
        self.numbers.append(hit)


# ------------------------------------------------------------------------------------------ helpers


def horizon_key(n: int, unit: str) -> str:
    """Canonical horizon: '7D' (calendar days), '20T' (trading days), '6M' (months), '1Y' (years)."""
    u = unit.lower()
    if u.startswith(("trading", "session")):
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


def _match_horizon(m: re.Match[str]) -> str:
    """Horizon key of a numeric ("7d", "30-day") or word ("weekly", "last month") horizon match."""
    groups = m.groupdict()
    n_key = "n" if groups.get("n") else "hn"
    if groups.get(n_key):
        return horizon_key(_hz_num(groups[n_key]), groups["u" if n_key == "n" else "hu"])
    word = (groups.get("w") or groups.get("hw") or "").lower()
    return {"week": "7D", "weekly": "7D", "month": "30D", "monthly": "30D", "year": "1Y", "yearly": "1Y",
            "annual": "1Y", "day": "1T", "session": "1T"}.get(word, "7D")


def _is_rate_tenor(m: re.Match[str]) -> bool:
    """'10y', '30Y', '2-year' (a Treasury tenor) or '49-month high' (a record): not a return horizon."""
    groups = m.groupdict()
    n, u = groups.get("n") or groups.get("hn"), groups.get("u") or groups.get("hu")
    if re.match(r"[\s-]*(?:highs?|lows?|records?|peaks?|troughs?)\b", m.string[m.end():], re.I):
        return True
    return bool(n and u and u.lower().startswith("y") and _hz_num(n) >= 2)


HORIZON_FIELDS: dict[str, str] = {
    "1T": "return1d", "3T": "return3d", "5T": "return5d", "20T": "return20d", "21T": "return21d", "7D": "return7d",
    "30D": "return30d",
    "6M": "return6m", "1Y": "return1y",
}
FIELD_HORIZONS: dict[str, str] = {v: k for k, v in HORIZON_FIELDS.items()}


def _hz_num(token: str) -> int:
    token = token.lower()
    return _WORD_NUM[token] if token in _WORD_NUM else int(token)


_CONNECTORS = frozenset(
    "at of is was were are near around about roughly approximately approx nearly almost to by from stood stands "
    "sits sitting came in reading reads read prints printing level value currently now trading trades traded up down rose fell gained lost "
    "a an the with its their has have had hit reached climbed dropped jumped slipped over under above below than "
    "more less at_least performer performance return returns gain gains move moves momentum change rally trend "
    "leader leading led showing shows shown show posted posting delivered recent recently latest current just "
    "only strong strongest weak weakest best worst top high low ~ stands_at still remains remained sitting "
    "printed print ratio score".split()
)


def _only_connectors(text: str) -> bool:
    """True when the words between a field phrase and its number are glue words ("RSI has climbed to 72")."""
    words = [w.lower() for w in _CONNECTOR_WORDS.findall(text)]
    return len(words) <= 5 and all(w in _CONNECTORS for w in words)


def _words_between(text: str) -> int:
    return len(_CONNECTOR_WORDS.findall(text))


def clause_start(text: str, pos: int, floor: int = 0) -> int:
    """Start of the clause containing ``pos`` (after the last ; , : ( ) or dash before it)."""
    start = floor
    for m in _CLAUSE_BREAK.finditer(text, floor, pos):
        start = m.end()
    return start


def forecast_marker_before(text: str, pos: int, floor: int = 0) -> re.Match[str] | None:
    """The forecast/opinion word earlier in the same clause as ``pos``, if any."""
    start = clause_start(text, pos, floor)
    found = None
    for m in _FORECAST_RE.finditer(text, start, pos):
        if m.group(0) == "May" or (m.group(0).lower() == "may" and _DATE_AFTER.match(text[m.start():])):
            continue  # the month
        found = m
    return found


def forecast_markers(text: str) -> list[re.Match[str]]:
    return [m for m in _FORECAST_RE.finditer(text) if m.group(0) != "May"]


def _overlaps(span: tuple[int, int], spans: Iterable[tuple[int, int]]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in spans)


def _closed_aside(text: str, at: int, pos: int) -> bool:
    """True when ``at`` is inside a parenthesis that closes before ``pos`` ("(... dragging SPY/QQQ) toward
    areas showing positive momentum": SPY and QQQ are not what the claim is about)."""
    depth = 0
    for ch in text[at:pos]:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return True
            depth -= 1
    return False


def _subject(mentions: Sequence[Mention], pos: int, text: str, default: str | None, strong: bool) -> str | None:
    """Who a claim at ``pos`` is about: a mention in the same clause, else the segment's symbol (strong),
    else the closest earlier mention in the sentence, else the default."""
    return subjects(mentions, pos, text, default, strong)[0]


def subjects(mentions: Sequence[Mention], pos: int, text: str, default: str | None, strong: bool,
             end: int | None = None) -> tuple[str | None, list[str]]:
    """(subject, alternatives) of a claim at ``pos`` (ending at ``end``): the subject as ``_subject`` picks
    it; the alternatives are the other symbols the sentence offers as its subject: other mentions earlier in
    the clause, a mention right after the claim in its clause ("+12% in biotech"), the segment's symbol."""
    start = clause_start(text, pos)
    earlier = None
    same = None
    in_clause: list[str] = []
    for m in mentions:
        if m.reference or m.end > pos or _closed_aside(text, m.end, pos):
            continue
        earlier = m.symbol
        if m.start >= start:
            same = m.symbol
            in_clause.append(m.symbol)
    if same is not None:
        primary = same
    elif strong and default is not None:
        primary = default
    else:
        primary = earlier if earlier is not None else default
    others: list[str] = list(reversed(in_clause))
    if end is not None:
        stop = _CLAUSE_BREAK.search(text, end)
        limit = stop.start() if stop else len(text)
        others += [m.symbol for m in mentions if not m.reference and end <= m.start < limit]
    if earlier is not None:
        others.append(earlier)
    if default is not None:
        others.append(default)
    alternatives = [s for s in dict.fromkeys(others) if s != primary]
    return primary, alternatives


# ------------------------------------------------------------------------------------------ numbers


@dataclass(slots=True)
class _Binding:
    rule: str
    field: str | None = None
    horizon: str | None = None
    relative: bool = False
    start: int = 0
    end: int = 0
    sign: int = 0  # -1 forces a negative stated value
    label: str | None = None
    op: str = "eq"


def _bind_suffix(text: str, end: int, start: int = 0) -> _Binding | None:
    after = text[end : end + 80]
    m = _SUFFIX_WITHIN.match(after)
    if m and re.search(r"\bwithin\s*$", text[max(0, start - 12):start], re.I):
        f = "week52High" if m.group("hl").lower().startswith("h") else "week52Low"
        return _Binding("near_52w_extreme", field=f, start=start, end=end + m.end())
    m = _SUFFIX_RELATIVE.match(after)
    if m:
        b = _Binding("relative_return", relative=True, start=end, end=end + m.end())
        h = _SUFFIX_HORIZON.match(after[m.end():])
        if h:
            b.horizon = horizon_key(_hz_num(h.group("n")), h.group("u"))
            b.end += h.end()
        return b
    m = _SUFFIX_HORIZON.match(after) or _SUFFIX_WORD_HORIZON.match(after)
    if m and _is_rate_tenor(m):
        return _Binding("briefing", start=end, end=end + m.end())
    if m:
        rest = after[m.end():]
        stat = _NOT_A_RETURN.match(rest)
        if stat:  # "66% 30d vol", "20-day volatility of", "-8% 30d max drawdown"
            key = _match_horizon(m)
            fld = "volatility20d" if key == "20T" and stat.group(0).strip().lower().startswith("vol") else None
            return _Binding("exact_numeric" if fld else "briefing", field=fld, start=end, end=end + m.end() + stat.end())
        b = _Binding("return", horizon=_match_horizon(m), start=end, end=end + m.end())
        r = re.match(r"^\s*(?:return|gain|move|momentum|performance|change|rally|advance|rise)?s?\s*", rest, re.I)
        tail = rest[r.end():] if r else rest
        rel = _SUFFIX_RELATIVE.match(tail)
        word = (m.groupdict().get("rel") or "").strip().lower()
        if word == "outperformance" or rel or re.match(r"^\s*outperformance\b", rest, re.I):
            # "10.46% 30-day outperformance", "+2.8% 30d vs SPY": real rationales mean either reading
            b.rule = "return_or_relative"
            if rel:
                b.end += (r.end() if r else 0) + rel.end()
        elif word or re.match(r"^\s*(?:active|relative|excess|alpha)\b", rest, re.I):
            b.relative = True
            b.rule = "relative_return"
        elif _NEG_SUFFIX.match(tail):
            b.sign = -1
        return b
    m = _SUFFIX_DISTANCE.match(after)
    if m:
        d = m.group("dir").lower()
        negative = d not in ("above", "over", "over and above")
        b = _Binding("", start=end, end=end + m.end(), sign=-1 if negative else 1)
        if m.group("w52"):
            b.rule = "distance_52w_high" if m.group("hl").lower().startswith("h") else "distance_52w_low"
            b.field = "week52High" if b.rule == "distance_52w_high" else "week52Low"
        elif m.group("ma"):
            n = m.group("man") or m.group("man2") or m.group("man3")
            b.rule, b.field = "distance_sma", f"sma{n}"
        else:
            b.rule, b.field = "analyst_upside", "analystTargetPrice"
            b.sign = 1 if negative else -1  # "10% below the target" = 10% upside
        return b
    m = _SUFFIX_UPSIDE.match(after)
    if m:
        return _Binding("analyst_upside", field="analystTargetPrice", start=end, end=end + m.end(),
                        sign=1 if m.group("d").lower() == "upside" else -1)
    lead = leading_field_phrase(after)
    if lead:
        return _Binding("exact_numeric", field=lead[1], start=end, end=end + lead[0])
    return None


def _bind_prefix(text: str, start: int, floor: int) -> _Binding | None:
    before = text[floor:start]
    m = _PREFIX_RELATIVE.search(before)
    if m:
        return _Binding("relative_return", relative=True, start=floor + m.start(), end=start)
    m = _PREFIX_UPSIDE.search(before)
    if m:
        return _Binding("analyst_upside", field="analystTargetPrice", start=floor + m.start(), end=start,
                        sign=1 if m.group("d").lower() == "upside" else -1)
    m = _PREFIX_DISTANCE.search(before)
    if m:  # "52-week high of $180" is the level itself
        f = "week52High" if m.group("hl").lower().startswith("h") else "week52Low"
        return _Binding("exact_numeric", field=f, start=floor + m.start(), end=start)
    best: _Binding | None = None
    best_end = -1
    phrase = last_field_phrase(before)
    if phrase is not None:
        best_end = phrase[1]
        best = _Binding("exact_numeric", field=phrase[2], start=floor + phrase[0], end=start)
    for hm in _HORIZON_RE.finditer(before):
        if hm.end() >= best_end:
            best_end = hm.end()
            if _is_rate_tenor(hm):
                best = _Binding("briefing", start=floor + hm.start(), end=start)
                continue
            best = _Binding("return", horizon=_match_horizon(hm), start=floor + hm.start(), end=start)
            tail = before[hm.end():]
            if re.match(r"^\s*(?:active|relative|excess|benchmark-relative|alpha)\b", tail, re.I):
                best.relative = True
                best.rule = "relative_return"
    ctx_start, ctx_end = -1, -1
    for cm in _CONTEXT_RE.finditer(before):
        adjacent = ctx_end >= 0 and not before[ctx_end:cm.start()].strip()
        ctx_start, ctx_end = (ctx_start if adjacent else cm.start()), cm.end()  # "Q1 chip sales" as one phrase
    if ctx_end > best_end:
        if _words_between(before[ctx_end:]) <= 5:
            return _Binding("briefing", start=floor + ctx_start, end=start)
        return None
    if best is None or not _only_connectors(before[best_end:]):
        return None
    return best


@dataclass(frozen=True, slots=True)
class NumberHit:
    """A number in a text with its binding (used by extraction and by the judge-note quote check)."""

    start: int
    end: int
    stated: StatedNumber
    binding_rule: str
    field: str | None
    horizon: str | None
    relative: bool
    approx: bool
    op: str
    span: tuple[int, int]
    forecast: bool
    forecast_start: int = -1
    ordinal: int = -1  # index among all number tokens of the text
    negated: bool = False  # the stated value was made negative by a word ("fell 5%", "8% below")


def find_numbers(text: str, cited_fields: Sequence[str] = ()) -> list[NumberHit]:
    """Every claim-worthy number in ``text`` with the field (or briefing context) it belongs to."""
    hits: list[NumberHit] = []
    if not _HAS_DIGIT.search(text):
        return hits
    ordinal = -1
    floor = 0
    last_horizon: str | None = None
    for m in _NUM_RE.finditer(text):
        ordinal += 1
        num_end = m.end("num")
        suffix = m.group("suffix")
        rest = text[num_end:]
        if _HORIZON_AFTER_NUM.match(rest) and not m.group("cur") and suffix in (None, "m", "M") or (
            suffix is None and re.match(r"^(?:st|nd|rd|th)\b|^[A-Za-z]", rest)
        ):
            continue  # "7d", "30-day", "52-week", "Q1", "10Y", "3rd"
        if suffix == "m" and not m.group("cur") and "." not in m.group("num") and re.match(r"^m\b", rest):
            continue  # "6m", "12m": months
        stated = number_from_match(m)
        is_plain = not (suffix or m.group("cur") or "." in m.group("num"))
        start = m.start()
        if (m.group("sign") and start > 0 and text[start - 1].isdigit()) or (
            start >= 2 and text[start - 1] in "-\u2013" and text[start - 2].isdigit()
        ):
            continue  # the end of a range ("July 9-16", "3-5%")
        before = text[max(0, start - 40):start]
        if is_plain and (_DATE_BEFORE.search(before) or _DATE_AFTER.match(text[m.end():])):
            continue
        if is_plain and 1900 <= abs(stated.value) <= 2100:
            continue
        if is_plain and _INDEX_NAME_BEFORE.search(before):
            continue  # "S&P 500", "Russell 2000", "Nasdaq 100"
        if is_plain and _PARAMETER_BEFORE.search(before) and re.match(r"^\s*[,)]", text[m.end():]):
            continue  # an indicator's parameter, not its value: "RSI(14)", "MACD(12, 26, 9)", "SMA(50)"
        # trailing "+" ("$90+") and portfolio words
        if _PORTFOLIO_SUFFIX.match(text[m.end():m.end() + 30]) or _PORTFOLIO_PREFIX.search(before):
            floor = m.end()
            continue
        binding = _bind_suffix(text, m.end(), start)
        if suffix == "x":  # a multiple: "28x earnings", "25x forward earnings"
            mult = _SUFFIX_MULTIPLE.match(text[m.end():m.end() + 40])
            if mult:
                binding = _Binding("exact_numeric", field="forwardPE" if mult.group("fwd") else "peRatio",
                                   start=start, end=m.end() + mult.end())
        rel_prefix = _PREFIX_RELATIVE.search(text[floor:start]) if binding is not None else None
        if binding is not None and binding.rule == "return" and rel_prefix:
            binding.rule, binding.relative = "relative_return", True  # "outperformed SPX by 2% over 30d"
            binding.start = floor + rel_prefix.start()
        if binding is not None and binding.rule == "return" and _RELATIVE_BEFORE.search(text[max(floor, start - 40):start]):
            binding.rule = "return_or_relative"  # "relative momentum (+6.6% 30d)": either reading may be meant
        if suffix == "x" and binding is not None and binding.field and FIELD_SPECS[binding.field].unit == "price":
            binding = None  # a multiple is not a price
        if binding is not None and binding.rule == "return" and _NOT_A_RETURN_BEFORE.search(before):
            binding = _Binding("briefing", start=start, end=binding.end)  # "asset share 68% over 5 days"
        if binding is not None and binding.rule in ("return", "relative_return") and _CONTEXT_JUST_BEFORE.search(before):
            binding = _Binding("briefing", start=start, end=binding.end)  # "oil +8% weekly", "Kospi -3% 7d"
        if binding is None:
            if _TICKER_AFTER.match(text[m.end():m.end() + 16]) and not _CONTEXT_SUFFIX.match(text[m.end():m.end() + 40]):
                floor = m.end()
                continue  # "60% SP500": an allocation
            binding = _bind_prefix(text, start, floor)
        if binding is None:
            ctx = _CONTEXT_SUFFIX.match(text[m.end():m.end() + 40])
            if ctx:
                binding = _Binding("briefing", start=start, end=m.end() + ctx.end())
        if binding is None and cited_fields:
            numeric = [f for f in (resolve_field(c) for c in cited_fields) if f and FIELD_SPECS[f].unit != "text"]
            if numeric:
                binding = _Binding("exact_numeric", field=numeric[0], start=start, end=m.end())
        if binding is None:
            if is_plain:
                continue
            binding = _Binding("briefing", start=start, end=m.end())
        if binding.rule == "briefing":
            ctx = _CONTEXT_SUFFIX.match(text[m.end():m.end() + 40])
            if ctx:
                binding.end = max(binding.end, m.end() + ctx.end())  # "+25% QoQ"
        if binding.rule == "relative_return" and binding.horizon is None:
            prior = list(_HORIZON_RE.finditer(text, max(0, start - 60), start))
            if prior and not _is_rate_tenor(prior[-1]):
                binding.horizon = _match_horizon(prior[-1])  # "strongest 30d relative return (+14% vs SPX)"
            else:
                binding.horizon = last_horizon
        if binding.horizon is not None:
            last_horizon = binding.horizon
        elif binding.field in FIELD_HORIZONS:
            last_horizon = FIELD_HORIZONS[binding.field]
        negated = not stated.explicit_sign and (binding.sign == -1 or (
            _NEG_PREFIX.search(before) is not None
            and binding.rule in ("return", "exact_numeric", "relative_return", "derived_return")))
        if negated:
            stated = stated.negated()
        approx = bool(_APPROX_PREFIX.search(before.rstrip(" +-")) or _APPROX_PREFIX.search(before))
        op_m = _OP_PREFIX.search(before)
        op = "eq"
        if op_m and binding.rule in ("exact_numeric", "return"):
            op = "gt" if (op_m.group("gt") or op_m.group("gt2")) else "lt"
        span = (min(start, binding.start), max(m.end(), binding.end))
        fc = forecast_marker_before(text, start)
        hits.append(NumberHit(start, m.end(), stated, binding.rule, binding.field, binding.horizon,
                              binding.relative, approx, op, span, fc is not None, fc.start() if fc else -1,
                              ordinal, negated))
        floor = max(m.end(), binding.end)
    return hits


def _number_assertion(hit: NumberHit, symbol: str | None, benchmark: str | None, text: str = "") -> Assertion:
    raw_rule = hit.binding_rule
    if hit.forecast:
        raw = text[hit.forecast_start:hit.end] if text and hit.forecast_start >= 0 else hit.stated.raw
        return Assertion(rule="forecast", symbol=symbol, raw=raw)
    if raw_rule == "briefing":
        return Assertion(rule="briefing", symbol=symbol, raw=hit.stated.raw)
    field_name = hit.field
    horizon = hit.horizon
    if raw_rule in ("return", "relative_return", "return_or_relative"):
        field_name = HORIZON_FIELDS.get(horizon or "", None)
    spec_unit = FIELD_SPECS[field_name].unit if field_name else "fraction"
    if raw_rule in ("return", "relative_return", "return_or_relative", "distance_52w_high", "distance_52w_low",
                    "distance_sma", "analyst_upside", "near_52w_extreme"):
        spec_unit = "fraction"
    value, tol = hit.stated.in_unit(spec_unit)
    if raw_rule == "return":
        rule = "exact_numeric" if field_name else "derived_return"
        if hit.op != "eq":
            rule = "threshold"
    elif raw_rule == "relative_return":
        rule = "relative_return"
    elif raw_rule == "exact_numeric" and hit.op != "eq":
        rule = "threshold"
    else:
        rule = raw_rule
    return Assertion(
        rule=rule, symbol=symbol, field=field_name, stated=value, tolerance=tol, approx=hit.approx,
        op=hit.op, window=None, benchmark=benchmark if raw_rule in ("relative_return", "return_or_relative") else None,
        label="within" if rule == "near_52w_extreme" else horizon, raw=hit.stated.raw,
    )


# ------------------------------------------------------------------------------------------ qualitative


def _sign(word: str, negatives: Iterable[str]) -> int:
    return -1 if word.lower() in negatives else 1


_HAS_DIGIT = re.compile(r"\d")
_MARKET_WIDE_RULES = frozenset({"momentum", "relative_momentum", "volatility_level"})
_MACRO_SUBJECT = re.compile(
    r"\b(?:WTI|Brent|crude|oil|CPI|PPI|PCE|inflation|yields?|rates|dollar|VIX|Treasur(?:y|ies)|GDP|payrolls|"
    r"Kospi|Nikkei|Dow|Nasdaq|Russell|bitcoin|gold\s+prices?)\b",
    re.I,
)
_Q_KEYS = re.compile(
    r"50|200|cross|macd|overbought|oversold|52|relative|perform|momentum|trend|price action|return|profit|margin|"
    r"roe|losing|growth|valu|cheap|expensive|bargain|pricey|premium|dividend|beta|vol|upside|downside|target|"
    r"consensus|analyst|rated|sector|industry"
)


def _qualitative(text: str, taken: list[tuple[int, int]], symbol_at, benchmark: str | None) -> list[
    tuple[Assertion, tuple[int, int]]
]:
    out: list[tuple[Assertion, tuple[int, int]]] = []

    def add(m: re.Match[str], span: tuple[int, int] | None = None, **kw) -> None:
        span = span or (m.start(), m.end())
        if _overlaps(span, taken) or forecast_marker_before(text, m.start()):
            return
        if kw.get("rule") in _MARKET_WIDE_RULES and _MACRO_SUBJECT.search(text, clause_start(text, m.start()), m.start()):
            return  # "WTI at $95 and Brent at $97 with upward momentum": about oil, not the symbol
        out.append((Assertion(symbol=symbol_at(m.start()), raw=m.group(0).strip(), **kw), span))
        taken.append(span)

    present = set(_Q_KEYS.findall(text.lower()))

    def scan(pattern: re.Pattern[str], *needles: str) -> Iterable[re.Match[str]]:
        return pattern.finditer(text) if present.intersection(needles) else ()

    for m in scan(_Q_SMA, "50", "200"):
        if re.search(r"\btheir\b", m.group(0), re.I) or _PLURAL_SUBJECT.search(text[max(0, m.start() - 30):m.start()]):
            continue  # "names trading above their 50-day average": a screen, not a claim about one symbol
        d = (m.group("dir") or m.group("dir2")).lower()
        pol = 1 if d == "above" else -1
        if m.group("neg") or m.group("neg2"):
            pol = -pol
        terms = m.group("terms") or ""
        windows = re.findall(r"50|200", terms) or [m.group("n2") or m.group("n3")]
        for n in dict.fromkeys(windows):
            add(m, rule="sma_position", field=f"sma{n}", polarity=pol, window=int(n))
            if len(windows) > 1:
                taken.pop()  # let the second window through
        if len(windows) > 1:
            taken.append((m.start(), m.end()))
    for m in scan(_Q_CROSS, "cross", "200"):
        if m.group("golden"):
            pol = 1
        elif m.group("death"):
            pol = -1
        else:
            pol = 1 if m.group("dir").lower() == "above" else -1
        add(m, rule="ma_cross", field="sma50", polarity=pol)
    for m in scan(_Q_MACD, "macd"):
        word = (m.group("adj") or m.group("adj2") or m.group("dir") or "").lower()
        add(m, rule="macd_signal", field="macd", polarity=-1 if word in ("bearish", "negative", "below", "under") else 1)
    for m in scan(_Q_RSI, "overbought", "oversold"):
        if _GENERIC_STATE_BEFORE.search(text[max(0, m.start() - 40):m.start()]):
            continue  # "filters (an oversold RSI ...)", "looking for oversold names": a criterion, not a claim
        pol = 1 if m.group("state").lower() == "overbought" else -1
        add(m, rule="rsi_state", field="rsi14", polarity=pol, label="not" if m.group("neg") else None)
    for m in scan(_Q_52W, "52"):
        hl = "week52High" if m.group("hl").lower().startswith("h") else "week52Low"
        deg = m.group("deg").lower()
        near = deg.startswith(("near", "close", "approach", "just", "within"))
        add(m, rule="near_52w_extreme", field=hl, label="near" if near else "at",
            polarity=-1 if m.group("neg") else 1)
    for m in scan(_Q_RELSTRENGTH, "relative", "perform"):
        if m.group("verb"):
            pol = -1 if m.group("verb").lower().startswith("under") else 1
        else:
            what = m.group("what").lower()
            pol = -1 if what in ("weakness", "underperformance") else 1
            if (m.group("adj") or "").lower() in ("weak", "negative", "poor"):
                pol = -pol if pol == 1 else pol
        hz = re.search(r"(\d+)[\s-]?(d|day)", m.group(0), re.I)
        add(m, rule="relative_momentum", polarity=pol, benchmark=benchmark,
            label=horizon_key(int(hz.group(1)), hz.group(2)) if hz else None)
    for m in scan(_Q_MOMENTUM, "momentum", "trend", "price action", "perform", "return"):
        if m.group("trend"):
            pol = -1 if m.group("trend").lower().startswith("down") else 1
            label = None
        elif m.group("tdir"):
            pol = -1 if m.group("tdir").lower() in ("lower", "down") else 1
            label = None
        else:
            adj = m.group("adj").lower()
            what = m.group("what").lower()
            if what.startswith(("performance", "return")) and adj not in ("positive", "negative", "strong", "weak"):
                continue
            pol = -1 if adj in _MOM_ADJ_NEG else 1
            mods = m.group("mods") or ""
            hz = re.search(r"(\d+|one|six)[\s-]?(d|day|days|w|week|m|month|months|y|year)\b", mods, re.I)
            label = horizon_key(_hz_num(hz.group(1)), hz.group(2)) if hz else None
            if label is None and re.search(r"recent|near-term|short-term", mods, re.I):
                label = "short"
            if "relative" in mods.lower():
                add(m, rule="relative_momentum", polarity=pol, benchmark=benchmark, label=label)
                continue
        add(m, rule="momentum", polarity=pol, label=label)
    for m in scan(_Q_PROFIT, "profit", "margin", "return", "roe", "losing"):
        if m.group("unprof"):
            pol = -1
        else:
            pol = _sign(m.group("adj"), ("weak", "low", "thin", "poor", "negative", "compressed", "shrinking"))
        add(m, rule="profitability", field="profitMargin", polarity=pol)
    for m in scan(_Q_GROWTH, "growth"):
        pol = _sign(m.group("adj"), ("weak", "slow", "slowing", "negative", "declining", "sluggish", "poor"))
        what = (m.group("what") or "").lower()
        fld = "quarterlyRevenueGrowthYOY" if what in ("revenue", "sales", "top-line") else (
            "quarterlyEarningsGrowthYOY" if what else None)
        joined = re.search(r"\b(?:profitability|margins?)\s+and\s+", m.group(0), re.I)
        span = (m.start() + joined.end(), m.end()) if joined else None
        add(m, span=span, rule="growth", field=fld, polarity=pol)
    for m in scan(_Q_VALUATION, "valu", "cheap", "expensive", "bargain", "pricey", "premium"):
        pol = 1 if m.group("cheap") else -1
        if m.group("neg"):
            pol = -pol
        add(m, rule="valuation", field="peRatio", polarity=pol, label="cheap" if pol == 1 else "expensive")
    for m in scan(_Q_DIVIDEND, "dividend"):
        adj = (m.group("adj") or "high").lower()
        add(m, rule="dividend_yield", field="dividendYield",
            polarity=-1 if adj in ("low", "meager", "below-average") else 1)
    for m in scan(_Q_BETA, "beta"):
        add(m, rule="beta_level", field="beta",
            polarity=-1 if m.group("adj").lower() in ("low", "lower", "below-market") else 1)
    for m in scan(_Q_VOL, "vol"):
        add(m, rule="volatility_level", field="volatility20d",
            polarity=-1 if m.group("adj").lower() in ("low", "lower", "subdued", "muted", "modest") else 1)
        if out and out[-1][0].rule == "volatility_level" and m.group("adj").lower() == "moderate":
            out.pop()
            taken.pop()
    for m in scan(_Q_UPSIDE, "upside", "downside", "target"):
        d = (m.group("d1") or m.group("d2") or m.group("d3") or m.group("d4") or "").lower()
        if m.group("dir"):
            pol = 1 if m.group("dir").lower() in ("below", "under") else -1
        else:
            pol = -1 if d == "downside" else 1
        add(m, rule="upside_direction", field="analystTargetPrice", polarity=pol)
    for m in scan(_Q_CONSENSUS, "consensus", "analyst", "rated"):
        label = next(g for g in (m.group(f"l{i}") for i in range(1, 6)) if g)
        add(m, rule="consensus", field="analystRatingBuy", label=_consensus_label(label))
    for m in scan(_Q_CATEGORY, "sector", "industry"):
        value = m.group("v1") or m.group("v2") or m.group("v3")
        kind = (m.group("k1") or m.group("k2") or m.group("k3")).lower()
        value = re.sub(r"^(?:the|a|an)\s+", "", value.strip(), flags=re.I)
        add(m, rule="categorical", field=kind, label=value)
    return out


def _consensus_label(word: str) -> str:
    w = re.sub(r"[\s-]+", " ", word.lower())
    return {"outperform": "buy", "overweight": "buy", "neutral": "hold", "underperform": "sell",
            "underweight": "sell"}.get(w, w)


# ------------------------------------------------------------------------------------------ entry point


_BARE_AFTER = re.compile(r"^\s*(?:[,;)\].]|$|and\b|or\b|vs\.?\b|versus\b|while\b|with\b)", re.I)
"""Nothing after the number that names another measure ("SMH +82% YTD" stays a briefing figure)."""


_COMPARABLE = {"beta_level": "beta", "volatility_level": "volatility20d"}
_THAN = re.compile(r"^\s*than\s+(?:the\s+|its\s+|a\s+)?", re.I)


def _compared_with(mentions: Sequence[Mention], text: str, end: int) -> str | None:
    """The option right after "than" that follows ``end`` ("lower volatility than SPY"), or None."""
    m = _THAN.match(text[end:end + 30])
    if m is None:
        return None
    at = end + m.end()
    return next((mm.symbol for mm in mentions if mm.start == at), None)


def _named_right_before(mentions: Sequence[Mention], text: str, pos: int) -> str | None:
    """The option named right before a number ("SMH -7.3%", "EWY: -25%"), or None."""
    for m in mentions:
        if not m.reference and 0 <= pos - m.end <= 3 and re.fullmatch(r"[\s:(]*", text[m.end:pos]):
            return m.symbol
    return None


def parse_text(
    text: str,
    symbol: str | None,
    cited_fields: Sequence[str] = (),
    mentions: Sequence[Mention] = (),
    benchmark: str | None = None,
    strong_symbol: bool = True,
) -> Parsed:
    """Every assertion in ``text``: numbers bound to fields, qualitative phrases, forecasts.

    ``symbol`` is the subject when no mention says otherwise; with ``strong_symbol`` (a segment header or a
    judge's claim symbol) it wins over mentions in other clauses of the sentence."""
    parsed = Parsed()
    taken: list[tuple[int, int]] = [(mm.start, mm.end) for mm in mentions]
    for hit in find_numbers(text, cited_fields):
        subject, alternatives = subjects(mentions, hit.start, text, symbol, strong_symbol, hit.end)
        assertion = _number_assertion(hit, subject, benchmark, text)
        intent = number_intent(text, hit.start, hit.end, clause_start(text, hit.start), assertion.field)
        if intent is not None and assertion.rule not in ("forecast",):
            assertion = Assertion(rule=intent, symbol=subject, raw=text[hit.start:hit.end].strip())
        elif assertion.rule == "briefing" and hit.stated.percent and _BARE_AFTER.match(text[hit.end:]):
            named = _named_right_before(mentions, text, hit.start)
            if named is not None:  # "SMH -7.3%", "(SMH +24%, TECH +22%)": a move of the named option
                assertion = Assertion(rule="any_return", symbol=named, stated=hit.stated.value / 100.0,
                                      tolerance=hit.stated.in_unit("fraction")[1], raw=hit.stated.raw)
        if alternatives:
            assertion = _replace(assertion, alternatives=alternatives)
        parsed.add(assertion, hit.span, hit)
    ranked: list[tuple[int, int]] = []  # a ranking may share words with a number ("strongest 7d return at 5%")
    for assertion, span in find_rankings(text, ranked, lambda pos: subjects(mentions, pos, text, symbol,
                                                                            strong_symbol)):
        parsed.add(assertion, span)
        ranked.append(span)
    for assertion, span in find_signs(text, ranked, lambda pos: subjects(mentions, pos, text, symbol,
                                                                         strong_symbol)):
        parsed.add(assertion, span)
        ranked.append(span)
    taken.extend(parsed.spans)
    for assertion, span in _qualitative(text, taken, lambda pos: _subject(mentions, pos, text, symbol, strong_symbol), benchmark):
        other = _compared_with(mentions, text, span[1]) if assertion.rule in _COMPARABLE else None
        if assertion.rule in _COMPARABLE and other is None and _THAN.match(text[span[1]:span[1] + 30]):
            # "lower volatility than broad small caps": a comparison with no option named is no absolute level
            assertion = Assertion(rule="compare", symbol=assertion.symbol, field=_COMPARABLE[assertion.rule],
                                  benchmark=None, op="gt" if assertion.polarity > 0 else "lt",
                                  raw=text[span[0]:min(len(text), span[1] + 40)].split(".")[0].strip())
        elif other is not None and other != assertion.symbol:  # "lower beta than the S&P 500": the two compared
            assertion = Assertion(rule="compare", symbol=assertion.symbol, field=_COMPARABLE[assertion.rule],
                                  benchmark=other, op="gt" if assertion.polarity > 0 else "lt",
                                  raw=text[span[0]:span[1]].strip())
        parsed.add(assertion, span)
    for m in forecast_markers(text):
        if m.group(0).lower() == "may" and _DATE_AFTER.match(text[m.start():]) and m.group(0)[0] == "M":
            continue
        parsed.forecast_spans.append((m.start(), m.end()))
    return parsed


def parse_assertions(
    text: str, symbol: str | None, cited_fields: Sequence[str] = (), benchmark: str | None = None
) -> list[Assertion]:
    """Assertions of a judge's claim text; a forecast word anywhere adds a ``forecast`` assertion."""
    parsed = parse_text(text, symbol, cited_fields, (), benchmark)
    out = list(parsed.assertions)
    if parsed.forecast_spans and not any(a.rule == "forecast" for a in out):
        s, e = parsed.forecast_spans[0]
        out.append(Assertion(rule="forecast", symbol=symbol, raw=text[s:e]))
    return out


# ------------------------------------------------------------------------------------------ template cache
# Judges write the same sentence shapes with different numbers ("RSI at 61.3", "RSI at 58.9"). A number
# with a decimal point, a sign-independent suffix (%, $, x, K/M/B) or a currency sign never changes how a
# text is bound (only plain integers can be dates, years or index names), so those numbers are replaced by a
# placeholder, the template is parsed once, and the real numbers are put back into its assertions.


_INT = r"(?:\d{1,3}(?:,\d{3})+|\d+)"
_TEMPLATE_RE = re.compile(
    rf"(?<![\w.]){_INT}\.\d+"  # decimals
    rf"|(?<![\w.]){_INT}(?=\s?(?:%|x\b|pp\b|bps\b|percent\b))"  # integers with a % / x / bps suffix
    rf"|(?<=\$){_INT}|(?<=\$ ){_INT}"  # currency amounts
)


def _placeholder(m: re.Match[str]) -> str:
    return "1.5" if "." in m.group(0) else "7"  # plain integers ("6m", "2026", "S&P 500") stay as written


@lru_cache(maxsize=50_000)
def _skeleton(template: str, cited: tuple[str, ...], benchmark: str | None):
    symbol = None  # without mentions every assertion is about the claim's symbol: filled in afterwards
    parsed = parse_text(template, symbol, cited, (), benchmark)
    out: list[tuple[Assertion, NumberHit | None]] = list(zip(parsed.assertions, parsed.numbers, strict=True))
    if parsed.forecast_spans and not any(a.rule == "forecast" for a in parsed.assertions):
        s, e = parsed.forecast_spans[0]
        out.append((Assertion(rule="forecast", symbol=symbol, raw=template[s:e]), None))
    return tuple(out)


def parse_assertions_cached(
    text: str, symbol: str | None, cited_fields: tuple[str, ...] = (), benchmark: str | None = None
) -> list[Assertion]:
    """``parse_assertions`` through the template cache (same result, much faster on repeated shapes)."""
    numbers = None
    out: list[Assertion] = []
    template = _TEMPLATE_RE.sub(_placeholder, text)
    for assertion, hit in _skeleton(template, cited_fields, benchmark):
        if assertion.symbol is None and symbol is not None:
            assertion = _replace(assertion, symbol=symbol)  # the skeleton is parsed without a symbol
        if hit is None:
            out.append(assertion)
            continue
        if numbers is None:
            numbers = list(_NUM_RE.finditer(text))
        if assertion.stated is None:  # briefing or forecast: only the words shown change
            if assertion.rule == "forecast" and hit.forecast_start >= 0:
                shift = sum(len(n.group(0)) - len(t.group(0)) for n, t in
                            zip(numbers, _NUM_RE.finditer(template), strict=False) if t.end() <= hit.forecast_start)
                raw = text[hit.forecast_start + shift:numbers[hit.ordinal].end()]
            else:
                raw = number_from_match(numbers[hit.ordinal]).raw
            out.append(_replace(assertion, raw=raw))
            continue
        stated = number_from_match(numbers[hit.ordinal])
        if hit.negated and not stated.explicit_sign:
            stated = stated.negated()
        unit = "fraction" if assertion.field is None or assertion.rule in _FRACTION_RULES else FIELD_SPECS[assertion.field].unit
        value, tol = stated.in_unit(unit)
        out.append(_replace(assertion, stated=value, tolerance=tol, raw=stated.raw))
    return out


def _replace(assertion: Assertion, **changes: object) -> Assertion:
    """A copy of a (valid) assertion with a few fields changed, without re-validation."""
    values = {**assertion.__dict__, **changes}
    copy = Assertion.__new__(Assertion)
    object.__setattr__(copy, "__dict__", values)
    object.__setattr__(copy, "__pydantic_fields_set__", set(values))
    object.__setattr__(copy, "__pydantic_extra__", None)
    object.__setattr__(copy, "__pydantic_private__", None)
    return copy


_FRACTION_RULES = frozenset({"relative_return", "return_or_relative", "distance_52w_high", "distance_52w_low", "distance_sma",
                             "analyst_upside", "near_52w_extreme", "derived_return"})
