"""Verifier rules: one function per claim type, each -> supported | not_verifiable | contradicted.

Thresholds (all in ``VerifierConfig``; defaults shown):

- exact numeric: the value matches at the stated precision, rounded or truncated ("8.7%" matches 0.0874
  and 0.0879; "23%" matches 0.2354), or within 2% relative; 5% relative for "about", "~", "roughly",
  "around", "nearly", "approximately". A price stated more than 5x away from the symbol's close (an index
  level quoted for its ETF) is not verifiable.
- threshold ("RSI above 70", "P/E under 20"): compared with the stated number; within 0.5% of it
  (relative) it is not verifiable.
- derived numeric: return over N trading days ("T") from closes, or from the close on or before N calendar
  days ("D", CapitalBench's 7d/30d), N months ("M") or years ("Y") earlier, when the field is not stored;
  distance to the 52-week high/low = close / week52High (Low) - 1; distance to a moving average =
  close / smaN - 1; upside to the analyst target = analystTargetPrice / close - 1; relative return =
  the symbol's return minus the benchmark's over the same horizon ("vs SPY", "alpha", "active"); for
  "relative strength (+2.4% 7d)" / "outperformance" either the plain or the relative return may match.
- comparative: close above/below sma50/sma200, sma50 vs sma200 (golden/death cross): within 0.5% of the
  average it is not verifiable; macd vs macdSignal: within 0.05% of the close not verifiable.
- directional: momentum = sign of the named horizon's return ("positive 7d momentum"); without a
  horizon, the first available of return20d, return30d (return5d, return7d first for "recent",
  "near-term", "short-term") decides, unless another available one of them points the other way (not
  verifiable: "horizons disagree"); |return| <= 0.5% is not verifiable.
  Relative strength / outperformance = the same on return minus the benchmark's return. Overbought =
  rsi14 >= 70, oversold = rsi14 <= 30. At the 52-week high/low = within 1% of it, near = within 5%,
  "within X%" = within X%; between the band and 1.5x the band not verifiable.
- qualitative fundamentals: strong profitability = profitMargin >= 0.15 or returnOnEquityTTM >= 0.15
  (contradicted when every available one is below); weak = profitMargin < 0.05 (contradicted at >= 0.15).
  Cheap = peRatio below the sector median (when at least 3 symbols of the sector have a positive P/E),
  else below 15; expensive = above the sector median, else above 30; within 2% of the reference not
  verifiable; a non-positive P/E is not verifiable. Strong growth = quarterly earnings (or revenue) growth
  >= 10%; weak growth <= 0%. High dividend yield >= 3%; low < 1%. Low beta < 0.8, high beta >= 1.2. Low
  volatility (volatility20d) < 15%, high >= 35%. Within 2% (relative) of these thresholds: not verifiable.
- analyst: upside direction = target vs close, |upside| <= 1% not verifiable; consensus = mean of the
  rating counts scored strong buy 5 .. strong sell 1: >= 4.5 strong buy, >= 3.5 buy, <= 1.5 strong
  sell, <= 2.5 sell, else hold. A "buy" claim is supported by buy or strong buy.
- categorical: the sector/industry label equals the stated one (case, "&"/"and", "sector" ignored, one
  containing the other accepted).
- forecasts and opinions are never verifiable; a briefing figure (no point-in-time field) is not
  verifiable; a missing field or symbol is not verifiable.
- lookahead: a numeric claim that does not match the value known at ``decided_at`` but matches, at the
  stated precision, a value observed within 10 calendar days after it is flagged ``lookahead``; only
  claims stated precisely enough to be distinctive (half a last digit <= 0.5% of the value: "31.6",
  "$139.87", "-6.08%", not "63" or "+8%") are checked, so a coincidence is not called lookahead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from statistics import median

from grader.pit import Observation
from ledgers._data import StoreData
from ledgers._models import Assertion, Status, VerifierConfig
from ledgers._parse import FIELD_HORIZONS, HORIZON_FIELDS
from ledgers._registry import FIELD_SPECS, WINDOW_FAMILIES, window_family
from ledgers._units import format_value

NV: Status = "not_verifiable"
SUP: Status = "supported"
CON: Status = "contradicted"


@dataclass(slots=True)
class RuleResult:
    status: Status
    reason: str
    evidence: list[Observation] = field(default_factory=list)
    lookahead: bool = False
    briefing: bool = False


@dataclass(slots=True)
class Ctx:
    """What a rule needs: the store look-ups, the thresholds, the decision time (and the claim's own
    snapshot, fetched once per claim)."""

    data: StoreData
    config: VerifierConfig
    as_of: datetime
    symbol: str | None = None
    snap: dict[str, Observation] | None = None

    def get(self, symbol: str, field: str) -> Observation | None:
        if symbol == self.symbol:
            if self.snap is None:
                self.snap = self.data.snapshot(symbol, self.as_of)
            return self.snap.get(field)
        return self.data.snapshot(symbol, self.as_of).get(field)


_WHEN: dict[datetime, str] = {}


def _when(o: Observation) -> str:
    t = o.observed_at
    text = _WHEN.get(t)
    if text is None:
        text = f"{t.year:04d}-{t.month:02d}-{t.day:02d}"
        if (t.hour, t.minute) != (16, 0):
            text += f" {t.hour:02d}:{t.minute:02d}{t.strftime('%z')}"
        if len(_WHEN) < 100_000:
            _WHEN[t] = text
    return text


def _fmt(value: float | str, unit: str = "ratio") -> str:
    return format_value(value, unit)  # type: ignore[arg-type]


def _num(o: Observation | None) -> float | None:
    if o is None or isinstance(o.value, str):
        return None
    return float(o.value)


_HORIZON_LABEL = re.compile(r"\d+[TDMY]")


def _horizon_of(a: Assertion) -> str | None:
    if a.label and _HORIZON_LABEL.fullmatch(a.label):
        return a.label
    if a.field in FIELD_HORIZONS:
        return FIELD_HORIZONS[a.field]
    return None


def _missing(ctx: Ctx, symbol: str | None, what: str) -> RuleResult:
    if symbol is None:
        return RuleResult(NV, f"no symbol to check {what} against")
    if symbol not in ctx.data.known:
        return RuleResult(NV, f"{symbol} has no point-in-time data")
    return RuleResult(NV, f"{what} of {symbol} is not known at {ctx.as_of:%Y-%m-%d %H:%M%z}")


def _matches(actual: float, stated: float, tol: float, approx: bool, cfg: VerifierConfig) -> bool:
    """Rounded or truncated to the stated precision, or within the relative tolerance."""
    rel = cfg.approx_relative_tolerance if approx else cfg.relative_tolerance
    if abs(actual - stated) <= max(tol, rel * abs(actual)) + 1e-12:
        return True
    same_sign = stated == 0 or (stated > 0) == (actual > 0)
    return same_sign and abs(stated) - 1e-12 <= abs(actual) < abs(stated) + 2 * tol - 1e-12


def _tol_text(a: Assertion, unit: str, cfg: VerifierConfig) -> str:
    rel = cfg.approx_relative_tolerance if a.approx else cfg.relative_tolerance
    prec = f"{a.tolerance * 100:.4g} pp" if unit == "fraction" else f"{a.tolerance:.4g}"
    return f"±{prec} or {rel:.0%}"


# ---------------------------------------------------------------------------------------------- values


def _value(ctx: Ctx, symbol: str, a: Assertion) -> tuple[float | None, list[Observation], str]:
    """The value a numeric assertion is about, its evidence, and what it is (for the reason)."""
    horizon = _horizon_of(a)
    if a.field and a.field not in FIELD_HORIZONS:
        o = ctx.get(symbol, a.field)
        return _num(o), [o] if o else [], a.field
    fld = a.field or (HORIZON_FIELDS.get(horizon) if horizon else None)
    if fld:
        o = ctx.get(symbol, fld)
        if o is not None:
            return _num(o), [o], fld
    if horizon:
        got = ctx.data.derived_return(symbol, horizon, ctx.as_of)
        if got is not None:
            return got[0], got[1], f"{_horizon_words(horizon)} return from closes"
    return None, [], fld or "return"


def _horizon_words(h: str) -> str:
    n, k = h[:-1], h[-1]
    return {"T": f"{n}-trading-day", "D": f"{n}-calendar-day", "M": f"{n}-month", "Y": f"{n}-year"}[k]


def _ratio(ctx: Ctx, symbol: str, num: str, den: str) -> tuple[float | None, list[Observation]]:
    a, b = ctx.get(symbol, num), ctx.get(symbol, den)
    va, vb = _num(a), _num(b)
    ev = [o for o in (a, b) if o is not None]
    if va is None or vb is None or vb == 0:
        return None, ev
    return va / vb - 1.0, ev


# ------------------------------------------------------------------------------------------- lookahead


def _lookahead(ctx: Ctx, symbol: str, a: Assertion, fld: str | None) -> tuple[Observation | None, list[Observation]]:
    """A value observed after the decision (within the window) that matches the claim at stated precision."""
    window = ctx.config.lookahead_window_days
    if a.stated is None or a.op != "eq":
        return None, []
    if a.tolerance > ctx.config.lookahead_min_precision * abs(a.stated):
        return None, []  # too coarse ("RSI 63", "+8%") to tell a later value from a coincidence
    later = ctx.data.later(symbol, fld, ctx.as_of, window) if fld and fld in FIELD_SPECS else []
    for o in later:
        v = _num(o)
        if v is not None and abs(v - a.stated) <= a.tolerance + 1e-12:
            return o, [o]
    if later:
        return None, []
    horizon = _horizon_of(a)
    if horizon:
        for value, ev in ctx.data.later_derived_returns(symbol, horizon, ctx.as_of, window):
            if abs(value - a.stated) <= a.tolerance + 1e-12:
                return ev[-1], ev
    return None, []


def _with_lookahead(ctx: Ctx, symbol: str, a: Assertion, fld: str | None, res: RuleResult) -> RuleResult:
    if res.status == SUP or a.stated is None:
        return res
    hit, ev = _lookahead(ctx, symbol, a, fld)
    if hit is None:
        return res
    res.lookahead = True
    res.evidence.extend(ev)
    res.reason += f"; matches only the value observed later ({_when(hit)}: {_fmt(_num(hit) or 0.0, _unit(fld))})"
    return res


def _unit(fld: str | None) -> str:
    return FIELD_SPECS[fld].unit if fld in FIELD_SPECS else "fraction"


# ------------------------------------------------------------------------------------------- numeric


_SMALL_SCALE = frozenset({*window_family("beta"), *window_family("correlation"), "correlation", "qualityEvidenceScore",
                          "priorActiveRank", "recentPullbackRank", "lowVolatilityRank", "shallowDrawdownRank"})
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
    return RuleResult(NV, f"window not stated; {sym} {', '.join(members)} all differ from {a.raw}: "
                          + "; ".join(r.reason for r in results), [o for r in results for o in r.evidence])


def rule_exact_numeric(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, a.field or "value")
    if a.field and ctx.get(sym, a.field) is None and window_family(a.field):
        other = _other_windows(ctx, sym, a)
        if other is not None:
            return other
    value, ev, what = _value(ctx, sym, a)
    unit = _unit(a.field) if a.field else "fraction"
    if value is None:
        return _with_lookahead(ctx, sym, a, a.field, _missing(ctx, sym, what))
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
            return RuleResult(NV, f"stated {a.raw} is not on the scale of {sym} {what} {_fmt(value, unit)} "
                                  "(another instrument, e.g. an index level)", ev)
    ok = _matches(value, stated, a.tolerance, a.approx, ctx.config)
    reason = (f"{sym} {what} = {_fmt(value, unit)} ({_when(ev[-1])}); stated {a.raw} "
              f"{'matches' if ok else 'differs'} ({_tol_text(a, unit, ctx.config)})")
    res = RuleResult(SUP if ok else CON, reason, ev)
    return _with_lookahead(ctx, sym, a, a.field, res)


def rule_threshold(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, a.field or "value")
    value, ev, what = _value(ctx, sym, a)
    unit = _unit(a.field) if a.field else "fraction"
    if value is None:
        return _missing(ctx, sym, what)
    stated = a.stated or 0.0
    band = ctx.config.threshold_dead_band * max(abs(stated), 1e-9)
    word = "above" if a.op == "gt" else "below"
    head = f"{sym} {what} = {_fmt(value, unit)} ({_when(ev[-1])}) vs stated {word} {a.raw}"
    if abs(value - stated) <= band:
        return RuleResult(NV, f"{head}: within the {ctx.config.threshold_dead_band:.1%} dead band", ev)
    ok = value > stated if a.op == "gt" else value < stated
    return RuleResult(SUP if ok else CON, head, ev)


def _compare_fraction(ctx: Ctx, a: Assertion, value: float, ev: list[Observation], what: str, sym: str) -> RuleResult:
    stated = a.stated if a.stated is not None else 0.0
    ok = _matches(value, stated, a.tolerance, a.approx, ctx.config)
    reason = (f"{sym} {what} = {_fmt(value, 'fraction')}; stated {a.raw} {'matches' if ok else 'differs'} "
              f"({_tol_text(a, 'fraction', ctx.config)})")
    return RuleResult(SUP if ok else CON, reason, ev)


def rule_derived_return(ctx: Ctx, a: Assertion) -> RuleResult:
    return rule_exact_numeric(ctx, a)


def rule_relative_return(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    bench = a.benchmark or ctx.config.benchmark
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "return")
    if bench is None:
        return RuleResult(NV, "no benchmark symbol to compute a relative return")
    horizon = _horizon_of(a)
    if horizon is None:
        return RuleResult(NV, f"relative return of {sym}: horizon not stated")
    stored = ctx.get(sym, f"activeReturn{horizon[:-1]}{'d' if horizon[-1] in 'TD' else horizon[-1].lower()}")
    if stored is not None and bench in (ctx.config.benchmark, None):  # the table's own active return
        return _compare_fraction(ctx, a, float(stored.value), [stored], f"{stored.field} (vs {bench})", sym)
    v1, ev1, what = _value(ctx, sym, a)
    v2, ev2, _ = _value(ctx, bench, a)
    if v1 is None or v2 is None:
        return _missing(ctx, sym if v1 is None else bench, what)
    return _compare_fraction(ctx, a, v1 - v2, ev1 + ev2, f"{what} minus {bench}'s", sym)


def rule_return_or_relative(ctx: Ctx, a: Assertion) -> RuleResult:
    """"relative strength (+2.4% 7d)": the plain return or the return over the benchmark's may be meant;
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
    return RuleResult(status, f"{plain.reason}; read as relative: {relative.reason}",
                      plain.evidence + relative.evidence, plain.lookahead)


