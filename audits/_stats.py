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


def icc_label(icc: float | None) -> str:
    """Koo & Li (2016): < 0.5 poor, 0.5-0.75 moderate, 0.75-0.9 good, > 0.9 excellent."""
    if icc is None:
        return "undefined"
    if icc < 0.5:
        return "poor"
    if icc < 0.75:
        return "moderate"
    if icc <= 0.9:
        return "good"
    return "excellent"


class IccEstimate(BaseModel):
    """ICC(2,1) and ICC(2,k): two-way random effects, absolute agreement (Shrout & Fleiss 1979),
    single rater and mean of k raters, with pingouin's F-based 95% intervals (which pingouin rounds to 2
    decimals; the report shows them at that precision)."""

    n_targets: int
    n_raters: int
    icc2_1: float | None
    icc2_1_ci_low: float | None
    icc2_1_ci_high: float | None
    icc2_k: float | None
    icc2_k_ci_low: float | None
    icc2_k_ci_high: float | None

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
    long = complete.rename_axis(index="target", columns="rater").stack().rename("rating").reset_index()
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

    single, single_low, single_high = pick(_ICC2_NAMES)
    average, average_low, average_high = pick(_ICC2K_NAMES)
    estimate = IccEstimate(
        n_targets=n_targets,
        n_raters=n_raters,
        icc2_1=single,
        icc2_1_ci_low=single_low,
        icc2_1_ci_high=single_high,
        icc2_k=average,
        icc2_k_ci_low=average_low,
        icc2_k_ci_high=average_high,
    )
    if single is None:
        return estimate, "ICC undefined: the ratings have no variance"
    return estimate, None


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
    return BlandAltman(
        n=n, mean_difference=mean, sd_difference=sd, loa_low=mean - Z95 * sd, loa_high=mean + Z95 * sd
    )


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
