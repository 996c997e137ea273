"""A predicate said of a coordinated list of options is each option's: "Energy, healthcare and financials show
relative strength", "Consumer Staples and Healthcare offer defensive characteristics and have shown recent relative
strength", "Allocates to ENERGY, HEALTHCARE, and FINANCIALS to capitalize on strong recent momentum".

The readers give such a phrase to the option named last before it; this module gives the same claim to every other
option of the list that option closes (names joined by commas, "and", "&" or slashes), when nothing between the
list and the phrase starts another clause or sets another term (a comma, unless "which" or "both" follows it;
"while", "but", "than", "unlike", ...). Only moves,
relative strength and levels are shared (a figure or a superlative belongs to one option); a shared claim is checked
on its own option, to support only: which of the list the writer meant it of is read, not written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ledgers._models import Assertion
from ledgers.reading._clauses import Mention

SHARED_RULES = frozenset({"momentum", "relative_momentum", "beta_level", "volatility_level", "standing"})
_SEPARATOR = re.compile(r"^(?:\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+|\s*/\s*)$", re.I)
_ANOTHER_TERM = re.compile(
    r"[;:.!?()\u2014]|,(?!\s*(?:which|that|both|each|all)\b)|\s-\s|\b(?:while|whereas|but|although|though|unlike|than|versus|vs|compared|relative|except|"
    r"rather|instead|not|into|from|over|after|before|if|unless|when|as|because|since|where|whose|led|driven|by)\b",
    re.I,
)


def subject_list(sentence: str, mentions: Sequence[Mention], pos: int) -> list[Mention]:
    """The coordinated list of options whose last member is the option named last before ``pos`` (at least two
    members), or [] when there is none or another clause or term stands between it and ``pos``."""
    own = [mm for mm in mentions if not mm.reference and mm.end <= pos]
    if len(own) < 2:
        return []
    last = own[-1]
    if _ANOTHER_TERM.search(sentence, last.end, pos):
        return []
    listed = [last]
    for mm in reversed(own[:-1]):
        if not _SEPARATOR.match(sentence[mm.end : listed[0].start]):
            break
        listed.insert(0, mm)
    return listed if len(listed) >= 2 else []


def shared_by_list(
    sentence: str, mentions: Sequence[Mention], read: Sequence[tuple[Assertion, tuple[int, int]]]
) -> list[tuple[Assertion, tuple[int, int]]]:
    """The claims the other members of a list subject share with the one the readers gave the phrase to."""
    out: list[tuple[Assertion, tuple[int, int]]] = []
    have = {(a.symbol, span) for a, span in read}
    for a, span in read:
        if a.rule not in SHARED_RULES or a.symbol is None:
            continue
        listed = subject_list(sentence, mentions, span[0])
        if not listed or listed[-1].symbol != a.symbol:
            continue
        whole = (listed[0].start, span[1])  # the claim spans the list and the phrase: its clause shows both
        for mm in listed[:-1]:
            if (mm.symbol, span) not in have and mm.symbol != a.symbol:
                have.add((mm.symbol, span))
                out.append((a.model_copy(update={"symbol": mm.symbol, "inferred": True, "alternatives": []}), whole))
    return out


__all__ = ["SHARED_RULES", "shared_by_list", "subject_list"]
