"""Round briefings made compact for judges without dropping a citable value.

A CapitalBench briefing is markdown: a few paragraphs and many tables, and consecutive rounds repeat most rows
word for word. Three rules, each exact (a reader can recover every cell):

1. A table row identical to a row an earlier briefing of the same record wrote out is not repeated: it is named by
   its key (the first column whose values are unique in the table; the line names that column) under the table,
   with the briefing that has it in full (never a chain of references).
2. A column with one value in every (remaining) row is stated once above the table.
3. A cell equal to the cell above it in the same column is written ``"`` (ditto).

Cells are separated by `` | `` without the outer pipes, and the alignment row is dropped. Text outside tables, and a
table with a row longer than its header, are kept as written. Only earlier briefings are ever referred to, so nothing of a later round reaches an earlier
decision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["LEGEND", "BriefingMemory", "compact_briefing"]

LEGEND = (
    'Briefing tables are compacted without losing a value: cells are separated by " | "; "(every row: ...)" '
    'gives a column that has one value in every row; a cell " repeats the cell above it; rows identical to '
    "an earlier briefing in this record are named by their key under the table, with the briefing that has them "
    "in full, instead of repeated."
)

_ALIGN = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_MIN_DITTO_CHARS = 4  # shorter cells are written out: a ditto would save nothing


@dataclass
class _Table:
    header: list[str]
    rows: list[list[str]]
    lines: list[str]
    """The table as written (a ragged table, with a row longer than its header, is kept as written)."""

    @property
    def ragged(self) -> bool:
        return any(len(r) > len(self.header) for r in self.rows)


def _cells(line: str) -> list[str]:
    s = line.strip()
    s = s[1:] if s.startswith("|") else s
    s = s[:-1] if s.endswith("|") else s
    return [c.strip() for c in s.split("|")]


def _blocks(text: str) -> list[str | _Table]:
    """The briefing as text lines and tables (a header line, an alignment line, then rows starting with a pipe)."""
    lines = text.split("\n")
    out: list[str | _Table] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("|") and i + 1 < len(lines) and _ALIGN.match(lines[i + 1].strip()):
            header = _cells(line)
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                cells = _cells(lines[j])
                rows.append(cells + [""] * (len(header) - len(cells)))
                j += 1
            out.append(_Table(header, rows, lines[i:j]))
            i = j
        else:
            out.append(line)
            i += 1
    return out


def _row_key(row: list[str]) -> tuple[str, ...]:
    return tuple(row)


def _key_column(table: _Table) -> int | None:
    """The first column whose values are unique, non-empty and plain (no comma or parenthesis, at most 80
    characters), so a list of them reads unambiguously (None: there is none, and no row is named instead of
    written)."""
    for k in range(len(table.header)):
        values = [r[k] for r in table.rows]
        if (
            all(values)
            and len(set(values)) == len(values)
            and not any(_UNPLAIN.search(v) or len(v) > 80 for v in values)
        ):
            return k
    return None


_UNPLAIN = re.compile(r"[,()]")


class BriefingMemory:
    """What the earlier briefings of one record wrote out: each table row -> the briefing that has it in full, and
    each briefing's tables (to check that a key names exactly one row there)."""

    def __init__(self) -> None:
        self.source: dict[tuple[str, ...], str] = {}
        self.tables: dict[tuple[str, tuple[str, ...]], list[tuple[str, ...]]] = {}

    def unambiguous(self, row: tuple[str, ...], header: list[str], key: int) -> bool:
        """The row's key picks out exactly one row among the same-headed tables of the briefing that has it."""
        rows = self.tables.get((self.source[row], tuple(header)), [])
        return sum(1 for r in rows if len(r) > key and r[key] == row[key]) == 1

    def remember(self, label: str, written: list[tuple[list[str], list[tuple[str, ...]]]]) -> None:
        for header, rows in written:
            self.tables.setdefault((label, tuple(header)), []).extend(rows)
            self.source.update(dict.fromkeys(rows, label))


def _render_table(table: _Table, memory: BriefingMemory | None, here: list) -> list[str]:
    key = _key_column(table)
    repeated: list[list[str]] = []
    if memory is not None and key is not None:
        repeated = [r for r in table.rows if tuple(r) in memory.source]
        if not all(memory.unambiguous(tuple(r), table.header, key) for r in repeated):
            repeated = []  # a key that would not name one row there: every row is written out
    named = {tuple(r) for r in repeated}
    rows = [r for r in table.rows if tuple(r) not in named]
    n = len(table.header)
    constant = [k for k in range(1, n) if len(rows) >= 3 and len({r[k] for r in rows}) == 1]
    keep = [k for k in range(n) if k not in constant]
    out = []
    if constant:
        out.append("(every row: " + "; ".join(f"{table.header[k]} = {rows[0][k] or '(empty)'}" for k in constant) + ")")
    out.append(" | ".join(table.header[k] for k in keep))
    above: list[str] | None = None
    for row in rows:
        cells = []
        for k in keep:
            value = row[k]
            if above is not None and k != key and value == above[k] and len(value) >= _MIN_DITTO_CHARS:
                value = '"'
            cells.append(value)
        out.append(" | ".join(cells))
        above = row
    if repeated and memory is not None and key is not None:  # (rows repeat only when both are known)
        by_source: dict[str, list[str]] = {}
        for r in repeated:
            by_source.setdefault(memory.source[tuple(r)], []).append(r[key])
        for source, names in by_source.items():
            out.append(
                f"(as written in the briefing of {source}, {len(names)} more row(s) by {table.header[key]}: "
                f"{', '.join(names)})"
            )
    here.append((table.header, [tuple(r) for r in rows]))
    return out


def compact_briefing(text: str, memory: BriefingMemory | None = None, label: str | None = None) -> str:
    """``text`` with its tables compacted (module docstring). With ``memory`` (the record's earlier briefings), rows
    one of them wrote out are named instead of repeated, and the rows written here are remembered under
    ``label``."""
    out: list[str] = []
    here: list = []  # tables written out in this briefing: referable from the next ones only
    for block in _blocks(text):
        if isinstance(block, _Table) and block.ragged:
            out.extend(block.lines)
        elif isinstance(block, _Table):
            out.extend(_render_table(block, memory, here))
        else:
            out.append(block)
    if memory is not None and label is not None:
        memory.remember(label, here)
    return "\n".join(out)
