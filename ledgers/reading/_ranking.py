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

from ledgers._groups import find_group, group_words_pattern
from ledgers._models import Assertion
from ledgers._number_words import NUMBER_WORDS
from ledgers.reading._clauses import forecast_marker_before
from ledgers.reading._horizons import (
    SUFFIX_HORIZON,
    SUFFIX_WORD_HORIZON,
    WORD_NUMBERS,
    horizon_key,
    hz_num,
    is_rate_tenor,
    match_horizon,
)

_HIGH = r"strongest|best|leading|highest|largest|biggest|greatest|deepest"
_LOW = r"weakest|worst|lowest|smallest|poorest|shallowest"
_HZ = (
    rf"(?:(?:\d+|{WORD_NUMBERS})[\s-]?(?:day|d|session|s|month|m|mo|year|y|yr|week|w)s?|"
    r"weekly|monthly|near[\s-]term|short[\s-]term|recent|trailing)"
)
_MEASURE = (
    r"(?P<measure>prior\s+active\s+rank|(?:recent\s+)?pullback\s+rank|low[\s-]volatility\s+rank|"
    r"shallow[\s-]drawdown\s+rank|prior\s+(?:active|relative)\s+(?:trend|returns?|strength|performance)|"
    r"active\s+returns?|"
    r"(?:benchmark[\s-])?relative\s+(?:momentum|strength|performance|returns?)|momentum|performers?|performance|"
    r"returns?|gains?|rall(?:y|ies)|runs?|move|price\s+action|beta|volatility|vol|drawdowns?|"
    r"quality(?:[\s-]evidence)?\s+score)"
)
RANKING_RE = re.compile(
    rf"\b(?:(?:(?P<top>top)[\s-](?P<n>\d|two|three|four|five|ten)\b|(?P<n2>two|three|four|five|ten|\d)\s+)"
    rf"(?P<dir2>{_HIGH}|{_LOW})?|(?P<dir>{_HIGH}|{_LOW}))"
    rf"(?P<mid>(?:[\s,-]+(?:and\s+|or\s+)?(?:{_HZ}|the|in|of|price|absolute|relative|sector|secular|"
    rf"directly|supported|overall|trailing|universe|by|equity|equities|stock|bond|country|factor|defensive|cyclical|style|thematic|theme|"
    rf"broad|tech|ai|international|industry|commodity|precious|metals|persistent|sustained|cross-horizon|short|medium)){{0,9}}?)"
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
RANKING_VOLATILE_RE = re.compile(
    r"\b(?P<measure>(?P<dir>most|least)\s+volatile|calmest|steadiest)\b(?P<mid>)(?P<tail>(?:[^.;]|\.(?=\d)){0,60})",
    re.I,
)
"""A superlative the adjective carries its measure in: "the most volatile fund on the sheet", "the calmest equity
fund" (volatility, highest or lowest)."""
_NOUN_AFTER_ADJECTIVE = re.compile(
    r"^\s*((?:[A-Za-z&-]+\s*){0,3}?)(?=\s+(?:in|on|of|among|by|across|within|at|this|over|and|but|with)\b|\s*[,.;:)(]|\s*$)"
)
_NEGATED_BEFORE = re.compile(
    r"\b(?:out\s+of|no\s+longer|not|never|outside(?:\s+of)?|off)\s+(?:(?:the|its|a|among)\s+){0,2}$", re.I
)
_FROM_BRIEFING = re.compile(
    r"\b(?:briefing|news|headlines?|on\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\s+\d)", re.I
)
_NOT_PRICE = re.compile(r"\b(?:secular|structural|fundamental|earnings|long[\s-]term|narrative)\b", re.I)
_SET_AFTER = re.compile(
    r"^[^.;:()]{0,70}?\b(?:exposures|holdings|names|assets|themes|ETFs|trades|positions|areas|"
    r"sleeves|leaders|funds|picks|candidates)\b",
    re.I,
)
_PAIR_BEFORE = re.compile(r"\b[A-Za-z]{3,}\s*/\s*[A-Za-z]{3,}\b[^.;,]{0,25}$")
"""A subject written as a pair ("healthcare/biotech showing strongest momentum") is two options, not one."""
"""A superlative whose noun is plural is about a set of options, not one subject."""
_PAREN_AFTER = re.compile(r"\s*\([^)]{0,40}\)")
_GROUP_WORD = re.compile(
    r"\b(?:equity|equities|stock|bond|country|factor|defensives?|cyclicals?|style|thematic|theme|"
    r"peers?|holdings?|picks?|candidates?|names)\b",
    re.I,
)
_SCOPE_SECTOR = re.compile(r"\bsectors?\b", re.I)
_SCOPE_OTHER = re.compile(
    r"\bamong\s+(?!sectors?\b|all\b|the\s+(?:universe|options)\b)\w+|\bwithin\s+\w+|"
    r"\bin\s+(?:its|the)\s+(?:group|cluster|space|complex|theme)\b|\bof\s+the\s+(?:group|"
    r"cluster)\b|\bamong\s+(?:defensives?|tech|ai)\b",
    re.I,
)
_HZ_RE = re.compile(
    rf"(?<![\w-])(?P<n>\d+|{WORD_NUMBERS})[\s-]?(?P<u>day|d|session|s|month|m|mo|year|y|yr|week|w)s?\b", re.I
)
_SHORT = re.compile(r"near[\s-]term|short[\s-]term|recent", re.I)


def horizons_written(words: str) -> list[str]:
    """Horizon keys written in the words, with "recent" / "short-term" as 'short' when no window is."""
    return _horizons(words) or (["short"] if _SHORT.search(words) else [])


def _horizons(words: str) -> list[str]:
    """Horizon keys written in the phrase ('7D', '30D', '6M', '1Y', '5T' for sessions / trading days)."""

    out = []
    for m in _HZ_RE.finditer(words):
        n = hz_num(m["n"])
        unit = m["u"].lower()
        unit = {"s": "session", "d": "day", "w": "week", "m": "month", "mo": "month", "y": "year", "yr": "year"}.get(
            unit, unit
        )
        out.append(horizon_key(n, unit))
    if re.search(r"\bweekly\b", words, re.I):
        out.append("7D")
    if re.search(r"\bmonthly\b", words, re.I):
        out.append("30D")
    return list(dict.fromkeys(out))


ORDINAL_PLACES = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}
_PLACE_BEFORE = re.compile(rf"(?<![\w-])(?P<ord>{'|'.join(ORDINAL_PLACES)})[\s-]+$", re.I)
"""An ordinal right before a superlative ("second-highest", "third best"): the place it names (``op`` "eq")."""