_STORED_DISTANCE = {"week52High": "distance52wHigh", "week52Low": "distance52wLow"}
"""A table may give the distance itself (CapitalBench) rather than the 52-week extreme."""


def _stored_ratio(ctx: Ctx, sym: str, num: str, den: str) -> tuple[float | None, list[Observation]]:
    value, ev = _ratio(ctx, sym, num, den)
    if value is None and num == "close" and den in _STORED_DISTANCE:
        o = ctx.get(sym, _STORED_DISTANCE[den])
        if o is not None:
            return _num(o), [o]
    return value, ev


def _distance(ctx: Ctx, a: Assertion, num: str, den: str, what: str) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, den)
    value, ev = _stored_ratio(ctx, sym, num, den)
    if value is None:
        return _missing(ctx, sym, f"{num}/{den}")
    if a.stated is not None and den == "week52High" and a.stated > 0 and value <= 0:
        a = a.model_copy(update={"stated": -a.stated})  # "3.72% below its 52-week high": a magnitude
    return _compare_fraction(ctx, a, value, ev, what, sym)


def rule_distance_52w_high(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "close", "week52High", "close vs 52-week high")


def rule_distance_52w_low(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "close", "week52Low", "close vs 52-week low")


def rule_distance_sma(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "close", a.field or "sma50", f"close vs {a.field}")


