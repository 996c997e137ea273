"""Investor profiles (PortBench Table 7) and the profile alignment check, by hand."""

from __future__ import annotations

import pytest

from grader.risk import PRESETS, check_profile


def test_presets_are_portbench_table_7():
    table_7 = {
        "conservative": (0.40, 0.40, 0.10, -0.010),
        "balanced": (0.65, 0.20, 0.20, -0.020),
        "aggressive": (0.90, 0.05, 0.35, -0.040),
    }
    for name, (eq, bc, dd, var) in table_7.items():
        p = PRESETS[name]
        assert (p.equity_cap, p.bond_cash_floor, p.max_drawdown, p.daily_var_limit) == (eq, bc, dd, var)


def test_a_decision_within_every_limit_scores_one():
    c = check_profile(PRESETS["balanced"], {"equities": 0.55, "bonds": 0.25, "cash": 0.20}, -0.012, 0.03)
    assert (c.equity_weight, c.bond_cash_weight) == (pytest.approx(0.55), pytest.approx(0.45))
    assert c.pas == 1.0 and c.breaches == []
    assert c.describe() == "balanced profile alignment 1.00: within every limit"


def test_equity_cap_counts_crypto_and_bond_floor_counts_cash():
    # conservative: equity + crypto 0.35 + 0.10 = 0.45 > 0.40 (breach); bond + cash 0.30 + 0.05 = 0.35 < 0.40
    # (breach); VaR -0.8% within -1.0% (met): 1 of 3 checks -> PAS 1/3
    w = {"equities": 0.35, "crypto": 0.10, "bonds": 0.30, "cash": 0.05, "commodities": 0.20}
    c = check_profile(PRESETS["conservative"], w, -0.008, None)
    assert not c.equity_cap_met and not c.bond_floor_met and c.var_met
    assert c.pas == pytest.approx(1 / 3)
    assert c.breaches == ["equity + crypto 45.0% > cap 40%", "bond + cash 35.0% < floor 40%"]


def test_var_beyond_the_limit_is_a_breach_and_a_missing_var_is_left_out():
    w = {"equities": 0.60, "bonds": 0.40}
    breach = check_profile(PRESETS["balanced"], w, -0.025, None)
    assert breach.var_met is False and breach.pas == pytest.approx(2 / 3)
    assert "one-day VaR95 -2.50% beyond limit -2.0%" in breach.breaches
    unknown = check_profile(PRESETS["balanced"], w, None, None)
    assert unknown.var_met is None and unknown.pas == 1.0  # two checks made, both met
    assert "VaR limit not assessable" in unknown.describe()


def test_drawdown_tolerance_is_shown_but_not_in_the_alignment_score():
    c = check_profile(PRESETS["aggressive"], {"equities": 0.80, "cash": 0.20}, -0.03, 0.40)
    assert c.drawdown_met is False and "drawdown 40.0% > tolerance 35%" in c.breaches
    assert c.pas == 1.0  # PAS is equity cap, bond floor and VaR (PortBench C.2); drawdown is the stress gate


def test_limits_are_inclusive():
    p = PRESETS["conservative"]
    c = check_profile(p, {"equities": 0.40, "bonds": 0.40, "commodities": 0.20}, -0.010, 0.10)
    assert c.breaches == [] and c.pas == 1.0
