"""Superlatives and rankings ("the strongest 30-day performer", "highest beta among sectors", "top three by
6-month return", "leading 7-day and 30-day momentum"), checked against the cross-section the round showed.

One parse (``find_rankings``) and one rule (``rule_ranking``):

- the measure is a return ("momentum", "performer", "return", "gain", "rally", "performance") or a named
  field (beta, volatility, drawdown, quality score); its horizons are those written in the phrase, else
  the short ones after "near-term / recent / short-term", else every horizon the store has for the measure;
- the peers are every symbol with that field at the decision (cash excluded), or the subject's sector peers
  when the phrase says "sector(s)";
- "strongest / best / top / leading / highest / largest" rank by the highest value, "weakest / worst /
  lowest / smallest" by the lowest; "top N" / "N highest" allow rank <= N.


Verdict: supported when the subject ranks within N on every written horizon (on at least one when none is
written); contradicted when it does so on none; mixed is not verifiable. With fewer than
``ranking_min_peers`` peers nothing is concluded.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ledgers._models import Assertion
from ledgers.reading._clauses import forecast_marker_before
from ledgers.reading._horizons import horizon_key

_WORD_N = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}
_HIGH = r"strongest|best|leading|highest|largest|biggest|greatest|shallowest"
_LOW = r"weakest|worst|lowest|smallest|poorest|deepest"
_HZ = (r"(?:\d+[\s-]?(?:day|d|session|s|month|m|mo|year|y|yr|week|w)s?|one[\s-](?:day|week|month|year)|"
       r"seven[\s-]day|thirty[\s-]day|six[\s-]month|weekly|monthly|near[\s-]term|short[\s-]term|recent|trailing)")
_MEASURE = (r"(?P<measure>prior\s+active\s+rank|(?:recent\s+)?pullback\s+rank|low[\s-]volatility\s+rank|"
            r"shallow[\s-]drawdown\s+rank|prior\s+active\s+(?:trend|returns?)|active\s+returns?|"
            r"(?:benchmark[\s-])?relative\s+(?:momentum|strength|performance|returns?)|momentum|performers?|performance|"
            r"returns?|gains?|rall(?:y|ies)|runs?|move|beta|volatility|vol|drawdowns?|"
            r"quality(?:[\s-]evidence)?\s+score)")
RANKING_RE = re.compile(
    rf"\b(?:(?:(?P<top>top)[\s-](?P<n>\d|two|three|four|five|ten)\b|(?P<n2>two|three|four|five|ten|\d)\s+)"
    rf"(?P<dir2>{_HIGH}|{_LOW})?|(?P<dir>{_HIGH}|{_LOW}))"
    rf"(?P<mid>(?:[\s,-]+(?:and\s+|or\s+)?(?:{_HZ}|the|in|of|price|absolute|relative|sector|secular|"
    rf"directly|supported|overall|trailing|universe|by|equity|equities|stock|bond|country|factor|defensive|cyclical|style|thematic|theme)){{0,9}}?)"
    rf"[\s-]+{_MEASURE}\b"
    rf"(?P<tail>(?:[^.;]|\.(?=\d)){{0,60}})",
    re.I,
)
# the measure first: "momentum is the strongest in the universe"
RANKING_AFTER_RE = re.compile(
    rf"\b(?P<mid>(?:(?:{_HZ}|price|breakout|relative|absolute)[\s,-]+){{0,4}}){_MEASURE}\s+(?:is|was|are|were|remains?)"
    rf"\s+(?:the\s+)?(?P<dir>{_HIGH}|{_LOW})\b(?P<tail>(?:[^.;]|\.(?=\d)){{0,60}})",
    re.I,
)
_NOT_PRICE = re.compile(r"\b(?:secular|structural|fundamental|earnings|long[\s-]term|thematic|narrative)\b", re.I)
_SET_AFTER = re.compile(r"^[^.;:()]{0,70}?\b(?:exposures|holdings|names|assets|themes|ETFs|trades|positions|areas|"
                        r"sleeves|leaders|funds|picks|candidates)\b", re.I)
_PAIR_BEFORE = re.compile(r"\b[A-Za-z]{3,}\s*/\s*[A-Za-z]{3,}\b[^.;,]{0,25}$")
"""A subject written as a pair ("healthcare/biotech showing strongest momentum") is two options, not one."""
"""A superlative whose noun is plural is about a set of options, not one subject."""
_PAREN_AFTER = re.compile(r"\s*\([^)]{0,40}\)")
_GROUP_WORD = re.compile(r"\b(?:equity|equities|stock|bond|country|factor|defensives?|cyclicals?|style|thematic|theme|"
                         r"peers?|holdings?|picks?|candidates?|names)\b",
                         re.I)
_SCOPE_SECTOR = re.compile(r"\bsectors?\b", re.I)
_SCOPE_OTHER = re.compile(r"\bamong\s+(?!sectors?\b|all\b|the\s+(?:universe|options)\b)\w+|\bwithin\s+\w+|"
                          r"\bin\s+(?:its|the)\s+(?:group|cluster|space|complex|theme)\b|\bof\s+the\s+(?:group|"
                          r"cluster)\b|\bamong\s+(?:defensives?|tech|ai)\b", re.I)
_HZ_RE = re.compile(r"(?P<n>\d+|one|seven|thirty|six)[\s-]?(?P<u>day|d|session|s|month|m|mo|year|y|yr|week|w)s?\b",
                    re.I)
_SHORT = re.compile(r"near[\s-]term|short[\s-]term|recent", re.I)
_NUMS = {"one": 1, "seven": 7, "thirty": 30, "six": 6}


def _horizons(words: str) -> list[str]:
    """Horizon keys written in the phrase ('7D', '30D', '6M', '1Y', '5T' for sessions / trading days)."""

    out = []
    for m in _HZ_RE.finditer(words):
        n = int(m["n"]) if m["n"].isdigit() else _NUMS[m["n"].lower()]
        unit = m["u"].lower()
        unit = {"s": "session", "d": "day", "w": "week", "m": "month", "mo": "month", "y": "year",
                "yr": "year"}.get(unit, unit)
        out.append(horizon_key(n, unit))
    if re.search(r"\bweekly\b", words, re.I):
        out.append("7D")
    if re.search(r"\bmonthly\b", words, re.I):
        out.append("30D")
    return list(dict.fromkeys(out))


def find_rankings(text: str, taken: list[tuple[int, int]],
                  subject_at: Callable[[int], tuple[str | None, list[str]]]) -> list[tuple[Assertion, tuple[int, int]]]:
    """Ranking assertions in one sentence (spans overlapping ``taken`` are skipped); ``subject_at(pos)`` gives
    the subject and the other subjects the sentence offers."""

    out = []
    matches = sorted([*RANKING_RE.finditer(text), *RANKING_AFTER_RE.finditer(text)], key=lambda m: m.start())
    for m in matches:
        span = (m.start(), m.end("measure") if m.re is RANKING_RE else m.end("dir"))
        if any(span[0] < e and s < span[1] for s, e in taken) or forecast_marker_before(text, m.start()):
            continue
        if _NOT_PRICE.search(text[m.start():m.end("measure")]):
            continue  # "strongest secular momentum", "best fundamental performance": not a price ranking
        direction = (m["dir"] or m.groupdict().get("dir2") or "top").lower()
        low = re.fullmatch(_LOW, direction, re.I) is not None
        groups = m.groupdict()
        n = groups.get("n") or groups.get("n2")
        at_most = 1 if n is None else (_WORD_N.get(n.lower()) or int(n))
        if n is not None and not (groups.get("top") or groups.get("dir2")):
            continue  # "three strong performers" is not a ranking
        phrase = text[m.start():m.end()]
        words = m["mid"] or ""
        scope = "universe"
        lead = text[max(0, m.start() - 40):m.start()]  # "Defensive sector with strongest ...": scope set before
        after = text[m.end("measure") if m.re is RANKING_RE else m.end("dir"):][:90]
        if _GROUP_WORD.search(lead) or _SCOPE_OTHER.search(lead) or _SET_AFTER.match(after) \
                or _PAIR_BEFORE.search(lead):
            scope = "group"  # "... concentrates in the highest-momentum AI, software and chip exposures": a set
        elif _SCOPE_SECTOR.search(words) or _SCOPE_SECTOR.search(m["tail"] or "") or _SCOPE_SECTOR.search(lead):
            scope = "sector"
        elif _SCOPE_OTHER.search(m["tail"] or "") or _SCOPE_OTHER.search(words) or _GROUP_WORD.search(words):
            scope = "group"  # a group we cannot name exactly: not concluded
        measure = re.sub(r"\s+", " ", m["measure"].lower())
        horizons = _horizons(words + " " + measure)
        paren = _PAREN_AFTER.match(text[m.end("measure"):])
        if not horizons and paren:  # "Strongest momentum (+22% 30d)": the horizon its own figure names
            horizons = _horizons(paren.group(0))
        if direction == "leading" and not horizons:
            continue  # "leading trailing returns": which ranking is meant cannot be told
        if _SHORT.search(words) and not horizons:
            horizons = ["short"]
        subject, alternatives = subject_at(m.start())
        out.append((Assertion(
            rule="ranking", symbol=subject, alternatives=alternatives, polarity=-1 if low else 1, op="lt" if low else "gt",
            window=at_most, label=scope, field=_measure_field(measure), raw=phrase[: span[1] - span[0]].strip(),
            horizons=horizons,
        ), span))
    return out


def _measure_field(measure: str) -> str | None:
    """A named field for a non-return measure (None: a return)."""
    if measure.startswith("beta"):
        return "beta"
    if measure.startswith(("volatility", "vol")):
        return "volatility20d"  # the registry's generic volatility: every window of it is ranked
    if measure.startswith("drawdown"):
        return "maxDrawdown"
    if measure.startswith("quality"):
        return "qualityEvidenceScore"
    for words, field in (("prior active rank", "priorActiveRank"), ("pullback rank", "recentPullbackRank"),
                         ("low volatility rank", "lowVolatilityRank"), ("low-volatility rank", "lowVolatilityRank"),
                         ("shallow drawdown rank", "shallowDrawdownRank"),
                         ("shallow-drawdown rank", "shallowDrawdownRank")):
        if measure.endswith(words):
            return field
    if measure.startswith("prior"):
        return "priorActiveReturn"
    if "relative" in measure:
        return "activeReturn"
    if measure.startswith("active"):
        return "activeReturn"
    return None


# "negative beta", "positive 5- and 21-session active returns", "a negative correlation to SPY": the sign of a
# measure the round shows (one small rule: ``rule_sign``)
SIGN_RE = re.compile(
    rf"\b(?P<sign>positive|negative)\s+(?P<mid>(?:(?:{_HZ}|and|recent|prior|market|spy|relative)[\s,-]+){{0,5}})"
    r"(?P<measure>beta|correlation|corr|active\s+returns?|active\s+return)\b",
    re.I,
)


def find_signs(text: str, taken: list[tuple[int, int]], subject_at) -> list[tuple[Assertion, tuple[int, int]]]:

    out = []
    for m in SIGN_RE.finditer(text):
        span = m.span()
        if any(span[0] < e and s < span[1] for s, e in taken) or forecast_marker_before(text, m.start()):
            continue
        measure = m["measure"].lower()
        field = "beta" if measure.startswith("beta") else "correlation" if measure.startswith("corr") else "activeReturn"
        subject, alternatives = subject_at(m.start())
        out.append((Assertion(rule="sign", symbol=subject, alternatives=alternatives, field=field,
                              polarity=1 if m["sign"].lower() == "positive" else -1,
                              horizons=_horizons(m["mid"] or ""), raw=m.group(0)), span))
    return out

