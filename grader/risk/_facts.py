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
baseline and the benchmark there) and the profile's drawdown gate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np
import pandas as pd

from grader._lazy import LazyMapping
from grader.pit import MARKET_TZ
from grader.risk._baselines import Baseline, classical_baselines
from grader.risk._classes import UNINVESTED_CASH, classes_of
from grader.risk._correlation import (
    ClassCorrelations,
    CorrelationScore,
    CorrelationUnavailable,
    class_correlations,
    two_layer_score,
)
from grader.risk._profiles import ProfileCheck, check_profile, season_profile
from grader.risk._stress import PathInWindow, max_drawdown, path_in_window, stress_windows
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
class StressResult:
    window: str
    name: str
    source: str
    portfolio: PathInWindow
    equal_weight: PathInWindow | None
    benchmark: PathInWindow | None


@dataclass
class SeasonRisk:
    """A trading contestant's risk outcome (after the horizon)."""

    baselines: dict[str, dict[str, float | None]]
    baseline_notes: dict[str, str]
    stress: list[StressResult]
    profile: str | None = None
    drawdown_tolerance: float | None = None
    max_drawdown: float | None = None
    drawdown_gate_passed: bool | None = None

    def lines(self) -> list[str]:
        def pct(v):
            return "n/a" if v is None else f"{v * 100:+.2f}%"

        out = []
        for name, f in self.baselines.items():
            if f["return"] is None:
                out.append(f"{name} baseline: unavailable ({self.baseline_notes.get(name, '')})")
            else:
                out.append(
                    f"{name} baseline (bought at the entry close and held): return {pct(f['return'])}, "
                    f"max drawdown {f['max_drawdown'] * 100:.2f}%"
                )
        for s in self.stress:
            ew = (
                ""
                if s.equal_weight is None
                else (
                    f"; equal weight {pct(s.equal_weight.path_return)}, drawdown {s.equal_weight.drawdown * 100:.2f}%"
                )
            )
            bm = (
                ""
                if s.benchmark is None
                else (f"; benchmark {pct(s.benchmark.path_return)}, drawdown {s.benchmark.drawdown * 100:.2f}%")
            )
            out.append(
                f"stress window {s.name} ({s.portfolio.first} to {s.portfolio.last}, "
                f"{s.portfolio.sessions} sessions in this season): portfolio {pct(s.portfolio.path_return)}, "
                f"drawdown {s.portfolio.drawdown * 100:.2f}%{ew}{bm}"
            )
        if self.profile is not None and self.max_drawdown is not None:
            out.append(
                f"{self.profile} profile drawdown gate: max drawdown {self.max_drawdown * 100:.2f}% vs "
                f"tolerance {self.drawdown_tolerance * 100:.0f}%: "
                f"{'passed' if self.drawdown_gate_passed else 'FAILED'}"
            )
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


# -- the season ------------------------------------------------------------------------------------------------


class _Market:
    """Daily closes of a trading season (date x symbol, sorted; no fill) and their trailing windows, held as numpy
    arrays: a season of 250 sessions and 50 contestants asks for 12,500 windows."""

    def __init__(self, bundle: SeasonBundle):
        self.wide = bundle.prices.pivot(index="date", columns="symbol", values="close").sort_index()
        self.filled = self.wide.ffill()
        self.dates = list(self.wide.index)
        self.column = {s: i for i, s in enumerate(self.wide.columns)}
        self._closes = self.wide.to_numpy(float)
        self._filled = self.filled.to_numpy(float)
        self._days = np.array(self.dates, dtype="datetime64[D]")
        self._row = {d: i for i, d in enumerate(self.dates)}
        self._stats: dict[date, ClassCorrelations] = {}
        self._returns: dict[date, np.ndarray] = {}

    def last_close_before(self, day: date) -> date | None:
        i = int(np.searchsorted(self._days, np.datetime64(day), side="left"))
        return self.dates[i - 1] if i > 0 else None

    def returns_to(self, as_of: date) -> np.ndarray:
        """The ``LOOKBACK_SESSIONS`` daily returns ending at ``as_of`` (sessions x symbols, NaN where a close is
        missing; closes after ``as_of`` are never read)."""
        if as_of not in self._returns:
            end = self._row[as_of] + 1
            closes = self._closes[max(0, end - LOOKBACK_SESSIONS - 1) : end]
            with np.errstate(divide="ignore", invalid="ignore"):
                self._returns[as_of] = closes[1:] / closes[:-1] - 1.0
        return self._returns[as_of]

    def stats(self, as_of: date, class_of: dict[str, str]) -> ClassCorrelations:
        if as_of not in self._stats:
            frame = pd.DataFrame(self.returns_to(as_of), columns=self.wide.columns)
            self._stats[as_of] = class_correlations(frame, class_of)
        return self._stats[as_of]

    def close(self, as_of: date, symbol: str) -> float | None:
        col = self.column.get(symbol)
        if col is None:
            return None
        v = self._filled[self._row[as_of], col]
        return None if np.isnan(v) else float(v)


def season_market(bundle: SeasonBundle) -> _Market:
    """The season's market (closes and cached trailing-window statistics) to share between calls of
    :func:`contestant_risk` on one bundle: the statistics at a date are the same for every contestant."""
    return _Market(bundle)


