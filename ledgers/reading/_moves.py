"""Moves in words: "crude has sold off sharply", "energy fell over the past week", "while the market fell",
"its sharp weekly gain", "the recent 7-day oil rally". The direction is the sign of the subject's return over the
window the words give (a week, a month, "recent": the short windows the round shows; none: the momentum windows).

A verb's subject must be named right before it (an option, the market, or "it / the sector / the fund" for the
option under discussion); a move of anything else (yields, inflation, "tech", "growth") is not read, and a
conditional or present-tense move ("if XLE falls", "rises when ...") is no claim about the data. A move said as a
noun phrase is read in ``_move_nouns``; a participle before its subject and a sign over a written window here.
"""

from __future__ import annotations

import re
from typing import Any

from ledgers.reading._emit import Emit

_DOWN = (
    r"fell|fallen|declined|dropped|sold\s+off|slid|slumped|tumbled|plunged|dipped|pulled\s+back|retreated|"
    r"weakened|lost\s+ground|sank|been\s+falling|been\s+declining|been\s+weak|been\s+soft"
)
_UP = (
    r"rose|risen|gained|rallied|climbed|surged|jumped|rebounded|advanced|firmed|strengthened|been\s+rising|"
    r"been\s+rallying|been\s+strong|been\s+firm"
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
CONDITION = re.compile(
    r"\b(?:if|unless|when|whenever|once|should|until|in\s+case|lest|would|could|may|might|can)\b", re.I
)
CONDITION_AFTER = re.compile(
    r"\s*(?:,\s*)?(?:if|unless|should|when|whenever|once|in\s+case|in\s+the\s+event|on\s+any|as\s+soon\s+as)\b", re.I
)
"""A condition right after an undated move ("semis weakness if rates spike", "energy strength should oil rally"): the
move is the scenario's, not the data's."""
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
    r"was|were|also|been|already|now|still)\s+){0,3}$",
    re.I,
)
_HORIZON_NEAR = re.compile(r"(\d+)\s*(d|s|day|days|sessions?|w|week)\b", re.I)


def mover(text: str, start: int, named_before) -> tuple[str | None, bool]:
    """(the option named as the mover right before ``start``, whether the words there are "it / the sector"):
    the name must open the verb's own clause, with only link words ("has", "shares", "'s") before the verb."""
    head = text[:start]
    cuts = [m.end() for m in _CLAUSE_WORDS.finditer(head)]
    clause_from = cuts[-1] if cuts else 0
    clause = head[clause_from:]
    if named_before is not None:
        named = named_before(clause_from, start)
        if named is not None and _LINK.match(text[named.end : start]):
            return named.symbol, False
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
        if CONDITION.search(text[cut : m.start()]) or re.search(r"\b(?:will|to)\s*$", text[: m.start()], re.I):
            continue  # "if XLE falls", "could have fallen", "expected to rise"
        subject, itself = mover(text, m.start(), named_before)
        if subject is None and benchmark is not None and _MARKET.search(text[max(0, m.start() - 30) : m.start()]):
            subject = benchmark
        if subject is None and not itself:
            continue  # the mover is something else (yields, "growth/tech", inflation): not read
        down = re.fullmatch(_DOWN, m["verb"], re.I) is not None
        label = _window(f"{m['adv'] or ''} {m['win'] or ''}") or _nearby_window(text, m.start())
        kw: dict[str, Any] = {"symbol": subject} if subject is not None else {}
        add(m, rule="momentum", polarity=-1 if down else 1, label=label, **kw)


_SIGNED_WINDOW = re.compile(
    r"\b(?P<sign>positive|negative|up|down)\s+(?:(?:on|over|for|in)\s+(?:the\s+)?(?:past\s+|last\s+)?)?"
    r"(?P<w>week|month|(?:\d+|seven|thirty)[\s-]*(?:d|s|days?|sessions?)|1w|1m)\b"
    r"(?![\s,-]*(?:and\s+|or\s+)?(?:[\w-]+\s+){0,3}?(?:alpha|active|relative|excess|vs\.?|versus|than|beta|corr\w*|"
    r"breadth|share|high|low|volatility|vol|strength|weakness|momentum|returns?|performance|trend|drawdown|gains?|"
    r"loss(?:es)?|rank\w*)\b)",
    re.I,
)
"""A sign said over a window with no figure: "TLT positive 30d", "SPY is still up on the week", "XLE down over the
month"."""


