"""Shared statistics: interpretation labels, ICC via pingouin, Bland-Altman, kappa via statsmodels.

Each helper returns None (never NaN) for an undefined value, so results serialise cleanly and the report
can say "undefined" instead of printing nan.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
import pingouin as pg
from pydantic import BaseModel
from statsmodels.stats.inter_rater import cohens_kappa

#: z for a two-sided 95% interval (limits of agreement, smallest signal difference).
Z95 = 1.96


def finite(value: float | int | None) -> float | None:
    """A float, or None when the value is missing, NaN or infinite."""
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def alpha_label(alpha: float | None) -> str:
    """Krippendorff's reading: >= 0.800 reliable, 0.667-0.800 tentative, else unreliable."""
    if alpha is None:
        return "undefined"
    if alpha >= 0.800:
        return "reliable"
    if alpha >= 0.667:
        return "tentative"
    return "unreliable"


NEGATIVE_ICC = (
    "negative: the judges disagree more than the items differ (the ratings' error variance exceeds the "
    "variance between items), so there is no reliability; it is not a smaller positive agreement"
)


def icc_label(icc: float | None) -> str:
    """Koo & Li (2016): < 0.5 poor, 0.5-0.75 moderate, 0.75-0.9 good, > 0.9 excellent; below 0: no reliability at
    all (say so: a negative ICC is not a weak agreement)."""
    if icc is None:
        return "undefined"
    if icc < 0:
        return "negative: no reliability"
    if icc < 0.5:
        return "poor"
    if icc < 0.75:
        return "moderate"
    if icc <= 0.9:
        return "good"
    return "excellent"


class IccEstimate(BaseModel):
    """ICC(2,1) and ICC(2,k): two-way random effects, absolute agreement (Shrout & Fleiss 1979),
    single rater and mean of k raters, with McGraw & Wong's (1996) F-based 95% intervals computed unrounded (the
    interval of ICC(2,k) is ICC(2,1)'s through Spearman-Brown). An interval is given only when it is one: bounds in
    order with the estimate inside; where the F approximation breaks down (a negative ICC makes its degrees of
    freedom meaningless, and Spearman-Brown has a pole at -1/(k-1)) the bounds are None and ``ci_note`` says why."""

    n_targets: int
    n_raters: int
    icc2_1: float | None
    icc2_1_ci_low: float | None
    icc2_1_ci_high: float | None
    icc2_k: float | None
    icc2_k_ci_low: float | None
    icc2_k_ci_high: float | None
    ci_note: str | None = None

    @property
    def icc2_1_label(self) -> str:
        return icc_label(self.icc2_1)

    @property
    def icc2_k_label(self) -> str:
        return icc_label(self.icc2_k)


#: pingouin < 0.6 names the rows ICC2/ICC2k, later versions ICC(A,1)/ICC(A,k).
_ICC2_NAMES = ("ICC2", "ICC(A,1)")
_ICC2K_NAMES = ("ICC2k", "ICC(A,k)")
MIN_ICC_TARGETS = 5


def icc_two_way(matrix: pd.DataFrame) -> tuple[IccEstimate | None, str | None]:
    """ICC(2,1)/ICC(2,k) of a targets x raters matrix; targets with a missing rating are dropped.

    Returns (estimate, None) or (None, reason) when the data cannot support an ICC."""
    complete = matrix.dropna(axis=0, how="any")
    n_targets, n_raters = complete.shape
    if n_raters < 2:
        return None, "ICC needs at least two raters"
    if n_targets < MIN_ICC_TARGETS:
        return None, f"ICC needs at least {MIN_ICC_TARGETS} items rated by every rater (have {n_targets})"
    # stack() of a 2-D frame is a Series; pandas-stubs types it as a frame or a series
    long = complete.rename_axis(index="target", columns="rater").stack().rename("rating").reset_index()  # type: ignore[call-overload]
    long["target"] = long["target"].astype(str)
    long["rater"] = long["rater"].astype(str)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        table = pg.intraclass_corr(data=long, targets="target", raters="rater", ratings="rating")
    rows = table.set_index("Type")

    def pick(names: Sequence[str]) -> tuple[float | None, float | None, float | None]:
        for name in names:
            if name in rows.index:
                row = rows.loc[name]
                ci = np.asarray(row["CI95"], dtype=float).ravel()
                low, high = (finite(ci[0]), finite(ci[1])) if ci.size == 2 else (None, None)
                return finite(row["ICC"]), low, high
        raise KeyError(f"pingouin returned none of {names}")

    single, _, _ = pick(_ICC2_NAMES)
    average, _, _ = pick(_ICC2K_NAMES)
    undefined = None
    for value in (single, average):  # the estimators' denominators can reach 0 or below (raters' variance under
        if value is not None and value > 1 + 1e-9:  # the error variance): a value above 1 is no ICC at all
            undefined = (
                "ICC undefined: the estimator's denominator is not positive (the judges' mean differences "
                "are smaller than the error variance), so it gives a value above 1, which no ICC can be"
            )
    if undefined is not None:
        return IccEstimate(
            n_targets=n_targets,
            n_raters=n_raters,
            icc2_1=None,
            icc2_1_ci_low=None,
            icc2_1_ci_high=None,
            icc2_k=None,
            icc2_k_ci_low=None,
            icc2_k_ci_high=None,
            ci_note=undefined,
        ), undefined
    (single_low, single_high), (average_low, average_high), note = _icc_intervals(
        complete.to_numpy(float), single, average
    )
    estimate = IccEstimate(
        n_targets=n_targets,
        n_raters=n_raters,
        icc2_1=single,
        icc2_1_ci_low=single_low,
        icc2_1_ci_high=single_high,
        icc2_k=average,
        icc2_k_ci_low=average_low,
        icc2_k_ci_high=average_high,
        ci_note=note,
    )
    if single is None:
        return estimate, "ICC undefined: the ratings have no variance"
    return estimate, None


