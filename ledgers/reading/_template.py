"""The template cache: judges write the same sentence shapes with different numbers ("RSI at 61.3", "RSI at
58.9"). A number with a decimal point, a sign-independent suffix (%, $, x, K/M/B) or a currency sign never
changes how a text is bound (only plain integers can be dates, years or index names), so those numbers are
replaced by a placeholder, the template is parsed once, and the real numbers are put back into its
assertions."""

from __future__ import annotations

import re
from functools import lru_cache

from ledgers._models import Assertion
from ledgers._registry import FIELD_SPECS
from ledgers._units import number_from_match
from ledgers.reading._number_assertion import NumberHit
from ledgers.reading._numbers import NUM_RE
from ledgers.reading._text import falls_by_word, parse_text, replace
from ledgers.reading._vocab import sign_word_before

_INT = r"(?:\d{1,3}(?:,\d{3})+|\d+)"


_TEMPLATE_RE = re.compile(
    rf"(?<![\w.]){_INT}\.\d+"  # decimals
    rf"|(?<![\w.]){_INT}(?=\s?(?:%|x\b|pp\b|bps\b|percent\b))"  # integers with a % / x / bps suffix
    rf"|(?<=\$){_INT}|(?<=\$ ){_INT}"  # currency amounts
)


def _placeholder(m: re.Match[str]) -> str:
    return "1.5" if "." in m.group(0) else "7"  # plain integers ("6m", "2026", "S&P 500") stay as written


@lru_cache(maxsize=50_000)
def skeleton(template: str, cited: tuple[str, ...], benchmark: str | None):
    symbol = None  # without mentions every assertion is about the claim's symbol: filled in afterwards
    parsed = parse_text(template, symbol, cited, (), benchmark)
    out: list[tuple[Assertion, NumberHit | None]] = list(zip(parsed.assertions, parsed.numbers, strict=True))
    if parsed.forecast_spans and not any(a.rule == "forecast" for a in parsed.assertions):
        s, e = parsed.forecast_spans[0]
        out.append((Assertion(rule="forecast", symbol=symbol, raw=template[s:e]), None))
    return tuple(out)


def parse_assertions_cached(
    text: str, symbol: str | None, cited_fields: tuple[str, ...] = (), benchmark: str | None = None
) -> list[Assertion]:
    """``parse_assertions`` through the template cache (same result, much faster on repeated shapes)."""
    numbers = None
    out: list[Assertion] = []
    template = _TEMPLATE_RE.sub(_placeholder, text)
    for assertion, hit in skeleton(template, cited_fields, benchmark):
        if assertion.symbol is None and symbol is not None:
            if assertion.rule == "compare" and assertion.benchmark == symbol:
                continue  # an option compared with itself: dropped, as the parser drops it (``qualitative``)
            assertion = replace(assertion, symbol=symbol)  # the skeleton is parsed without a symbol
        if hit is None:
            out.append(assertion)
            continue
        if numbers is None:
            numbers = list(NUM_RE.finditer(text))
        if assertion.stated is None:  # briefing or forecast: only the words shown change
            if assertion.rule == "forecast" and hit.forecast_start >= 0:
                shift = sum(
                    len(n.group(0)) - len(t.group(0))
                    for n, t in zip(numbers, NUM_RE.finditer(template), strict=False)
                    if t.end() <= hit.forecast_start
                )
                raw = text[hit.forecast_start + shift : numbers[hit.ordinal].end()]
            else:
                raw = number_from_match(numbers[hit.ordinal]).raw
            out.append(replace(assertion, raw=raw))
            continue
        stated = number_from_match(numbers[hit.ordinal])
        written_sign = stated.explicit_sign
        if hit.negated and not stated.explicit_sign:
            stated = stated.negated()
        unit = (
            "fraction"
            if assertion.field is None or assertion.rule in _FRACTION_RULES
            else FIELD_SPECS[assertion.field].unit
        )
        value, tol = stated.in_unit(unit)
        if assertion.rule == "any_field" and stated.percent and not written_sign:
            if falls_by_word(text, numbers[hit.ordinal].start()):  # "lost 3.21%", as ``parse_text`` reads it
                value = -abs(value)
        raw = stated.raw
        if not written_sign and hit.binding_rule in ("return", "exact_numeric", "derived_return"):
            start = numbers[hit.ordinal].start()
            word = sign_word_before(text[max(0, start - 40) : start], hit.negated)  # as ``find_numbers`` reads it
            if word is not None:
                raw = f"{word} {stated.raw}"
        out.append(replace(assertion, stated=value, tolerance=tol, raw=raw))
    return out


_FRACTION_RULES = frozenset(
    {
        "relative_return",
        "return_or_relative",
        "distance_52w_high",
        "distance_52w_low",
        "distance_sma",
        "analyst_upside",
        "near_52w_extreme",
        "derived_return",
    }
)
