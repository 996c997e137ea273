"""Moves in words: "crude has sold off sharply", "energy fell over the past week", "while the market fell",
"its sharp weekly gain", "despite a weekly dip". The direction is the sign of the subject's return over the window
the words give (a week, a month, "recent": the short windows the round shows; none: the momentum windows).

The subject must be named right before the verb (an option, the market, or "it / the sector / the fund" for the
option under discussion); a move of anything else (yields, inflation, "tech", "growth") is not read, and a
conditional or present-tense move ("if XLE falls", "rises when ...") is no claim about the data.
"""

from __future__ import annotations

import re
from typing import Any

from ledgers.reading._emit import Emit

_DOWN = (
    r"fell|fallen|declined|dropped|sold\s+off|slid|slumped|tumbled|plunged|dipped|pulled\s+back|retreated|"
    r"weakened|lost\s+ground|sank|been\s+falling|been\s+declining|been\s+weak"
)
_UP = (
    r"rose|risen|gained|rallied|climbed|surged|jumped|rebounded|advanced|firmed|strengthened|been\s+rising|"
    r"been\s+rallying|been\s+strong"
)
_WINDOW = (
    r"(?:over\s+|in\s+|during\s+|for\s+)?(?:the\s+)?(?:past|last|prior|latest|recent|this|previous)?\s*"
    r"(?P<w>week|month|\d+\s*(?:sessions?|trading\s+days|days?|d|s)|1w|7d|30d|5d|3d|21d)\b"
)
MOVE_RE = re.compile(
    rf"(?P<pre>\b(?:has|have|had|is|are|was|were)\s+(?:also\s+)?)?(?P<verb>{_DOWN}|{_UP})\b"
    r"(?!\s+(?:out|behind|into|in\s+(?:the\s+)?rank|from\s+the|to\s+(?:the\s+)?(?:top|bottom|#|no\.)|off\s+the|back\s+into|"
    r"below|above|under|over\s+(?:its|their|the\s+\d|\d+[\s-]*day)|by\s+[+\-\u2212]?\$?\d|[+\-\u2212]?\$?\d))"
    r"(?P<adv>(?:\s+(?:sharply|steeply|strongly|hard|further|modestly|slightly|notably|recently|lately|this\s+week|"
    r"last\s+week|materially))*)"
    rf"(?P<win>\s+{_WINDOW})?",
    re.I,
)
_NOUN_RE = re.compile(
    r"\b(?P<owner>its|their|the\s+week's|this\s+week's|last\s+week's|[A-Za-z][\w&.-]*'s?)?\s*(?P<adj>(?:(?:sharp|steep|"
    r"recent|weekly|monthly|short-term|near-term|strong|modest|\d+[\s-]?(?:day|d|week|month))\s+){1,3})"
    r"(?P<noun>dip|drop|decline|sell-?off|pullback|pull-back|slump|slide|gain|rally|surge|rebound|spike|run-up)\b",
    re.I,
)
_CONDITION = re.compile(
    r"\b(?:if|unless|when|whenever|once|should|until|in\s+case|lest|would|could|may|might|can)\b", re.I
)
_ITSELF = re.compile(
    r"(?:\b(?:it|its|the\s+(?:sector|fund|etf|option|index\s+fund|group|position|holding)|this\s+"
    r"(?:sector|fund|etf|option)|(?:recent\s+|its\s+)?(?:price\s+action|performance|returns?|"
    r"momentum))(?:\s+(?:has|have|had|is|was|been))*\s*)$",
    re.I,
)
_MARKET = re.compile(r"(?:\b(?:the\s+)?(?:broad\s+)?(?:market|index|benchmark|s&p(?:\s*500)?|spx|spy)\s*)$", re.I)


def _window(words: str) -> str | None:
    """Horizon label of the window words: '7D', '30D', a session count, or 'short' for "recent"."""
    w = words.lower()
    if re.search(r"\bweek|1w|7d\b", w):
        return "7D"
    if re.search(r"\bmonth|30d\b", w):
        return "30D"
    m = re.search(r"(\d+)\s*(?:sessions?|trading\s+days|s|d)\b", w)
    if m:
        return f"{m.group(1)}T"
    if re.search(r"\b(?:recent(?:ly)?|lately|short-term|near-term|sharp|this\s+week|last\s+week)\b", w):
        return "7D" if "week" in w else "short"
    return None


