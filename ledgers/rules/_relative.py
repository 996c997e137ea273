"""One option against another or the benchmark: relative returns ("+9.8% vs SPY"), relative strength, and the
same field of two options ("lower beta than the S&P 500")."""

from __future__ import annotations

from ledgers._models import Assertion
from ledgers._registry import RETURN_WINDOWS, window_family
from ledgers.reading import FIELD_HORIZONS
from ledgers.rules._base import (
    CALENDAR_AS_SESSIONS,
    CON,
    NV,
    SUP,
    Ctx,
    RuleResult,
    as_float,
    compare_fraction,
    fmt,
    horizon_of,
    missing,
    signed,
    unit_of,
    value_of,
    when,
)
from ledgers.rules._technical import momentum_value
from ledgers.rules._values import rule_exact_numeric


def rule_relative_return(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    bench = a.benchmark or ctx.config.benchmark
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "return")
    if bench is None:
        return RuleResult(NV, "no benchmark symbol to compute a relative return")
    horizon = horizon_of(a)
    if horizon is None:
        return RuleResult(NV, f"relative return of {sym}: horizon not stated")
    name = f"activeReturn{horizon[:-1]}{'d' if horizon[-1] in 'TD' else horizon[-1].lower()}"
    stored = ctx.get(sym, name)
    if stored is None and name in CALENDAR_AS_SESSIONS:  # a week / a month in a table of sessions
        stored = ctx.get(sym, CALENDAR_AS_SESSIONS[name])
    if stored is not None and bench in (ctx.config.benchmark, None):  # the table's own active return
        return compare_fraction(ctx, a, float(stored.value), [stored], f"{stored.field} (vs {bench})", sym)
    v1, ev1, what = value_of(ctx, sym, a)
    v2, ev2, _ = value_of(ctx, bench, a)
    if v1 is None or v2 is None:
        return missing(ctx, sym if v1 is None else bench, what)
    return compare_fraction(ctx, a, v1 - v2, ev1 + ev2, f"{what} minus {bench}'s", sym)


def rule_return_or_relative(ctx: Ctx, a: Assertion) -> RuleResult:
    """ "relative strength (+2.4% 7d)": the plain return or the return over the benchmark's may be meant;
    supported when either matches, contradicted when neither does."""
    plain = rule_exact_numeric(ctx, a)
    if plain.status == SUP:
        return plain
    relative = rule_relative_return(ctx, a)
    if relative.status == SUP:
        return relative
    status = CON if CON in (plain.status, relative.status) else NV
    if status == CON and NV in (plain.status, relative.status):
        status = NV  # one reading could not be checked
    return RuleResult(
        status,
        f"{plain.reason}; read as relative: {relative.reason}",
        plain.evidence + relative.evidence,
        plain.lookahead,
    )


def _relative_on_short_windows(ctx: Ctx, a: Assertion, sym: str, bench: str) -> RuleResult:
    """Relative strength with no window written, in a round that shows no month-long window (the late-July weekly
    tables: 3 and 5 sessions): read on the short windows the writer was shown, to support only (a longer move
    known from elsewhere may be meant): supported when every one of them agrees, otherwise not verifiable."""
    band = ctx.config.momentum_dead_band
    diffs: list[tuple[str, float]] = []
    ev = []
    for f in ctx.config.short_momentum_fields:
        o1, o2 = ctx.get(sym, f), ctx.get(bench, f)
        s1, s2 = as_float(o1), as_float(o2)
        if o1 is not None and o2 is not None and s1 is not None and s2 is not None:
            diffs.append((f, s1 - s2))
            ev += [o1, o2]
    if not diffs:
        return missing(ctx, sym, "relative strength")
    claim = f"outperforming {bench}" if a.polarity > 0 else f"underperforming {bench}"
    head = f"{sym} minus {bench}: " + ", ".join(f"{f} {d:+.2%}" for f, d in diffs) + f"; claimed {claim}"
    if all(d * a.polarity > band for _, d in diffs):
        return RuleResult(SUP, f"{head} (the short windows shown agree)", ev)
    return RuleResult(NV, f"{head}: the round shows no month-long window and these do not all agree", ev)


