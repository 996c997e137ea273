"""Investor profiles and profile alignment (PortBench Appendix C.2, Table 7).

At each decision the allocation as it stands after the decision is checked against the profile's equity cap
(equity + crypto weight), bond floor (bond + cash weight) and one-day VaR95 limit; the profile alignment score
(PAS) of the decision is the share of those checks it passes (a check that cannot be made, e.g. VaR without
enough trailing returns, is left out and said). The paper names the three components but gives no formula; ours
is documented in docs/scoring.md. The drawdown tolerance is PortBench's stress gate: the drawdown to date is
shown at each decision, and the season's maximum drawdown against the tolerance is an outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.risk._classes import BOND_CASH, EQUITY_LIKE
from grader.season import InvestorProfile, SeasonInfo

PRESETS: dict[str, InvestorProfile] = {
    "conservative": InvestorProfile(
        name="conservative", equity_cap=0.40, bond_cash_floor=0.40, max_drawdown=0.10, daily_var_limit=-0.010
    ),
    "balanced": InvestorProfile(
        name="balanced", equity_cap=0.65, bond_cash_floor=0.20, max_drawdown=0.20, daily_var_limit=-0.020
    ),
    "aggressive": InvestorProfile(
        name="aggressive", equity_cap=0.90, bond_cash_floor=0.05, max_drawdown=0.35, daily_var_limit=-0.040
    ),
}
"""PortBench Table 7."""
TOLERANCE = 1e-9


def season_profile(info: SeasonInfo) -> InvestorProfile | None:
    p = info.investor_profile
    if p is None or isinstance(p, InvestorProfile):
        return p
    return PRESETS[p]


@dataclass(frozen=True)
class ProfileCheck:
    """One decision against the profile: each check is True (met), False (breached) or None (not assessable)."""

    profile: str
    equity_weight: float
    bond_cash_weight: float
    equity_cap_met: bool
    bond_floor_met: bool
    var_met: bool | None
    drawdown_to_date: float | None
    drawdown_met: bool | None
    breaches: list[str] = field(default_factory=list)

    @property
    def pas(self) -> float:
        checks = [c for c in (self.equity_cap_met, self.bond_floor_met, self.var_met) if c is not None]
        return sum(checks) / len(checks)

    def describe(self) -> str:
        state = "within every limit" if not self.breaches else "breaches: " + "; ".join(self.breaches)
        note = "" if self.var_met is not None else " (VaR limit not assessable)"
        return f"{self.profile} profile alignment {self.pas:.2f}{note}: {state}"


def check_profile(
    profile: InvestorProfile, class_weights: dict[str, float], var_1d: float | None, drawdown_to_date: float | None
) -> ProfileCheck:
    eq = sum(w for c, w in class_weights.items() if c in EQUITY_LIKE)
    bc = sum(w for c, w in class_weights.items() if c in BOND_CASH)
    breaches = []
    eq_ok = eq <= profile.equity_cap + TOLERANCE
    if not eq_ok:
        breaches.append(f"equity + crypto {eq * 100:.1f}% > cap {profile.equity_cap * 100:.0f}%")
    bc_ok = bc >= profile.bond_cash_floor - TOLERANCE
    if not bc_ok:
        breaches.append(f"bond + cash {bc * 100:.1f}% < floor {profile.bond_cash_floor * 100:.0f}%")
    var_ok = None if var_1d is None else var_1d >= profile.daily_var_limit - TOLERANCE
    if var_1d is not None and var_ok is False:
        breaches.append(f"one-day VaR95 {var_1d * 100:+.2f}% beyond limit {profile.daily_var_limit * 100:+.1f}%")
    dd_ok = None if drawdown_to_date is None else drawdown_to_date <= profile.max_drawdown + TOLERANCE
    if drawdown_to_date is not None and dd_ok is False:
        breaches.append(f"drawdown {drawdown_to_date * 100:.1f}% > tolerance {profile.max_drawdown * 100:.0f}%")
    return ProfileCheck(
        profile=profile.name,
        equity_weight=eq,
        bond_cash_weight=bc,
        equity_cap_met=eq_ok,
        bond_floor_met=bc_ok,
        var_met=var_ok,
        drawdown_to_date=drawdown_to_date,
        drawdown_met=dd_ok,
        breaches=breaches,
    )
