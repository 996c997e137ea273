"""Trend and risk levels in words: momentum and trends, relative strength, low/high beta, low/high volatility.
One reader per kind."""

from __future__ import annotations

import re

from ledgers._groups import find_group
from ledgers.reading._emit import Emit
from ledgers.reading._horizons import horizon_key, hz_num
from ledgers.reading._vocab import BENCH_WORDS

_MOM_ADJ_POS = (
    "positive",
    "strong",
    "strongest",
    "stronger",
    "bullish",
    "upward",
    "rising",
    "robust",
    "solid",
    "dominant",
    "accelerating",
    "exceptional",
    "improving",
    "upside",
    "persistent",
    "steady",
    "sustained",
    "consistent",
    "extreme",
    "powerful",
    "massive",
    "high",
    "elevated",
)


_MOM_ADJ_NEG = (
    "negative",
    "weak",
    "weaker",
    "weakest",
    "weakening",
    "bearish",
    "downward",
    "falling",
    "fading",
    "poor",
    "deteriorating",
    "decelerating",
    "declining",
)


_Q_MOMENTUM = re.compile(
    r"\b(?P<adj>" + "|".join(_MOM_ADJ_POS + _MOM_ADJ_NEG) + r")\s+"
    r"(?P<mods>(?:(?:recent|near-term|short-term|price|trailing|relative|benchmark-relative|cross-horizon|sector|"
    r"trend|upward|downward|weekly|monthly|"
    r"[a-z]+-driven|broad-based|"
    r"medium-term|intermediate(?:-term)?|longer-term|long-term|short-|\d+[\s-]?(?:d|day|days|w|week|m|month|months|y|year)|one-week|"
    r"one-month|1-week|1-month|"
    r"six-month|6-month|and|,)\s*)*)"
    r"(?P<what>momentum|uptrend|trend|price\s+action|performance|returns?)\b"
    r"(?!\s+(?:potential|targets?|objectives?|goals?|expectations?|opportunit\w+))"
    r"|\b(?P<trend>uptrend|downtrend|up-trend|down-trend)\b|\btrending\s+(?P<tdir>higher|up|lower|down)\b",
    re.I,
)


_Q_RELSTRENGTH = re.compile(
    r"\b(?:(?P<adj>strong|strongest|positive|robust|solid|weak|negative|poor|notable)\s+)?(?:(?:recent|near-term|"
    r"sector|30-day|7-day|\d+[\s-]?d)\s+)*relative\s+(?P<what>strength|weakness|outperformance|underperformance)\b"
    rf"|\b(?P<verb>outperform\w*|underperform\w*)\s+(?:the\s+)?(?P<ref>{BENCH_WORDS})\b",
    re.I,
)


_Q_BETA = re.compile(
    r"\b(?P<adj>low|lower|high|higher|elevated|below-market|above-market)[\s-](?:(?:S&P(?:\s*500)?|SPY|market|equity)"
    r"[\s-]+)?beta\b",
    re.I,
)
"""'low beta', 'low S&P beta', 'high market beta': beta is measured against the market (the benchmark)."""


_Q_VOL = re.compile(
    r"\b(?P<adj>low|lower|high|higher|elevated|subdued|muted|modest|moderate)\s+(?:realized\s+|historical\s+|"
    r"price\s+)?(?:volatility|vol)\b(?!\s+(?:equities|etf|fund|stocks))",
    re.I,
)


MARKET_WIDE_RULES = frozenset({"momentum", "relative_momentum", "volatility_level"})


MACRO_SUBJECT = re.compile(
    r"\b(?:WTI|Brent|crude|oil|CPI|PPI|PCE|inflation|yields?|rates|dollar|VIX|Treasur(?:y|ies)|GDP|payrolls|"
    r"Kospi|Nikkei|Dow|Nasdaq|Russell|bitcoin|gold\s+prices?)\b",
    re.I,
)


