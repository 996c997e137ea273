"""A trading contestant's risk outcome, after the horizon (shown only in the labelled outcome section): the
classical baselines, every named stress window the season overlaps (the portfolio against the equal-weight baseline
and the benchmark there) and the investor profile's drawdown gate. Re-exported by ``grader.risk``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

import pandas as pd

from grader.risk._baselines import Baseline, classical_baselines
from grader.risk._classes import classes_of
from grader.risk._market import SeasonMarket
from grader.risk._profiles import season_profile
from grader.risk._stress import PathInWindow, max_drawdown, path_in_window, stress_windows
from grader.season import SeasonBundle


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
            dd = f["max_drawdown"]  # known whenever the return is
            if f["return"] is None or dd is None:
                out.append(f"{name} baseline: unavailable ({self.baseline_notes.get(name, '')})")
            else:
                out.append(
                    f"{name} baseline (bought at the entry close and held): return {pct(f['return'])}, "
                    f"max drawdown {dd * 100:.2f}%"
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
        tolerance = self.drawdown_tolerance  # set with the profile
        if self.profile is not None and self.max_drawdown is not None and tolerance is not None:
            out.append(
                f"{self.profile} profile drawdown gate: max drawdown {self.max_drawdown * 100:.2f}% vs "
                f"tolerance {tolerance * 100:.0f}%: "
                f"{'passed' if self.drawdown_gate_passed else 'FAILED'}"
            )
        return out


def season_risk(bundle: SeasonBundle, replays: Mapping, market: SeasonMarket | None = None) -> dict[str, SeasonRisk]:
    """Every trading contestant's risk outcome (after the horizon); {} for a rounds season. ``market``: the
    season's market when already built (:func:`season_market`)."""
    basis = SeasonRiskBasis.of(bundle, replays, market)
    return {} if basis is None else {cid: basis.contestant(rep) for cid, rep in replays.items()}


@dataclass
class SeasonRiskBasis:
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
    def of(cls, bundle: SeasonBundle, replays: Mapping, market: SeasonMarket | None = None) -> SeasonRiskBasis | None:
        if bundle.info.format != "trading" or not replays:
            return None
        info = bundle.info
        class_of = classes_of(info)
        market = market if market is not None else SeasonMarket(bundle)
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
