"""A number found in a text (``NumberHit``: its value as stated, what it is bound to, its sign, approximation and
forecast words; found by ``_numbers.find_numbers``) and the assertion it makes (``number_assertion``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ledgers._models import Assertion, Op, RuleName
from ledgers._registry import FIELD_SPECS
from ledgers._units import StatedNumber
from ledgers.reading._horizons import HORIZON_FIELDS


@dataclass(frozen=True, slots=True)
class NumberHit:
    """A number in a text with its binding (used by extraction and by the judge-note quote check)."""

    start: int
    end: int
    stated: StatedNumber
    binding_rule: str
    field: str | None
    horizon: str | None
    relative: bool
    approx: bool
    op: Op
    span: tuple[int, int]
    forecast: bool
    forecast_start: int = -1
    ordinal: int = -1  # index among all number tokens of the text
    negated: bool = False  # the stated value was made negative by a word ("fell 5%", "8% below")
    bare: bool = False  # a window and a figure, the measure unsaid ("5s +0.85%"): see ``Assertion.bare``
    unbound: bool = False  # no field, window or context word around it ("healthcare sector strength of 4.26%")
    inferred: bool = False  # its window was taken from earlier in the sentence
    sign_word: str | None = None  # the word right before it that says which way ("down 1.90%", "Up 3.39%")
    key: str | None = None  # the key it is the value of, when that key is not read ("mdd_21s=-7.32%")


def number_assertion(hit: NumberHit, symbol: str | None, benchmark: str | None, text: str = "") -> Assertion:
    raw_rule = hit.binding_rule
    if hit.forecast:
        raw = text[hit.forecast_start : hit.end] if text and hit.forecast_start >= 0 else hit.stated.raw
        return Assertion(rule="forecast", symbol=symbol, raw=raw)
    if raw_rule == "briefing":
        return Assertion(rule="briefing", symbol=symbol, raw=hit.stated.raw)
    if raw_rule == "unread_key":  # never matched to whatever field the value happens to equal
        return Assertion(
            rule="unrecognised", symbol=symbol, raw=f"the key '{hit.key}' names a field not read ({hit.stated.raw})"
        )
    field_name = hit.field
    horizon = hit.horizon
    if raw_rule in ("return", "relative_return", "return_or_relative"):
        field_name = HORIZON_FIELDS.get(horizon or "", None)
    spec_unit = FIELD_SPECS[field_name].unit if field_name else "fraction"
    if raw_rule in (
        "return",
        "relative_return",
        "return_or_relative",
        "distance_52w_high",
        "distance_52w_low",
        "distance_sma",
        "analyst_upside",
        "near_52w_extreme",
    ):
        spec_unit = "fraction"
    value, tol = hit.stated.in_unit(spec_unit)
    rule: RuleName
    if raw_rule == "return":
        rule = "exact_numeric" if field_name else "derived_return"
        if hit.op != "eq":
            rule = "threshold"
    elif raw_rule == "relative_return":
        rule = "relative_return"
    elif raw_rule == "exact_numeric" and hit.op != "eq":
        rule = "threshold"
    else:
        rule = cast(RuleName, raw_rule)  # the binding rules left here are rule names (Assertion validates it)
    return Assertion(
        rule=rule,
        symbol=symbol,
        field=field_name,
        stated=value,
        tolerance=tol,
        approx=hit.approx,
        op=hit.op,
        window=None,
        benchmark=benchmark if raw_rule in ("relative_return", "return_or_relative") else None,
        label="within" if rule == "near_52w_extreme" else horizon,
        bare=hit.bare,
        inferred=hit.inferred,
        raw=f"{hit.sign_word} {hit.stated.raw}" if hit.sign_word else hit.stated.raw,
    )