def rule_analyst_upside(ctx: Ctx, a: Assertion) -> RuleResult:
    return _distance(ctx, a, "analystTargetPrice", "close", "upside to the analyst target")


# ------------------------------------------------------------------------------------------- comparative


def _signed(ctx: Ctx, a: Assertion, value: float | None, ev: list[Observation], band: float, what: str,
            up: str, down: str) -> RuleResult:
    sym = a.symbol or ctx.symbol or "?"
    if value is None:
        return _missing(ctx, a.symbol or ctx.symbol, what)
    claim = up if a.polarity > 0 else down
    head = f"{sym} {what} = {_fmt(value, 'fraction')}; claimed {claim}"
    if abs(value) <= band:
        return RuleResult(NV, f"{head}: within the {band:.2%} dead band", ev)
    ok = (value > 0) == (a.polarity > 0)
    return RuleResult(SUP if ok else CON, head, ev)


def rule_sma_position(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, fld = a.symbol or ctx.symbol, a.field or "sma50"
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, fld)
    value, ev = _ratio(ctx, sym, "close", fld)
    return _signed(ctx, a, value, ev, ctx.config.ma_dead_band, f"close vs {fld}", f"above {fld}", f"below {fld}")


def rule_ma_cross(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "sma50")
    value, ev = _ratio(ctx, sym, "sma50", "sma200")
    return _signed(ctx, a, value, ev, ctx.config.ma_dead_band, "sma50 vs sma200", "sma50 above sma200",
                   "sma50 below sma200")


