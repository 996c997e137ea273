"""Clauses and subjects: where a clause starts, whether a forecast word governs it, and which option a claim
at a position is about (the mention in its clause, the segment's header, the closest earlier mention, the
default), with the other subjects the sentence offers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ledgers.reading._vocab import DATE_AFTER

_PRESUPPOSED_AIM = (
    r"(?:the\s+|their\s+|its\s+)?(?:(?:recent|current|ongoing|existing|observed|demonstrated|continued|persistent|"
    r"strong|positive|short-term|near-term|sector)\s+)*(?:relative\s+strength|strength|outperformance|leadership)\b"
)
_AIM_AT_A_GIVEN_MOVE = re.compile(r"\s+" + _PRESUPPOSED_AIM, re.I)
_FORECAST_RE = re.compile(
    r"\b(?:will|won't|expect(?:s|ed|ing|ation|ations)?|should|could|would|might|likely|unlikely"
    r"|forecast(?:s|ed|ing)?|anticipat\w*|project(?:s|ed|ion|ions)?|poised|set\s+to|going\s+to"
    r"|estimate[sd]?|predict\w*|believe|think|outlook|implying|implies|potential(?:ly)?|can|suggests?"
    r"|hope|bet|plausible|probably|possibly|may"
    r"|seek(?:s|ing)?|aim(?:s|ing)?|targeting|intend(?:s|ed)?|to\s+capture(?!\s+" + _PRESUPPOSED_AIM + r")"
    r"|positioned\s+to)\b",
    re.I,
)
"""A forecast or an aim governs what follows it in its clause; "to capture" a move the writer takes for given ("to
capture recent relative strength", "to capture ongoing momentum") aims at what the data already show: the move is
read (as each option of a list subject's, ``_list_subjects``), never contradicted."""


_CLAUSE_BREAK = re.compile(r"[;,:()\[\]\u2014]|\s-\s|\.\s")


@dataclass(frozen=True, slots=True)
class Mention:
    start: int
    end: int
    symbol: str
    reference: bool = False  # "vs SPY", "than the S&P 500": a comparison reference, not a subject
    uncertain: bool = False  # a name that usually, not always, means the option ("tech"): never a contradiction


def clause_start(text: str, pos: int, floor: int = 0) -> int:
    """Start of the clause containing ``pos`` (after the last ; , : ( ) or dash before it)."""
    start = floor
    for m in _CLAUSE_BREAK.finditer(text, floor, pos):
        start = m.end()
    return start


_PIECE_LABEL = re.compile(
    r"(?:(?P<forecast>continuation|reversal|scenario|bull[\s-]case|bear[\s-]case|base[\s-]case|expected\s+return|outlook|"
    r"forecast|target)|(?P<plan>invalidation(?:\s+condition)?|exit(?:\s+rule)?|stop(?:[\s-]loss)?|trigger|plan|"
    r"risk\s+limit|rebalance))\s*[:=]",
    re.I,
)


def piece_label(text: str, pos: int) -> re.Match[str] | None:
    """A label opening a piece of the sentence before ``pos`` ("Reversal: ...", "(invalidation: XLV underperforms
    SPY; ...)", "Continuation: ..."): what follows it in the sentence is a scenario or a plan, never a statement
    about the data."""
    start = max(text.rfind("\n", 0, pos), text.rfind(". ", 0, pos), text.rfind("(", 0, pos)) + 1
    for m in _PIECE_LABEL.finditer(text, start, pos):
        if not text[start : m.start()].strip() or re.search(r"[;(]\s*$", text[start : m.start()]):
            return m
    return None


_NOUN_FORECAST = re.compile(
    r"(?:forecasts|projections|estimates|expectations|forecast|projection|outlook|(?:forecast|project|expect|estimat)ed)$",
    re.I,
)
_NOUN_LEAD = re.compile(r"(?P<word>[\w$'.,%-]+)\s+$")
_NOT_A_NOUN_LEAD = re.compile(
    r"(?:i|we|you|they|he|she|it|who|which|that|analysts|strategists|economists|markets?|investors|traders|"
    r"will|would|could|should|may|might|can|to|and|or|not|also|now|still)",
    re.I,
)
_NOUN_END = re.compile(
    r"\s*(?:$|[,;.)]|and\b|or\b|while\b|of\b|for\b|from\b|on\b|[A-Za-z]+\s+(?:spending|capex|growth|sales|demand)\b)",
    re.I,
)


def _names_a_forecast(text: str, m: re.Match[str]) -> bool:
    """A forecast word used as a noun or an adjective, naming someone else's forecast as a fact the sentence cites
    ("supported by large AI spending forecasts and strong recent trend", "the $2.59 trillion forecasted AI spending",
    "consensus expectations"): it governs no clause, so what follows it is read. Its lead must be a determiner, a
    figure or a noun (not a pronoun, a subject of forecasts, a modal), and a coordination, a stop or a preposition
    must follow."""
    word = m.group(0)
    lead = _NOUN_LEAD.search(text, max(0, m.start() - 25), m.start())
    if _NOUN_FORECAST.fullmatch(word) is None or lead is None or _NOT_A_NOUN_LEAD.fullmatch(lead["word"]):
        return False
    return _NOUN_END.match(text, m.end()) is not None


def forecast_marker_before(text: str, pos: int, floor: int = 0) -> re.Match[str] | None:
    """The forecast/opinion word earlier in the same clause as ``pos``, or a forecast or plan label opening its
    piece of text ("Reversal:", "Invalidation:"), if any."""
    label = piece_label(text, pos)
    if label is not None:
        return label
    start = clause_start(text, pos, floor)
    found = None
    for m in _FORECAST_RE.finditer(text, start, pos):
        if m.group(0) == "May" or (m.group(0).lower() == "may" and DATE_AFTER.match(text[m.start() :])):
            continue  # the month
        if _names_a_forecast(text, m):
            continue  # "spending forecasts and strong recent trend": the forecast is cited, not made
        if m.group(0).lower().startswith("to") and _AIM_AT_A_GIVEN_MOVE.match(text, m.end()):
            continue  # "to capture recent relative strength" (the search above stops at ``pos``: look past it)
        found = m
    return found


def forecast_markers(text: str) -> list[re.Match[str]]:
    return [m for m in _FORECAST_RE.finditer(text) if m.group(0) != "May" and not _names_a_forecast(text, m)]


def overlaps(span: tuple[int, int], spans: Iterable[tuple[int, int]]) -> bool:
    return any(span[0] < e and s < span[1] for s, e in spans)


def _closed_aside(text: str, at: int, pos: int) -> bool:
    """True when ``at`` is inside a parenthesis that closes before ``pos`` ("(... dragging SPY/QQQ) toward
    areas showing positive momentum": SPY and QQQ are not what the claim is about)."""
    depth = 0
    for ch in text[at:pos]:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return True
            depth -= 1
    return False


_NOT_A_NOUN_PHRASE = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|than|vs|versus|against|to|of|in|on|at|by|for|from|with|into|over|"
    r"under|relative|compared|beat|beats|lagged|trailed|outperformed|underperformed|market|benchmark|index)\b",
    re.I,
)


def apposition(text: str, start: int, end: int) -> bool:
    """Whether the mention text[start:end] is the whole of a parenthesis that names the noun phrase opening its
    clause ("Tech (XLK) is the top sector", "Low volatility (SPLV) was flat"): the clause's subject, not an aside.
    A parenthesis after a verb, a preposition or a reference ("beat the market (SPY)") stays an aside."""
    opening = text.rfind("(", 0, start)
    if opening < 0 or text[opening + 1 : start].strip() or not text[end:].lstrip().startswith(")"):
        return False
    head = text[clause_start(text, opening) : opening]
    return 0 < len(head.split()) <= 4 and _NOT_A_NOUN_PHRASE.search(head) is None and not re.search(r"\d", head)


_MODIFIES_AFTER = re.compile(
    r"-(?:linked|related|exposed|sensitive|heavy|driven|led|adjacent|tied|oriented|like|style|type)\b", re.I
)


def main_subject(mentions: Sequence[Mention], pos: int, text: str, default: str | None, strong: bool) -> str | None:
    """Who a claim at ``pos`` is about: a mention in the same clause, else the segment's symbol (strong),
    else the closest earlier mention in the sentence, else the default."""
    return subjects(mentions, pos, text, default, strong)[0]


def subjects(
    mentions: Sequence[Mention], pos: int, text: str, default: str | None, strong: bool, end: int | None = None
) -> tuple[str | None, list[str]]:
    """(subject, alternatives) of a claim at ``pos`` (ending at ``end``): the subject as ``subject`` picks
    it; the alternatives are the other symbols the sentence offers as its subject: other mentions earlier in
    the clause, a mention right after the claim in its clause ("+12% in biotech"), the segment's symbol."""
    start = clause_start(text, pos)
    earlier: str | None = None
    same: str | None = None
    in_clause: list[str] = []
    for m in mentions:
        if m.reference or m.end > pos or _MODIFIES_AFTER.match(text, m.end):
            continue  # "semiconductor-linked country exposure": the option names a kind of thing, not the subject
        appositive = apposition(text, m.start, m.end)
        if _closed_aside(text, m.end, pos) and not appositive:
            continue
        earlier = m.symbol
        if m.start >= start or (appositive and start == text.index(")", m.end) + 1):  # "Tech (XLK) is ..."
            same = m.symbol
            in_clause.append(m.symbol)
    primary: str | None
    if same is not None:
        primary = same
    elif strong and default is not None:
        primary = default
    else:
        primary = earlier if earlier is not None else default
    others: list[str] = list(reversed(in_clause))
    if end is not None:
        stop = _CLAUSE_BREAK.search(text, end)
        limit = stop.start() if stop else len(text)
        others += [m.symbol for m in mentions if not m.reference and end <= m.start < limit]
    if earlier is not None:
        others.append(earlier)
    if default is not None:
        others.append(default)
    alternatives = [s for s in dict.fromkeys(others) if s != primary]
    return primary, alternatives
