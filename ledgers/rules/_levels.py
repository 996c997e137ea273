"""Levels and labels: profitability, growth, valuation, dividend yield, beta and volatility levels, upside
direction, analyst consensus, sector/industry labels, and the sign of a measure."""

from __future__ import annotations

import re
from statistics import median

from grader.pit import Observation
from ledgers._models import Assertion, VerifierConfig
from ledgers._registry import FIELD_SPECS, window_family
from ledgers.rules._base import (
    CON,
    NV,
    SUP,
    Ctx,
    RuleResult,
    as_float,
    fmt,
    missing,
    ratio,
    signed,
    unit_of,
    when,
)
from ledgers.rules._ranking import of_horizons


def _level(ctx: Ctx, a: Assertion, fld: str, low: float, high: float, what: str) -> RuleResult:
    """polarity +1: value >= high supports, value < low contradicts ... with a relative dead band."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, fld)
    o = ctx.get(sym, fld)
    v = as_float(o)
    if o is None or v is None:
        members = [f for f in window_family(fld) if f != fld and ctx.get(sym, f) is not None]
        if not members:
            return missing(ctx, sym, fld)
        # "low beta" where the round shows beta1y / beta63d: every window shown must agree
        results = [_level(ctx, a, f, low, high, what) for f in members]
        if len({r.status for r in results}) == 1:
            first = results[0]
            return RuleResult(
                first.status, "; ".join(r.reason for r in results), [e for r in results for e in r.evidence]
            )
        return RuleResult(
            NV, "windows disagree: " + "; ".join(r.reason for r in results), [e for r in results for e in r.evidence]
        )
    unit = FIELD_SPECS[fld].unit
    band = ctx.config.valuation_dead_band
    head = f"{sym} {fld} = {fmt(v, unit)} ({when(o)})"
    if a.polarity > 0:
        ref, claim = high, f"high {what} (>= {fmt(high, unit)})"
        if abs(v - ref) <= band * abs(ref):
            return RuleResult(NV, f"{head}; claimed {claim}: within the {band:.0%} dead band", [o])
        ok = v >= ref
    else:
        ref, claim = low, f"low {what} (< {fmt(low, unit)})"
        if abs(v - ref) <= band * abs(ref):
            return RuleResult(NV, f"{head}; claimed {claim}: within the {band:.0%} dead band", [o])
        ok = v < ref
    if ok:
        return RuleResult(SUP, f"{head}; claimed {claim}", [o])
    # "high" and "low" are also said against the other options ("high-beta" among ETFs whose beta runs from -1 to 2.5):
    # a level is contradicted only when it holds on neither reading
    share = _percentile(ctx, sym, fld, v)
    if share is None:
        return RuleResult(CON, f"{head}; claimed {claim}", [o])
    third = "top" if a.polarity > 0 else "bottom"
    rel = f"{sym} is at the {share:.0%} point of the options' {fld} (a {third}-third reading)"
    if (share >= 2 / 3) if a.polarity > 0 else (share <= 1 / 3):
        return RuleResult(SUP, f"{head}; claimed {claim}: not by the threshold, but {rel}", [o])
    if (share >= 0.5) if a.polarity > 0 else (share <= 0.5):
        return RuleResult(NV, f"{head}; claimed {claim}: below the threshold, yet {rel} holds in part", [o])
    return RuleResult(CON, f"{head}; claimed {claim}, and {rel} does not hold either", [o])


def rule_standing(ctx: Ctx, a: Assertion) -> RuleResult:
    """ "High prior active rank", "low quality evidence score", "low SPY correlation": the option's place among the
    options (cash excluded) on that measure, every window the round shows: supported in the third the word names;
    otherwise not verifiable (the words draw no line, so a middle place refutes nothing)."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known or a.field is None:
        return missing(ctx, sym, a.field or "the measure")
    fields = [f for f in (window_family(a.field) or (a.field,)) if ctx.get(sym, f) is not None]
    if not fields:
        return missing(ctx, sym, a.field)
    third = "top" if a.polarity > 0 else "bottom"
    parts: list[str] = []
    evidence: list[Observation] = []
    holds: list[bool] = []
    for f in fields:
        o = ctx.get(sym, f)
        v = as_float(o)
        share = None if o is None or v is None else _percentile(ctx, sym, f, v)
        if o is None or v is None or share is None:
            return RuleResult(NV, f"{sym} {f}: too few options to place it")
        held = share >= 2 / 3 if a.polarity > 0 else share <= 1 / 3
        part = f"{sym} {f} = {fmt(v, unit_of(f))} ({when(o)}), at the {share:.0%} point of the options"
        market = _market_value(ctx, sym, f) if a.polarity > 0 and f.startswith(_AGAINST_THE_MARKET) else None
        if not held and market is not None and v > market and share >= 0.5:  # "low drawdown": shallower than the
            held, part = True, f"{part}, in the upper half and above the benchmark's {fmt(market, unit_of(f))}"
        holds.append(held)
        parts.append(part)
        evidence.append(o)
    reason = f"{'; '.join(parts)}; claimed the {third} third"
    if all(holds):
        return RuleResult(SUP, reason, evidence)
    return RuleResult(NV, f"{reason}: not there on every window, and the words draw no line to refute", evidence)


