"""CSV: a cell a spreadsheet would evaluate (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return,
e.g. a display name ``=HYPERLINK(...)``) is neutralised with a leading apostrophe, as OWASP recommends. Numbers
are written as numbers: a number, or a string that is one (``-0.25``), is left alone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def for_csv(value: Any) -> Any:
    """A cell value safe for a spreadsheet: strings that would start a formula get a leading apostrophe."""
    if isinstance(value, str) and value.startswith(_FORMULA_START) and not _is_number(value):
        return "'" + value
    return value


def for_csv_row(values: Iterable[Any]) -> list[Any]:
    return [for_csv(v) for v in values]
