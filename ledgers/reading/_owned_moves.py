"""Moves whose owner is named inside the noun phrase, read by the phrase's structure: an adjective, the option(s),
the noun ("strong semis momentum", "a sharp tech drawdown", "steady technology and semiconductor strength"), or a
compound adjective before the option(s) ("strong-momentum semis", "high-momentum technology and semiconductor
sectors"). Not read under a condition, a negation or a forecast word ("we expect strong semis momentum"), unless
the move is taken for given ("after strong semis gains"). No window is usually written and the adjective's strength
is a matter of degree: each owner's move is checked on the momentum windows and never contradicted."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ledgers.reading._clauses import Mention, clause_start
from ledgers.reading._emit import Emit
from ledgers.reading._move_nouns import np_window, presupposes
from ledgers.reading._moves import CONDITION_AFTER

_UP_ADJ = r"strong|stronger|robust|solid|powerful|positive|accelerating|improving"
_DOWN_ADJ = r"weak|weaker|negative|poor|deteriorating|fading|declining|falling"
_DEGREE = r"exceptional|extreme|persistent|sustained|steady|consistent|dominant|high|elevated|massive|broad|broad-based"
"""Adjectives of degree: of "momentum" or "trend" they say it is up ("persistent momentum"); of a move noun they take
its sign ("broad weakness")."""
_MANNER = (
    r"sharp|steep|heavy|notable|marked|recent|continued|ongoing|latest|renewed|broader|short-term|near-term|"
    r"large-cap|price"
)
_UP_NOUNS = r"strength|gains|rally|run-up|surge|uptrend"
_DOWN_NOUNS = r"weakness|drawdowns?|sell-?offs?|slump|downtrend|declines"
_NEUTRAL_NOUNS = r"momentum|trend"
_NOUN = re.compile(
    rf"\b(?P<noun>{_UP_NOUNS}|{_DOWN_NOUNS}|{_NEUTRAL_NOUNS})\b(?![\s-]+(?:cycle|trade|names|signal))", re.I
)
# "semiconductor-linked momentum" is another option's (linked to semis): no hyphenated tail is read
_TAIL_END = re.compile(r"(?:\s+(?:sector|sectors|stocks|shares|names|complex|group|equities|etfs?|funds?))?\s*$", re.I)
_MOD = re.compile(
    rf"(?P<word>{_UP_ADJ}|{_DOWN_ADJ}|{_DEGREE}|{_MANNER}|\d+[\s-]?(?:day|d|week|month|session)s?|one-week|one-month)"
    r"[\s-]+$",
    re.I,
)
_DET = re.compile(r"\b(?:the|a|an|this|that)\s+$", re.I)
_COMPOUND = re.compile(rf"\b(?P<adj>{_UP_ADJ}|{_DOWN_ADJ}|{_DEGREE})-momentum\s+", re.I)
_AFTER_OWNERS = re.compile(
    r"(?:[\s-]+(?:sectors?|stocks|shares|names|complex|group|equities|etfs?|funds?))?(?=\s*(?:$|[,;.:)(]|\s(?:and|"
    r"with|while|which|that|to|for|in|on|as|at|via|plus|over|into|exposure)\b))",
    re.I,
)
_SEP = re.compile(r"(?:\s*/\s*|\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+)$", re.I)
_SEP_AFTER = re.compile(r"^(?:\s*/\s*|\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+)", re.I)
_UNSURE_BEFORE = re.compile(
    r"\b(?:if|unless|when|whether|should|no|not|without|lack\w*|absent|absence|any|until|once|await\w*|wait\w*)\b", re.I
)
"""A condition, a negation or a wait in the clause before the phrase: it states no move."""
_WHOLE = re.compile(r".+", re.S)


def _owners_ending_at(text: str, end: int, mentions: Sequence[Mention]) -> list[Mention]:
    """The options of a coordinated list ending right at ``end`` ("technology and semiconductor", "healthcare/semis"),
    in text order; empty when a word that names no option stands in the list."""
    own = [mm for mm in mentions if not mm.reference]
    last = next((mm for mm in own if mm.end == end), None)
    if last is None:
        return []
    found = [last]
    at = last.start
    while True:
        sep = _SEP.search(text, max(0, at - 8), at)
        if sep is None:
            return found
        prev = next((mm for mm in own if mm.end == sep.start()), None)
        if prev is None:
            return found if not re.search(r"\w", text[max(0, sep.start() - 1) : sep.start()]) else []
        found.insert(0, prev)
        at = prev.start


def _owners_starting_at(text: str, start: int, mentions: Sequence[Mention]) -> list[Mention]:
    """The options of a coordinated list starting right at ``start`` ("strong-momentum healthcare/semis"); empty
    when a word that names no option stands in the list."""
    own = [mm for mm in mentions if not mm.reference]
    found: list[Mention] = []
    at = start
    while True:
        nxt = next((mm for mm in own if mm.start == at), None)
        if nxt is None:
            return []  # a separator followed by a word that names no option ("healthcare and clean energy")
        found.append(nxt)
        sep = _SEP_AFTER.match(text[nxt.end :])
        if sep is None:
            return found
        at = nxt.end + sep.end()


def _unsure(text: str, start: int) -> bool:
    return _UNSURE_BEFORE.search(text, clause_start(text, start), start) is not None


_IN_OWNERS = re.compile(
    rf"\b(?P<adj>{_UP_ADJ}|{_DOWN_ADJ}|{_DEGREE})\s+(?:(?:{_MANNER}|recent|price|relative)\s+)*"
    r"(?P<noun>momentum|strength|weakness)\s+in\s+(?:the\s+)?",
    re.I,
)
"""'strong momentum in energy and semiconductors', 'persistent strength in the tech sector': the move of each option
the list after "in" names."""
_LIST_END = re.compile(
    r"(?:\s+(?:sectors?|space|names|stocks|complex|group|funds?|etfs?))?(?=\s*(?:$|[,;.:)(]|\s(?:and|"
    r"with|while|which|that|to|for|as|at|via|plus|over|into|could|may|might|would|should|will|is|"
    r"are|has|have|supports?|offers?)\b))",
    re.I,
)


def read_owned_moves(text: str, add: Emit, mentions: Sequence[Mention]) -> None:
    for m in _NOUN.finditer(text):
        noun = m["noun"].lower()
        tail = _TAIL_END.search(text, max(0, m.start() - 12), m.start())
        owners_end = tail.start() if tail is not None else m.start()
        owners = _owners_ending_at(text, owners_end, mentions)
        if not owners:
            continue
        pos, polar, degree = owners[0].start, 0, False
        words: list[str] = []
        while (mod := _MOD.search(text, max(0, pos - 20), pos)) is not None:
            word = mod["word"].lower()
            words.insert(0, word)
            if re.fullmatch(_UP_ADJ, word) or re.fullmatch(_DOWN_ADJ, word):
                polar = polar or (1 if re.fullmatch(_UP_ADJ, word) else -1)
            degree = degree or re.fullmatch(_DEGREE, word) is not None
            pos = mod.start()
        if not words:
            continue  # "XLE strength": a bare state noun is the move-noun reader's
        det = _DET.search(text, max(0, pos - 6), pos)
        if det is None and (
            re.search(r"['\u2019]s?\s+$", text[max(0, pos - 4) : pos])
            or any(mm.end <= pos and not text[mm.end : pos].strip() for mm in mentions)
        ):
            continue  # "Korea's strong semiconductor momentum": the phrase has an owner of its own before it
        start = det.start() if det is not None else pos
        noun_sign = 1 if re.fullmatch(_UP_NOUNS, noun) else -1 if re.fullmatch(_DOWN_NOUNS, noun) else 0
        if noun_sign and polar and noun_sign != polar:
            continue  # "strong weakness": not a phrase writers use
        sign = noun_sign or polar or (1 if degree else 0)
        if sign == 0:
            continue  # "recent semis momentum": which way is unsaid
        if _unsure(text, start) or (CONDITION_AFTER.match(text, m.end()) and not presupposes(text, start, m.end())):
            continue  # "strong semis momentum if rates fall": a scenario
        _emit(text, add, owners, (owners[-1].end, m.end()), start, sign, " ".join(words))
    for m in _IN_OWNERS.finditer(text):
        owners = _owners_starting_at(text, m.end(), mentions)
        if not owners or _LIST_END.match(text, owners[-1].end) is None or _unsure(text, m.start()):
            continue  # "strong momentum in clean energy": a word that names no option stands in the list
        adj, noun = m["adj"].lower(), m["noun"].lower()
        noun_sign = 1 if noun == "strength" else -1 if noun == "weakness" else 0
        polar = 1 if re.fullmatch(_UP_ADJ, adj) else -1 if re.fullmatch(_DOWN_ADJ, adj) else 0
        if noun_sign and polar and noun_sign != polar:
            continue
        sign = noun_sign or polar or 1  # a degree adjective of "momentum" says it is up
        _emit(text, add, owners, (m.start(), m.end() - 1), m.start(), sign, m.group(0))
    for m in _COMPOUND.finditer(text):
        owners = _owners_starting_at(text, m.end(), mentions)
        if not owners or _AFTER_OWNERS.match(text, owners[-1].end) is None or _unsure(text, m.start()):
            continue  # "high-momentum clean energy": a word that names no option stands in the phrase
        sign = -1 if re.fullmatch(_DOWN_ADJ, m["adj"].lower()) else 1
        _emit(text, add, owners, (m.start(), m.end() - 1), m.start(), sign, "")


def _emit(
    text: str, add: Emit, owners: list[Mention], span: tuple[int, int], start: int, sign: int, words: str
) -> None:
    """One momentum claim per owner, on the phrase's words beside the owners' names (a name is a mention, read
    already)."""
    phrase = _WHOLE.match(text, *span)
    assert phrase is not None
    for i, who in enumerate(owners):
        add(
            phrase,
            span=span,
            keep=i == len(owners) - 1,
            rule="momentum",
            polarity=sign,
            label=np_window(words),
            inferred=True,
            presupposed=presupposes(text, start, span[1]),
            symbol=who.symbol,
        )