def rule_macd_signal(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "macd")
    m, s, c = (ctx.get(sym, f) for f in ("macd", "macdSignal", "close"))
    ev = [o for o in (m, s, c) if o is not None]
    vm, vs, vc = _num(m), _num(s), _num(c)
    if vm is None or vs is None or not vc:
        return _missing(ctx, sym, "macd/macdSignal")
    return _signed(ctx, a, (vm - vs) / vc, ev, ctx.config.macd_dead_band, "(macd - macdSignal) / close", "macd above signal",
                   "macd below signal")


def _momentum_value(ctx: Ctx, sym: str, horizon: str | None) -> tuple[float | None, list[Observation], str]:
    if horizon:
        probe = Assertion(rule="momentum", field=HORIZON_FIELDS.get(horizon), label=horizon)
        return _value(ctx, sym, probe)
    for fld in ctx.config.momentum_fields:
        o = ctx.get(sym, fld)
        if _num(o) is not None:
            return _num(o), [o], fld  # type: ignore[list-item]
    return None, [], "/".join(ctx.config.momentum_fields)


def rule_momentum(ctx: Ctx, a: Assertion) -> RuleResult:
    """Named horizon: its sign. Otherwise the first available momentum field (the short ones first for
    "recent"/"near-term"/"short-term") decides, unless another available horizon points the other way."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "momentum")
    horizon = _horizon_of(a)
    if horizon:
        value, ev, what = _momentum_value(ctx, sym, horizon)
        return _signed(ctx, a, value, ev, ctx.config.momentum_dead_band, what, "positive momentum",
                       "negative momentum")
    cfg = ctx.config
    order = (list(cfg.short_momentum_fields) + list(cfg.momentum_fields) if a.label == "short"
             else list(cfg.momentum_fields) + list(cfg.short_momentum_fields))
    seen = [(f, ctx.get(sym, f)) for f in dict.fromkeys(order)]
    seen = [(f, o) for f, o in seen if _num(o) is not None]
    primaries = set(order) if a.label == "short" else set(cfg.momentum_fields)
    if not seen or seen[0][0] not in primaries:  # no 20d/30d return: a 5d one alone is not "momentum"
        return _missing(ctx, sym, "/".join(cfg.momentum_fields))
    ev = [o for _, o in seen]
    claim = "positive momentum" if a.polarity > 0 else "negative momentum"
    head = f"{sym} " + ", ".join(f"{f} = {_fmt(_num(o) or 0.0, 'fraction')}" for f, o in seen) + f"; claimed {claim}"
    primary = _num(seen[0][1]) or 0.0
    if abs(primary) <= cfg.momentum_dead_band:
        return RuleResult(NV, f"{head}: {seen[0][0]} within the {cfg.momentum_dead_band:.2%} dead band", ev)  # type: ignore[arg-type]
    sign = 1 if primary > 0 else -1
    if any((_num(o) or 0.0) * sign < -cfg.momentum_dead_band for _, o in seen[1:]):
        return RuleResult(NV, f"{head}: horizons disagree", ev)  # type: ignore[arg-type]
    ok = sign == (1 if a.polarity > 0 else -1)
    return RuleResult(SUP if ok else CON, head, ev)  # type: ignore[arg-type]


def rule_relative_momentum(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, bench = a.symbol or ctx.symbol, a.benchmark or ctx.config.benchmark
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "relative strength")
    if bench is None:
        return RuleResult(NV, "no benchmark symbol to check relative strength against")
    v1, ev1, what = _momentum_value(ctx, sym, _horizon_of(a))
    horizon = _horizon_of(a) or FIELD_HORIZONS.get(what)
    v2, ev2, _ = _momentum_value(ctx, bench, horizon) if horizon else _momentum_value(ctx, bench, None)
    value = None if v1 is None or v2 is None else v1 - v2
    return _signed(ctx, a, value, ev1 + ev2, ctx.config.momentum_dead_band, f"{what} minus {bench}'s",
                   f"outperforming {bench}", f"underperforming {bench}")


def rule_rsi_state(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "rsi14")
    o = ctx.get(sym, "rsi14")
    v = _num(o)
    if v is None:
        return _missing(ctx, sym, "rsi14")
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
        return RuleResult(NV, f"{sym} rsi14 = {v:.1f} ({_when(o)}); claimed {claim}: within "
                              f"{cfg.rsi_state_band:g} points of the usual threshold, conventions differ", [o])  # type: ignore[list-item]
    return RuleResult(SUP if ok else CON, f"{sym} rsi14 = {v:.1f} ({_when(o)}); claimed {claim}",  # type: ignore[arg-type]
                      [o])  # type: ignore[list-item]


def rule_near_52w_extreme(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, fld = a.symbol or ctx.symbol, a.field or "week52High"
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, fld)
    value, ev = _stored_ratio(ctx, sym, "close", fld)
    if value is None:
        return _missing(ctx, sym, fld)
    band = ctx.config.at_extreme_band if a.label == "at" else ctx.config.near_extreme_band
    if a.stated is not None:  # "within 3% of its 52-week high"
        band = abs(a.stated)
    dist = abs(value)
    head = f"{sym} close is {_fmt(value, 'fraction')} from its {fld} ({_when(ev[-1])}); claimed {a.label or 'at'} it"
    if band < dist <= 1.5 * band:
        return RuleResult(NV, f"{head}: between {band:.1%} and {1.5 * band:.1%} (dead band)", ev)
    ok = (dist <= band) == (a.polarity > 0)
    return RuleResult(SUP if ok else CON, f"{head} (within {band:.1%})", ev)


# ------------------------------------------------------------------------------------------- qualitative


def _level(ctx: Ctx, a: Assertion, fld: str, low: float, high: float, what: str) -> RuleResult:
    """polarity +1: value >= high supports, value < low contradicts ... with a relative dead band."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, fld)
    o = ctx.get(sym, fld)
    v = _num(o)
    if v is None:
        members = [f for f in window_family(fld) if f != fld and ctx.get(sym, f) is not None]
        if not members:
            return _missing(ctx, sym, fld)
        # "low beta" where the round shows beta1y / beta63d: every window shown must agree
        results = [_level(ctx, a, f, low, high, what) for f in members]
        if len({r.status for r in results}) == 1:
            first = results[0]
            return RuleResult(first.status, "; ".join(r.reason for r in results), [e for r in results for e in r.evidence])
        return RuleResult(NV, "windows disagree: " + "; ".join(r.reason for r in results),
                          [e for r in results for e in r.evidence])
    unit = FIELD_SPECS[fld].unit
    band = ctx.config.valuation_dead_band
    head = f"{sym} {fld} = {_fmt(v, unit)} ({_when(o)})"  # type: ignore[arg-type]
    if a.polarity > 0:
        ref, claim = high, f"high {what} (>= {_fmt(high, unit)})"
        if abs(v - ref) <= band * abs(ref):
            return RuleResult(NV, f"{head}; claimed {claim}: within the {band:.0%} dead band", [o])  # type: ignore[list-item]
        ok = v >= ref
    else:
        ref, claim = low, f"low {what} (< {_fmt(low, unit)})"
        if abs(v - ref) <= band * abs(ref):
            return RuleResult(NV, f"{head}; claimed {claim}: within the {band:.0%} dead band", [o])  # type: ignore[list-item]
        ok = v < ref
    return RuleResult(SUP if ok else CON, f"{head}; claimed {claim}", [o])  # type: ignore[list-item]


