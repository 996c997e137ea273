"""Technical states: above/below a moving average, golden/death cross, MACD vs signal, overbought/oversold,
momentum."""

from __future__ import annotations

from grader.pit import Observation
from ledgers._models import Assertion
from ledgers.reading import HORIZON_FIELDS
from ledgers.rules._base import (
    CON,
    NV,
    SUP,
    Ctx,
    RuleResult,
    as_float,
    fmt,
    horizon_of,
    missing,
    ratio,
    signed,
    value_of,
    when,
)


def rule_sma_position(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, fld = a.symbol or ctx.symbol, a.field or "sma50"
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, fld)
    value, ev = ratio(ctx, sym, "close", fld)
    return signed(ctx, a, value, ev, ctx.config.ma_dead_band, f"close vs {fld}", f"above {fld}", f"below {fld}")


def rule_ma_cross(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "sma50")
    value, ev = ratio(ctx, sym, "sma50", "sma200")
    return signed(
        ctx, a, value, ev, ctx.config.ma_dead_band, "sma50 vs sma200", "sma50 above sma200", "sma50 below sma200"
    )


def rule_macd_signal(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "macd")
    m, s, c = (ctx.get(sym, f) for f in ("macd", "macdSignal", "close"))
    ev = [o for o in (m, s, c) if o is not None]
    vm, vs, vc = as_float(m), as_float(s), as_float(c)
    if vm is None or vs is None or not vc:
        return missing(ctx, sym, "macd/macdSignal")
    return signed(
        ctx,
        a,
        (vm - vs) / vc,
        ev,
        ctx.config.macd_dead_band,
        "(macd - macdSignal) / close",
        "macd above signal",
        "macd below signal",
    )


def rule_rsi_state(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "rsi14")
    o = ctx.get(sym, "rsi14")
    v = as_float(o)
    if o is None or v is None:
        return missing(ctx, sym, "rsi14")
    cfg = ctx.config
    if a.polarity > 0:
        state, holds = f"overbought (rsi14 >= {cfg.overbought_rsi:g})", v >= cfg.overbought_rsi
    else:
        state, holds = f"oversold (rsi14 <= {cfg.oversold_rsi:g})", v <= cfg.oversold_rsi
    negated = a.label == "not"
    ok = holds != negated
    claim = f"not {state.split(' ')[0]} ({state.split(' ', 1)[1][1:-1]} is {state.split(' ')[0]})" if negated else state
    # conventions differ (some desks use 80/20, some 60/40): a reading within rsi_state_band of the threshold
    # on the wrong side is not verifiable, not a contradiction
    threshold = cfg.overbought_rsi if a.polarity > 0 else cfg.oversold_rsi
    if not ok and abs(v - threshold) <= cfg.rsi_state_band:
        return RuleResult(
            NV,
            f"{sym} rsi14 = {v:.1f} ({when(o)}); claimed {claim}: within "
            f"{cfg.rsi_state_band:g} points of the usual threshold, conventions differ",
            [o],
        )
    return RuleResult(SUP if ok else CON, f"{sym} rsi14 = {v:.1f} ({when(o)}); claimed {claim}", [o])


def momentum_value(ctx: Ctx, sym: str, horizon: str | None) -> tuple[float | None, list[Observation], str]:
    if horizon:
        probe = Assertion(rule="momentum", field=HORIZON_FIELDS.get(horizon), label=horizon)
        return value_of(ctx, sym, probe)
    for fld in ctx.config.momentum_fields:
        o = ctx.get(sym, fld)
        v = as_float(o)
        if o is not None and v is not None:
            return v, [o], fld
    return None, [], "/".join(ctx.config.momentum_fields)