def decision_interval(bundle: SeasonBundle) -> int:
    """The season's decision interval in sessions: the median gap between a contestant's consecutive decision
    sessions (a property of the season's schedule, not of the market); a rounds season's median round length.
    At least 1."""
    if bundle.info.format == "rounds":
        lengths = [
            int(np.busday_count(r.entry_date, r.exit_date)) for r in bundle.info.rounds or [] if r.exit_date is not None
        ]
        return max(1, int(np.median(lengths))) if lengths else 1
    days = np.array(bundle.trading_days, dtype="datetime64[D]")
    gaps = []
    for c in bundle.contestants:
        sessions = sorted(
            {
                int(np.searchsorted(days, np.datetime64(d.decided_at.astimezone(MARKET_TZ).date())))
                for d in bundle.decisions_of(c.id)
            }
        )
        gaps += [b - a for a, b in zip(sessions, sessions[1:], strict=False)]
    return max(1, int(np.median(gaps))) if gaps else 1


def _class_weights(weights: dict[str, float], class_of: dict[str, str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for s, w in weights.items():
        c = UNINVESTED_CASH if s == UNINVESTED_CASH else class_of.get(s, "unknown")
        out[c] = out.get(c, 0.0) + w
    return out


def _var_of(
    weights: dict[str, float], market: _Market, as_of: date, horizon: int, unavailable: list[str]
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
    frame = returns[:, cols]
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
    market: _Market | None = None,
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
    market = market if market is not None or rounds else _Market(bundle)
    qty: dict[str, float] = {}
    cash = info.starting_cash
    out = []
    for d in sorted(bundle.decisions_of(contestant_id), key=lambda x: x.decided_at):
        day = d.decided_at.astimezone(MARKET_TZ).date()
        unavailable: list[str] = []
        as_of = None if rounds else market.last_close_before(day)
        weights = _weights_after(d, qty, cash, market, as_of) if not rounds else _allocation(d)
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
        elif as_of is not None:
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
    d: Decision, qty: dict[str, float], cash: float, market: _Market, as_of: date | None
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


def season_risk(bundle: SeasonBundle, replays: dict, market: _Market | None = None) -> dict[str, SeasonRisk]:
    """Every trading contestant's risk outcome (after the horizon); {} for a rounds season. ``market``: the
    season's market when already built (:func:`season_market`)."""
    basis = _SeasonRiskBasis.of(bundle, replays, market)
    return {} if basis is None else {cid: basis.contestant(rep) for cid, rep in replays.items()}


@dataclass
class _SeasonRiskBasis:
    """What every contestant's risk outcome is measured against: the classical baselines, the benchmark path and
    the investor profile (computed once; each contestant's outcome then by :meth:`contestant`)."""

    info: Any
    entry: date
    figures: dict
    notes: dict
    equal_weight: pd.Series | None
    bench: pd.Series
    profile: Any

    @classmethod
    def of(cls, bundle: SeasonBundle, replays: dict, market: _Market | None = None) -> _SeasonRiskBasis | None:
        if bundle.info.format != "trading" or not replays:
            return None
        info = bundle.info
        class_of = classes_of(info)
        market = market if market is not None else _Market(bundle)
        first = next(iter(replays.values()))
        days = list(first.nav.index)
        entry = market.last_close_before(days[0]) or days[0]
        universe = [s for s in class_of if s in market.wide.columns and s != info.benchmark]
        closes = market.wide.loc[[entry, *[d for d in days if d != entry]], universe]
        history = market.wide.loc[:entry, universe]
        baselines: list[Baseline] = classical_baselines(
            closes, history, {s: class_of[s] for s in universe}, info.starting_cash
        )
        return cls(
            info=info,
            entry=entry,
            figures={b.name: b.figures(info.risk_free_rate) for b in baselines},
            notes={b.name: b.note for b in baselines if b.note},
            equal_weight=next((b.nav for b in baselines if b.name == "equal weight"), None),
            bench=market.wide.loc[[entry, *[d for d in days if d != entry]], info.benchmark],
            profile=season_profile(info),
        )

    def contestant(self, rep) -> SeasonRisk:  # noqa: ANN001 - a replay
        info, entry, profile, ew = self.info, self.entry, self.profile, self.equal_weight
        nav = (
            pd.concat([pd.Series([info.starting_cash], index=[entry]), rep.nav])
            if entry not in rep.nav.index
            else rep.nav
        )
        stress = []
        for w in stress_windows():
            mine = path_in_window(nav, w)
            if mine is None:
                continue
            stress.append(
                StressResult(
                    w.id,
                    w.name,
                    w.source,
                    mine,
                    path_in_window(ew, w) if ew is not None else None,
                    path_in_window(self.bench, w),
                )
            )
        mdd = max_drawdown(nav.to_numpy(float))
        return SeasonRisk(
            baselines=self.figures,
            baseline_notes=self.notes,
            stress=stress,
            profile=profile.name if profile else None,
            drawdown_tolerance=profile.max_drawdown if profile else None,
            max_drawdown=mdd if profile else None,
            drawdown_gate_passed=(mdd <= profile.max_drawdown + 1e-9) if profile else None,
        )


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
            market = None if self.bundle.info.format == "rounds" else _Market(self.bundle)
            self._shared = (
                market,
                decision_interval(self.bundle),
                _SeasonRiskBasis.of(self.bundle, self.replays, market),
            )
        return self._shared


def season_risk_facts(bundle: SeasonBundle, replays: dict | None = None) -> dict[str, ContestantRisk]:
    """Every contestant's decision risk and (trading seasons) its risk outcome."""
    return dict(SeasonRiskFacts(bundle, replays))
