"""The two-layer correlation score: PortBench's own class figures (seed 004, Fig. 25) and a hand-built series."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from grader.risk import ClassCorrelations, CorrelationUnavailable, class_correlations, two_layer_score


def test_paper_figure_25_class_figures_for_a_60_40_allocation():
    # Fig. 25 (2024-03-01 snapshot): intra-class rho equities +0.48, bonds +0.77; bonds vs equities -0.18.
    stats = ClassCorrelations(
        known=frozenset({"equities", "bonds"}),
        intra={"equities": 0.48, "bonds": 0.77},
        cross={("bonds", "equities"): -0.18},
    )
    s = two_layer_score({"equities": 0.6, "bonds": 0.4}, stats)
    # s_intra = 1 - (0.6 * 0.48 + 0.4 * 0.77) = 1 - 0.596 = 0.404
    assert s.s_intra == pytest.approx(0.404)
    # rho_cross = -0.18 (one pair); s_inter = (1 - (-0.18)) / 2 = 0.59
    assert s.rho_cross == pytest.approx(-0.18)
    assert s.s_inter == pytest.approx(0.59)
    assert s.s_corr == pytest.approx(0.497)
    assert "0.50 (intra 0.40, inter 0.59; cross-class rho -0.18)" in s.describe()


def test_three_classes_weight_the_cross_pairs():
    # Fig. 25 again, with commodities (intra +0.23, vs equities +0.12); the bonds-commodities figure is ours (0.0).
    stats = ClassCorrelations(
        known=frozenset({"equities", "bonds", "commodities"}),
        intra={"equities": 0.48, "bonds": 0.77, "commodities": 0.23},
        cross={("bonds", "equities"): -0.18, ("commodities", "equities"): 0.12, ("bonds", "commodities"): 0.0},
    )
    s = two_layer_score({"equities": 0.5, "bonds": 0.3, "commodities": 0.2}, stats)
    assert s.s_intra == pytest.approx(1 - (0.5 * 0.48 + 0.3 * 0.77 + 0.2 * 0.23))
    # pairs: e-b 0.15 * -0.18, e-c 0.10 * 0.12, b-c 0.06 * 0 over 0.31
    rho = (0.15 * -0.18 + 0.10 * 0.12 + 0.06 * 0.0) / 0.31
    assert s.rho_cross == pytest.approx(rho)
    assert s.s_inter == pytest.approx((1 - rho) / 2)


def test_class_statistics_from_a_hand_built_series():
    x = np.sin(np.arange(30) * 0.7) / 100  # any non-constant series
    returns = pd.DataFrame({"AAA": x, "BBB": 2 * x, "TLT": -x, "CASH": np.zeros(30)})
    class_of = {"AAA": "equities", "BBB": "equities", "TLT": "bonds", "CASH": "cash"}
    stats = class_correlations(returns, class_of)
    assert stats.intra["equities"] == pytest.approx(1.0)  # perfectly correlated pair
    assert stats.intra["bonds"] is None  # one asset: no pair
    assert stats.between("equities", "bonds") == pytest.approx(-1.0)
    assert stats.between("bonds", "cash") == 0.0  # a series with no variance correlates 0
    s = two_layer_score({"equities": 0.5, "bonds": 0.5}, stats)
    assert s.s_intra == pytest.approx(0.5)  # 1 - 0.5 * 1.0 (a single-asset class has no penalty)
    assert s.s_inter == pytest.approx(1.0)  # rho_cross -1: full hedging credit
    assert s.s_corr == pytest.approx(0.75)


def test_negative_intra_correlation_is_not_a_credit_and_one_class_has_no_hedge():
    stats = ClassCorrelations(known=frozenset({"equities"}), intra={"equities": -0.3})
    s = two_layer_score({"equities": 1.0}, stats)
    assert s.s_intra == 1.0  # max(rho, 0)
    assert s.rho_cross is None and s.s_inter == 0.0
    assert "one class" in s.describe()


def test_uninvested_cash_correlates_zero_and_missing_history_is_said():
    stats = ClassCorrelations(known=frozenset({"equities"}), intra={"equities": 0.5})
    s = two_layer_score({"equities": 0.7, "cash": 0.3}, stats)
    assert s.rho_cross == 0.0 and s.s_inter == pytest.approx(0.5)
    with pytest.raises(CorrelationUnavailable, match="bonds"):
        two_layer_score({"equities": 0.5, "bonds": 0.5}, stats)


def test_an_asset_with_too_little_history_is_left_out():
    x = np.sin(np.arange(30) * 0.7) / 100
    returns = pd.DataFrame({"AAA": x, "NEW": [np.nan] * 15 + list(x[:15])})
    stats = class_correlations(returns, {"AAA": "equities", "NEW": "crypto"})
    assert stats.known == frozenset({"equities"})
    with pytest.raises(CorrelationUnavailable, match="crypto"):
        two_layer_score({"equities": 0.5, "crypto": 0.5}, stats)