def rule_profitability(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "profitMargin")
    cfg = ctx.config
    pm_o = ctx.get(sym, "profitMargin")
    roe_o = ctx.get(sym, "returnOnEquityTTM")
    pm, roe = _num(pm_o), _num(roe_o)
    ev = [o for o in (pm_o, roe_o) if o is not None]
    if pm is None and roe is None:
        return _missing(ctx, sym, "profitMargin/returnOnEquityTTM")
    parts = []
    if pm is not None:
        parts.append(f"profitMargin {_fmt(pm, 'fraction')}")
    if roe is not None:
        parts.append(f"returnOnEquityTTM {_fmt(roe, 'fraction')}")
    head = f"{sym} " + ", ".join(parts) + f" ({_when(ev[-1])})"
    strong = (pm is not None and pm >= cfg.strong_profit_margin) or (roe is not None and roe >= cfg.strong_return_on_equity)
    if a.polarity > 0:
        return RuleResult(SUP if strong else CON, f"{head}; strong profitability needs profitMargin >= "
                          f"{cfg.strong_profit_margin:.0%} or ROE >= {cfg.strong_return_on_equity:.0%}", ev)
    if strong:
        return RuleResult(CON, f"{head}; claimed weak profitability but it meets the strong threshold", ev)
    if pm is None:
        return RuleResult(NV, f"{head}; weak profitability needs profitMargin < {cfg.weak_profit_margin:.0%}", ev)
    ok = pm < cfg.weak_profit_margin
    return RuleResult(SUP if ok else NV, f"{head}; weak profitability needs profitMargin < "
                      f"{cfg.weak_profit_margin:.0%}" + ("" if ok else " (moderate: not verifiable)"), ev)


def rule_growth(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "growth")
    cfg = ctx.config
    fields = [a.field] if a.field else ["quarterlyEarningsGrowthYOY", "quarterlyRevenueGrowthYOY"]
    obs = [o for o in (ctx.get(sym, f) for f in fields) if _num(o) is not None]
    if not obs:
        return _missing(ctx, sym, "/".join(fields))
    values = [float(o.value) for o in obs]  # type: ignore[arg-type]
    head = f"{sym} " + ", ".join(f"{o.field} {_fmt(v, 'fraction')}" for o, v in zip(obs, values, strict=True))
    if a.polarity > 0:
        if any(v >= cfg.strong_growth for v in values):
            return RuleResult(SUP, f"{head}; strong growth needs >= {cfg.strong_growth:.0%}", obs)
        return RuleResult(CON, f"{head}; strong growth needs >= {cfg.strong_growth:.0%}", obs)
    if all(v <= cfg.weak_growth for v in values):
        return RuleResult(SUP, f"{head}; weak growth needs <= {cfg.weak_growth:.0%}", obs)
    if any(v >= cfg.strong_growth for v in values):
        return RuleResult(CON, f"{head}; claimed weak growth", obs)
    return RuleResult(NV, f"{head}; between {cfg.weak_growth:.0%} and {cfg.strong_growth:.0%} (moderate)", obs)


