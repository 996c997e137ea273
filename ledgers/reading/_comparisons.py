"""One option against another in words: "lower volatility than SPY", "less volatile than crude futures", "a
shallower drawdown than broad small caps", "energy lagged oil's move", "outperforming the S&P 500", "held up better
than small caps". The other option must be named right after the comparison (up to two words between: "than
cap-weighted SPY", "than a pure oil position"); a comparison with something that is no option ("than mega-cap
growth", "than many AI-adjacent themes") is not read. Each becomes a ``compare`` assertion on the measure named (a
drawdown is negative: a "lower" or "milder" drawdown is a higher value), over the windows the round shows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ledgers.reading._clauses import Mention
from ledgers.reading._emit import Emit
from ledgers.reading._horizons import SUFFIX_HORIZON, SUFFIX_WORD_HORIZON, match_horizon

_LESS = r"lower|less|smaller|milder|shallower|weaker|worse|softer|lighter"
_MORE = r"higher|more|larger|greater|deeper|stronger|better|heavier|bigger"
_MEASURES = {
    "volatility": "volatility20d",
    "vol": "volatility20d",
    "volatile": "volatility20d",
    "beta": "beta",
    "drawdown": "maxDrawdown",
    "drawdowns": "maxDrawdown",
    "correlation": "correlation",
    "return": "return",
    "returns": "return",
    "performance": "return",
    "momentum": "return",
    "gains": "return",
}
_COMPARATIVE = re.compile(
    rf"\b(?P<dir>{_LESS}|{_MORE})\s+(?:[\w-]+\s+){{0,2}}?(?P<measure>volatility|vol|volatile|beta|drawdowns?|correlation|"
    r"returns?|performance|momentum|gains)\s+(?:than|vs\.?|versus)\s+(?P<rest>.{0,40})",
    re.I,
)
_VERB = re.compile(
    r"\b(?P<verb>outperform(?:ed|ing|s)?|beat(?:ing|s)?|(?:held|holding)\s+up\s+better\s+than|did\s+better\s+than|"
    r"lag(?:ged|ging|s)?|trail(?:ed|s)?|trailing(?!\s+(?:[\w-]+\s+)?(?:momentum|returns?|performance|gains?|losses|"
    r"strength|weakness|volatility|beta|alpha|window|period|basis|data|figures?|numbers?|\d))|"
    r"underperform(?:ed|ing|s)?)\b(?:\s+|(?=[,.;:)])|$)(?P<rest>.{0,40})",
    re.I,
)
"""A comparison verb and what follows it; "trailing" before a measure ("strong trailing momentum in XLK", "trailing
30-day returns") is an adjective of time, not a verb."""
_LAG = re.compile(r"lag|trail|underperform", re.I)
_NO_OBJECT = re.compile(
    r"^(?:(?:over|in|during|across|for)\s+(?:the\s+)?(?:past|last|prior|previous|latest|trailing|\d|one|five|seven|"
    r"thirty|twenty)|\d+\s*(?:d|s|days?|sessions?)\b|(?:recently|lately|this\s+(?:week|month))\b|"
    r"(?:despite|while|but|since|as|even|with|on|amid|after|thanks\s+to)\b|[,.;:)]|$)",
    re.I,
)
"""What may follow "lagged" / "outperformed" when no option is its object: a window, a clause's end or a
connective ("lagged 30d despite rising oil", "has been outperforming with sector demand"); "outperformed peers",
"lagged expectations" are not read."""
_WINDOW = re.compile(
    r"\b(?:(?P<week>(?:over\s+)?(?:the\s+)?(?:past|last|this)\s+week|weekly|7d|7-day|1w)|(?P<month>(?:over\s+)?"
    r"(?:the\s+)?(?:past|last|this)\s+month|monthly|30d|30-day)|(?P<recent>recent(?:ly)?|lately|"
    r"short-term|near-term))\b",
    re.I,
)


def _other(mentions: Sequence[Mention], base: int, rest: str) -> tuple[str, int] | None:
    """(the option named right after the comparison, where its name ends), allowing up to two words before it."""
    lead = re.match(r"^(?:the\s+|a\s+|an\s+|its\s+)?(?:[\w&-]+\s+){0,2}?", rest)
    for mm in mentions:
        gap = rest[: mm.start - base] if mm.start >= base else None
        if gap is None or len(gap) > 30:
            continue
        if re.fullmatch(r"(?:(?:the|a|an|its|pure|broad|cap-weighted|equal-weighted|direct|[\w-]+)\s+){0,2}", gap):
            return mm.symbol, mm.end
        break
    del lead
    return None


_THE_MARKET = re.compile(r"(?:the\s+)?(?:benchmark|broad\s+market|market|index)\b(?!\s+(?:of|for)\b)", re.I)
"""'than the benchmark', 'than the market': the round's benchmark, by name ('than the index of ...' names another)."""


def _window_after(text: str, end: int) -> str | None:
    """A window written right after the other option ("SPY over 30 days", "over the past 21 sessions"): '7D' for
    a week's (5 sessions, 7 days), '30D' for a month's (20 or 21 sessions, 30 days), else None."""
    m = SUFFIX_HORIZON.match(text[end:]) or SUFFIX_WORD_HORIZON.match(text[end:])
    if m is None:
        return None
    key = match_horizon(m)
    return "7D" if key in ("5T", "7D") else "30D" if key in ("20T", "21T", "30D") else None


_WINDOW_LIST = re.compile(
    r"\s+over\s+(?:both\s+|all\s+|the\s+)?(?P<list>\d+[\w-]*(?:\s*(?:,\s*(?:and\s+)?|and\s+)\d+[\w-]*)+)"
    r"(?:\s+(?P<unit>days?|sessions?|weeks?|months?|windows?))?",
    re.I,
)
_LISTED = re.compile(r"(?P<n>\d+)(?:[\s-]*(?P<u>d|days?|s|sessions?|w|weeks?|m|months?))?", re.I)
_RECENT_WINDOWS = re.compile(r"\s+over\s+(?:the\s+)?recent\s+windows\b", re.I)


def _windows_listed(text: str, end: int) -> str | None:
    """The windows a list after the other option writes ("over both 5-day and 21-day windows", "over 5- and
    21-session windows"): '7D+30D' when it names a week's and a month's, 'short' for "over recent windows"; None
    when a window of the list is neither (every window shown is then checked)."""
    if _RECENT_WINDOWS.match(text, end):
        return "short"
    m = _WINDOW_LIST.match(text, end)
    if m is None:
        return None
    default = (m["unit"] or "d")[0].lower()
    keys = set()
    for item in _LISTED.finditer(m["list"]):
        n, u = int(item["n"]), (item["u"] or default)[0].lower()
        if u == "w" or (u == "m" and n == 1):
            n, u = (5, "s") if u == "w" else (21, "s")
        key = "7D" if (u, n) in (("d", 5), ("d", 7), ("s", 5)) else "30D" if n in (20, 21, 30) and u in "ds" else None
        if key is None:
            return None
        keys.add(key)
    return "7D+30D" if keys == {"7D", "30D"} else keys.pop() if len(keys) == 1 else None


def _window(text: str) -> str | None:
    m = _WINDOW.search(text)
    if m is None:
        return None
    return "7D" if m["week"] else "30D" if m["month"] else "short"


_INTENT = (
    r"expect\w*|will|would|should|could|may|might|chance|likely|seek\w*|aim\w*|positioned|if|unless|can|hope\w*|"
    r"bet\w*|target\w*"
)
_INTENT_BEFORE = re.compile(rf"\b(?:to|{_INTENT})\b[^.;]{{0,60}}$", re.I)
"""An aim or a forecast anywhere in the 60 characters before a comparative ("higher weekly returns than SPY")."""
_INTENT_WORDS = re.compile(rf"\b(?:{_INTENT})\b", re.I)
_INFINITIVE_TO = re.compile(r"\bto\s+(?:[\w-]+\s+){0,2}$", re.I)
_PAST_FORM = re.compile(r"(?:ed|ing)$|^(?:held|holding|did)\b", re.I)
_CLAUSE_CUT = re.compile(r"[,;:.]|\b(?:and|but|while|whereas)\b", re.I)


def _intended(text: str, start: int, reach: int = 80) -> bool:
    """Whether the comparison verb at ``start`` is an aim, a forecast or a condition ("seeking to outperform SPY",
    "could lag", "expected to beat"): a forecast word in its own clause, or "to" right before it (up to two words
    between: "to continue to outperform"). A verb in the past or progressive ("have recently outperformed",
    "has been outperforming") is a clause of its own after "and" or a comma: "exposure to the financials catalyst
    and have recently outperformed" states a past fact; a bare "and outperform" still belongs to what led it."""
    before = text[max(0, start - reach) : start]
    verb = re.match(r"[\w-]+", text[start:])
    if verb is not None and _PAST_FORM.search(verb.group(0)):
        cuts = list(_CLAUSE_CUT.finditer(before))
        if cuts:
            before = before[cuts[-1].end() :]
    return bool(_INTENT_WORDS.search(before) or _INFINITIVE_TO.search(before))


_COORDINATED = re.compile(
    r"(?:,\s*|\b)(?:and|but)\s+(?:(?:has|have|had|is|are|was|were|also|been|recently|lately|since|consistently|"
    r"clearly)\s+)*$",
    re.I,
)
_RECENTLY_BEFORE = re.compile(r"\b(?:recently|lately)\s+(?:been\s+)?$", re.I)


def _coordinated_subject(text: str, start: int, mentions: Sequence[Mention]) -> tuple[bool, str | None]:
    """(whether the verb at ``start`` is a second predicate of its sentence's subject, that subject): "Regional banks
    add exposure to the financials catalyst and have recently outperformed" is about the banks, not about the
    financials named in between. The subject is the option the sentence opens with; none there: None (not read)."""
    if _COORDINATED.search(text[:start]) is None:
        return False, None
    first = next((mm for mm in mentions if not mm.reference), None)
    if first is None or text[: first.start].strip(" \t*-•\"'") != "":
        return True, None
    return True, first.symbol


_SUBJECT_CUT = re.compile(r"[,;:(]|\b(?:and|but|while|whereas|with|as|after|amid)\b", re.I)
_LINK_ONLY = re.compile(
    r"^\s*(?:['\u2019]s\s+)?(?:(?:which|that|who)\s+)?(?:(?:is|are|was|were|has|have|had|been|also|now|still|"
    r"already|recently|lately|consistently|clearly|significantly|sharply|strongly|materially|notably|meaningfully|"
    r"modestly|slightly|continues\s+to\s+be|shares|prices)\s+)*$",
    re.I,
)
_ITSELF = re.compile(r"^\s*(?:it|(?:the\s+|this\s+)?(?:sector|fund|etf|group))\s+", re.I)
_WHICH = re.compile(r"^\s*(?:which|that|who)\s+", re.I)


def _bare_subject(text: str, start: int, mentions: Sequence[Mention]) -> tuple[bool, str | None]:
    """(whether the subject of a comparison verb with no object is certain, that subject; None: the option under
    discussion). Certain: an option named right before the verb with only link words between ("Regional banks
    have been outperforming"); the option the sentence opens with, for a second predicate of its ("XLF adds
    exposure to ... and has recently outperformed"); or, with no option named anywhere before, a clause that opens
    with the verb ("Outperforming with a positive 7d return": the option under discussion). Anything else
    ("China and rate-sensitive defensives lagging", "value/quality tilt outperforming") is not certain."""
    coordinated, subject = _coordinated_subject(text, start, mentions)
    if coordinated:
        return subject is not None or not any(mm.end <= start for mm in mentions), subject
    cuts = [
        c.end()
        for c in _SUBJECT_CUT.finditer(text, 0, start)
        if not any(mm.start <= c.start() < mm.end for mm in mentions)  # "Aerospace and defense" is one name
    ]
    clause_from = cuts[-1] if cuts else 0
    named = [mm for mm in mentions if clause_from <= mm.start and mm.end <= start and not mm.reference]
    clause = text[clause_from:start]
    if named and _LINK_ONLY.match(text[named[-1].end : start]):
        return True, named[-1].symbol
    if named:
        return False, None
    if _WHICH.match(clause) and _LINK_ONLY.match(clause):  # "SMH, which have significantly outperformed"
        before = [mm for mm in mentions if mm.end <= clause_from and not mm.reference]
        if before and text[before[-1].end : clause_from].strip() in (",", "(", ""):
            return True, before[-1].symbol
        return False, None
    itself = _ITSELF.match(clause)
    if itself and _LINK_ONLY.match(clause[itself.end() :]):
        return True, None  # "the sector has lagged over 30 days": the option under discussion
    if _LINK_ONLY.match(clause) and not any(mm.end <= start for mm in mentions):
        return True, None
    return False, None


_LATEST_MOVE = re.compile(
    r"^[\w&.-]*'s?\s+(?:recent\s+|latest\s+|weekly\s+)?(?:move|rally|surge|spike|gain|jump|rebound|"
    r"drop|decline|sell-?off)\b",
    re.I,
)


_THRESHOLD_AFTER = re.compile(
    r"\s*(?:by\s+)?(?:more\s+than|at\s+least|over(?!\s+(?:the\s+)?(?:past|last|prior|previous|trailing|latest|both|"
    r"all|each|every|recent|(?:\d+|one|five|seven|thirty|twenty-one)[\s-]*(?:trading\s+)?(?:days?|sessions?|weeks?|"
    r"months?|d|s)\b|\d+-?\s*(?:,|and\b)))|beyond|"
    r"for\s+two|[<>]=?)",
    re.I,
)
"""'underperforms SPY by more than 3%', 'lags SPY over 2%': a condition; 'lagged SPY over 30 days', 'over both 5-day
and 21-day windows', 'over 5- and 21-session windows', 'over recent windows' are windows (a list of windows: every
window shown is checked, all must agree)."""
_FORECAST_WORDS = re.compile(
    r"\b(?:base[\s-]case|expected|forecast|projected|target|bull[\s-]case|bear[\s-]case)\b", re.I
)


def _subject_of(mentions: Sequence[Mention], start: int) -> str | None:
    before = [mm for mm in mentions if mm.end <= start and not mm.reference]
    return before[-1].symbol if before else None


def read_comparisons(text: str, add: Emit, benchmark: str | None, mentions: Sequence[Mention] = ()) -> None:
    for m in _COMPARATIVE.finditer(text):
        other = _other(mentions, m.start("rest"), m["rest"])
        market = _THE_MARKET.match(m["rest"]) if other is None and benchmark is not None else None
        if market is not None and benchmark is not None:  # "lower beta than the benchmark": the round's benchmark
            other = (benchmark, m.start("rest") + market.end())
        if other is None or other[0] == _subject_of(mentions, m.start()):
            continue
        if _FORECAST_WORDS.search(m.group(0)) or _INTENT_BEFORE.search(text[max(0, m.start() - 60) : m.start()]):
            continue  # "higher base-case weekly returns than SPY": a forecast
        field = _MEASURES[m["measure"].lower()]
        more = re.fullmatch(_MORE, m["dir"], re.I) is not None
        if field == "maxDrawdown":
            more = not more  # a lower / milder / shallower drawdown is a less negative value
        end = other[1]
        add(
            m,
            span=(m.start(), m.start("rest")),
            rule="compare",
            field=field,
            benchmark=other[0],
            op="gt" if more else "lt",
            label=_window(text[max(0, m.start() - 40) : end + 30]) if field == "return" else None,
        )
    for m in _VERB.finditer(text):
        other = _other(mentions, m.start("rest"), m["rest"])
        if other is None and benchmark is not None and _NO_OBJECT.match(m["rest"]) and not m["verb"].startswith("beat"):
            # "the sector lagged 30d despite rising oil", "has underperformed over the past month": no other option
            # named, so the market is the likeliest, not the certain, reference: checked, never contradicted
            if _intended(text, m.start()):
                continue
            certain, subject = _bare_subject(text, m.start(), mentions)
            if not certain:
                continue  # "energy/China and rate-sensitive defensives lagging": whose lag is not certain
            recently = _RECENTLY_BEFORE.search(text[max(0, m.start() - 20) : m.start()])
            named: dict[str, Any] = {"symbol": subject} if subject is not None else {}
            add(
                m,
                span=(m.start(), m.start("rest")),
                rule="compare",
                field="return",
                benchmark=benchmark,
                op="lt" if _LAG.match(m["verb"]) else "gt",
                label=_window_after(text, m.end("verb")) or _window(m["rest"][:30]) or ("short" if recently else None),
                inferred=True,
                **named,
            )
            continue
        if other is None or other[0] == _subject_of(mentions, m.start()):
            continue
        if _intended(text, m.start()) or _THRESHOLD_AFTER.match(text, other[1]):
            continue  # "seeking to outperform SPY", "underperforms SPY by more than 3%": an aim or a condition
        end = other[1]
        window = "short" if _LATEST_MOVE.match(text[other[1] - len(text[: other[1]].split()[-1]) :]) else None
        window = window or _window_after(text, other[1]) or _windows_listed(text, other[1])
        add(
            m,
            span=(m.start(), m.start("rest")),
            rule="compare",
            field="return",
            benchmark=other[0],
            op="lt" if _LAG.match(m["verb"]) else "gt",
            label=window or _window(text[max(0, m.start() - 40) : end + 30]),
        )
