"""A set the writer defines by its own holdings: "Allocates to sectors showing recent strength", "Concentrated in
recent winners", "Tilt toward recent momentum leaders". A portfolio-level sentence that names no option says the move
of each holding: one claim per holding, checked, never contradicted (whether every holding was meant is inferred).

Read by the phrase's structure: a plural set noun, a link ("showing", "with", "that have"), modifiers, a move noun; or
a preposition of allocation before "winners" / "leaders" / "outperformers". A sign the words do not carry ("sectors
with recent momentum", "names with strong fundamentals") is not read; nor a phrase under a condition, a negation or an
aim ("if sectors with strength fade", "seeking sectors with momentum").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledgers._number_words import NUMBER_WORDS
from ledgers.reading._move_nouns import np_window

_SET_NOUN = r"(?:sectors|holdings|positions|assets|names|exposures|areas|factors|themes|equities|etfs|picks|sleeves)"
_LINK = (
    r"(?:(?:that|which)\s+(?:have|has|are|show|shows|display|displays|exhibit|post)\s+|showing\s+|with\s+|"
    r"exhibiting\s+|displaying\s+|posting\s+|having\s+|demonstrating\s+)"
)
_UP_MODS = r"strong|stronger|positive|solid|robust|persistent|sustained|confirmed|clear"
_DOWN_MODS = r"weak|weaker|negative|poor"
_MODS = (
    rf"(?P<mods>(?:(?:{_UP_MODS}|{_DOWN_MODS}|recent|recently|near-term|short-term|continued|current|trailing|price)"
    r"[\s,]+(?:and\s+)?){0,3})"
)
_UP_NOUNS = r"strength|gains|outperformance|leadership|uptrends?"
_DOWN_NOUNS = r"weakness|underperformance|losses|declines|downtrends?"
_SIGNLESS = r"momentum|performance|returns|trends?"
_RELATIVE = r"(?:relative|benchmark-relative|active)\s+"
_HELD_SET = re.compile(
    rf"\b{_SET_NOUN}\s+{_LINK}{_MODS}(?P<rel>{_RELATIVE})?(?P<noun>{_UP_NOUNS}|{_DOWN_NOUNS}|{_SIGNLESS})\b",
    re.I,
)
_WINNERS = re.compile(
    r"\b(?:in|into|to|toward|towards|on|favou?r(?:ing|s)?)\s+(?:the\s+)?"
    r"(?P<mods>(?:recent|trending|current|momentum|top)\s+){1,3}(?P<noun>winners|leaders|outperformers)\b",
    re.I,
)
_UNSURE = re.compile(
    r"\b(?:if|unless|when|whether|should|no|not|without|lack\w*|absent|until|once|seek\w*|look\w*\s+for|aim\w*|"
    r"could|may|might|would|will|expect\w*)\b",
    re.I,
)
_CLAUSE_START = re.compile(r"[.;:!?]\s|\b(?:but|while|whereas|although)\b", re.I)


@dataclass(frozen=True)
class HeldSet:
    """A move said of the writer's holdings: its span, the rule that checks it on each holding and how."""

    span: tuple[int, int]
    rule: str  # "momentum" | "relative_momentum" | "ranking" (leadership: near the top)
    polarity: int
    window: str | None  # the window its words write ('short' for "recent"), None when unsaid


def _unsure(text: str, start: int) -> bool:
    cuts = [m.end() for m in _CLAUSE_START.finditer(text, 0, start)]
    return _UNSURE.search(text, cuts[-1] if cuts else 0, start) is not None


_WHOLE_SET_BEFORE = re.compile(
    r"(?:^|\b(?:to|in|into|toward|towards|on|across|favou?r\w*|targets?|targeting|prioriti[sz]\w*|allocat\w*|"
    r"concentrat\w*|focus\w*|tilt\w*|overweight\w*|selects?|selecting|holds?|holding|owns?|buys?|buying|of|and|"
    r"with|between|among)\s+)(?:(?:the|these|our|its|their|all|selected|chosen|held|portfolio)\s+)*"
    r"(?:(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+)?$",
    re.I,
)
"""What may stand before the set noun for it to be every holding: a verb or preposition of allocation, determiners,
the holdings' count. An adjective ("remaining positions", "cyclical value and defensive sectors") or another count
makes it a part of the portfolio: which part is unsaid."""


_PART_WORDS = re.compile(
    r"\b(?:remaining|other|rest|some|several|select|certain|part|half|smaller|satellite|core|hedges?|balance|"
    r"residual|additional|secondary|a\s+few)\b",
    re.I,
)
"""A word before the set in its clause that makes it a part of the portfolio ("The remaining positions target areas
with ...", "the satellite sleeves with ...")."""


def _whole_set(text: str, start: int, count: int | None) -> bool:
    cuts = [m.end() for m in _CLAUSE_START.finditer(text, 0, start)]
    if _PART_WORDS.search(text, cuts[-1] if cuts else 0, start):
        return False
    m = _WHOLE_SET_BEFORE.search(text, max(0, start - 60), start)
    if m is None:
        return False
    if m["n"] is None:
        return True
    n = int(m["n"]) if m["n"].isdigit() else NUMBER_WORDS[m["n"].lower()]
    return count is not None and n == count


def read_held_sets(text: str, count: int | None = None) -> list[HeldSet]:
    """The moves ``text`` says of the writer's holdings as a set (``count``: how many it holds)."""
    out: list[HeldSet] = []
    for m in _HELD_SET.finditer(text):
        if not _whole_set(text, m.start(), count):
            continue  # "the remaining positions target areas with ...", "defensive sectors showing ...": a part
        mods, noun = (m["mods"] or "").lower(), m["noun"].lower()
        up = re.search(rf"\b(?:{_UP_MODS})\b", mods) is not None
        down = re.search(rf"\b(?:{_DOWN_MODS})\b", mods) is not None
        if re.fullmatch(_UP_NOUNS, noun):
            sign = 1 if not down else 0
        elif re.fullmatch(_DOWN_NOUNS, noun):
            sign = -1 if not up else 0
        else:
            sign = 1 if up and not down else -1 if down and not up else 0
        if sign == 0 or _unsure(text, m.start()):
            continue  # "sectors with recent momentum": which way is unsaid
        if noun == "leadership":
            out.append(HeldSet(m.span(), "ranking", 1, np_window(mods) or "short"))
            continue
        relative = bool(m["rel"]) or noun in ("outperformance", "underperformance")
        out.append(HeldSet(m.span(), "relative_momentum" if relative else "momentum", sign, np_window(mods)))
    for m in _WINNERS.finditer(text):
        if _unsure(text, m.start()):
            continue
        noun, mods = m["noun"].lower(), m["mods"].lower()
        if noun == "leaders":
            out.append(HeldSet(m.span(), "ranking", 1, np_window(mods) or "short"))
        else:
            rule = "relative_momentum" if noun == "outperformers" else "momentum"
            out.append(HeldSet(m.span(), rule, 1, np_window(mods)))
    return out


__all__ = ["HeldSet", "read_held_sets"]
