"""Leadership said in words: "XLF showed leadership", "sector leadership", "Defensive sector leading recently",
"Regional banks have led recently".
To lead is to be among the first on return over the window written (none written: the short windows); how many
count as leaders is unsaid, so the claim is supported near the top (within the first tenth, at least the first three,
as "among the highest") and never contradicted. An option named right before "leading" ("SMH leading with 14% 30d
return") is read the same way.

The phrase is read by its structure: "leadership" / "leader" with only time and scope words before it, and after
a determiner, a verb of having or showing, or the start of a clause ("AI leadership", "tech leadership" are
another subject's); "leadership over growth", "leadership areas", "leaders" (a comparison, a set) are not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ledgers._groups import find_group
from ledgers._models import Assertion
from ledgers.reading._clauses import Mention, forecast_marker_before
from ledgers.reading._ranking import horizons_written

_MODS = (
    r"(?:recent|strong|clear|persistent|sustained|steady|price|sector|momentum|return|performance|defensive|"
    r"cyclical|short-term|near-term|weekly|monthly|\d+[\s-]?(?:day|d|session|s|week|w|month|m)|one-(?:week|month)|"
    r"seven-day|thirty-day)"
)
_LEADERSHIP = re.compile(
    rf"(?P<mods>(?:{_MODS}[\s-]+){{0,3}})(?P<noun>leadership|leader)\b(?!-|s\b)"
    r"(?!\s+(?:over|of|in|among|across|versus|vs\.?|than|areas?|board|teams?|changes?|rotation|names?|groups?|cohorts?|"
    r"baskets?|stocks|sectors|themes|segments|is|are|"
    r"was|were|has|have|remains?|broaden\w*|narrow\w*|rotat\w*|shift\w*|concentrat\w*)\b)"
    r"|(?:\bleading|(?<![\w-])(?:(?:has|have|had)\s+)?led)\s+(?P<when>recently|lately|this\s+(?:week|month)|"
    r"over\s+the\s+(?:past|last)\s+(?:week|month))\b",
    re.I,
)
_OPENS = re.compile(
    r"(?:^|[(:;,\u2014\u2013]|\s-|\b(?:the|its|their|a|clear|showed|shows|showing|shown|show|with|has|have|had|is|was|"
    r"are|were|remains?|as|of|retains?|regained|sector|fund|etf)\b)\s*$",
    re.I,
)


_LEADING_AFTER_NAME = re.compile(
    r"(?:['\u2019]s?)?(?:\s+(?:sector|fund|etf|factor|index))?\s+(?:(?P<verb>leading|leads|led)"
    r"(?=\s+with\b|\s*[,;.)]|\s*$|\s+(?:on|over|across|in)\s+(?:the\s+)?(?:\d|week|month|7|30|seven|thirty|recent))"
    r"|(?P<noun>(?:price\s+|return\s+|momentum\s+)?leadership)"
    r"(?=\s*[,;.)]|\s*$|\s+(?:continues|persists|intact|remains|holds|with|and|in\s+(?:a|the|low|high)\b)))",
    re.I,
)
"""An option leading, named right before the verb and nothing led written after it ("SMH leading with 14% 30d return",
"Tech sector leading, ..."), or its leadership ("semis leadership continues", "Persistent momentum factor
leadership in a low-vol regime"); "tech leading declines", "leading to", "leading the selloff", "semis leadership over
software" are not read."""


def _named_leaders(
    text: str, taken: list[tuple[int, int]], mentions: Sequence[Mention]
) -> list[tuple[Assertion, tuple[int, int]]]:
    out: list[tuple[Assertion, tuple[int, int]]] = []
    for mm in mentions:
        if mm.reference:
            continue
        m = _LEADING_AFTER_NAME.match(text, mm.end)
        word = "verb" if m is not None and m["verb"] else "noun"
        if m is None or any(m.start(word) < e and s < m.end() for s, e in taken):
            continue
        if forecast_marker_before(text, m.start(word)):
            continue
        window = horizons_written(text[m.end() : m.end() + 40].split(";")[0]) or ["short"]
        sector = re.search(r"\bsector\s*$", text[mm.start : m.start(word)], re.I) is not None
        group = find_group("sector") if sector else None
        label = f"group:{group.name}" if group is not None and group.sets else "universe"
        out.append((leader(mm.symbol, text[mm.start : m.end()], window, label), (m.start(word), m.end())))
    return out


_LEADERS_BEFORE_LIST = re.compile(
    r"\b(?:leadership|leaders)(?:\s+(?:areas?|themes?|groups?|sectors?|segments?|names))?"
    r"\s*(?::|\(|\b(?:(?:is\s+|remains\s+)?concentrated\s+in|in|among|from|tied\s+to)\b)\s*"
    r"|\bleading\s+(?:(?:momentum|trend|return|performance)\s+)?(?:themes?|areas?|groups?|sectors?|segments?|names)"
    r"\s*(?::|\()\s*"
    r"|\b(?:trend|momentum)-leading\s+",
    re.I,
)
"""A leadership word the options after it belong to: "leadership concentrated in technology, semiconductors, and ...",
"the strongest leadership areas: semiconductors, Korea, Taiwan", "momentum leaders (cyber, biotech)", "leading
momentum themes (semis, defense, momentum factor)", "trend-leading semiconductors, momentum, and Taiwan"."""
_LIST_END = re.compile(
    r"(?<![A-Z])\.(?!\w)|[;)\]]|\u2014|\s-\s|\b(?:with|while|amid|given|as|to|for|which|that|where|over|versus|vs|than|relative|"
    r"compared|rather|instead|not|but|although|whereas|because|since|despite)\b",
    re.I,
)
_LIST_JOIN = re.compile(r"^(?:\s*(?:,|/|&|\band\b|\bplus\b)\s*)+$", re.I)
_MODS_ONLY = re.compile(rf"^\s*(?:(?:{_MODS}|momentum|trend|market|visible|strongest|strong|clear)[\s-]+)*$", re.I)
_NOT_STATED = re.compile(
    r"\b(?:away\s+from|out\s+of|rotat\w*\s+from|if|unless|should|could|may|might|would|will|until|once|no|not|"
    r"without|lack\w*|fad\w*|los\w*|broaden\w*\s+beyond)\b[^.;:]*$",
    re.I,
)


def leader(symbol: str | None, raw: str, horizons: list[str] | None = None, label: str = "universe") -> Assertion:
    """To lead: near the top of ``label``'s set on return over ``horizons`` (the short windows when none is
    written), how near unsaid: checked near the top, never contradicted (inferred)."""
    return Assertion(
        rule="ranking",
        symbol=symbol,
        polarity=1,
        op="gt",
        window=0,
        label=label,
        field="performance",
        raw=raw,
        horizons=horizons or ["short"],
        inferred=True,
    )


def _listed_leaders(
    text: str, taken: list[tuple[int, int]], mentions: Sequence[Mention]
) -> list[tuple[Assertion, tuple[int, int]]]:
    """Leadership said of a list of options, each of which the writer calls a leader: after the word ("leadership
    in cybersecurity and biotech", "leadership areas: semiconductors, Korea, Taiwan", "momentum leaders (cyber,
    biotech)") or before it ("AI/semis and defense momentum leadership", at least two options joined by commas,
    slashes or "and"). One claim per option, near the top of the universe on the short windows (as a named leader
    is), never contradicted; the words of a list item that is not an option ("select high-beta equity areas") are
    no option's. Not read under a forecast, a condition, a negation or a move away ("rotation away from leadership
    in ...")."""
    own = [mm for mm in mentions if not mm.reference]
    out: list[tuple[Assertion, tuple[int, int]]] = []
    for m in _LEADERS_BEFORE_LIST.finditer(text):
        if forecast_marker_before(text, m.start()) or _NOT_STATED.search(text, max(0, m.start() - 60), m.start()):
            continue
        end = _LIST_END.search(text, m.end())
        stop = end.start() if end is not None else len(text)
        listed = [mm for mm in own if m.end() <= mm.start and mm.end <= stop]
        if not listed or text[m.end() : listed[0].start].strip():
            continue  # the list must open with an option
        for mm in listed:  # the claim spans the leadership words to its option, so its clause shows both
            if not any(mm.start < e and s < mm.end for s, e in taken):
                out.append((leader(mm.symbol, text[m.start() : mm.end]), (m.start(), mm.end)))
    for m in re.finditer(r"\b(?:leadership|leaders)\b", text, re.I):
        if forecast_marker_before(text, m.start()) or _NOT_STATED.search(text, max(0, m.start() - 60), m.start()):
            continue
        before = [mm for mm in own if mm.end <= m.start()]
        if not before or not _MODS_ONLY.match(text[before[-1].end : m.start()]):
            continue
        listed = [before[-1]]
        for mm in reversed(before[:-1]):
            if not _LIST_JOIN.match(text[mm.end : listed[0].start]):
                break
            listed.insert(0, mm)
        if len(listed) < 2:
            continue  # one option before its leadership: _named_leaders reads it, where it can
        for mm in listed:
            if not any(mm.start < e and s < mm.end for s, e in taken):
                out.append((leader(mm.symbol, text[mm.start : m.end()]), (mm.start, m.end())))
    return out


def find_leadership(
    text: str,
    taken: list[tuple[int, int]],
    subject_at: Callable[[int], tuple[str | None, list[str]]],
    mentions: Sequence[Mention] = (),
) -> list[tuple[Assertion, tuple[int, int]]]:
    out: list[tuple[Assertion, tuple[int, int]]] = _named_leaders(text, taken, mentions)
    named = {a.symbol for a, _ in out}
    out += [
        (a, sp) for a, sp in _listed_leaders(text, taken + [sp for _, sp in out], mentions) if a.symbol not in named
    ]
    for m in _LEADERSHIP.finditer(text):
        span = m.span()
        if any(span[0] < e and s < span[1] for s, e in taken) or forecast_marker_before(text, m.start()):
            continue
        if m["noun"] and not _OPENS.search(text[: m.start()]):
            continue  # "AI leadership", "tech leadership": another subject's
        words = m["mods"] or m["when"] or ""
        if m["noun"] and m["noun"].lower() == "leader" and not re.search(r"\b(?:sector|market|momentum)", words, re.I):
            continue  # "a leader in ..." is a company's standing, not the table's
        horizons = horizons_written(words) or ["short"]
        sector = re.search(r"\bsector", words + text[max(0, m.start() - 20) : m.start()], re.I)
        group = find_group("sector") if sector else None
        subject, _ = subject_at(m.start())  # no alternative subject: leadership is vague enough for one
        label = f"group:{group.name}" if group is not None and group.sets else "universe"
        out.append((leader(subject, m.group(0).strip(), horizons, label), span))
    return out