def find_rankings(
    text: str, taken: list[tuple[int, int]], subject_at: Callable[[int], tuple[str | None, list[str]]]
) -> list[tuple[Assertion, tuple[int, int]]]:
    """Ranking assertions in one sentence (spans overlapping ``taken`` are skipped); ``subject_at(pos)`` gives
    the subject and the other subjects the sentence offers."""

    out = []
    matches = sorted(
        [*RANKING_RE.finditer(text), *RANKING_AFTER_RE.finditer(text), *RANKING_VOLATILE_RE.finditer(text)],
        key=lambda m: m.start(),
    )
    for m in matches:
        volatile = m.re is RANKING_VOLATILE_RE
        span = (m.start(), m.end("measure") if m.re is not RANKING_AFTER_RE else m.end("dir"))
        if any(span[0] < e and s < span[1] for s, e in taken) or forecast_marker_before(text, m.start()):
            continue
        if m.re is RANKING_AFTER_RE and re.match(r"-[A-Za-z]", text[m.end("dir") :]):
            continue  # "momentum are the highest-conviction drivers": the superlative belongs to the word it is fused to
        if _NEGATED_BEFORE.search(text, max(0, m.start() - 30), m.start()):
            continue  # "dropped out of the top 4", "no longer the strongest": what rank it has is not said
        if _NOT_PRICE.search(text[m.start() : m.end("measure")]) or _FROM_BRIEFING.search(
            text[m.start() : m.end() + 40]
        ):
            continue  # "strongest secular momentum", "the strongest sector gain cited in the briefing": not the tables
        direction = (m["dir"] or m.groupdict().get("dir2") or "top").lower()
        if volatile:
            direction = "highest" if direction == "most" else "lowest"
        low = re.fullmatch(_LOW, direction, re.I) is not None
        groups = m.groupdict()
        n = groups.get("n") or groups.get("n2")
        at_most = 1 if n is None else (NUMBER_WORDS.get(n.lower()) or int(n))
        if n is not None and not (groups.get("top") or groups.get("dir2")):
            continue  # "three strong performers" is not a ranking
        place = _PLACE_BEFORE.search(text, max(0, m.start() - 12), m.start()) if m["dir"] else None
        if place is not None:  # "the second-highest 30-day volatility": at that place, not first
            span = (place.start(), span[1])
        phrase = text[m.start() : m.end()]
        words = m["mid"] or ""
        lead = text[max(0, m.start() - 40) : m.start()]  # "Defensive sector with strongest ...": scope set before
        after = text[m.end("measure") if m.re is not RANKING_AFTER_RE else m.end("dir") :][:90]
        if volatile:  # "the most volatile sector on the sheet": the noun after the adjective names the set
            noun = _NOUN_AFTER_ADJECTIVE.match(after)
            words = noun.group(1) if noun else ""
        scope = _scope(lead, words, after, _fronted_scope(text[: m.start()]))
        measure = "volatility" if volatile else re.sub(r"\s+", " ", m["measure"].lower())
        horizons = _horizons(words + " " + measure)
        paren = _PAREN_AFTER.match(text[m.end("measure") :])
        if not horizons and paren:  # "Strongest momentum (+22% 30d)": the horizon its own figure names
            horizons = _horizons(paren.group(0))
        if not horizons:
            horizons = _window_after(after)
        if direction == "leading" and not horizons:
            continue  # "leading trailing returns": which ranking is meant cannot be told
        if _SHORT.search(words) and not horizons:
            horizons = ["short"]
        subject, alternatives = subject_at(m.start())
        out.append(
            (
                Assertion(
                    rule="ranking",
                    symbol=subject,
                    alternatives=alternatives,
                    polarity=-1 if low else 1,
                    op="eq" if place is not None else "lt" if low else "gt",
                    window=ORDINAL_PLACES[place["ord"].lower()] if place is not None else at_most,
                    label=scope,
                    field=_measure_field(measure),
                    raw=phrase[: span[1] - span[0]].strip(),
                    horizons=horizons,
                ),
                span,
            )
        )
    out.extend(_group_rankings(text, taken + [sp for _, sp in out], subject_at))
    return out


