"""Agreement: known answers for Krippendorff's alpha, ICC, Kendall's W and Bland-Altman."""

from __future__ import annotations

import itertools

import krippendorff
import numpy as np
import pandas as pd
import pingouin as pg
import pytest
from audits_synthetic import JUDGES, panel_scores

from audits import agreement, icc_two_way, kendall_w, krippendorff_interval_alpha
from audits._agreement import interval_alpha_closed_form

AXES = ("reasoning", "evidence", "process", "outcome", "data_reliability")


def _frame(matrix: np.ndarray, *, axes_equal: bool = True) -> pd.DataFrame:
    """A scores table from a contestants x judges matrix (every axis = the composite)."""
    rows = []
    for i, j in itertools.product(range(matrix.shape[0]), range(matrix.shape[1])):
        value = float(matrix[i, j])
        rows.append(
            {
                "contestant_id": f"c{i:02d}",
                "contestant_label": f"Model {i}",
                "contestant_family": "google",
                "judge_id": f"j{j}",
                "judge_family": f"f{j}",
                "repeat": 0,
                "composite": value,
                **{a: value for a in AXES},
            }
        )
    return pd.DataFrame(rows)


def _axis(result, name):
    return next(a for a in result.axes if a.axis == name)


def test_identical_judges_give_alpha_one_and_icc_one() -> None:
    column = np.linspace(20, 90, 10)
    result = agreement(_frame(np.column_stack([column, column, column])), n_boot=200)
    composite = _axis(result, "composite")
    assert composite.krippendorff_alpha == pytest.approx(1.0)
    assert composite.krippendorff_alpha_label == "reliable"
    assert composite.krippendorff_alpha_ci_low == pytest.approx(
        1.0
    ) and composite.krippendorff_alpha_ci_high == pytest.approx(1.0)
    assert composite.icc2_1 == pytest.approx(1.0)
    assert composite.icc2_k == pytest.approx(1.0)
    assert composite.icc2_1_label == "excellent"
    assert result.kendall_w is not None and result.kendall_w.w == pytest.approx(1.0)
    assert all(p.mean_difference == 0 and p.loa_low == 0 and p.loa_high == 0 for p in result.bland_altman)


def test_independent_uniform_noise_gives_alpha_near_zero() -> None:
    rng = np.random.default_rng(2024)
    noise = rng.uniform(0, 100, size=(400, 3))
    result = agreement(_frame(noise), n_boot=200)
    composite = _axis(result, "composite")
    assert abs(composite.krippendorff_alpha) < 0.15
    assert composite.krippendorff_alpha_label == "unreliable"
    assert composite.krippendorff_alpha_ci_low < 0 < composite.krippendorff_alpha_ci_high
    assert abs(composite.icc2_1) < 0.15
    assert composite.icc2_1_label == ("poor" if composite.icc2_1 >= 0 else "negative: no reliability")


def test_closed_form_alpha_equals_the_krippendorff_package_with_missing_values() -> None:
    rng = np.random.default_rng(5)
    for _ in range(20):
        truth = rng.uniform(0, 100, 15)
        data = truth[None, :] + rng.normal(0, rng.uniform(1, 30), size=(4, 15))
        data[rng.random(data.shape) < 0.2] = np.nan
        expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
        assert interval_alpha_closed_form(data) == pytest.approx(expected, abs=1e-9)
        assert krippendorff_interval_alpha(data) == pytest.approx(expected, abs=1e-12)


def test_alpha_hand_computed_small_case() -> None:
    # 2 coders, 3 units: (1,2), (3,3), (5,4); pairable values 1,2,3,3,5,4 (n = 6, mean 3, SS_total = 10)
    # D_o = (1/6) * sum_u 2*2*SS_u/1 = (1/6) * 4 * (0.5 + 0 + 0.5) = 2/3 ; D_e = 2*10/5 = 4 ; alpha = 1 - (2/3)/4
    data = np.array([[1.0, 3.0, 5.0], [2.0, 3.0, 4.0]])
    assert krippendorff_interval_alpha(data) == pytest.approx(1 - (2 / 3) / 4)


