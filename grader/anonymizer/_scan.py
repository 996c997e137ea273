"""Searching a text for a long alternation of names without trying it at every character.

Python's ``re`` tries an alternation of hundreds of names at every position of the text, and a pattern that opens
with a lookbehind (``(?<![^\\W_])``, "not inside a word") gets none of its literal-prefix shortcuts: an 8 kB prompt
took 36 ms a search. A name pattern here always starts where a run of letters and digits starts, and that run
begins with the first run of one of its names; :class:`NameScan` walks the text's runs (one C-level pass), keeps
those that begin with such a prefix, and tries the pattern only there (``Pattern.match`` at the run's start, which
sees the text before it, so the lookbehind reads as in a search). It yields exactly the matches
``pattern.finditer`` yields: a match can only start at a run's start, and every such start whose run could begin
the match is tried, in order, resuming after each match as ``finditer`` does.

Not a detector: it knows no names of its own and decides nothing; the scrubber's frames and the independent leak
guard each build their own from their own patterns and names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

__all__ = ["NameScan"]

_RUN = re.compile(r"[^\W_]+")
WORD_START = r"(?<![^\W_])"
"""The lookbehind every scanned pattern opens with: not preceded by a letter or digit."""


def _ascii_twin(ch: str) -> bool:
    """Whether a character outside ASCII matches an ASCII one case-insensitively (the long s, the Kelvin sign)."""
    return not ch.isascii() and any(re.fullmatch(re.escape(ch), a, re.I) for a in _ASCII_ALNUM)


_ASCII_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


class NameScan:
    """``pattern`` (opening with :data:`WORD_START`, then an alternation of ``names``, each written with optional
    separators between its parts, as ``_alt`` writes them) searched by runs (see the module)."""

    def __init__(self, pattern: re.Pattern[str], names: Iterable[str]) -> None:
        if not pattern.pattern.startswith(WORD_START):
            raise ValueError(f"a scanned pattern opens with {WORD_START}: {pattern.pattern[:40]!r}")
        self.pattern = pattern
        self._by_head: dict[str, list[str]] = {}  # the first three letters (or the whole of a shorter prefix)
        self._whole = False  # True: a name may start elsewhere than a run's start; the pattern is searched as is
        for name in names:
            run = _RUN.match(name)
            if run is None or (not run.group(0).isascii() and any(map(_ascii_twin, run.group(0)))):
                self._whole = True  # it opens with a sign or a separator, or "ſ" that reads as "s" under re.I
                continue
            prefix = run.group(0).lower()
            self._by_head.setdefault(prefix[:3], []).append(prefix)

    def _may_start(self, word: str) -> bool:
        if not word.isascii():  # case folding beyond ASCII: tried, never guessed
            return True
        low = word.lower()
        heads = self._by_head
        for head in (low[:3], low[:2], low[:1]):
            if head in heads and any(low.startswith(p) for p in heads[head]):
                return True
        return False

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match[str]]:
        """The matches ``pattern.finditer(text, pos, endpos)`` yields, in order."""
        end = len(text) if endpos is None else min(endpos, len(text))
        if self._whole:
            yield from self.pattern.finditer(text, pos, max(pos, end))
            return
        resume = pos
        for run in _RUN.finditer(text, pos, end):
            start = run.start()
            if start < resume or not self._may_start(run.group(0)):
                continue
            m = self.pattern.match(text, start, end)
            if m is not None:
                yield m
                resume = max(m.end(), start + 1)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        """The first match, as ``pattern.search`` finds it."""
        return next(self.finditer(text, pos, endpos), None)