_SCOPE_AFTER = re.compile(
    r"^\s*(?:\([^)]{0,40}\)\s*)?(?:(?:at|of)\s+[+\-\u2212]?\$?\d[\d.,]*\s*%?\s*)?,?\s*"
    r"(?:among|within|in|across|of)\s+(?:all\s+)?(?:the\s+|its\s+|their\s+|our\s+)?(?P<words>[\w&/-]+(?:\s+[\w&/-]+){0,2})",
    re.I,
)
_FOR_SET = re.compile(
    r"^\s*(?:across|in|among)\s+(?:the\s+)?(?:\w+\s+){0,3}?(?:holdings|portfolio|picks|candidates|names)\b", re.I
)
_LEAD_LINK = re.compile(
    r"^\s*(?:sectors?|funds?|etfs?|options?|exposure)?\s*(?:,|with|showing|has|had|having|posting|"
    r"delivering|offers?|is|was)?\s*(?:the|a|its)?\s*$",
    re.I,
)


def _leading_group(lead: str):
    """The peer group the subject's own description names right before the superlative ("Defensive sector with
    the strongest ...", "International equity with highest ..."), or None."""
    last = None
    for m in group_words_pattern().finditer(lead):
        last = m
    if last is None or not _LEAD_LINK.match(lead[last.end() :]):
        return None
    return find_group(last.group(0))


