"""A field's value as stated ("RSI at 72", "+5.6% 7d", "beta 0.73"), above/below a number, or a move next to
a name with no horizon ("SMH -7.3%")."""

from __future__ import annotations

import re

from ledgers._models import Assertion
from ledgers._registry import FIELD_SPECS, WINDOW_FAMILIES, Unit, sibling_windows, window_family
from ledgers.reading import HORIZON_FIELDS, SIGN_WORDS
from ledgers.rules._base import (
    CON,
    NV,
    SESSION_READING,
    SUP,
    Ctx,
    RuleResult,
    as_float,
    fmt,
    matches,
    missing,
    tol_text,
    unit_of,
    value_of,
    when,
    with_lookahead,
)

_SMALL_SCALE = frozenset(
    {
        *window_family("beta"),
        *window_family("correlation"),
        "correlation",
        "qualityEvidenceScore",
        "priorActiveRank",
        "recentPullbackRank",
        "lowVolatilityRank",
        "shallowDrawdownRank",
    }
)


_NON_POSITIVE = frozenset({"maxDrawdown", "maxDrawdown21d", "maxDrawdown30d", "maxDrawdown63d", "distance52wHigh"})


_LOOSE_GENERICS = frozenset({"activeReturn", "maxDrawdown", "volumeZscore", "correlation"})
"""Words models use loosely ("prior 48% active run", "-22% drawdown" for the distance from the high): a
mismatch with the one window the store has is not verifiable, never a contradiction."""


def _other_windows(ctx: Ctx, sym: str, a: Assertion) -> RuleResult | None:
    """A generic measure ("beta 0.73", "volatility 21%") the store holds only over other windows: one window
    decides; several: supported when one matches, else not verifiable (which window was meant is unsaid)."""
    members = [f for f in window_family(a.field or "") if f != a.field and ctx.get(sym, f) is not None]
    if not members:
        return None
    results = [rule_exact_numeric(ctx, a.model_copy(update={"field": f})) for f in members]
    if len(results) == 1 and (a.field not in _LOOSE_GENERICS or results[0].status != CON):
        return results[0]
    hit = next((r for r in results if r.status == SUP), None)
    if hit is not None:
        return hit
    return RuleResult(
        NV,
        f"window not stated; {sym} {', '.join(members)} all differ from {a.raw}: "
        + "; ".join(r.reason for r in results),
        [o for r in results for o in r.evidence],
    )


def rule_exact_numeric(ctx: Ctx, a: Assertion) -> RuleResult:
    res = _exact(ctx, a)
    sym = a.symbol or ctx.symbol
    if sym is None:
        return res  # no symbol to check against: _exact said so
    if res.status == CON and not res.lookahead:
        return (
            _active_reading(ctx, sym, a, res)
            or _mislabelled_window(ctx, sym, a, res)
            or _unsigned_magnitude(ctx, sym, a, res)
            or _another_column(ctx, sym, a, res)
            or res
        )
    if res.status == NV and sym in ctx.data.known and not res.lookahead and not res.evidence:
        # the window named is one the round does not show: a distinctive figure may be another it does
        field = a.field or HORIZON_FIELDS.get(a.label or "")
        if field:
            return _mislabelled_window(ctx, sym, a.model_copy(update={"field": field}), res) or res
    return res


def _active_reading(ctx: Ctx, sym: str, a: Assertion, mismatch: RuleResult) -> RuleResult | None:
    """A bare window and figure ("5s +0.85%") that is not the return may be the active return the round shows over
    that window: supported when it is; a contradiction only when neither is."""
    active = f"activeReturn{a.field[len('return') :]}" if a.bare and a.field and a.field.startswith("return") else None
    if active is None or ctx.get(sym, active) is None:
        return None
    res = _exact(ctx, a.model_copy(update={"field": active, "label": None}))
    if res.status == SUP:
        res.reason = f"{res.reason} (the measure is unsaid: the active return, not the return; {mismatch.reason})"
        return res
    return RuleResult(CON, f"{mismatch.reason}; nor the active return: {res.reason}", mismatch.evidence + res.evidence)


def _exact(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, a.field or "value")
    if a.field in WINDOW_FAMILIES and ctx.get(sym, a.field) is None:  # a measure named without its window
        other = _other_windows(ctx, sym, a)
        if other is not None:
            return other
    value, ev, what = value_of(ctx, sym, a)
    unit = unit_of(a.field) if a.field else "fraction"
    if value is None:
        return with_lookahead(ctx, sym, a, a.field, missing(ctx, sym, what))
    stated = a.stated if a.stated is not None else 0.0
    if a.field in _SMALL_SCALE and a.tolerance >= 0.5 and stated != 0:
        # "beta near 1": a whole number for a measure that lives within a few units is no "±0.5" claim
        a = a.model_copy(update={"tolerance": 0.0, "approx": True})
    if a.field in _NON_POSITIVE and stated > 0:
        stated = -stated  # "a maximum drawdown of 8.12%", "12% off its 52-week high": a magnitude
    if unit == "price" and a.field in ("close", "sma50", "sma200", "week52High", "week52Low", "analystTargetPrice"):
        ratio = abs(stated) / abs(value) if value else float("inf")
        scale = ctx.config.price_scale_ratio
        if not (1 / scale <= ratio <= scale):
            return RuleResult(
                NV,
                f"stated {a.raw} is not on the scale of {sym} {what} {fmt(value, unit)} "
                "(another instrument, e.g. an index level)",
                ev,
            )
    ok = matches(value, stated, a.tolerance, a.approx, ctx.config)
    reason = (
        f"{sym} {what} = {fmt(value, unit)} ({when(ev[-1])}); stated {a.raw} "
        f"{'matches' if ok else 'differs'} ({tol_text(a, unit, ctx.config)})"
    )
    res = RuleResult(SUP if ok else NV if SESSION_READING in what else CON, reason, ev)
    return with_lookahead(ctx, sym, a, a.field, res)


