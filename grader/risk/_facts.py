"""PortBench's risk evidence for every decision of a season, point-in-time, and the season's risk outcome.

At each decision (``decision_risk``): the portfolio as it stands after the decision (a trading contestant's
holdings and cash after its trades, valued at the last close before the decision's session; or a target
allocation), and from the ``LOOKBACK_SESSIONS`` daily returns up to that close only:

- historical VaR95 and CVaR95 over one session and over the season's decision interval (``horizon``);
- the two-layer correlation score of the class weights;
- with an investor profile, the profile alignment check (and the drawdown to date for a trading contestant).

Nothing after that close is read: the lookahead property test changes every later price and finds the same
figures. A rounds season carries only each round's entry and exit closes, not a daily series, so its VaR and
correlation score are not computed (said per decision); class weights and the profile's weight limits are.

After the horizon (``season_risk``, trading seasons; an outcome, shown only in the labelled outcome section):
the classical baselines, every named stress window the season overlaps (the portfolio against the equal-weight
baseline and the benchmark there) and the profile's drawdown gate (``_outcome``). The season's closes and
their trailing windows are ``_market``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pandas as pd

from grader._lazy import LazyMapping
from grader.pit import MARKET_TZ
from grader.risk._classes import UNINVESTED_CASH, classes_of
from grader.risk._correlation import CorrelationScore, CorrelationUnavailable, two_layer_score
from grader.risk._market import SeasonMarket, decision_interval
from grader.risk._outcome import SeasonRisk, SeasonRiskBasis
from grader.risk._profiles import ProfileCheck, check_profile, season_profile
from grader.risk._var import LOOKBACK_SESSIONS, MIN_RETURNS, VarEstimate, historical_var
from grader.season import Decision, SeasonBundle


@dataclass
class DecisionRisk:
    decision_key: str
    as_of: date | None  # the last close the figures use
    weights: dict[str, float]  # symbol (or "cash") -> weight after the decision
    class_weights: dict[str, float]
    var_1d: VarEstimate | None = None
    var_h: VarEstimate | None = None
    correlation: CorrelationScore | None = None
    profile: ProfileCheck | None = None
    unavailable: list[str] = field(default_factory=list)  # what could not be computed, and why

    def lines(self, unavailable: bool = True) -> list[str]:
        """The decision's risk facts as prompt/report phrases (``unavailable``: also say what was not computed)."""
        out = []
        cls = ", ".join(
            f"{c} {w * 100:.0f}%" for c, w in sorted(self.class_weights.items(), key=lambda kv: -kv[1]) if w > 0.0005
        )
        if cls:
            out.append(f"asset classes after the decision: {cls}")
        var = [v.describe() for v in (self.var_1d, self.var_h) if v is not None]
        if var:
            out.append("historical " + ", ".join(var) + f" (trailing sessions to {self.as_of})")
        if self.correlation is not None:
            out.append(self.correlation.describe())
        if self.profile is not None:
            out.append(self.profile.describe())
        if unavailable:
            out += [f"not computed: {u}" for u in self.unavailable]
        return out


@dataclass
class ContestantRisk:
    decisions: list[DecisionRisk]
    season: SeasonRisk | None = None

    def pas_mean(self) -> float | None:
        vals = [d.profile.pas for d in self.decisions if d.profile is not None]
        return float(np.mean(vals)) if vals else None

    def breaches(self) -> list[tuple[str, list[str]]]:
        return [
            (d.decision_key, d.profile.breaches) for d in self.decisions if d.profile is not None and d.profile.breaches
        ]

    def mean_of(self, attr: str, part: str = "var") -> float | None:
        """Mean over the decisions of a VaR estimate's ``var`` or ``cvar`` (``part``), or of the correlation score."""
        vals = []
        for d in self.decisions:
            v = getattr(d, attr)
            if v is None:
                continue
            vals.append(getattr(v, part) if isinstance(v, VarEstimate) else v.s_corr)
        return float(np.mean(vals)) if vals else None

    def horizon(self) -> int | None:
        """The decision interval (sessions) the ``var_h`` figures are over, when any was computed."""
        return next((d.var_h.horizon for d in self.decisions if d.var_h is not None), None)

    def summary(self) -> dict[str, float | int | None]:
        """Per contestant, for the report and the console: VaR95 and CVaR95 over one session and over the decision
        interval (``horizon`` sessions), means over the decisions."""
        return {
            "decisions": len(self.decisions),
            "var_1d_mean": self.mean_of("var_1d"),
            "cvar_1d_mean": self.mean_of("var_1d", "cvar"),
            "var_h_mean": self.mean_of("var_h"),
            "cvar_h_mean": self.mean_of("var_h", "cvar"),
            "horizon": self.horizon(),
            "correlation_score_mean": self.mean_of("correlation"),
            "profile_alignment_mean": self.pas_mean(),
            "decisions_with_breaches": len(self.breaches()),
        }


