"""Names the scrubber finds and keeps verbatim because the structure around them says they are not the author: a
key or value of a data record, and a model line that is part of another proper name (a person, a place, a brand).
Each is a ``Kept`` with its reason in the scrub record."""

from __future__ import annotations

import re

from grader.anonymizer._detector import public_names
from grader.anonymizer._market import PIECE_ENDS, author_speaks_of

__all__ = ["json_datum", "other_proper_name", "table_datum"]

_NAME_PART_AFTER = re.compile(r" (?P<part>[A-Z][a-z]{2,}(?:[A-Z][a-z]+)*)(?:'s)?\b")
"""A capitalised word right after a one-word model line: the line is a first name or part of another proper name
("Claude Shannon's information theory", "Claude Littner, the new CFO", "Le Chat Noir"; a company's word in camel
case too: "Sonnet BioTherapeutics (SONN) jumped"), unless the word is a
name of the lexicon or a model word ("Claude Opus", "Gemini Ultra")."""
_MODEL_WORDS = frozenset(
    """pro max mini nano plus turbo flash lite ultra large medium small instruct chat latest
thinking heavy preview base vision omni fast coder code model models desk agent assistant bot app api advanced live
enterprise business team teams workspace studio search deep research voice canvas projects agents cloud labs premium
edu gov for""".split()
)


_AUTHORSHIP_KEY = re.compile(
    r"(?i)[\"'][\w\s-]*(?:model|provider|vendor|family|author|lab|engine|llm|tier|agent|signer|signature|signed|built|"
    r"made|powered|creator|maker|org|organisation|organization|by|from|writer|who|route|version|build|bot|assistant|"
    r"source)[\w\s-]*[\"']\s*:"
)
"""A key of a data record that says who wrote it (its record is then no market datum)."""


def json_datum(text: str, start: int, end: int) -> bool:
    """The name is a whole quoted key or value of a ``{...}`` record on its line whose keys say nothing of who wrote
    it ('{"event": "outage", "service": "ChatGPT"}', '{"rank": {"ChatGPT": 1, "Grok": 3}}'): a market datum."""
    if text[start - 1 : start] not in ('"', "'") or text[end : end + 1] != text[start - 1 : start]:
        return False
    lo, hi = text.rfind("\n", 0, start) + 1, text.find("\n", end)
    line = text[lo:] if hi == -1 else text[lo:hi]
    opened = line.rfind("{", 0, start - lo)
    if opened == -1 or "}" not in line[end - lo :]:
        return False
    key_or_value = re.match(r"\s*:", text[end + 1 :]) or re.search(r"[\"']\s*:\s*$", text[lo : start - 1])
    return bool(key_or_value) and not _AUTHORSHIP_KEY.search(line)


_NAME_PART_BEFORE = re.compile(r"(?<![\w-])(?P<part>[A-Z][a-z]{2,})-$")
"""A capitalised word joined by a hyphen right before a one-word model line: the line is the second half of a place or
a person's name ("Saint-Claude (Jura)", "Jean-Claude"), unless the word is a name of the lexicon or a model word
("Meta-Llama")."""


def other_proper_name(text: str, start: int, end: int) -> bool:
    """A one- or two-word model line, no version, followed by a capitalised word that no lexicon or model word
    is (``_NAME_PART_AFTER``), or joined to one before it by a hyphen (``_NAME_PART_BEFORE``), in a piece where the
    author does not speak."""
    mention = text[start:end]
    if any(ch.isdigit() for ch in mention) or len(mention.split()) > 2 or not mention[:1].isupper():
        return False
    before = _NAME_PART_BEFORE.search(text, max(0, start - 30), start)
    if (
        before is not None
        and len(mention.split()) == 1
        and before.group("part").lower() not in public_names()
        and before.group("part").lower() not in _MODEL_WORDS
        and not re.match(r"[\-_.]?\s?v?\d", text[end : end + 3])
    ):
        lo = max(text.rfind(c, 0, start) for c in PIECE_ENDS) + 1
        hi_all = [i for i in (text.find(c, end) for c in PIECE_ENDS) if i != -1]
        hi = min(hi_all) if hi_all else len(text)
        if not author_speaks_of(text[lo:hi], start - lo, end - lo):
            return True
    m = _NAME_PART_AFTER.match(text, end)
    if m is None or m.group("part").lower() in public_names() or m.group("part").lower() in _MODEL_WORDS:
        return False
    lo = max(text.rfind(c, 0, start) for c in PIECE_ENDS) + 1
    return not author_speaks_of(text[lo : m.end()], start - lo, end - lo)


_AUTHORSHIP_CELL = re.compile(
    r"(?i)^\s*(?:author|auteur|autor|autore|verfasser|作者|model|modell|modèle|modelo|provider|vendor|family|llm|agent|"
    r"speaker|writer|signer|signed|signature|sig|by|who|bot|engine|lab|source|system|generated\s+by|written\s+by|"
    r"desk|assistant|field|key|attribute|property|parameter|item|value|from)\s*$"
)
"""A cell that makes a table a record of who wrote it: an authorship column, or a key/value table ("| field | value |",
"| system | ... |")."""
_SEPARATOR_ROW = re.compile(r"^\s*\|?(?:\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*$")


def table_datum(text: str, start: int, end: int) -> bool:
    """The name stands in a body cell of a markdown table with a header row and its separator ("| benchmark | leader
    |" over "|---|---|"), none of whose cells names an authorship column or a key/value record (author, model,
    speaker, system, field, ...), in a row with no first person ("| SWE-bench | Qwen3-Coder-480B |"): a market
    datum, not who wrote the text."""
    lo, hi = text.rfind("\n", 0, start) + 1, text.find("\n", end)
    hi = len(text) if hi == -1 else hi
    row = text[lo:hi].strip()
    if not (row.startswith("|") and row.endswith("|") and row.count("|") >= 3):
        return False
    if re.search(r"\b(?:I|I'm|me|my|we|our)\b", row):
        return False
    lines = text.split("\n")
    at = text.count("\n", 0, start)
    first = at
    while first > 0 and lines[first - 1].strip().startswith("|"):
        first -= 1
    last = at
    while last + 1 < len(lines) and lines[last + 1].strip().startswith("|"):
        last += 1
    if at < first + 2 or last - first < 2 or not _SEPARATOR_ROW.match(lines[first + 1]):
        return False  # no header row and separator, or the name stands in the header
    cells = [c for line in lines[first : last + 1] for c in line.strip().strip("|").split("|")]
    return not any(_AUTHORSHIP_CELL.match(c) for c in cells)
