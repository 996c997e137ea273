"""The author's own lab named beside its scrubbed name: "[model] (de Meta)", "an Alibaba-built [model]",
'{"signer": "[model]", "org": "alibaba"}' describe the author; the same lab in news in its own clause, or another
lab, do not (grader/anonymizer/README.md)."""

from __future__ import annotations

import re

from grader.anonymizer import _patterns as P
from grader.anonymizer._detector import Group
from grader.anonymizer._market import MARKET_WORDS, MONEY, PIECE_ENDS, about_topic

_PLACED = re.compile(r"\[(?:model|self-reference|undisclosed|provider)\]")
"""What the scrubber put in place of an identity (a piece holding one is about the author)."""
_PIECE_END = re.compile(r"[!?;:\n|\u2014\u2013\u3002\uff01\uff1f\uff1a\uff1b]|\.(?=\s|$)|\s-\s")
_FULL_WIDTH_ENDS = ("\u3002", "\uff01", "\uff1f", "\uff1a", "\uff1b")
"""The full stops, colons and semicolons of Chinese and Japanese, which end a piece as their ASCII forms do: "私は
[self-reference] です。Anthropic の東京オフィス開設は ...", "我看好美光：xAI 的 Colossus 扩建 ..." name the lab in the next
piece, not beside the author's name."""
_RECORD = re.compile(r"\{[^{}\n]*\}")
_WHOLE_VALUE_END = re.compile(r"[\"']?\s*(?:[,}]|$)")
_WORD = re.compile(r"\w+")
_RECORD_VALUE = re.compile(r"[\"']?[\w\s-]{1,20}[\"']?\s*[:=]\s*[\"']?$")
"""A key right before a value ('"org":"', "lab = ")."""
_PROVIDER_SUFFIX = re.compile(
    r"(?i)[\s\-]+(?:ai|pbc|platforms?|cloud|corp|holdings|llc|labs?|research|brain|"
    r"superintelligence)$"
)
_PARENTS = {"facebook": "meta", "fair": "meta", "alphabet": "google", "deepmind": "google"}


def provider_family(token: str) -> str:
    """The family a provider name belongs to: 'Google DeepMind' -> google, 'Meta Platforms' -> meta."""
    name = token.strip()
    while (m := _PROVIDER_SUFFIX.search(name)) is not None and m.start() > 0:
        name = name[: m.start()]
    key = P.family_key(name)
    return _PARENTS.get(key, key)


def piece_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The piece of ``text`` a name stands in: between two of ``.!?;:|``, a dash or a line end."""
    lo = max((m.end() for m in _PIECE_END.finditer(text, 0, start)), default=0)
    hi = next((m.start() for m in _PIECE_END.finditer(text, end)), len(text))
    return lo, hi


def records_around(text: str, start: int, end: int) -> list[str]:
    """The one-line records ('{"signer": ..., "org": ...}') a name sits in."""
    return [m.group(0) for m in _RECORD.finditer(text) if m.start() <= start and end <= m.end()]


def _gaps_to_placeholders(piece: tuple[int, int], text: str, g: Group) -> list[str]:
    """The text between the name and each placeholder of its piece."""
    lo, hi = piece
    out = []
    for m in _PLACED.finditer(text, lo, hi):
        out.append(text[m.end() : g.start] if m.end() <= g.start else text[g.end : m.start()])
    return out


def names_own_lab(text: str, g: Group, author_family: str | None, tickers: re.Pattern[str] | None) -> bool:
    """The author's own lab named within four words of its scrubbed name in the same piece ("[model]（Google 製）",
    "[model], reporting for the OpenAI seat"), or as a whole value of a record that holds it ('{"signer":"[model]",
    "org":"alibaba"}'), with no news word, sum of money ("$50B US data-center plan") or ticker in the lab's own
    clause: the author describing itself. Another lab, or the author's lab in news ("Meta Platforms (META) cut
    ..."), stays."""
    if author_family is None or provider_family(text[g.start : g.end]) != author_family:
        return False
    ends = (*PIECE_ENDS, *_FULL_WIDTH_ENDS)  # the lab beside its name never across a piece's end, in any script
    lo = max(text.rfind(c, 0, g.start) for c in ends) + 1
    found = [i for i in (text.find(c, g.end) for c in ends) if i != -1]
    hi = min(found) if found else len(text)
    if (
        MARKET_WORDS.search(text, max(lo, g.start - 40), min(hi, g.end + 40))
        or MONEY.search(text, max(lo, g.start - 80), min(hi, g.end + 80))
        or (tickers is not None and tickers.search(text, lo, hi))
    ):
        return False  # news of the lab in its own clause, even beside the author's name: kept
    record = _RECORD_VALUE.search(text, max(0, g.start - 40), g.start)
    if (
        record is not None
        and record.end() == g.start
        and _WHOLE_VALUE_END.match(text, g.end)
        and any(_PLACED.search(r) for r in records_around(text, g.start, g.end))
    ):
        return True  # '{"signer":"[model]","org":"alibaba"}': a value of the author's own record
    if about_topic(text, g.start):
        return False  # "[model] model on OpenAI risk": what the author writes about
    piece = piece_around(text, g.start, g.end)
    return any(len(_WORD.findall(between)) <= 4 for between in _gaps_to_placeholders(piece, text, g))