def _class_weights(weights: dict[str, float], class_of: dict[str, str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for s, w in weights.items():
        c = UNINVESTED_CASH if s == UNINVESTED_CASH else class_of.get(s, "unknown")
        out[c] = out.get(c, 0.0) + w
    return out


def _var_of(
    weights: dict[str, float], market: SeasonMarket, as_of: date, horizon: int, unavailable: list[str]
) -> tuple[VarEstimate | None, VarEstimate | None]:
    risky = {s: w for s, w in weights.items() if s != UNINVESTED_CASH and abs(w) > 1e-12}
    if not risky:  # all cash: no loss in any scenario
        flat = np.zeros(LOOKBACK_SESSIONS)
        return historical_var(flat), historical_var(flat, horizon=horizon) if horizon > 1 else None
    returns = market.returns_to(as_of)
    cols = [market.column.get(s) for s in risky]
    short = sorted(
        s for s, c in zip(risky, cols, strict=True) if c is None or np.isfinite(returns[:, c]).sum() < MIN_RETURNS
    )
    if short:
        unavailable.append(f"VaR (fewer than {MIN_RETURNS} trailing daily returns for {', '.join(short)})")
        return None, None
    frame = returns[:, [c for c in cols if c is not None]]  # every one known past the check above
    frame = frame[np.isfinite(frame).all(axis=1)]
    if len(frame) < MIN_RETURNS:
        unavailable.append(f"VaR (fewer than {MIN_RETURNS} sessions where every holding has a return)")
        return None, None
    port = frame @ np.array(list(risky.values()))
    one = historical_var(port)
    many = historical_var(port, horizon=horizon) if horizon > 1 else None  # the decision interval is one session
    if many is None and horizon > 1:
        unavailable.append(f"{horizon}-session VaR (too few overlapping {horizon}-session returns)")
    return one, many


def contestant_risk(
    bundle: SeasonBundle,
    contestant_id: str,
    *,
    market: SeasonMarket | None = None,
    horizon: int | None = None,
    nav: pd.Series | None = None,
) -> ContestantRisk:
    """Every decision's risk facts (point-in-time). ``nav``: the replayed NAV (date -> close value) of a trading
    contestant, for the drawdown to date."""
    info = bundle.info
    class_of = classes_of(info)
    profile = season_profile(info)
    horizon = horizon or decision_interval(bundle)
    rounds = info.format == "rounds"
    market = market if market is not None or rounds else SeasonMarket(bundle)
    qty: dict[str, float] = {}
    cash = info.starting_cash
    out = []
    for d in sorted(bundle.decisions_of(contestant_id), key=lambda x: x.decided_at):
        day = d.decided_at.astimezone(MARKET_TZ).date()
        unavailable: list[str] = []
        as_of = None if rounds or market is None else market.last_close_before(day)
        weights = _allocation(d) if rounds or market is None else _weights_after(d, qty, cash, market, as_of)
        if not rounds:
            for t in d.trades:
                sign = 1.0 if t.side == "buy" else -1.0
                qty[t.symbol] = qty.get(t.symbol, 0.0) + sign * t.quantity
                cash -= sign * t.quantity * t.price
        if weights is None:
            out.append(
                DecisionRisk(
                    d.key,
                    as_of,
                    {},
                    {},
                    unavailable=["risk figures (a hold with nothing held, or no close before the decision)"],
                )
            )
            continue
        cw = _class_weights(weights, class_of)
        risk = DecisionRisk(d.key, as_of, weights, cw, unavailable=unavailable)
        if rounds:
            unavailable.append(
                "VaR and correlation score (a rounds season carries each round's entry and exit "
                "closes, not a daily price series)"
            )
        elif as_of is not None and market is not None:
            risk.var_1d, risk.var_h = _var_of(weights, market, as_of, horizon, unavailable)
            try:
                risk.correlation = two_layer_score(cw, market.stats(as_of, class_of))
            except CorrelationUnavailable as exc:
                unavailable.append(f"correlation score ({exc})")
        if profile is not None:
            dd = None
            if nav is not None and as_of is not None:
                path = np.concatenate([[info.starting_cash], nav.loc[:as_of].to_numpy(float)])
                dd = float(1.0 - path[-1] / path.max())
            risk.profile = check_profile(profile, cw, risk.var_1d.var if risk.var_1d else None, dd)
        out.append(risk)
    return ContestantRisk(decisions=out)


def _allocation(d: Decision) -> dict[str, float] | None:
    if not d.allocation:
        return None
    return {a.symbol: float(a.weight) for a in d.allocation}


def _weights_after(
    d: Decision, qty: dict[str, float], cash: float, market: SeasonMarket, as_of: date | None
) -> dict[str, float] | None:
    """Weights after the decision's trades, valued at the ``as_of`` close (trades at their own price when the
    symbol has no close yet)."""
    if d.allocation:
        return _allocation(d)
    if as_of is None:
        return None
    after = dict(qty)
    after_cash = cash
    price = {t.symbol: t.price for t in d.trades}
    for t in d.trades:
        sign = 1.0 if t.side == "buy" else -1.0
        after[t.symbol] = after.get(t.symbol, 0.0) + sign * t.quantity
        after_cash -= sign * t.quantity * t.price
    values = {}
    for s, q in after.items():
        if abs(q) < 1e-12:
            continue
        px = market.close(as_of, s)
        values[s] = q * (px if px is not None else price.get(s, 0.0))
    total = after_cash + sum(values.values())
    if total <= 0:
        return None
    weights = {s: v / total for s, v in values.items()}
    weights[UNINVESTED_CASH] = after_cash / total
    return weights


class SeasonRiskFacts(LazyMapping[str, ContestantRisk]):
    """:func:`season_risk_facts` as a mapping that computes a contestant's facts when first asked (a streamed
    grading run's first prompt does not wait for every contestant's); the season-wide parts (market, decision
    interval, risk outcomes) once, on first use."""

    def __init__(self, bundle: SeasonBundle, replays: Mapping | None = None) -> None:
        super().__init__((c.id for c in bundle.contestants), self._facts_of)
        self.bundle, self.replays = bundle, replays or {}
        self._shared: tuple | None = None

    def _facts_of(self, contestant_id: str) -> ContestantRisk:
        market, horizon, basis = self._season()
        rep = self.replays.get(contestant_id)
        risk = contestant_risk(
            self.bundle, contestant_id, market=market, horizon=horizon, nav=rep.nav if rep is not None else None
        )
        risk.season = basis.contestant(rep) if basis is not None and rep is not None else None
        return risk

    def _season(self) -> tuple:
        if self._shared is None:  # under the mapping's lock: computed once
            market = None if self.bundle.info.format == "rounds" else SeasonMarket(self.bundle)
            self._shared = (
                market,
                decision_interval(self.bundle),
                SeasonRiskBasis.of(self.bundle, self.replays, market),
            )
        return self._shared


def season_risk_facts(bundle: SeasonBundle, replays: dict | None = None) -> dict[str, ContestantRisk]:
    """Every contestant's decision risk and (trading seasons) its risk outcome."""
    return dict(SeasonRiskFacts(bundle, replays))
