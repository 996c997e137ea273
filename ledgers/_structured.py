"""Structured assertions of a judge's ledger entry (output schema grade-v2) as verifier assertions.

A judge that states ``{subject, field, kind, value, relative_to, rank, order, group, horizon}`` is checked
exactly on what it states: no sentence is re-read. One rule per kind:

- ``value``: the field equals the value (``exact_numeric``; precision from the digits the judge wrote, or 2%);
- ``above`` / ``below`` with a value: ``threshold``; with ``relative_to``: ``compare`` (the same field of both);
- ``rank``: ``ranking`` on that one field, among the universe or the subject's sector peers.

A field outside the registry, or a kind without what it needs, becomes an ``unrecognised`` assertion whose
reason says what was missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from ledgers._groups import find_group
from ledgers._models import Assertion
from ledgers._registry import FIELD_SPECS, resolve_field
from ledgers._units import NUMBER_PATTERN, number_from_match


def _precision(value: float, field: str, text: str) -> float:
    """Half a unit of the last digit written: of the same number in the claim's words when it is there ("P/E of
    27.0" -> 0.05, "up 18%" -> 0.005), else of the JSON number (which loses trailing zeros: 27.0 -> 0.5)."""
    unit = FIELD_SPECS[field].unit if field in FIELD_SPECS else "ratio"
    for m in re.finditer(NUMBER_PATTERN, text):
        try:
            stated = number_from_match(m)
        except (ValueError, IndexError):
            continue
        for sign in (1, -1):  # "down 8.4%" is written without its sign
            got, tol = stated.in_unit(unit)
            if abs(sign * got - value) <= 1e-9 * max(1.0, abs(value)):
                return tol
    exponent = Decimal(repr(float(value))).normalize().as_tuple().exponent
    return 0.5 * 10.0 ** min(0, int(exponent))


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)


def structured_assertions(items: Iterable[Any], default_symbol: str | None = None, text: str = "") -> list[Assertion]:
    """Verifier assertions for a ledger entry's structured assertions (dicts or ``ClaimAssertion`` models);
    ``text`` (the claim's words) tells how precisely each value was written."""
    out: list[Assertion] = []
    for item in items:
        subject = str(_get(item, "subject") or default_symbol or "") or None
        raw_field = str(_get(item, "field") or "")
        field = resolve_field(raw_field) if raw_field else None
        kind = _get(item, "kind")
        value = _get(item, "value")
        words = (
            f"{value:g}"
            if isinstance(value, int | float) and not isinstance(value, bool)
            else (f"{kind} {_get(item, 'relative_to') or ''}".strip())
        )
        if field is None:
            out.append(
                Assertion(
                    rule="unrecognised", symbol=subject, raw=f"unknown field {raw_field!r} in a structured assertion"
                )
            )
            continue
        if kind == "value" and isinstance(value, int | float) and not isinstance(value, bool):
            out.append(
                Assertion(
                    rule="exact_numeric",
                    symbol=subject,
                    field=field,
                    stated=float(value),
                    tolerance=_precision(float(value), field, text),
                    raw=words,
                )
            )
        elif kind in ("above", "below") and _get(item, "relative_to"):
            out.append(
                Assertion(
                    rule="compare",
                    symbol=subject,
                    field=field,
                    benchmark=str(_get(item, "relative_to")),
                    op="gt" if kind == "above" else "lt",
                    raw=words,
                )
            )
        elif kind in ("above", "below") and isinstance(value, int | float) and not isinstance(value, bool):
            out.append(
                Assertion(
                    rule="threshold",
                    symbol=subject,
                    field=field,
                    stated=float(value),
                    op="gt" if kind == "above" else "lt",
                    raw=words,
                )
            )
        elif kind == "rank":
            group = str(_get(item, "group") or "universe").lower()
            named = find_group(group)
            scope = (
                "universe"
                if group in ("universe", "all") or (named and named.name == "universe")
                else f"group:{named.name}"
                if named is not None and named.sets
                else "group"
            )
            rank = _get(item, "rank")
            out.append(
                Assertion(
                    rule="ranking",
                    symbol=subject,
                    field=field,
                    label=scope,
                    window=int(rank) if isinstance(rank, int) and rank > 0 else 1,
                    polarity=-1 if _get(item, "order") == "lowest" else 1,
                    raw=f"{subject} rank {rank or 1} by {field} ({_get(item, 'order') or 'highest'} first, {group})",
                )
            )
        else:
            out.append(
                Assertion(
                    rule="unrecognised",
                    symbol=subject,
                    raw=f"structured assertion of kind {kind!r} without the value it needs",
                )
            )
    return out


def to_structured(assertion: Assertion) -> dict[str, Any] | None:
    """The structured form of a parsed assertion (for a grade-v2 ledger written by the reference judge), or
    None when the assertion is not a single-field statement (a qualitative phrase, a forecast, a briefing)."""
    from ledgers.reading import HORIZON_FIELDS

    a = assertion
    field = a.field or (HORIZON_FIELDS.get(a.label or "") if a.rule == "derived_return" else None)
    if a.symbol is None or field is None or a.stated is None and a.rule != "ranking":
        return None
    base = {
        "subject": a.symbol,
        "field": field,
        "value": None,
        "relative_to": None,
        "rank": None,
        "order": None,
        "group": None,
        "horizon": a.label if a.label and a.label[:-1].isdigit() else None,
    }
    if a.rule in ("exact_numeric", "derived_return") and a.op == "eq":
        return {**base, "kind": "value", "value": a.stated}
    if a.rule == "threshold":
        return {**base, "kind": "above" if a.op == "gt" else "below", "value": a.stated}
    if a.rule == "ranking" and not a.horizons and a.field in FIELD_SPECS:
        return {
            **base,
            "kind": "rank",
            "rank": a.window or 1,
            "order": "lowest" if a.polarity < 0 else "highest",
            "group": "universe" if a.label == "universe" else (a.label or "")[len("group:") :] or None,
            "horizon": None,
        }
    return None