def rule_momentum(ctx: Ctx, a: Assertion) -> RuleResult:
    """Named horizon: its sign. "Recent" / "near-term" / "short-term": the short windows the round shows
    (``short_momentum_fields``), which must agree. Otherwise the first available momentum field decides, unless
    another available horizon points the other way."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "momentum")
    horizon = horizon_of(a)
    if horizon:
        value, ev, what = momentum_value(ctx, sym, horizon)
        return signed(ctx, a, value, ev, ctx.config.momentum_dead_band, what, "positive momentum", "negative momentum")
    cfg = ctx.config
    if a.label == "short" and any(as_float(ctx.get(sym, f)) is not None for f in cfg.short_momentum_fields):
        return _recent_momentum(ctx, a, sym)
    order = list(cfg.momentum_fields) + list(cfg.short_momentum_fields)
    primaries = set(cfg.momentum_fields)
    found = [(f, ctx.get(sym, f)) for f in dict.fromkeys(order)]
    seen = [(f, o) for f, o in found if o is not None and as_float(o) is not None]
    if not seen:
        return missing(ctx, sym, "/".join(cfg.momentum_fields))
    if seen[0][0] not in primaries:
        # a round that shows only short windows (the late-July weekly tables: 3 and 5 sessions): the move is read on
        # the windows the writer was shown, as a "recent" one, to support only: a longer move the writer knew of
        # from elsewhere may be meant, so a mismatch is never a contradiction
        res = _recent_momentum(ctx, a, sym)
        if res.status == CON:
            return RuleResult(
                NV, f"{res.reason}; the round shows no month-long window: which one was meant is unsure", res.evidence
            )
        return res
    ev = [o for _, o in seen]
    claim = "positive momentum" if a.polarity > 0 else "negative momentum"
    head = f"{sym} " + ", ".join(f"{f} = {fmt(as_float(o) or 0.0, 'fraction')}" for f, o in seen) + f"; claimed {claim}"
    primary = as_float(seen[0][1]) or 0.0
    if abs(primary) <= cfg.momentum_dead_band:
        return _dominant_or(ctx, a, seen, head, f"{seen[0][0]} within the {cfg.momentum_dead_band:.2%} dead band")
    sign = 1 if primary > 0 else -1
    if any((as_float(o) or 0.0) * sign < -cfg.momentum_dead_band for _, o in seen[1:]):
        return _dominant_or(ctx, a, seen, head, "horizons disagree")
    ok = sign == (1 if a.polarity > 0 else -1)
    return RuleResult(SUP if ok else CON, head, ev)


def _recent_momentum(ctx: Ctx, a: Assertion, sym: str) -> RuleResult:
    """ "Recent", "near-term", "short-term": supported when the short windows the round shows agree with the claim
    (a month is not recent); contradicted only when every window, the longer ones too, says otherwise; else not
    verifiable (writers differ on how long "recent" is)."""
    cfg = ctx.config
    short = [
        (f, o) for f in cfg.short_momentum_fields if (o := ctx.get(sym, f)) is not None and as_float(o) is not None
    ]
    longer = [
        (f, o)
        for f in cfg.recent_contradiction_fields
        if (o := ctx.get(sym, f)) is not None and as_float(o) is not None
    ]
    want = 1 if a.polarity > 0 else -1
    band = cfg.momentum_dead_band
    claim = "positive" if want > 0 else "negative"
    head = (
        f"{sym} "
        + ", ".join(f"{f} = {fmt(as_float(o) or 0.0, 'fraction')}" for f, o in short + longer)
        + f"; claimed {claim} recent momentum"
    )
    ev = [o for _, o in short + longer]
    signs = [(as_float(o) or 0.0) * want for _, o in short]
    if all(v > band for v in signs):
        return RuleResult(SUP, f"{head} (the short windows agree)", ev)
    if all((as_float(o) or 0.0) * want < -band for _, o in short + longer):
        return RuleResult(CON, f"{head} (every window says otherwise)", ev)
    return _dominant_or(ctx, a, short + longer, head, f"windows disagree or sit in the {band:.2%} dead band")


def _dominant_or(ctx: Ctx, a: Assertion, seen: list[tuple[str, Observation]], head: str, why: str) -> RuleResult:
    """Windows that do not agree: supported when one dominates the others (``momentum_dominance`` times larger than
    each, above ``momentum_dominance_floor``) and points the claimed way; otherwise not verifiable, never contradicted
    (which window a writer meant is then a guess)."""
    cfg = ctx.config
    ev = [o for _, o in seen]
    values = sorted(((abs(as_float(o) or 0.0), f, as_float(o) or 0.0) for f, o in seen), reverse=True)
    if len(values) >= 2:
        (top, fld, value), rest = values[0], values[1:]
        want = 1 if a.polarity > 0 else -1
        if top >= cfg.momentum_dominance_floor and all(top >= cfg.momentum_dominance * m for m, _, _ in rest):
            if value * want > 0:
                return RuleResult(SUP, f"{head}: {why}, but {fld} dominates and agrees", ev)
            return RuleResult(NV, f"{head}: {why}; {fld} dominates against the claim, the window meant is unsure", ev)
    return RuleResult(NV, f"{head}: {why}", ev)
