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
        out.append(
            (
                Assertion(
                    rule="ranking",
                    symbol=mm.symbol,
                    polarity=1,
                    op="gt",
                    window=0,
                    label=f"group:{group.name}" if group is not None and group.sets else "universe",
                    field="performance",
                    raw=text[mm.start : m.end()],
                    horizons=window,
                    inferred=True,
                ),
                (m.start(word), m.end()),
            )
        )
    return out


def find_leadership(
    text: str,
    taken: list[tuple[int, int]],
    subject_at: Callable[[int], tuple[str | None, list[str]]],
    mentions: Sequence[Mention] = (),
) -> list[tuple[Assertion, tuple[int, int]]]:
    out: list[tuple[Assertion, tuple[int, int]]] = _named_leaders(text, taken, mentions)
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
        out.append(
            (
                Assertion(
                    rule="ranking",
                    symbol=subject,
                    polarity=1,
                    op="gt",
                    window=0,
                    label=f"group:{group.name}" if group is not None and group.sets else "universe",
                    field="performance",
                    raw=m.group(0).strip(),
                    horizons=horizons,
                    inferred=True,
                ),
                span,
            )
        )
    return out