def read_signed_windows(text: str, add: Emit, named_before, benchmark: str | None) -> None:
    """The sign of the subject's return over the window written. The subject is certain or the phrase is not read:
    the option named right before (link words only: "is", "still", "has been"), "it / the sector", or the market;
    a condition ("if XLE is down on the week") or a forecast is no claim about the data."""
    for m in _SIGNED_WINDOW.finditer(text):
        cut = max(text.rfind(c, 0, m.start()) for c in ",;:(") + 1
        if CONDITION.search(text[cut : m.start()]) or re.search(r"\b(?:will|to|be)\s*$", text[: m.start()], re.I):
            continue
        subject, itself = mover(text, m.start(), named_before)
        if subject is None and benchmark is not None and _MARKET.search(text[max(0, m.start() - 30) : m.start()]):
            subject = benchmark
        if subject is None and not itself:
            continue
        w = m["w"].lower()
        label = _window(w) or (
            "30D" if re.match(r"(?:30|thirty)|1m", w) else "7D" if re.match(r"(?:7|seven)|1w", w) else None
        )
        if label is None:
            continue
        kw: dict[str, Any] = {"symbol": subject} if subject is not None else {}
        add(m, rule="momentum", polarity=1 if m["sign"].lower() in ("positive", "up") else -1, label=label, **kw)


_PARTICIPLE = re.compile(
    r"(?<![\w-])(?P<det>the\s+|an?\s+)?(?P<verb>rising|falling|declining|rallying|sliding|slumping|surging|climbing|"
    r"tumbling|sinking|firming|weakening|strengthening)\s+",
    re.I,
)
_PARTICIPLE_DOWN = frozenset({"falling", "declining", "sliding", "slumping", "tumbling", "sinking", "weakening"})
_MARKET_THING = re.compile(r"(?:broad\s+)?(?:market|index|s&p(?:\s*500)?|benchmark)\b", re.I)
_THING_END = re.compile(
    r"(?:\s+(?:prices?|shares|stocks|equities|futures))?(?=\s*(?:[,;:.)]|$|\b(?:and|or|as|while|with|amid|since|"
    r"could|would|may|might|can|will|is|are|has|have|had|should|to|into|for|in|on|after|before|despite|"
    r"supports?|helps?|hurts?|lifts?|weighs?|drags?|favou?rs?|boosts?|pressures?)\b))",
    re.I,
)


def read_participles(text: str, add: Emit, named_before, benchmark: str | None) -> None:
    """A move said as a participle before its subject: "rising crude prices", "the falling dollar", "a weakening
    index" (the option named right after the participle, or the market); the subject is moving now, a fact even
    where a forecast takes it for given ("could hurt rising crude"), over no window written: checked on the momentum
    windows, never contradicted. An indefinite one ("in a rising market") is a kind of market, not this one: not read;
    nor one whose noun goes on ("rising oil demand": demand is no price)."""
    if named_before is None:
        return
    for m in _PARTICIPLE.finditer(text):
        if m["det"] and m["det"].strip().lower() in ("a", "an"):
            continue
        named = named_before(m.end(), m.end() + 40)
        subject: str | None = None
        end = m.end()
        if named is not None and named.start == m.end():
            subject, end = named.symbol, named.end
        elif benchmark is not None and (market := _MARKET_THING.match(text, m.end())) is not None:
            subject, end = benchmark, market.end()
        if subject is None:
            continue
        tail = _THING_END.match(text, end)
        if tail is None:
            continue  # "rising oil demand", "falling crude inventories": the noun is another thing's
        add(
            m,
            span=(m.start(), m.end()),
            rule="momentum",
            polarity=-1 if m["verb"].lower() in _PARTICIPLE_DOWN else 1,
            symbol=subject,
            inferred=True,
            presupposed=True,
        )