def rule_valuation(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "peRatio")
    cfg = ctx.config
    o = ctx.get(sym, "peRatio")
    pe = _num(o)
    if pe is None:
        return _missing(ctx, sym, "peRatio")
    ev = [o]
    if pe <= 0:
        return RuleResult(NV, f"{sym} peRatio = {pe:.2f}: not meaningful (non-positive earnings)", ev)  # type: ignore[arg-type]
    sector_o = ctx.get(sym, "sector")
    ref, ref_text = (cfg.cheap_pe if a.polarity > 0 else cfg.expensive_pe), ""
    if sector_o is not None:
        peers = ctx.data.sector_values(str(sector_o.value), "peRatio", ctx.as_of)
        if len(peers) >= cfg.sector_median_min_peers:
            ref = median(peers)
            ref_text = f"{sector_o.value} sector median P/E {ref:.2f} ({len(peers)} symbols)"
            ev.append(sector_o)
    if not ref_text:
        ref_text = f"threshold P/E {ref:g}"
    claim = "cheap" if a.polarity > 0 else "expensive"
    head = f"{sym} peRatio = {pe:.2f} ({_when(o)}) vs {ref_text}; claimed {claim}"  # type: ignore[arg-type]
    if abs(pe - ref) <= cfg.valuation_dead_band * ref:
        return RuleResult(NV, f"{head}: within the {cfg.valuation_dead_band:.0%} dead band", ev)  # type: ignore[arg-type]
    ok = pe < ref if a.polarity > 0 else pe > ref
    return RuleResult(SUP if ok else CON, head, ev)  # type: ignore[arg-type]


def rule_dividend_yield(ctx: Ctx, a: Assertion) -> RuleResult:
    return _level(ctx, a, "dividendYield", ctx.config.low_dividend_yield, ctx.config.high_dividend_yield, "dividend yield")


def rule_beta_level(ctx: Ctx, a: Assertion) -> RuleResult:
    return _level(ctx, a, "beta", ctx.config.low_beta, ctx.config.high_beta, "beta")


def rule_volatility_level(ctx: Ctx, a: Assertion) -> RuleResult:
    return _level(ctx, a, "volatility20d", ctx.config.low_volatility, ctx.config.high_volatility, "volatility")


# ------------------------------------------------------------------------------------------- analyst


def rule_upside_direction(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "analystTargetPrice")
    value, ev = _ratio(ctx, sym, "analystTargetPrice", "close")
    return _signed(ctx, a, value, ev, ctx.config.upside_dead_band, "upside to the analyst target",
                   "upside to the target", "downside to the target")


_RATINGS = (("analystRatingStrongBuy", 5), ("analystRatingBuy", 4), ("analystRatingHold", 3),
            ("analystRatingSell", 2), ("analystRatingStrongSell", 1))


def consensus_label(score: float, cfg: VerifierConfig) -> str:
    """Consensus label of a mean rating score (strong buy 5 .. strong sell 1)."""
    if score >= cfg.consensus_strong_buy:
        return "strong buy"
    if score >= cfg.consensus_buy:
        return "buy"
    if score <= 6 - cfg.consensus_strong_buy:
        return "strong sell"
    if score <= cfg.consensus_sell:
        return "sell"
    return "hold"


def rule_consensus(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "analyst ratings")
    obs = [(ctx.get(sym, f), w) for f, w in _RATINGS]
    ev = [o for o, _ in obs if o is not None]
    counts = [(_num(o) or 0.0, w) for o, w in obs]
    total = sum(c for c, _ in counts)
    if not ev or total <= 0:
        return _missing(ctx, sym, "analyst rating counts")
    score = sum(c * w for c, w in counts) / total
    label = consensus_label(score, ctx.config)
    claimed = a.label or "buy"
    accepted = {"buy": ("buy", "strong buy"), "sell": ("sell", "strong sell")}.get(claimed, (claimed,))
    ok = label in accepted
    detail = "/".join(f"{c:g}" for c, _ in counts)
    return RuleResult(SUP if ok else CON, f"{sym} ratings SB/B/H/S/SS = {detail}, mean {score:.2f} -> {label}; "
                      f"claimed {claimed}", ev)


# ------------------------------------------------------------------------------------------- categorical


def _norm_label(text: str) -> str:
    t = text.lower().replace("&", " and ")
    t = re.sub(r"\b(sector|industry|the)\b", " ", t)
    t = re.sub(r"[^a-z0-9]+", " ", t).strip()
    return {"health care": "healthcare", "tech": "technology", "information technology": "technology",
            "it": "technology"}.get(t, t)


def rule_categorical(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, fld = a.symbol or ctx.symbol, a.field or "sector"
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, fld)
    o = ctx.get(sym, fld)
    if o is None:
        return _missing(ctx, sym, fld)
    actual, stated = _norm_label(str(o.value)), _norm_label(a.label or "")
    ok = bool(stated) and (actual == stated or stated in actual or actual in stated)
    return RuleResult(SUP if ok else CON, f"{sym} {fld} = {o.value!s}; stated {a.label}", [o])


# ------------------------------------------------------------------------------------------- the rest


def rule_forecast(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"forecast or opinion ('{a.raw}'): not checkable against point-in-time data")


_RETURN_LIKE = ("return1d", "return3d", "return5d", "return7d", "return20d", "return21d", "return30d", "return6m",
                "return1y", "activeReturn5d", "activeReturn7d", "activeReturn21d", "activeReturn30d",
                "activeReturn6m", "activeReturn1y")