_AGAINST_THE_MARKET = ("maxDrawdown",)
"""Measures whose 'shallow' is also said against the market: an equity fund's drawdown shallower than the benchmark's
(and than the universe's median) holds the word even where bonds and cash crowd the universe's top third. (A 'high' up-day share is not said against
the market: below half the days up, it is not high whatever the market did.)"""


def _market_value(ctx: Ctx, sym: str, fld: str) -> float | None:
    bench = ctx.config.benchmark
    if bench is None or bench == sym:
        return None
    return as_float(ctx.get(bench, fld))


def _percentile(ctx: Ctx, sym: str, fld: str, value: float) -> float | None:
    """Share of the other options (cash excluded) whose ``fld`` is at or below ``value`` at the decision; None when
    fewer than ``ranking_min_peers`` options have the field."""
    peers = []
    for s in ctx.data.symbols_with(fld):
        if s == sym or ctx.data.labels.get(s, {}).get("asset_class") == "cash":
            continue
        x = as_float(ctx.get(s, fld))
        if x is not None:
            peers.append(x)
    if len(peers) < ctx.config.ranking_min_peers:
        return None
    return sum(x <= value for x in peers) / len(peers)


def rule_profitability(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "profitMargin")
    cfg = ctx.config
    pm_o = ctx.get(sym, "profitMargin")
    roe_o = ctx.get(sym, "returnOnEquityTTM")
    pm, roe = as_float(pm_o), as_float(roe_o)
    ev = [o for o in (pm_o, roe_o) if o is not None]
    if pm is None and roe is None:
        return missing(ctx, sym, "profitMargin/returnOnEquityTTM")
    parts = []
    if pm is not None:
        parts.append(f"profitMargin {fmt(pm, 'fraction')}")
    if roe is not None:
        parts.append(f"returnOnEquityTTM {fmt(roe, 'fraction')}")
    head = f"{sym} " + ", ".join(parts) + f" ({when(ev[-1])})"
    strong = (pm is not None and pm >= cfg.strong_profit_margin) or (
        roe is not None and roe >= cfg.strong_return_on_equity
    )
    if a.polarity > 0:
        return RuleResult(
            SUP if strong else CON,
            f"{head}; strong profitability needs profitMargin >= "
            f"{cfg.strong_profit_margin:.0%} or ROE >= {cfg.strong_return_on_equity:.0%}",
            ev,
        )
    if strong:
        return RuleResult(CON, f"{head}; claimed weak profitability but it meets the strong threshold", ev)
    if pm is None:
        return RuleResult(NV, f"{head}; weak profitability needs profitMargin < {cfg.weak_profit_margin:.0%}", ev)
    ok = pm < cfg.weak_profit_margin
    return RuleResult(
        SUP if ok else NV,
        f"{head}; weak profitability needs profitMargin < "
        f"{cfg.weak_profit_margin:.0%}" + ("" if ok else " (moderate: not verifiable)"),
        ev,
    )


def rule_growth(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "growth")
    cfg = ctx.config
    fields = [a.field] if a.field else ["quarterlyEarningsGrowthYOY", "quarterlyRevenueGrowthYOY"]
    obs = [o for o in (ctx.get(sym, f) for f in fields) if o is not None and as_float(o) is not None]
    if not obs:
        return missing(ctx, sym, "/".join(fields))
    values = [float(o.value) for o in obs]
    head = f"{sym} " + ", ".join(f"{o.field} {fmt(v, 'fraction')}" for o, v in zip(obs, values, strict=True))
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
        return missing(ctx, sym, "peRatio")
    cfg = ctx.config
    o = ctx.get(sym, "peRatio")
    pe = as_float(o)
    if o is None or pe is None:
        return missing(ctx, sym, "peRatio")
    ev = [o]
    if pe <= 0:
        return RuleResult(NV, f"{sym} peRatio = {pe:.2f}: not meaningful (non-positive earnings)", ev)
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
    head = f"{sym} peRatio = {pe:.2f} ({when(o)}) vs {ref_text}; claimed {claim}"
    if abs(pe - ref) <= cfg.valuation_dead_band * ref:
        return RuleResult(NV, f"{head}: within the {cfg.valuation_dead_band:.0%} dead band", ev)
    ok = pe < ref if a.polarity > 0 else pe > ref
    return RuleResult(SUP if ok else CON, head, ev)