_FRONTED = re.compile(
    r"(?:^|[.;:!?]\s+|\n)\s*(?:[-*\u2022]\s*)?(?P<prep>among|within|across|of|in|for)\s+(?:all\s+)?"
    r"(?:the\s+|its\s+|our\s+)?(?P<words>[^,.;:]{2,50}?)\s*,",
    re.I,
)
_SET_NOUN = re.compile(
    r"\b(?:sectors?|funds?|etfs?|groups?|universe|options?|candidates?|picks?|holdings?|names|assets?|classes|"
    r"countries|factors?|styles?|themes?|peers?|cohort|slate|basket|list|table|defensives?|cyclicals?)\b",
    re.I,
)
_AMONG_ANYWHERE = re.compile(r"\b(?:among|within|amongst)\b", re.I)


def _fronted_scope(before: str) -> str | None:
    """The set a sentence puts in front of its superlative ("Among the eleven sectors, technology has the best
    six-month return", "Within defensives, XLU ..."): its words, or '' when a scope word ("among", "within") stands
    anywhere before the superlative in its sentence but names no set that could be read; None when there is none."""
    cut = max(before.rfind(". "), before.rfind("; "), before.rfind("\n"))
    sentence = before[cut + 1 :] if cut >= 0 else before
    found = list(_FRONTED.finditer(sentence))
    m = found[-1] if found else None
    if m is not None and (m["prep"].lower() in ("among", "within", "of") or _SET_NOUN.search(m["words"])):
        return m["words"]  # "In June, ...", "For the month, ...": a time, not a set
    return "" if _AMONG_ANYWHERE.search(sentence) else None


def _scope(lead: str, words: str, after: str, fronted: str | None = None) -> str:
    """Where a superlative ranks: 'universe', 'group:<peer group>' (``ledgers/peer_groups.yaml``), or 'group' (a set or a
    group no definition names: never concluded). A group named in an "among / within / in the X" after the measure
    wins, then one in the words between the superlative and the measure ("strongest defensive momentum"), then "in
    the universe / table", then a set the sentence puts in front ("Among the eleven sectors, ..."; a scope word there
    naming no known set: never concluded), then the subject's own description right before ("Defensive sector with
    the strongest")."""
    explicit = _SCOPE_AFTER.match(after)
    named = find_group(explicit["words"]) if explicit else None
    if named is not None and named.name != "universe":
        return "group" if not named.sets else f"group:{named.name}"
    if _SET_AFTER.match(after) or _FOR_SET.match(after):
        return "group"  # "... the highest-momentum AI, software and chip exposures": a set, not one subject
    inner = find_group(words)
    if inner is not None and inner.name != "universe":
        return "group" if not inner.sets else f"group:{inner.name}"
    if named is not None or inner is not None:
        return "universe"
    if fronted is not None:  # "Among the eleven sectors, ...": the set it names, or one never concluded
        front = find_group(fronted) if fronted else None
        if front is not None and front.name == "universe":
            return "universe"
        return f"group:{front.name}" if front is not None and front.sets else "group"
    before = _leading_group(lead)
    if before is not None:
        return "group" if not before.sets else f"group:{before.name}"
    if (
        _PAIR_BEFORE.search(lead)
        or _SCOPE_OTHER.search(lead)
        or _SCOPE_OTHER.search(words)
        or _SCOPE_OTHER.search(after[:40])
    ):
        return "group"
    return "universe"


_GROUP_NOUN_RE = re.compile(
    rf"(?<![\w-])(?P<dir>{_HIGH}|{_LOW}|top)(?:[\s-]+performing)?(?P<mid>(?:[\s,-]+(?:{_HZ}|broad|recent|the|price))"
    r"{0,3}?)[\s-]+(?P<noun>(?:(?:tech|ai|defensive|cyclical|broad|us|major)[\s-]+)?(?:sectors?|industr(?:y|ies)|factors?|"
    r"styles?|countr(?:y|ies)|themes?|sub-themes?))\b(?![\s-]+(?:momentum|returns?|performance|beta|volatility|vol|"
    r"drawdowns?|score|rank|strength|gains?|move))",
    re.I,
)
"""'Leading sector', 'Top broad factor', 'Best-performing tech sub-theme': a superlative about a peer group with no
measure named is a ranking by return."""
_LEADING_ALL_RE = re.compile(
    r"\b(?P<dir>leading|led|tops?|topping)\s+(?:all\s+(?:other\s+)?|other\s+)(?P<noun>[\w -]{3,30}?)"
    r"(?=[;,.]|\s+(?:on|over|in|with|and)\b|$)",
    re.I,
)
_BEST_AMONG_RE = re.compile(
    r"\b(?:held\s+up\s+|performed\s+|did\s+)(?P<dir>best|worst)\s+(?P<tail>among\s+[\w& -]{3,40})", re.I
)