def distinctive(a: Assertion, cfg) -> bool:
    """Stated precisely enough that a match with another value is no coincidence (``distinctive_precision``)."""
    return a.stated is not None and a.stated != 0 and a.tolerance <= cfg.distinctive_precision * abs(a.stated)


def _mislabelled_window(ctx: Ctx, sym: str, a: Assertion, mismatch: RuleResult) -> RuleResult | None:
    """ "PDBC 5-session return 3.25%" where 3.25% is its 3-session return: a distinctive number that is exactly
    the same option's value of the same measure over another window the round showed is that figure with its
    horizon mislabelled or a false one: not verifiable, never supported or contradicted (the reason says which
    window it is)."""
    if a.field is None or not distinctive(a, ctx.config):
        return None
    for other in sibling_windows(a.field):
        if other == a.field or ctx.get(sym, other) is None:
            continue
        res = _exact(ctx, a.model_copy(update={"field": other, "label": None}))
        if res.status == SUP and _at_stated_precision(as_float(ctx.get(sym, other)), a):
            return RuleResult(
                NV,
                f"{res.reason}: the figure is {other}, not the {a.field} the claim names ({mismatch.reason})",
                res.evidence + mismatch.evidence,
            )
    return None


def _at_stated_precision(value: float | None, a: Assertion) -> bool:
    """The value written at the claim's precision (rounded or truncated) is the stated figure: another column or
    window matched within a relative tolerance is a coincidence as often as a mislabel."""
    stated = a.stated or 0.0
    return value is not None and (
        abs(value - stated) <= a.tolerance + 1e-12
        or (value * stated > 0 and 0 <= abs(value) - abs(stated) < 2 * a.tolerance)
    )


_SIGNED = re.compile(rf"[+\-\u2212]\s*\$?\d|^(?:{SIGN_WORDS})\s")
"""A figure written with its sign, or with the word that says which way it moved (``Assertion.raw``)."""


def _unsigned_magnitude(ctx: Ctx, sym: str, a: Assertion, mismatch: RuleResult) -> RuleResult | None:
    """ "Low beta 0.11" where the table shows -0.11: a figure written without a sign whose magnitude is the value is
    not read as a false one (the sign may have been dropped); not verifiable, with the reason."""
    if a.stated is None or a.stated == 0 or _SIGNED.search(a.raw or "") or not mismatch.evidence:
        return None
    value = as_float(mismatch.evidence[-1])
    if value is None or value == 0 or (value > 0) == (a.stated > 0):
        return None
    if matches(value, -a.stated, a.tolerance, a.approx, ctx.config):
        return RuleResult(
            NV,
            f"{mismatch.reason}; written without a sign, its magnitude matches: not a contradiction",
            mismatch.evidence,
        )
    return None


def _another_column(ctx: Ctx, sym: str, a: Assertion, mismatch: RuleResult) -> RuleResult | None:
    """ "XLE return_5s +3.06%" where 3.06% is XLE's 5-session *active* return: a distinctive figure that is exactly
    another field the round showed for the same option is a mislabelled column, not a false figure. The same window
    (another measure of it), stated distinctively: supported, the reason says which; otherwise not verifiable."""
    if a.field is None:
        return None
    wanted = _window_of(a.field) if distinctive(a, ctx.config) else None  # a round figure: never supported so
    family = _column_family(a.field)
    if family is None:
        return None
    hits = []
    for fld in ctx.data.store.fields(sym):
        if fld == a.field or fld not in FIELD_SPECS or _column_family(fld) != family:
            continue
        o = ctx.get(sym, fld)
        v = as_float(o)
        # at the stated precision only (rounded or truncated): no relative tolerance across columns
        if o is not None and v is not None and _at_stated_precision(v, a):
            hits.append((fld, v, o))
    if not hits:
        return None
    same = [h for h in hits if wanted is not None and _window_of(h[0]) == wanted]
    fld, v, o = (same or hits)[0]
    what = f"{sym} {fld} = {fmt(v, unit_of(fld))} ({when(o)}); the figure is that column, not the {a.field} the claim names"
    if same:
        return RuleResult(SUP, f"{what} ({mismatch.reason})", [o, *mismatch.evidence])
    return RuleResult(NV, f"{what}: another column may be meant ({mismatch.reason})", [o, *mismatch.evidence])