def rule_relative_momentum(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, bench = a.symbol or ctx.symbol, a.benchmark or ctx.config.benchmark
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "relative strength")
    if bench is None:
        return RuleResult(NV, "no benchmark symbol to check relative strength against")
    v1, ev1, what = momentum_value(ctx, sym, horizon_of(a))
    if v1 is None and horizon_of(a) is None:
        return _relative_on_short_windows(ctx, a, sym, bench)
    horizon = horizon_of(a) or FIELD_HORIZONS.get(what)
    v2, ev2, _ = momentum_value(ctx, bench, horizon) if horizon else momentum_value(ctx, bench, None)
    value = None if v1 is None or v2 is None else v1 - v2
    result = signed(
        ctx,
        a,
        value,
        ev1 + ev2,
        ctx.config.momentum_dead_band,
        f"{what} minus {bench}'s",
        f"outperforming {bench}",
        f"underperforming {bench}",
    )
    if result.status == CON and horizon_of(a) is None:
        # no window written ("relative strength", "recent outperformance"): a shorter window the round shows that
        # says otherwise leaves which one is meant open, as for plain momentum
        for f in ctx.config.short_momentum_fields:
            s1, s2 = as_float(ctx.get(sym, f)), as_float(ctx.get(bench, f))
            if s1 is not None and s2 is not None and (s1 - s2) * a.polarity > ctx.config.momentum_dead_band:
                return RuleResult(
                    NV,
                    f"{result.reason}; but over {f} it is {s1 - s2:+.2%} against {bench}: windows disagree",
                    result.evidence,
                )
    return result


def rule_compare(ctx: Ctx, a: Assertion) -> RuleResult:
    """The same field of two symbols ("XLV's 30-day return is above SPY's"), with a relative dead band."""
    sym, other = a.symbol or ctx.symbol, a.benchmark
    fld = a.field or ""
    if other is None:
        return RuleResult(NV, f"{a.raw!r}: compared with something that is not one option of the season")
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, fld)
    if other not in ctx.data.known:
        return missing(ctx, other, fld)
    if fld == "return":  # "lagged oil's move", "outperforming SPY": returns over the window said, else every window
        windows = {
            "7D": ("return5d", "return7d"),
            "30D": ("return21d", "return30d"),
            "7D+30D": ("return5d", "return7d", "return21d", "return30d"),
            "short": ctx.config.short_momentum_fields,
        }.get(a.label or "", RETURN_WINDOWS)
        both = [f for f in windows if ctx.get(sym, f) is not None and ctx.get(other, f) is not None]
        if not both:
            return missing(ctx, sym, "a return both options have")
        results = [rule_compare(ctx, a.model_copy(update={"field": f, "label": None})) for f in both]
        reason = "; ".join(r.reason for r in results)
        evidence = [e for r in results for e in r.evidence]
        if len({r.status for r in results}) == 1:
            return RuleResult(results[0].status, reason, evidence)
        return RuleResult(NV, f"windows disagree: {reason}", evidence)
    o1, o2 = ctx.get(sym, fld), ctx.get(other, fld)
    v1, v2 = as_float(o1), as_float(o2)
    if (v1 is None or v2 is None) and window_family(fld):
        # "lower volatility than SPY" where the round shows volatility21d: every window both have must agree
        both = [
            f for f in window_family(fld) if f != fld and ctx.get(sym, f) is not None and ctx.get(other, f) is not None
        ]
        results = [rule_compare(ctx, a.model_copy(update={"field": f})) for f in both]
        if results and len({r.status for r in results}) == 1:
            return RuleResult(
                results[0].status, "; ".join(r.reason for r in results), [e for r in results for e in r.evidence]
            )
        if results:
            return RuleResult(NV, "windows disagree: " + "; ".join(r.reason for r in results))
    if o1 is None or o2 is None or v1 is None or v2 is None:  # an observation is there when its value is
        return missing(ctx, sym if v1 is None else other, fld)
    unit = unit_of(fld)
    word = "above" if a.op == "gt" else "below"
    head = f"{sym} {fld} = {fmt(v1, unit)} vs {other} {fmt(v2, unit)} ({when(o1)}); claimed {word}"
    ev = [o1, o2]
    if abs(v1 - v2) <= ctx.config.threshold_dead_band * max(abs(v1), abs(v2), 1e-9):
        return RuleResult(NV, f"{head}: within the {ctx.config.threshold_dead_band:.1%} dead band", ev)
    ok = v1 > v2 if a.op == "gt" else v1 < v2
    return RuleResult(SUP if ok else CON, head, ev)