_PREDICATIVE_AFTER = re.compile(
    r"^\s*(?:$|[,.;:)(\u2014-]|and\s+(?:low|high|lower|higher|strong|weak|positive|negative|recent|modest|solid|"
    r"limited|shallow|a\b|an\b|the\b|near|at\b)|with\b|of\b|"
    r"at\b|is\b|was\b|near\b|around\b|[+\-\u2212]?\d|profile|character(?:istics?)?|nature|exposure\b|stance|regime|"
    r"environment|(?:(?:defensive|cyclical|sector|option|fund|etf|equity|name|play|stock)\s*){1,2}"
    r"(?=[.,;:)]|$|\s+(?:with|that|which|in|on|for|and\s+(?:a|an|the|low|high|strong|positive|near|at)\b)))",
    re.I,
)


def _describes_another(text: str, end: int) -> bool:
    """An attributive level ("high-beta tech", "high-beta biotech and semiconductors", "low volatility relative to
    gains") describes the noun after it or a ratio, not the sentence's subject: the phrase is not read."""
    return not _PREDICATIVE_AFTER.match(text[end : end + 40])


_BARE_OUTPERFORMANCE = re.compile(
    r"(?<![\w-])(?P<adj>recent|strong|sustained|persistent|consistent|steady|notable|clear|solid|positive|negative)\s+"
    r"(?:(?P<n>\d+)[\s-]?(?P<u>d|day|days|s|sessions?|w|week|m|month)\s+)?"
    r"(?P<what>outperformance|underperformance|alpha)\b(?!\s+(?:vs\.?|versus|against|of|relative|over|compared|from|by|"
    r"in|among|within|could|would|should|may|might|will))",
    re.I,
)
"""'Recent outperformance', 'persistent underperformance', 'strong 30-day outperformance', 'positive 30d alpha': against
the benchmark, as 'relative strength' is (alpha, said of a fund with no model named, is its return above the
benchmark's); one set against another option ('outperformance vs tech', 'of its peers') is left to the comparison
readers."""


_NATURE_WORDS = frozenset({"defensive", "cyclical", "sector", "factor", "style", "quality", "value", "growth"})
"""Group words that describe the option's own nature ("healthcare offers defensive relative strength"), not another
set's."""
_ALPHA_AIM_BEFORE = re.compile(
    r"\b(?:generat\w*|seek\w*|captur\w*|deliver\w*|target\w*|expect\w*|potential|aim\w*|hunt\w*|find\w*|"
    r"harvest\w*|earn\w*|extract\w*|add|adds|adding|for|to)\s+(?:\w+\s+)?$",
    re.I,
)
_ALPHA_AIM_AFTER = re.compile(r"\s+(?:potential|opportunit\w+|target\w*|generation|capture|source|thesis)\b", re.I)