def _column_family(field: str) -> str | None:
    """Columns a model may swap for one another: the returns (plain, active, prior active) and the percentile
    ranks; other measures are not matched across columns."""
    if re.match(r"^(?:return|activeReturn|priorActiveReturn)\d", field):
        return "returns"
    if field.endswith("Rank") or field == "qualityEvidenceScore":
        return "ranks"
    return None


def _window_of(field: str) -> str | None:
    m = re.search(r"(\d+[dmy])$", field)
    return m.group(1) if m else None


def rule_threshold(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, a.field or "value")
    value, ev, what = value_of(ctx, sym, a)
    unit = unit_of(a.field) if a.field else "fraction"
    if value is None:
        return missing(ctx, sym, what)
    stated = a.stated or 0.0
    band = ctx.config.threshold_dead_band * max(abs(stated), 1e-9)
    word = "above" if a.op == "gt" else "below"
    head = f"{sym} {what} = {fmt(value, unit)} ({when(ev[-1])}) vs stated {word} {a.raw}"
    if abs(value - stated) <= band:
        return RuleResult(NV, f"{head}: within the {ctx.config.threshold_dead_band:.1%} dead band", ev)
    ok = value > stated if a.op == "gt" else value < stated
    return RuleResult(SUP if ok else CON, head, ev)


def rule_derived_return(ctx: Ctx, a: Assertion) -> RuleResult:
    return rule_exact_numeric(ctx, a)


_RETURN_LIKE = (
    "return1d",
    "return3d",
    "return5d",
    "return7d",
    "return20d",
    "return21d",
    "return30d",
    "return6m",
    "return1y",
    "activeReturn5d",
    "activeReturn7d",
    "activeReturn21d",
    "activeReturn30d",
    "activeReturn6m",
    "activeReturn1y",
)


def rule_any_return(ctx: Ctx, a: Assertion) -> RuleResult:
    """A move written next to a name with no horizon ("SMH -7.3%", "EWY -25%"): supported when one of the
    symbol's return columns matches, else not verifiable (which horizon was meant is unsaid), never contradicted."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "return")
    seen = []
    for fld in _RETURN_LIKE:
        o = ctx.get(sym, fld)
        v = as_float(o)
        if o is None or v is None:
            continue
        seen.append(f"{fld} {fmt(v, 'fraction')}")
        if matches(v, a.stated or 0.0, a.tolerance, a.approx, ctx.config):
            return RuleResult(
                SUP,
                f"{sym} {fld} = {fmt(v, 'fraction')} ({when(o)}); stated {a.raw} matches "
                f"(horizon not stated: the column that matches)",
                [o],
            )
    if not seen:
        return missing(ctx, sym, "a return")
    return RuleResult(NV, f"horizon not stated; {a.raw} matches none of {sym} {', '.join(seen)}")


def rule_any_field(ctx: Ctx, a: Assertion) -> RuleResult:
    """A figure no word binds to a field ("healthcare sector strength of 4.26%"): supported when it is distinctive
    (``distinctive_precision``) and equals one of the subject's fractional fields the round showed (the reason names
    which); otherwise not verifiable, never contradicted (what it measures is unsaid)."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return RuleResult(NV, f"{a.raw}: names no field and no option (briefing/context figure)", briefing=True)
    if not distinctive(a, ctx.config):
        return RuleResult(
            NV, f"{a.raw}: names no field; too round to be matched to one (briefing/context figure)", briefing=True
        )
    # a plain decimal ("0.814", "1.32" in a CSV row) is a ratio field at face value or a percentage field in percent
    readings: list[tuple[Unit, float]] = (
        [("ratio", 1.0), ("fraction", 100.0)] if a.label == "plain" else [("fraction", 1.0)]
    )
    for unit, scale in readings:
        found = _equal_field(
            ctx, sym, a.model_copy(update={"stated": (a.stated or 0.0) / scale, "tolerance": a.tolerance / scale}), unit
        )
        if found is not None:
            return found
    return RuleResult(
        NV, f"{a.raw}: names no field and equals none of {sym}'s (briefing/context figure)", briefing=True
    )


def _equal_field(ctx: Ctx, sym: str, a: Assertion, unit: Unit) -> RuleResult | None:
    """Supported on the first field of ``unit`` the subject's figure equals, or None."""
    for fld in ctx.data.store.fields(sym):
        if unit_of(fld) != unit or fld not in FIELD_SPECS:
            continue
        o = ctx.get(sym, fld)
        v = as_float(o)
        if o is not None and v is not None and matches(v, a.stated or 0.0, a.tolerance, a.approx, ctx.config):
            return RuleResult(
                SUP,
                f"{sym} {fld} = {fmt(v, unit)} ({when(o)}); stated {a.raw} matches (the "
                f"figure names no field: the one it equals)",
                [o],
            )
    return None