def rule_dividend_yield(ctx: Ctx, a: Assertion) -> RuleResult:
    return _level(
        ctx, a, "dividendYield", ctx.config.low_dividend_yield, ctx.config.high_dividend_yield, "dividend yield"
    )


def rule_beta_level(ctx: Ctx, a: Assertion) -> RuleResult:
    return _level(ctx, a, "beta", ctx.config.low_beta, ctx.config.high_beta, "beta")


def rule_volatility_level(ctx: Ctx, a: Assertion) -> RuleResult:
    return _level(ctx, a, "volatility20d", ctx.config.low_volatility, ctx.config.high_volatility, "volatility")


def rule_upside_direction(ctx: Ctx, a: Assertion) -> RuleResult:
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, "analystTargetPrice")
    value, ev = ratio(ctx, sym, "analystTargetPrice", "close")
    return signed(
        ctx,
        a,
        value,
        ev,
        ctx.config.upside_dead_band,
        "upside to the analyst target",
        "upside to the target",
        "downside to the target",
    )


_RATINGS = (
    ("analystRatingStrongBuy", 5),
    ("analystRatingBuy", 4),
    ("analystRatingHold", 3),
    ("analystRatingSell", 2),
    ("analystRatingStrongSell", 1),
)


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
        return missing(ctx, sym, "analyst ratings")
    obs = [(ctx.get(sym, f), w) for f, w in _RATINGS]
    ev = [o for o, _ in obs if o is not None]
    counts = [(as_float(o) or 0.0, w) for o, w in obs]
    total = sum(c for c, _ in counts)
    if not ev or total <= 0:
        return missing(ctx, sym, "analyst rating counts")
    score = sum(c * w for c, w in counts) / total
    label = consensus_label(score, ctx.config)
    claimed = a.label or "buy"
    accepted = {"buy": ("buy", "strong buy"), "sell": ("sell", "strong sell")}.get(claimed, (claimed,))
    ok = label in accepted
    detail = "/".join(f"{c:g}" for c, _ in counts)
    return RuleResult(
        SUP if ok else CON, f"{sym} ratings SB/B/H/S/SS = {detail}, mean {score:.2f} -> {label}; claimed {claimed}", ev
    )


def _norm_label(text: str) -> str:
    t = text.lower().replace("&", " and ")
    t = re.sub(r"\b(sector|industry|the)\b", " ", t)
    t = re.sub(r"[^a-z0-9]+", " ", t).strip()
    return {
        "health care": "healthcare",
        "tech": "technology",
        "information technology": "technology",
        "it": "technology",
    }.get(t, t)


def rule_categorical(ctx: Ctx, a: Assertion) -> RuleResult:
    sym, fld = a.symbol or ctx.symbol, a.field or "sector"
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, fld)
    o = ctx.get(sym, fld)
    if o is None:
        return missing(ctx, sym, fld)
    actual, stated = _norm_label(str(o.value)), _norm_label(a.label or "")
    ok = bool(stated) and (actual == stated or stated in actual or actual in stated)
    return RuleResult(SUP if ok else CON, f"{sym} {fld} = {o.value!s}; stated {a.label}", [o])


def rule_sign(ctx: Ctx, a: Assertion) -> RuleResult:
    """ "negative beta", "positive 21-session active return": the sign of every window the round shows (the
    written ones when the claim names them); windows that disagree, or a value within ``momentum_dead_band`` of
    zero, are not verifiable."""
    sym = a.symbol or ctx.symbol
    if sym is None or sym not in ctx.data.known:
        return missing(ctx, sym, a.field or "value")
    family = window_family(a.field or "") or (a.field or "",)
    if [h for h in a.horizons if h != "short"]:
        family = tuple(of_horizons(family, a.horizons))
    fields = [f for f in family if f and ctx.get(sym, f) is not None]
    if not fields:
        return missing(ctx, sym, a.field or "value")
    evidence = [ctx.get(sym, f) for f in fields]
    values = [as_float(o) for o in evidence]
    # fields holds the windows with an observation; a text value (as_float None) is not stored in a window family
    parts = "; ".join(f"{f} = {fmt(v, unit_of(f))}" for f, v in zip(fields, values, strict=True))  # type: ignore[arg-type]
    head = f"{sym} {parts}; claimed {'positive' if a.polarity > 0 else 'negative'}"
    ev = [o for o in evidence if o is not None]
    band = ctx.config.momentum_dead_band if unit_of(fields[0]) == "fraction" else 0.02
    if any(v is None or abs(v) <= band for v in values):
        return RuleResult(NV, head + ": a value at zero (dead band)", ev)
    signs = {v > 0 for v in values if v is not None}  # every value is there (the dead-band check above)
    if len(signs) > 1:
        return RuleResult(NV, head + ": the windows disagree", ev)
    ok = signs == {a.polarity > 0}
    return RuleResult(SUP if ok else CON, head, ev)