def _icc_intervals(
    x: np.ndarray, single: float | None, average: float | None, level: float = 0.95
) -> tuple[tuple, tuple, str | None]:
    """McGraw & Wong (1996) case 2A: the F-based interval of ICC(A,1), and ICC(A,k)'s by Spearman-Brown; each kept
    only when its bounds are in order and hold the estimate."""
    from scipy.stats import f as f_dist

    none = ((None, None), (None, None))
    if single is None or average is None:
        return *none, None
    n, k = x.shape
    grand = x.mean()
    ssr = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ssc = n * ((x.mean(axis=0) - grand) ** 2).sum()
    sse = ((x - grand) ** 2).sum() - ssr - ssc
    msr, msc, mse = ssr / (n - 1), ssc / (k - 1), sse / ((n - 1) * (k - 1))
    if single < 0:
        return *none, (
            "no interval: the ICC is negative, where the F-based interval does not hold (" + NEGATIVE_ICC + ")"
        )
    with np.errstate(all="ignore"):
        a = k * single / (n * (1 - single)) if single < 1 else math.inf
        b = 1 + k * single * (n - 1) / (n * (1 - single)) if single < 1 else math.inf
        v = (a * msc + b * mse) ** 2 / ((a * msc) ** 2 / (k - 1) + (b * mse) ** 2 / ((n - 1) * (k - 1)))
    if not math.isfinite(v) or v <= 0:
        return *none, "no interval: the ratings leave the F approximation no degrees of freedom"
    q = 1 - (1 - level) / 2
    fl, fu = f_dist.ppf(q, n - 1, v), f_dist.ppf(q, v, n - 1)
    low = n * (msr - fl * mse) / (fl * (k * msc + (k * n - k - n) * mse) + n * msr)
    high = n * (fu * msr - mse) / (k * msc + (k * n - k - n) * mse + n * fu * msr)
    low, high = finite(low), finite(high)
    if low is None or high is None or not (low <= single <= high):
        return *none, "no interval: the F approximation gives no interval around this estimate"
    low, high = max(low, -1 / (k - 1)), min(high, 1.0)

    def spearman_brown(r: float) -> float:
        return k * r / (1 + (k - 1) * r)

    single_ci = (low, high)
    if low <= -1 / (k - 1) + 1e-12:  # the pole: ICC(2,k) has no finite lower bound
        return single_ci, (None, None), "ICC(2,k): no finite lower bound (ICC(2,1)'s reaches -1/(k-1))"
    k_low, k_high = spearman_brown(low), spearman_brown(high)
    if not (k_low <= average <= k_high):
        return single_ci, (None, None), "ICC(2,k): the transformed interval does not hold the estimate"
    return single_ci, (k_low, k_high), None


class BlandAltman(BaseModel):
    """Bland-Altman agreement of two raters on the same items: mean difference (a - b, the bias) and
    95% limits of agreement mean +/- 1.96 SD of the differences."""

    n: int
    mean_difference: float | None
    sd_difference: float | None
    loa_low: float | None
    loa_high: float | None


def bland_altman(a: np.ndarray, b: np.ndarray) -> BlandAltman:
    """Bland-Altman of paired ratings (pairs with a missing value are dropped)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    keep = np.isfinite(a) & np.isfinite(b)
    diff = a[keep] - b[keep]
    n = int(diff.size)
    if n == 0:
        return BlandAltman(n=0, mean_difference=None, sd_difference=None, loa_low=None, loa_high=None)
    mean = float(diff.mean())
    if n < 2:
        return BlandAltman(n=n, mean_difference=mean, sd_difference=None, loa_low=None, loa_high=None)
    sd = float(diff.std(ddof=1))
    return BlandAltman(n=n, mean_difference=mean, sd_difference=sd, loa_low=mean - Z95 * sd, loa_high=mean + Z95 * sd)


def cohen_kappa(
    a: Sequence[str], b: Sequence[str], categories: Sequence[str], *, weights: str | None = None
) -> float | None:
    """Cohen's kappa of two raters over ordered categories, computed by statsmodels from the
    contingency table; ``weights="quadratic"`` gives the weighted kappa with weights (i - j)^2 over the
    category positions. None when undefined (e.g. every rating in one category)."""
    if len(a) != len(b):
        raise ValueError("kappa needs paired ratings")
    if not a:
        return None
    position = {c: i for i, c in enumerate(categories)}
    table = np.zeros((len(categories), len(categories)))
    for x, y in zip(a, b, strict=True):
        table[position[x], position[y]] += 1
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        result = cohens_kappa(table, wt=weights)
    return finite(result.kappa)


def percentile_interval(samples: np.ndarray, level: float = 0.95) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of the finite samples."""
    values = np.asarray(samples, dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return None, None
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)