def read_relative_strength(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _BARE_OUTPERFORMANCE.finditer(text):
        if re.search(r"relative\s+$", text[max(0, m.start() - 12) : m.start()], re.I):
            continue  # "relative outperformance" is read below
        what, adj = m.group("what").lower(), m.group("adj").lower()
        if what == "alpha" and (
            adj not in ("positive", "negative", "strong", "solid")
            or _ALPHA_AIM_BEFORE.search(text[max(0, m.start() - 30) : m.start()])
            or _ALPHA_AIM_AFTER.match(text, m.end())
        ):
            continue  # "recent alpha": which way is unsaid; "to generate positive alpha", "alpha potential": an aim
        if what != "alpha" and adj in ("positive", "negative"):
            continue  # "positive outperformance": not a phrase writers use; left unread
        down = what.startswith("under") or (what == "alpha" and adj == "negative")
        add(
            m,
            rule="relative_momentum",
            polarity=-1 if down else 1,
            benchmark=benchmark,
            label=horizon_key(int(m["n"]), m["u"]) if m["n"] else None,
        )
    for m in _Q_RELSTRENGTH.finditer(text):
        before = re.search(r"([A-Za-z][\w-]*)\s+$", text[max(0, m.start() - 30) : m.start()])
        if (
            not m.group("verb")
            and before is not None
            and before.group(1).lower() not in _NATURE_WORDS
            and find_group(before.group(1)) is not None
        ):
            continue  # "international relative strength": another group's, not the option's
        if m.group("verb"):
            pol = -1 if m.group("verb").lower().startswith("under") else 1
        else:
            pol = -1 if m.group("what").lower() in ("weakness", "underperformance") else 1
            if (m.group("adj") or "").lower() in ("weak", "negative", "poor"):
                pol = -1
        hz = re.search(r"(\d+)[\s-]?(d|day)", m.group(0), re.I)
        add(
            m,
            rule="relative_momentum",
            polarity=pol,
            benchmark=benchmark,
            label=horizon_key(int(hz.group(1)), hz.group(2)) if hz else None,
        )


def read_momentum(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_MOMENTUM.finditer(text):
        label: str | None = None
        longer = False
        if m.group("trend"):
            pol = -1 if m.group("trend").lower().startswith("down") else 1
        elif m.group("tdir"):
            pol = -1 if m.group("tdir").lower() in ("lower", "down") else 1
        else:
            adj, what = m.group("adj").lower(), m.group("what").lower()
            if what.startswith(("performance", "return")) and adj not in (
                "positive",
                "negative",
                "strong",
                "weak",
                "massive",
                "high",
                "elevated",
                "robust",
                "solid",
                "exceptional",
                "poor",
            ):
                continue
            pol = -1 if adj in _MOM_ADJ_NEG else 1
            mods = m.group("mods") or ""
            hz = re.search(r"(\d+|one|six)[\s-]?(d|day|days|w|week|m|month|months|y|year)\b", mods, re.I)
            label = horizon_key(hz_num(hz.group(1)), hz.group(2)) if hz else None
            if label is None and re.search(r"\b(?:weekly|monthly)\b", mods, re.I):
                label = "7D" if re.search(r"weekly", mods, re.I) else "30D"
            if label is None and re.search(r"recent|near-term|short-term", mods, re.I):
                label = "short"
            if label is None and re.search(r"medium|intermediate|long", mods, re.I):
                label, longer = None, True
            if "relative" in mods.lower():
                add(m, rule="relative_momentum", polarity=pol, benchmark=benchmark, label=label)
                continue
        trend = bool(m.group("trend") or m.group("tdir")) or (m.group("what") or "").lower() in ("trend", "uptrend")
        # a trend with no window written may be months long, as "intermediate momentum" is: checked on the windows
        # shown, never contradicted
        add(m, rule="momentum", polarity=pol, label=label, inferred=(trend or longer) and label is None)


_REFERENCE_AFTER = re.compile(
    r"^\s*(?:than|vs\.?|versus|relative|compared|against|to|of\s+(?:the\s+)?(?:two|three|both|pair|group|set))\b", re.I
)


def _against_the_market(text: str, m: re.Match[str], add: Emit, field: str, benchmark: str | None) -> None:
    """ "with lower beta", "lower volatility", "higher-beta exposure" with nothing written to compare with: read
    against the benchmark (the market a beta is measured to, the default reference of a risk level), to support
    only: what the writer compared with is unsaid, so a mismatch is never a contradiction. A comparison whose other
    term is written ("lower beta than XLK") is the comparisons reader's."""
    if benchmark is None or _REFERENCE_AFTER.match(text[m.end() :]):
        return
    higher = m.group("adj").lower() == "higher"
    add(
        m,
        rule="compare",
        field=field,
        benchmark=benchmark,
        op="gt" if higher else "lt",
        polarity=1 if higher else -1,
        inferred=True,
    )


def read_beta_level(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_BETA.finditer(text):
        if _describes_another(text, m.end()):
            continue  # "high-beta tech": the noun after it's
        if m.group("adj").lower() in ("lower", "higher"):
            _against_the_market(text, m, add, "beta", benchmark)
            continue
        add(
            m,
            rule="beta_level",
            field="beta",
            polarity=-1 if m.group("adj").lower() in ("low", "lower", "below-market") else 1,
        )


def read_volatility_level(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _Q_VOL.finditer(text):
        adj = m.group("adj").lower()
        if adj in ("lower", "higher") and not _describes_another(text, m.end()):
            _against_the_market(text, m, add, "volatility20d", benchmark)
            continue
        if adj in ("moderate", "lower", "higher") or _describes_another(text, m.end()):
            continue  # neither low nor high; or "high volatility relative to gains", "high-vol names"
        add(
            m,
            rule="volatility_level",
            field="volatility20d",
            polarity=-1 if adj in ("low", "lower", "subdued", "muted", "modest") else 1,
        )
