"""Where an option stands on a measure the round ranks it by, said in words ("high prior active rank", "weak
recent-pullback rank", "low quality evidence score", "low SPY correlation"): the measure and which way, read as a
``standing`` assertion. The rule (``ledgers.rules._levels.rule_standing``) checks the option's place in the
universe: supported in the third the word names; otherwise not verifiable, never contradicted (the words draw no
line)."""

from __future__ import annotations

import re

from ledgers.reading._emit import Emit

_MEASURES = (
    ("qualityEvidenceScore", r"quality(?:[\s-]evidence)?(?:\s+score)?"),
    ("priorActiveRank", r"prior[\s-](?:active|trend)\s+rank"),
    ("recentPullbackRank", r"(?:recent[\s-](?:active[\s-])?)?(?:pullback|reversal)\s+rank"),
    ("lowVolatilityRank", r"low[\s-]volatility\s+rank"),
    ("shallowDrawdownRank", r"shallow[\s-]drawdown\s+rank"),
    (
        "upDayShare30d",
        r"(?:30[\s-]?d(?:ay)?\s+)?(?:up[\s-]days?\s+(?:share|ratio|percentage)|share\s+of\s+up[\s-]days)",
    ),
    (
        "correlation",
        r"(?:(?:SPY|S&P(?:\s*500)?|market)\s+)?correlation(?:\s+(?:to|with)\s+(?:the\s+)?"
        r"(?:SPY|S&P(?:\s*500)?|market|equities))?",
    ),
)
_STANDING = re.compile(
    r"(?<![\w-])(?P<adj>low|weak|poor|modest|high|strong|elevated|top-tier)\s+(?P<measure>"
    + "|".join(f"(?P<m{i}>{pattern})" for i, (_, pattern) in enumerate(_MEASURES))
    + r")(?![\w-])",
    re.I,
)
_NOT_OF_THE_SUBJECT = re.compile(
    r"^\s*(?:names|options|assets|sleeves|candidates|exposures|picks|holdings|ones|"
    r"and\s+(?:low|high)[\s-]\w+\s+(?:names|options))\b",
    re.I,
)
_TO_ANOTHER = re.compile(r"^\s+(?:to|with|vs\.?|versus|against)\b", re.I)
_LOW_WORDS = frozenset({"low", "weak", "poor", "modest"})


_STANDING_AFTER = re.compile(
    r"(?<![\w-])(?P<measure>"
    + "|".join(f"(?P<m{i}>{pattern})" for i, (_, pattern) in enumerate(_MEASURES))
    + r")\s+(?:(?:is|was|remains|stays|looks)\s+)?(?P<adj>low|weak|poor|high|strong|elevated)(?=\s*(?:[,.;:)]|$))",
    re.I,
)
"""The measure first: "quality score elevated", "prior active rank is high"."""


_DRAWDOWN = re.compile(
    r"(?<![\w-])(?:(?:comparatively|relatively|fairly|very|only)\s+)?(?P<adj>shallow|contained|limited|modest|small|"
    r"minimal|mild|low|deep|steep|large|heavy|severe)(?:er)?\s+(?:(?:30[\s-]?d(?:ay)?|21[\s-]?(?:s|sessions?|d(?:ay)?)|"
    r"recent|max(?:imum)?)\s+)?(?P<measure>drawdowns?)(?![\w-])"
    r"(?!\s+(?:rank|risk|potential|protection|control|exposure|names|options|profile\s+(?:if|should|could)))",
    re.I,
)
"""'Shallow drawdown', 'comparatively contained drawdown', 'deep 30-day drawdown': where the option stands on its
maximum drawdown (a shallow one stands high, the values being negative). 'Limited drawdown risk' is a forecast."""
_DEEP = frozenset({"deep", "steep", "large", "heavy", "severe"})


def read_standing(text: str, add: Emit, benchmark: str | None) -> None:
    for m in _DRAWDOWN.finditer(text):
        if _NOT_OF_THE_SUBJECT.match(text[m.end() :]):
            continue
        add(m, None, rule="standing", field="maxDrawdown30d", polarity=-1 if m.group("adj").lower() in _DEEP else 1)
    for m in [*_STANDING.finditer(text), *_STANDING_AFTER.finditer(text)]:
        if _NOT_OF_THE_SUBJECT.match(text[m.end() :]):
            continue  # "high quality score names": a set described, not the subject
        field = next(f for i, (f, _) in enumerate(_MEASURES) if m.group(f"m{i}"))
        if field == "correlation" and _TO_ANOTHER.match(text[m.end() :]):
            continue  # "low correlation to tech": to something the tables do not measure it against
        if field == "qualityEvidenceScore" and not re.search(r"evidence|score", m.group("measure"), re.I):
            continue  # "high quality" alone is a judgement, not the table's score
        span = None
        if field == "correlation" and re.search(r"SPY|S&P|market|equities", m.group("measure"), re.I):
            span = (m.start("adj"), m.end("adj"))  # the benchmark named in it is a mention, read as a reference
        add(m, span, rule="standing", field=field, polarity=-1 if m.group("adj").lower() in _LOW_WORDS else 1)


__all__ = ["read_standing"]
