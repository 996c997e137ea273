"""Distances: close vs the 52-week high/low or a moving average, upside to the analyst target, at/near a
52-week extreme."""

from __future__ import annotations

from grader.pit import Observation
from ledgers._models import Assertion
from ledgers.rules._base import (
    CON,
    NV,
    SUP,
    Ctx,
    RuleResult,
    as_float,
    compare_fraction,
    fmt,
    missing,
    ratio,
    when,
)

_STORED_DISTANCE = {"week52High": "distance52wHigh", "week52Low": "distance52wLow"}
"""A table may give the distance itself (CapitalBench) rather than the 52-week extreme."""


def stored_ratio(ctx: Ctx, sym: str, num: str, den: str) -> tuple[float | None, list[Observation]]:
    value, ev = ratio(ctx, sym, num, den)
    if value is None and num == "close" and den in _STORED_DISTANCE:
        o = ctx.get(sym, _STORED_DISTANCE[den])
        if o is not None:
            return as_float(o), [o]
    return value, ev


def _distance(ctx: Ctx, a: Assertion, num: str, den: str, what: str) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, den)
    value, ev = stored_ratio(ctx, sym, num, den)
    if value is None:
        return missing(ctx, sym, f"{num}/{den}")
    if a.stated is not None and den == "week52High" and a.stated > 0 and value <= 0:
        a = a.model_copy(update={"stated": -a.stated})  # "3.72% below its 52-week high": a magnitude
    return compare_fraction(ctx, a, value, ev, what, sym)


def rule_distance_52w_high(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "close", "week52High", "close vs 52-week high")


def rule_distance_52w_low(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "close", "week52Low", "close vs 52-week low")


def rule_distance_sma(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "close", a.field or "sma50", f"close vs {a.field}")


def rule_analyst_upside(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "analystTargetPrice", "close", "upside to the analyst target")


def rule_near_52w_extreme(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, fld = a.symbol or ctx.symbol, a.field or "week52High"
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, fld)
    value, ev = stored_ratio(ctx, sym, "close", fld)
    if value is None:
        return missing(ctx, sym, fld)
    band = ctx.config.at_extreme_band if a.label == "at" else ctx.config.near_extreme_band
    if a.stated is not None:  # "within 3% of its 52-week high"
        band = abs(a.stated)
    dist = abs(value)
    head = f"{sym} close is {fmt(value, 'fraction')} from its {fld} ({when(ev[-1])}); claimed {a.label or 'at'} it"
    if band < dist <= 1.5 * band:
        return RuleResult(NV, f"{head}: between {band:.1%} and {1.5 * band:.1%} (dead band)", ev)
    ok = (dist <= band) == (a.polarity > 0)
    return RuleResult(SUP if ok else CON, f"{head} (within {band:.1%})", ev)