def rule_any_return(ctx: Ctx, a: Assertion) -> RuleResult:
    """A move written next to a name with no horizon ("SMH -7.3%", "EWY -25%"): supported when one of the
    symbol's return columns matches, else not verifiable (which horizon was meant is unsaid), never contradicted."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "return")
    seen = []
    for fld in _RETURN_LIKE:
        o = ctx.get(sym, fld)
        v = _num(o)
        if v is None:
            continue
        seen.append(f"{fld} {_fmt(v, 'fraction')}")
        if _matches(v, a.stated or 0.0, a.tolerance, a.approx, ctx.config):
            return RuleResult(SUP, f"{sym} {fld} = {_fmt(v, 'fraction')} ({_when(o)}); stated {a.raw} matches "  # type: ignore[arg-type]
                                   f"(horizon not stated: the column that matches)", [o])  # type: ignore[list-item]
    if not seen:
        return _missing(ctx, sym, "a return")
    return RuleResult(NV, f"horizon not stated; {a.raw} matches none of {sym} {', '.join(seen)}")


def rule_probability(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"the model's own probability or confidence ({a.raw}): not a fact about the data")


def rule_plan(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"a plan, threshold, cap or weight ({a.raw}): a condition or an intention, not a fact")


def rule_briefing(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"{a.raw}: not a point-in-time field (briefing/context figure)", briefing=True)


def rule_unrecognised(ctx: Ctx, a: Assertion) -> RuleResult:
    if a.raw:  # a structured assertion that could not be used says why
        return RuleResult(NV, f"not checkable: {a.raw}")
    return RuleResult(NV, "no checkable assertion about a registry field")


def rule_compare(ctx: Ctx, a: Assertion) -> RuleResult:
    """The same field of two symbols ("XLV's 30-day return is above SPY's"), with a relative dead band."""
    sym, other = a.symbol or ctx.symbol, a.benchmark
    fld = a.field or ""
    if other is None:
        return RuleResult(NV, f"{a.raw!r}: compared with something that is not one option of the season")
    for s in (sym, other):
        if s is None or s not in ctx.data.known:
            return _missing(ctx, s, fld)
    o1, o2 = ctx.get(sym, fld), ctx.get(other, fld)  # type: ignore[arg-type]
    v1, v2 = _num(o1), _num(o2)
    if (v1 is None or v2 is None) and window_family(fld):
        # "lower volatility than SPY" where the round shows volatility21d: every window both have must agree
        both = [f for f in window_family(fld) if f != fld and ctx.get(sym, f) is not None  # type: ignore[arg-type]
                and ctx.get(other, f) is not None]  # type: ignore[arg-type]
        results = [rule_compare(ctx, a.model_copy(update={"field": f})) for f in both]
        if results and len({r.status for r in results}) == 1:
            return RuleResult(results[0].status, "; ".join(r.reason for r in results),
                              [e for r in results for e in r.evidence])
        if results:
            return RuleResult(NV, "windows disagree: " + "; ".join(r.reason for r in results))
    if v1 is None or v2 is None:
        return _missing(ctx, sym if v1 is None else other, fld)
    unit = _unit(fld)
    word = "above" if a.op == "gt" else "below"
    head = f"{sym} {fld} = {_fmt(v1, unit)} vs {other} {_fmt(v2, unit)} ({_when(o1)}); claimed {word}"  # type: ignore[arg-type]
    ev = [o1, o2]
    if abs(v1 - v2) <= ctx.config.threshold_dead_band * max(abs(v1), abs(v2), 1e-9):
        return RuleResult(NV, f"{head}: within the {ctx.config.threshold_dead_band:.1%} dead band", ev)  # type: ignore[arg-type]
    ok = v1 > v2 if a.op == "gt" else v1 < v2
    return RuleResult(SUP if ok else CON, head, ev)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------- ranking

_SHORT_RETURNS = ("return3d", "return5d", "return7d", "return30d")
_ALL_RETURNS = ("return3d", "return5d", "return7d", "return20d", "return30d", "return6m", "return1y")
_FAMILIES: dict[str, tuple[str, ...]] = {  # a non-return measure: its fields, one per window (the registry's)
    **WINDOW_FAMILIES,
    "priorActiveReturn": ("priorActiveReturn16d", "priorActiveReturn105d"),
    **{f: (f,) for f in ("qualityEvidenceScore", "priorActiveRank", "recentPullbackRank", "lowVolatilityRank",
                         "shallowDrawdownRank")},
}
_SHORT_ACTIVE = ("activeReturn5d", "activeReturn7d", "activeReturn21d", "activeReturn30d")


def _horizon_suffix(key: str) -> str:
    """'21T' -> '21d', '30D' -> '30d', '6M' -> '6m', '1Y' -> '1y' (registry field suffixes)."""
    return key[:-1] + ("d" if key[-1] in "TD" else key[-1].lower())


def _of_horizons(fields: tuple[str, ...], horizons: list[str]) -> list[str]:
    """The fields whose window is one of the written horizon keys ('21T' keeps volatility21d, not 121d)."""
    wanted = {_horizon_suffix(h) for h in horizons if h != "short"}
    return [f for f in fields if any(f.endswith(w) and f[-len(w) - 1].isalpha() for w in wanted)]


def _ranking_fields(ctx: Ctx, sym: str, a: Assertion) -> tuple[list[str], bool]:
    """(fields to rank on, every one must hold); horizons written in the claim must all hold."""
    if a.field and a.field not in _FAMILIES and a.field in FIELD_SPECS:
        return [a.field], True  # a structured assertion names the one field it ranks by
    if a.field in _FAMILIES:
        family = _FAMILIES[a.field]
        if [h for h in a.horizons if h != "short"]:
            return _of_horizons(family, a.horizons), True
        pool = _SHORT_ACTIVE if "short" in a.horizons and a.field == "activeReturn" else family
        return [f for f in pool if ctx.get(sym, f) is not None], False
    written = [h for h in a.horizons if h != "short"]
    if written:
        return [HORIZON_FIELDS.get(h, "") for h in written], True
    pool = _SHORT_RETURNS if "short" in a.horizons else _ALL_RETURNS
    return [f for f in pool if ctx.get(sym, f) is not None], False


def rule_ranking(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, "ranking")
    if a.label == "group":
        return RuleResult(NV, f"{a.raw!r}: a ranking within a group the claim does not name exactly")
    fields, every = _ranking_fields(ctx, sym, a)
    if not fields or any(not f or ctx.get(sym, f) is None for f in fields):
        return _missing(ctx, sym, "the ranked field")
    sector = ctx.data.sector_of(sym, ctx.as_of) if a.label == "sector" else None
    if a.label == "sector" and sector is None:
        return RuleResult(NV, f"{a.raw!r}: the sector of {sym} is not known")
    top_n = a.window or 1
    lowest = a.polarity < 0
    holds: list[bool] = []
    parts: list[str] = []
    evidence: list[Observation] = []
    for f in fields:
        peers: dict[str, float] = {}
        for s in sorted(ctx.data.symbols_with(f)):
            label = ctx.data.sector_of(s, ctx.as_of)
            if label == "cash" or (sector is not None and label != sector):
                continue
            v = _num(ctx.get(s, f))
            if v is not None:
                peers[s] = v
        if len(peers) < ctx.config.ranking_min_peers or sym not in peers:
            return RuleResult(NV, f"{a.raw!r}: fewer than {ctx.config.ranking_min_peers} symbols with {f} to rank")
        flip = lowest != f.startswith("maxDrawdown")  # the largest drawdown is the most negative
        order = sorted(peers, key=lambda s: (peers[s] if flip else -peers[s], s))
        rank = order.index(sym) + 1
        holds.append(rank <= top_n)
        leader = order[0]
        evidence.append(ctx.get(sym, f))
        if leader != sym:
            evidence.append(ctx.get(leader, f))
        parts.append(f"{f}: {sym} ranks {rank} of {len(order)} ({_fmt(peers[sym], _unit(f))}; first "
                     f"{leader} {_fmt(peers[leader], _unit(f))})")
    scope = f"among {sector} peers" if sector else "in the universe"
    reason = f"{a.raw!r} {scope}: " + "; ".join(parts)
    ev = [o for o in evidence if o is not None]
    if all(holds) or (not every and any(holds)):
        return RuleResult(SUP, reason, ev)
    if not any(holds):
        return RuleResult(CON, reason, ev)
    return RuleResult(NV, reason + " (holds on some horizons, not all)", ev)


def rule_sign(ctx: Ctx, a: Assertion) -> RuleResult:
    """"negative beta", "positive 21-session active return": the sign of every window the round shows (the
    written ones when the claim names them); windows that disagree, or a value within ``momentum_dead_band`` of
    zero, are not verifiable."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return _missing(ctx, sym, a.field or "value")
    family = window_family(a.field or "") or (a.field or "",)
    if [h for h in a.horizons if h != "short"]:
        family = tuple(_of_horizons(family, a.horizons))
    fields = [f for f in family if f and ctx.get(sym, f) is not None]
    if not fields:
        return _missing(ctx, sym, a.field or "value")
    evidence = [ctx.get(sym, f) for f in fields]
    values = [_num(o) for o in evidence]
    parts = "; ".join(f"{f} = {_fmt(v, _unit(f))}" for f, v in zip(fields, values, strict=True))  # type: ignore[arg-type]
    head = f"{sym} {parts}; claimed {'positive' if a.polarity > 0 else 'negative'}"
    ev = [o for o in evidence if o is not None]
    band = ctx.config.momentum_dead_band if _unit(fields[0]) == "fraction" else 0.02
    if any(v is None or abs(v) <= band for v in values):
        return RuleResult(NV, head + ": a value at zero (dead band)", ev)
    signs = {v > 0 for v in values}  # type: ignore[operator]
    if len(signs) > 1:
        return RuleResult(NV, head + ": the windows disagree", ev)
    ok = signs == {a.polarity > 0}
    return RuleResult(SUP if ok else CON, head, ev)