def _window_after(after: str) -> list[str]:
    """The window written right after a superlative ("the best sector over 21 sessions", "the weakest sector on the
    month"): the ranking is over that window, not over the ones the round shows by default."""
    suffix = SUFFIX_HORIZON.match(after) or SUFFIX_WORD_HORIZON.match(after)
    if suffix is None or is_rate_tenor(suffix):
        return []
    return [match_horizon(suffix)]


def _group_rankings(
    text: str, taken: list[tuple[int, int]], subject_at: Callable[[int], tuple[str | None, list[str]]]
) -> list[tuple[Assertion, tuple[int, int]]]:
    """Superlatives about a peer group with no measure ("Leading sector", "Momentum factor leading all factors",
    "held up best among broad styles"): ranked by return over the horizons the round shows."""
    out = []
    for pattern in (_GROUP_NOUN_RE, _LEADING_ALL_RE, _BEST_AMONG_RE):
        for m in pattern.finditer(text):
            span = m.span()
            if any(span[0] < e and s < span[1] for s, e in taken) or forecast_marker_before(text, m.start()):
                continue
            where = m.groupdict().get("noun") or m.groupdict().get("tail") or ""
            group = find_group(where)
            if group is None or not group.sets:
                continue
            if (
                pattern is _GROUP_NOUN_RE
                and re.search(r"\b(?:sub-)?themes?\b", where, re.I)
                and group.name not in ("tech", "thematic")
            ):
                continue
            direction = m["dir"].lower()
            low = re.fullmatch(_LOW, direction, re.I) is not None
            words = m.groupdict().get("mid") or ""
            horizons = _horizons(words) or (["short"] if _SHORT.search(words) else [])
            paren = _PAREN_AFTER.match(text[m.end() :])
            if not horizons and paren:
                horizons = _horizons(paren.group(0))
            if not horizons:
                horizons = _window_after(text[m.end() : m.end() + 60])
            subject, alternatives = subject_at(m.start())
            out.append(
                (
                    Assertion(
                        rule="ranking",
                        symbol=subject,
                        alternatives=alternatives,
                        polarity=-1 if low else 1,
                        op="lt" if low else "gt",
                        window=1,
                        label=f"group:{group.name}",
                        field="performance",
                        raw=m.group(0).strip(),
                        horizons=horizons,
                    ),
                    span,
                )
            )
            taken = [*taken, span]
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
    for words, field in (
        ("prior active rank", "priorActiveRank"),
        ("pullback rank", "recentPullbackRank"),
        ("low volatility rank", "lowVolatilityRank"),
        ("low-volatility rank", "lowVolatilityRank"),
        ("shallow drawdown rank", "shallowDrawdownRank"),
        ("shallow-drawdown rank", "shallowDrawdownRank"),
    ):
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
    rf"\b(?P<sign>positive|negative)\s+(?P<mid>(?:(?:{_HZ}|and|recent|prior|market|spy|relative|equity|s&p)[\s,-]+){{0,5}})"
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
        field = (
            "beta"
            if measure.startswith("beta")
            else "correlation"
            if measure.startswith("corr")
            else ("priorActiveReturn" if re.search(r"\bprior\b", m["mid"] or "", re.I) else "activeReturn")
        )
        subject, alternatives = subject_at(m.start())
        out.append(
            (
                Assertion(
                    rule="sign",
                    symbol=subject,
                    alternatives=alternatives,
                    field=field,
                    polarity=1 if m["sign"].lower() == "positive" else -1,
                    horizons=_horizons(m["mid"] or ""),
                    raw=m.group(0),
                ),
                span,
            )
        )
    return out
