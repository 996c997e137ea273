"""A level said as an attribute of named options: "high-beta semiconductor, Taiwan, and cybersecurity holdings",
"high-beta holdings such as biotech and regional banks", "elevated tech volatility", "elevated volatility, especially
in semiconductors and biotech", "its high beta". The attribute is a fact about each option named, even inside a forecast ("could
pressure high-beta semiconductor holdings" takes the high beta for given).

Read by the phrase's structure, never by guess: the options are the ones the noun phrase itself lists (every word
between the level and the head noun is an option's name or a list word), or, where it lists none ("high-beta
holdings"), the ones "such as / like / including / especially in" lists right after it. A phrase with any other
word in it ("high-beta AI names", "low-vol factor exposure") or a comparative ("higher-beta exposure": than what is
unsaid) is not read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ledgers.reading._clauses import Mention
from ledgers.reading._emit import Emit

_LEVEL = r"(?P<adj>high|elevated|low|above-market|below-market)"
_MEASURE = r"(?P<measure>beta|vol|volatility)"
_HEAD = (
    r"holdings?|names?|exposures?|positions?|sleeves?|sectors?|complex|group|funds?|etfs?|stocks?|equities|assets|"
    r"bets?|trades?|areas|plays?|allocations?|segments?|parts\s+of\s+the\s+market"
)
_ATTRIBUTE = re.compile(rf"\b{_LEVEL}[\s-]{_MEASURE}\s+(?!(?:than|vs|versus|relative|compared)\b)", re.I)
"""'high-beta ...', 'low volatility ...': an attribute of the noun phrase after it."""
_INNER = re.compile(rf"\b{_LEVEL}\s+(?P<inner>[^,;.]{{2,40}}?)\s+{_MEASURE}\b", re.I)
"""'elevated tech volatility', 'low XLU beta': the option named inside the phrase."""
_OWNED = re.compile(
    rf"\bits\s+{_LEVEL}[\s-](?:recent\s+|realized\s+)?{_MEASURE}\b(?!\s+(?:than|vs|versus|relative|compared)\b)",
    re.I,
)
"""'its high beta': the attribute of the option the sentence is about."""
_POSSESSED = re.compile(
    rf"['\u2019]s?\s+{_LEVEL}[\s-](?:recent\s+|realized\s+)?{_MEASURE}\b(?!\s+(?:than|vs|versus|relative|compared)\b)",
    re.I,
)
""""Oil's high recent volatility": the attribute of the option named right before the possessive."""
_LIST_WORDS = re.compile(r"^(?:\s|,|&|/|\band\b|\bthe\b)*$", re.I)
_EXAMPLES = re.compile(
    r"\s*,?\s*(?:such\s+as|like|including|e\.g\.,?|especially\s+in|particularly\s+in|notably\s+in|"
    r"especially|particularly|notably)\s+",
    re.I,
)


def _listed(text: str, lo: int, hi: int, mentions: Sequence[Mention]) -> list[Mention] | None:
    """The options text[lo:hi] lists, when it is nothing but their names and list words; else None."""
    inside = [mm for mm in mentions if lo <= mm.start and mm.end <= hi and not mm.reference]
    if not inside:
        return None
    rest, at = [], lo
    for mm in inside:
        rest.append(text[at : mm.start])
        at = mm.end
    rest.append(text[at:hi])
    return inside if all(_LIST_WORDS.match(part) for part in rest) else None


def _bare_list(text: str, pos: int, mentions: Sequence[Mention]) -> list[Mention] | None:
    """The options named right at ``pos`` when the noun phrase ends with them ("high-beta semis and biotech,",
    "high-beta semis."): a clause's end, a preposition or a verb after the last name; None otherwise."""
    found = _list_after(text, pos, mentions)
    if found is None or found[0].start != pos:
        return None
    return found


def _list_after(text: str, pos: int, mentions: Sequence[Mention]) -> list[Mention] | None:
    """The options a list right at ``pos`` names, up to the clause's end or a word that is none of theirs."""
    after = [mm for mm in mentions if mm.start >= pos and not mm.reference]
    found: list[Mention] = []
    at = pos
    for mm in after:
        if not _LIST_WORDS.match(text[at : mm.start]):
            break
        found.append(mm)
        at = mm.end
    if not found:
        return None
    tail = text[at : at + 30]
    if not re.match(
        r"^\s*(?:[,;.)]|$|\b(?:holdings?|names?|positions?|exposures?|etfs?|funds?|is|are|was|were|has|have|had|"
        r"could|would|may|might|can|will|in|on|into|during|after|before|amid|if|as|while|and\s+(?:a|an|the)\b))",
        tail,
        re.I,
    ):
        return None  # "such as biotech stocks' new highs": the list runs on into something else
    return found


def read_attributes(text: str, add: Emit, mentions: Sequence[Mention]) -> None:
    def emit(m: re.Match[str], options: list[Mention] | None) -> None:
        """One assertion per option (``None``: the option the sentence is about, as "its" says)."""
        measure = m["measure"].lower()
        low = m["adj"].lower() in ("low", "below-market")
        symbols: list[dict[str, Any]] = [{"symbol": mm.symbol} for mm in options] if options is not None else [{}]
        for k, symbol in enumerate(symbols):
            add(
                m,
                keep=k == len(symbols) - 1,
                rule="beta_level" if measure == "beta" else "volatility_level",
                field="beta" if measure == "beta" else "volatility20d",
                polarity=-1 if low else 1,
                presupposed=True,
                **symbol,
            )

    for m in _ATTRIBUTE.finditer(text):
        head = None
        for h in re.finditer(rf"\b(?:{_HEAD})\b", text[m.end() : m.end() + 80], re.I):
            head = h
            break
        if head is None:
            bare = _bare_list(text, m.end(), mentions)
            if bare is not None:
                emit(m, bare)
            continue
        head_at = m.end() + head.start()
        options = _listed(text, m.end(), head_at, mentions)
        bare = _bare_list(text, m.end(), mentions)
        if options is None and bare is not None:  # "high-beta semis": the options themselves, no head noun
            emit(m, bare)
            continue
        if options is None and text[m.end() : head_at].strip() == "":
            examples = _EXAMPLES.match(text, m.end() + head.end())
            options = _list_after(text, examples.end(), mentions) if examples else None
        if options:
            emit(m, options)
    for m in _OWNED.finditer(text):  # "though its high beta and large prior gains ...": the option "it" is
        emit(m, None)
    for m in _POSSESSED.finditer(text):
        owner = next((mm for mm in mentions if mm.end == m.start() and not mm.reference), None)
        if owner is not None:
            emit(m, [owner])
    for m in _INNER.finditer(text):
        options = _listed(text, m.start("inner"), m.end("inner"), mentions)
        if options:
            emit(m, options)
    for m in re.finditer(rf"\b{_LEVEL}\s+{_MEASURE}\b", text, re.I):
        examples = _EXAMPLES.match(text, m.end())
        if examples and examples.group(0).lstrip().startswith(","):
            options = _list_after(text, examples.end(), mentions)
            if options:
                emit(m, options)