RULES = {
    "sign": rule_sign,
    "ranking": rule_ranking,
    "compare": rule_compare,
    "exact_numeric": rule_exact_numeric,
    "threshold": rule_threshold,
    "derived_return": rule_derived_return,
    "relative_return": rule_relative_return,
    "return_or_relative": rule_return_or_relative,
    "distance_52w_high": rule_distance_52w_high,
    "distance_52w_low": rule_distance_52w_low,
    "distance_sma": rule_distance_sma,
    "analyst_upside": rule_analyst_upside,
    "sma_position": rule_sma_position,
    "ma_cross": rule_ma_cross,
    "macd_signal": rule_macd_signal,
    "momentum": rule_momentum,
    "relative_momentum": rule_relative_momentum,
    "rsi_state": rule_rsi_state,
    "near_52w_extreme": rule_near_52w_extreme,
    "profitability": rule_profitability,
    "valuation": rule_valuation,
    "growth": rule_growth,
    "dividend_yield": rule_dividend_yield,
    "beta_level": rule_beta_level,
    "volatility_level": rule_volatility_level,
    "upside_direction": rule_upside_direction,
    "consensus": rule_consensus,
    "categorical": rule_categorical,
    "forecast": rule_forecast,
    "probability": rule_probability,
    "any_return": rule_any_return,
    "plan": rule_plan,
    "briefing": rule_briefing,
    "unrecognised": rule_unrecognised,
}