def test_icc_matches_shrout_fleiss_1979_table() -> None:
    """Shrout & Fleiss (1979), 6 targets x 4 judges: ICC(2,1) = .29, ICC(2,k) = .62."""
    data = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], float)
    estimate, reason = icc_two_way(pd.DataFrame(data))
    assert reason is None
    assert estimate.icc2_1 == pytest.approx(0.29, abs=0.005)
    assert estimate.icc2_k == pytest.approx(0.62, abs=0.005)
    # the same from the two-way ANOVA mean squares
    n, k = data.shape
    grand = data.mean()
    msr = k * ((data.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((data.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    resid = data - data.mean(axis=1, keepdims=True) - data.mean(axis=0, keepdims=True) + grand
    mse = (resid**2).sum() / ((n - 1) * (k - 1))
    assert estimate.icc2_1 == pytest.approx((msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n))
    assert estimate.icc2_k == pytest.approx((msr - mse) / (msr + (msc - mse) / n))
    assert estimate.icc2_1_ci_low < estimate.icc2_1 < estimate.icc2_1_ci_high


def test_icc_reports_why_it_is_undefined() -> None:
    estimate, reason = icc_two_way(pd.DataFrame(np.arange(8.0).reshape(4, 2)))
    assert estimate is None and "at least 5" in reason
    estimate, reason = icc_two_way(pd.DataFrame(np.full((6, 3), 50.0)))
    assert estimate is not None and estimate.icc2_1 is None and "no variance" in reason


def test_kendall_w_hand_computed() -> None:
    # 3 judges rank 4 contestants; rank sums 4, 5, 10, 11 -> S = 37; W = 12*37 / (9 * (64 - 4)) = 0.8222
    ranks = pd.DataFrame({"j1": [1, 2, 3, 4], "j2": [2, 1, 3, 4], "j3": [1, 2, 4, 3]}, dtype=float)
    result = kendall_w(ranks)
    assert result.w == pytest.approx(12 * 37 / (9 * 60))
    assert result.chi2 == pytest.approx(3 * 3 * result.w)
    assert result.df == 3
    assert result.tie_groups == 0


def test_kendall_w_tie_correction_matches_pingouin_friedman() -> None:
    scores = pd.DataFrame(
        {"j1": [60, 60, 70, 80, 55, 55], "j2": [62, 58, 71, 71, 50, 49], "j3": [40, 45, 45, 45, 39, 60]},
        dtype=float,
    )
    result = kendall_w(scores)
    # j1 ties: two pairs -> T = 6 + 6 ; j2: one pair -> 6 ; j3: one triple -> 24 ; sum T = 42
    n, m = 6, 3
    ranks = scores.rank(axis=0)
    s = ((ranks.sum(axis=1) - ranks.sum(axis=1).mean()) ** 2).sum()
    assert result.w == pytest.approx(12 * s / (m**2 * (n**3 - n) - m * 42))
    assert result.tie_groups == 4
    long = scores.reset_index(names="contestant").melt(id_vars="contestant", var_name="judge", value_name="score")
    friedman = pg.friedman(data=long, dv="score", within="contestant", subject="judge")
    assert result.w == pytest.approx(float(friedman["W"].iloc[0]))
    assert result.p_value == pytest.approx(float(friedman["p_unc"].iloc[0]))


def test_bland_altman_for_every_judge_pair() -> None:
    base = np.linspace(30, 80, 8)
    offsets = np.array([0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 0.0])
    matrix = np.column_stack([base, base + 3, base + offsets])
    result = agreement(_frame(matrix), n_boot=50)
    pairs = {(p.judge_a, p.judge_b): p for p in result.bland_altman}
    assert set(pairs) == {("j0", "j1"), ("j0", "j2"), ("j1", "j2")}
    assert pairs[("j0", "j1")].mean_difference == pytest.approx(-3.0)
    assert pairs[("j0", "j1")].sd_difference == pytest.approx(0.0)
    d = -offsets
    assert pairs[("j0", "j2")].mean_difference == pytest.approx(d.mean())
    assert pairs[("j0", "j2")].loa_high == pytest.approx(d.mean() + 1.96 * d.std(ddof=1))


def test_contestant_spread_is_low_median_high_of_the_judges() -> None:
    matrix = np.array([[57, 81, 83], [59, 76, 83], [59, 63, 82], [63, 68, 73], [58, 63, 80]], float)
    result = agreement(_frame(matrix), n_boot=50)
    spread = {c.contestant_id: c for c in result.contestants}
    assert (spread["c00"].low, spread["c00"].median, spread["c00"].high) == (57, 81, 83)
    assert spread["c03"].spread == 10
    assert any("Only 5 contestants" in c for c in result.caveats)


def test_degenerate_panels_do_not_crash() -> None:
    single = agreement(panel_scores(judges=(JUDGES[0],)), n_boot=50)
    assert all(a.krippendorff_alpha is None and a.icc2_1 is None for a in single.axes)
    assert single.kendall_w is None and single.bland_altman == []
    assert any("Only one judge" in c for c in single.caveats)

    constant = agreement(_frame(np.full((6, 3), 50.0)), n_boot=50)
    composite = _axis(constant, "composite")
    assert composite.krippendorff_alpha is None and composite.krippendorff_alpha_label == "undefined"
    assert constant.kendall_w.w is None  # every judge ties every contestant

    empty = agreement(panel_scores().iloc[0:0])
    assert empty.axes == [] and empty.caveats


def test_pending_outcome_axis_can_be_left_out_and_missing_outcome_is_skipped() -> None:
    scores = panel_scores()
    assert "outcome" not in {a.axis for a in agreement(scores, axes=["composite", "reasoning"], n_boot=20).axes}
    scores["outcome"] = None
    assert "outcome" not in {a.axis for a in agreement(scores, n_boot=20).axes}
    with pytest.raises(ValueError, match="unknown axis"):
        agreement(scores, axes=["vibes"])


def test_bootstrap_interval_is_reproducible_with_the_seed() -> None:
    scores = panel_scores(noise_sd=8.0)
    a = _axis(agreement(scores, n_boot=300, seed=3), "composite")
    b = _axis(agreement(scores, n_boot=300, seed=3), "composite")
    assert (a.krippendorff_alpha_ci_low, a.krippendorff_alpha_ci_high) == (
        b.krippendorff_alpha_ci_low,
        b.krippendorff_alpha_ci_high,
    )
    assert a.krippendorff_alpha_ci_low < a.krippendorff_alpha < a.krippendorff_alpha_ci_high


def test_icc_intervals_are_ordered_around_the_estimate_and_a_negative_icc_is_explained() -> None:
    """Issue 31: an ICC(2,k) of -8.71 was printed with a "95% CI" [12.55, 0.19]. Every interval given now has its
    bounds in order with the estimate inside; a negative ICC has no interval, says why, and reads "no reliability"."""
    from audits._stats import icc_label

    rng = np.random.default_rng(7)
    negatives = 0
    for _ in range(200):
        n, k = int(rng.integers(5, 12)), int(rng.integers(2, 5))
        spread = rng.uniform(0, 3)
        m = pd.DataFrame(rng.normal(size=(n, 1)) * spread + rng.normal(size=(n, k)) * 5 + rng.normal(size=k) * 3)
        est, _ = icc_two_way(m)
        if est.icc2_1 is None:  # undefined (the estimator left its range): said why, nothing printed as an ICC
            assert "undefined" in est.ci_note and est.icc2_k is None
            continue
        for value, low, high in (
            (est.icc2_1, est.icc2_1_ci_low, est.icc2_1_ci_high),
            (est.icc2_k, est.icc2_k_ci_low, est.icc2_k_ci_high),
        ):
            if low is not None or high is not None:
                assert low <= value <= high, (value, low, high)
        for value in (est.icc2_1, est.icc2_k):  # an ICC above 1 is no ICC: undefined, never "excellent"
            assert value is None or value <= 1
        if est.icc2_1 < 0:
            negatives += 1
            assert est.icc2_1_ci_low is None and est.icc2_k_ci_low is None
            assert "disagree more than the items differ" in est.ci_note
            assert icc_label(est.icc2_1) == "negative: no reliability"
            assert est.icc2_k is None or icc_label(est.icc2_k) == "negative: no reliability"
    assert negatives > 10  # the draw did exercise negative ICCs


def test_the_report_explains_a_negative_icc() -> None:
    from audits._sections_judges import ICC_NOTE

    assert "negative ICC means the judges disagree more than the items differ" in ICC_NOTE