_CLAUSE_WORDS = re.compile(
    r"(?:[,;:(]|\b(?:while|whereas|but|though|although|and|as|after|despite|since|because|with|"
    r"amid|even\s+as)\b)",
    re.I,
)
_LINK = re.compile(
    r"^[\s']*(?:s\s+)?(?:(?:shares|prices?|equities|stocks|futures|fund|etf|sector|itself|has|have|had|is|are|"
    r"was|were|also|been|already|now)\s+){0,3}$",
    re.I,
)
_HORIZON_NEAR = re.compile(r"(\d+)\s*(d|s|day|days|sessions?|w|week)\b", re.I)


def _mover(text: str, start: int, named_before) -> tuple[str | None, bool]:
    """(the option named as the mover right before ``start``, whether the words there are "it / the sector"):
    the name must open the verb's own clause, with only link words ("has", "shares", "'s") before the verb."""
    head = text[:start]
    cuts = [m.end() for m in _CLAUSE_WORDS.finditer(head)]
    clause_from = cuts[-1] if cuts else 0
    clause = head[clause_from:]
    if named_before is not None:
        named = named_before(clause_from, start)
        if named is not None and _LINK.match(text[named[1] : start]):
            return named[0], False
    return None, bool(_ITSELF.search(clause)) and len(clause.split()) <= 4


def _nearby_window(text: str, start: int) -> str | None:
    """A window written just before a move without one ("+2.37% 7d while market fell"): the same window."""
    found = list(_HORIZON_NEAR.finditer(text, max(0, start - 40), start))
    if not found:
        return None
    unit, n = found[-1].group(2).lower(), int(found[-1].group(1))
    return f"{7 * n}D" if unit.startswith("w") else f"{n}D" if n in (7, 30) and unit.startswith("d") else f"{n}T"


def read_moves(text: str, add: Emit, benchmark: str | None, named_before=None) -> None:
    for m in MOVE_RE.finditer(text):
        cut = max(text.rfind(c, 0, m.start()) for c in ",;:(") + 1
        if _CONDITION.search(text[cut : m.start()]) or re.search(r"\b(?:will|to)\s*$", text[: m.start()], re.I):
            continue  # "if XLE falls", "could have fallen", "expected to rise"
        subject, itself = _mover(text, m.start(), named_before)
        if subject is None and benchmark is not None and _MARKET.search(text[max(0, m.start() - 30) : m.start()]):
            subject = benchmark
        if subject is None and not itself:
            continue  # the mover is something else (yields, "growth/tech", inflation): not read
        down = re.fullmatch(_DOWN, m["verb"], re.I) is not None
        label = _window(f"{m['adv'] or ''} {m['win'] or ''}") or _nearby_window(text, m.start())
        kw: dict[str, Any] = {"symbol": subject} if subject is not None else {}
        add(m, rule="momentum", polarity=-1 if down else 1, label=label, **kw)
    for m in _NOUN_RE.finditer(text):
        head = text[max(0, m.start() - 40) : m.start()]
        if _CONDITION.search(head[max(head.rfind(","), head.rfind(";")) + 1 :]):
            continue
        owner = (m["owner"] or "").strip()
        named = named_before(max(0, m.start() - 40), m.start("adj")) if named_before is not None else None
        subject = named[0] if named is not None else None
        if subject is None and not (owner.lower() in ("its", "their") or _ITSELF.search(head)):
            continue
        down = m["noun"].lower() in (
            "dip",
            "drop",
            "decline",
            "sell-off",
            "selloff",
            "pullback",
            "pull-back",
            "slump",
            "slide",
        )
        label = _window(f"{owner} {m['adj']}")
        kw = {"symbol": subject} if subject is not None else {}
        add(m, rule="momentum", polarity=-1 if down else 1, label=label, **kw)
