"""What every rule shares: the result type, the context (store look-ups, thresholds, decision time), the
value a numeric assertion is about, matching at the stated precision, and the lookahead check."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from grader.pit import Observation
from ledgers._data import StoreData
from ledgers._models import Assertion, Status, VerifierConfig
from ledgers._registry import FIELD_SPECS, Unit
from ledgers._units import format_value
from ledgers.reading import FIELD_HORIZONS, HORIZON_FIELDS

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


def when(o: Observation) -> str:
    t = o.observed_at
    text = _WHEN.get(t)
    if text is None:
        text = f"{t.year:04d}-{t.month:02d}-{t.day:02d}"
        if (t.hour, t.minute) != (16, 0):
            text += f" {t.hour:02d}:{t.minute:02d}{t.strftime('%z')}"
        if len(_WHEN) < 100_000:
            _WHEN[t] = text
    return text


def fmt(value: float | str, unit: Unit = "ratio") -> str:
    return format_value(value, unit)


def as_float(o: Observation | None) -> float | None:
    if o is None or isinstance(o.value, str):
        return None
    return float(o.value)


HORIZON_LABEL = re.compile(r"\d+[TDMY]")


def horizon_of(a: Assertion) -> str | None:
    if a.label and HORIZON_LABEL.fullmatch(a.label):
        return a.label
    if a.field in FIELD_HORIZONS:
        return FIELD_HORIZONS[a.field]
    return None


def missing(ctx: Ctx, symbol: str | None, what: str) -> RuleResult:
    if symbol is None:
        return RuleResult(NV, f"no symbol to check {what} against")
    if symbol not in ctx.data.known:
        return RuleResult(NV, f"{symbol} has no point-in-time data")
    return RuleResult(NV, f"{what} of {symbol} is not known at {ctx.as_of:%Y-%m-%d %H:%M%z}")


def matches(actual: float, stated: float, tol: float, approx: bool, cfg: VerifierConfig) -> bool:
    """Rounded or truncated to the stated precision, or within the relative tolerance."""
    rel = cfg.approx_relative_tolerance if approx else cfg.relative_tolerance
    if abs(actual - stated) <= max(tol, rel * abs(actual)) + 1e-12:
        return True
    same_sign = stated == 0 or (stated > 0) == (actual > 0)
    return same_sign and abs(stated) - 1e-12 <= abs(actual) < abs(stated) + 2 * tol - 1e-12


def tol_text(a: Assertion, unit: str, cfg: VerifierConfig) -> str:
    rel = cfg.approx_relative_tolerance if a.approx else cfg.relative_tolerance
    prec = f"{a.tolerance * 100:.4g} pp" if unit == "fraction" else f"{a.tolerance:.4g}"
    return f"±{prec} or {rel:.0%}"


CALENDAR_AS_SESSIONS = {
    "return7d": "return5d",
    "return30d": "return21d",
    "activeReturn7d": "activeReturn5d",
    "activeReturn30d": "activeReturn21d",
}
"""A week is 5 trading sessions and a month 21: a calendar window a table does not show is read as the table's
session window of the same length (CapitalBench's decision context counts sessions). Such a reading supports a
figure that matches; a mismatch is not a contradiction (the figure may be a calendar week of another source)."""
SESSION_READING = "read for the"


def value_of(ctx: Ctx, symbol: str, a: Assertion) -> tuple[float | None, list[Observation], str]:
    """The value a numeric assertion is about, its evidence, and what it is (for the reason)."""
    horizon = horizon_of(a)
    if a.field and a.field not in FIELD_HORIZONS:
        o = ctx.get(symbol, a.field)
        sessions = CALENDAR_AS_SESSIONS.get(a.field)
        if o is None and sessions and (s := ctx.get(symbol, sessions)) is not None:
            # "active return of 3.95% on the week" where the table counts sessions: a week is 5 sessions
            return as_float(s), [s], f"{sessions} ({SESSION_READING} {a.field} the table does not show)"
        return as_float(o), [o] if o else [], a.field
    fld = a.field or (HORIZON_FIELDS.get(horizon) if horizon else None)
    if fld:
        o = ctx.get(symbol, fld)
        if o is not None:
            return as_float(o), [o], fld
        sessions = CALENDAR_AS_SESSIONS.get(fld)
        o = ctx.get(symbol, sessions) if sessions else None
        if o is not None:  # "-2.9% this week" where the table counts sessions: a week is 5 sessions
            return as_float(o), [o], f"{sessions} (read for the {fld} the table does not show)"
    if horizon:
        got = ctx.data.derived_return(symbol, horizon, ctx.as_of)
        if got is not None:
            return got[0], got[1], f"{horizon_words(horizon)} return from closes"
    return None, [], fld or "return"


def horizon_words(h: str) -> str:
    n, k = h[:-1], h[-1]
    return {"T": f"{n}-trading-day", "D": f"{n}-calendar-day", "M": f"{n}-month", "Y": f"{n}-year"}[k]


def ratio(ctx: Ctx, symbol: str, num: str, den: str) -> tuple[float | None, list[Observation]]:
    a, b = ctx.get(symbol, num), ctx.get(symbol, den)
    va, vb = as_float(a), as_float(b)
    ev = [o for o in (a, b) if o is not None]
    if va is None or vb is None or vb == 0:
        return None, ev
    return va / vb - 1.0, ev


def unit_of(fld: str | None) -> Unit:
    return FIELD_SPECS[fld].unit if fld in FIELD_SPECS else "fraction"


def signed(
    ctx: Ctx, a: Assertion, value: float | None, ev: list[Observation], band: float, what: str, up: str, down: str
) -> RuleResult:
    sym = a.symbol or ctx.symbol or "?"
    if value is None:
        return missing(ctx, a.symbol or ctx.symbol, what)
    claim = up if a.polarity > 0 else down
    head = f"{sym} {what} = {fmt(value, 'fraction')}; claimed {claim}"
    if abs(value) <= band:
        return RuleResult(NV, f"{head}: within the {band:.2%} dead band", ev)
    ok = (value > 0) == (a.polarity > 0)
    return RuleResult(SUP if ok else CON, head, ev)


def compare_fraction(ctx: Ctx, a: Assertion, value: float, ev: list[Observation], what: str, sym: str) -> RuleResult:
    stated = a.stated if a.stated is not None else 0.0
    ok = matches(value, stated, a.tolerance, a.approx, ctx.config)
    reason = (
        f"{sym} {what} = {fmt(value, 'fraction')}; stated {a.raw} {'matches' if ok else 'differs'} "
        f"({tol_text(a, 'fraction', ctx.config)})"
    )
    return RuleResult(SUP if ok else CON, reason, ev)


def _lookahead(ctx: Ctx, symbol: str, a: Assertion, fld: str | None) -> tuple[Observation | None, list[Observation]]:
    """A value observed after the decision (within the window) that matches the claim at stated precision."""
    window = ctx.config.lookahead_window_days
    if a.stated is None or a.op != "eq":
        return None, []
    if a.tolerance > ctx.config.lookahead_min_precision * abs(a.stated):
        return None, []  # too coarse ("RSI 63", "+8%") to tell a later value from a coincidence
    later = ctx.data.later(symbol, fld, ctx.as_of, window) if fld and fld in FIELD_SPECS else []
    for o in later:
        v = as_float(o)
        if v is not None and abs(v - a.stated) <= a.tolerance + 1e-12:
            return o, [o]
    if later:
        return None, []
    horizon = horizon_of(a)
    if horizon:
        for value, ev in ctx.data.later_derived_returns(symbol, horizon, ctx.as_of, window):
            if abs(value - a.stated) <= a.tolerance + 1e-12:
                return ev[-1], ev
    return None, []


def with_lookahead(ctx: Ctx, symbol: str, a: Assertion, fld: str | None, res: RuleResult) -> RuleResult:
    if res.status == SUP or a.stated is None:
        return res
    hit, ev = _lookahead(ctx, symbol, a, fld)
    if hit is None:
        return res
    res.lookahead = True
    res.evidence.extend(ev)
    res.reason += f"; matches only the value observed later ({when(hit)}: {fmt(as_float(hit) or 0.0, unit_of(fld))})"
    return res
