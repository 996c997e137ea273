"""A markdown table written inside a rationale ("| option | 30d | vol | note |", a separator row, one row per
option): structure before prose. Each data row belongs to the option its cell names; each other cell is read under
its column's header ("vol" + "20.00%" is that option's volatility, not whatever field 20.00% happens to equal).

Only a table that says it is one is read this way: a header row, then a separator row of dashes. A row whose cells
name no option, or two, is left to the ordinary reader.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["TableCell", "TableRow", "table_rows"]

_ROW = re.compile(r"(?m)^[ \t]*\|.*\|[ \t]*$")
_SEPARATOR = re.compile(r"^[ \t]*\|(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*$")


@dataclass(frozen=True)
class TableCell:
    start: int
    end: int
    header: str
    """The column's header as written ("vol 30d", "vs SPY 30d", "note")."""


@dataclass(frozen=True)
class TableRow:
    start: int
    end: int
    """The whole row line in the text."""
    symbol: str
    """The option the row's own cell names."""
    cells: tuple[TableCell, ...]
    """Every other non-empty cell, with its header."""


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each cell's stripped text between the pipes of one row line."""
    line = text[start:end]
    bars = [i for i, c in enumerate(line) if c == "|"]
    out = []
    for a, b in zip(bars, bars[1:], strict=False):
        lo, hi = start + a + 1, start + b
        while lo < hi and text[lo] in " \t":
            lo += 1
        while hi > lo and text[hi - 1] in " \t":
            hi -= 1
        out.append((lo, hi))
    return out


def table_rows(text: str, resolve: Callable[[str], str | None]) -> list[TableRow]:
    """The data rows of every markdown table in ``text`` whose row names exactly one option (``resolve`` gives the
    option a cell's whole text names, or None)."""
    if "|" not in text:
        return []
    lines = list(_ROW.finditer(text))
    rows: list[TableRow] = []
    i = 0
    while i + 1 < len(lines):
        head, sep = lines[i], lines[i + 1]
        joined = text[head.end() : sep.start()].strip("\n") == "" and text.count("\n", head.end(), sep.start()) == 1
        if not (joined and _SEPARATOR.match(sep.group(0))):
            i += 1
            continue
        headers = [text[a:b] for a, b in _cells(text, head.start(), head.end())]
        j = i + 2
        previous = sep
        while j < len(lines) and text.count("\n", previous.end(), lines[j].start()) == 1:
            row = lines[j]
            cells = _cells(text, row.start(), row.end())
            named = [(k, resolve(text[a:b])) for k, (a, b) in enumerate(cells) if a < b]
            options = [(k, s) for k, s in named if s is not None]
            if len(options) == 1 and len(cells) == len(headers):
                own = options[0][0]
                rows.append(
                    TableRow(
                        row.start(),
                        row.end(),
                        options[0][1],
                        tuple(
                            TableCell(a, b, headers[k].strip())
                            for k, (a, b) in enumerate(cells)
                            if k != own and a < b and headers[k].strip()
                        ),
                    )
                )
            previous = row
            j += 1
        i = j
    return rows
