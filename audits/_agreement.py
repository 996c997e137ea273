"""Inter-judge agreement on the main run.

- per contestant: the lowest, median and highest judge composite (seed 002's agreement table);
- per axis: Krippendorff's alpha (interval metric, judges as coders, contestants as units; the
  ``krippendorff`` package) with a percentile bootstrap interval over contestants (replicates computed
  with the equivalent closed form, which is much faster on continuous scores), and ICC(2,1) / ICC(2,k)
  with their F-based intervals (``pingouin.intraclass_corr``);
- Kendall's W on the judges' ranks of the composite, with the tie correction
  W = 12 S / (m^2 (n^3 - n) - m sum_j T_j), T_j = sum over tie groups of (t^3 - t), and the chi-square
  test chi2 = m (n - 1) W with n - 1 degrees of freedom (``scipy.stats.chi2``);
- pairwise Bland-Altman on the composite for every judge pair.

Degenerate cases are reported, not raised: one judge (no agreement to measure), identical judges
(alpha = 1, ICC = 1), constant scores (alpha undefined: no variance to agree on).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import krippendorff
import numpy as np
import pandas as pd
from pydantic import BaseModel
from scipy import stats

from audits._inputs import SCORE_AXES, normalize_scores
from audits._panel import contestant_labels, score_matrix
from audits._stats import alpha_label, bland_altman, finite, icc_label, icc_two_way, percentile_interval


class ContestantSpread(BaseModel):
    """Lowest, median and highest judge composite for one contestant."""

    contestant_id: str
    contestant_label: str
    n_judges: int
    low: float
    median: float
    high: float
    spread: float


class AxisAgreement(BaseModel):
    """Agreement of the judges on one axis."""

    axis: str
    n_items: int
    n_judges: int
    krippendorff_alpha: float | None
    krippendorff_alpha_ci_low: float | None
    krippendorff_alpha_ci_high: float | None
    krippendorff_alpha_label: str
    icc2_1: float | None
    icc2_1_ci_low: float | None
    icc2_1_ci_high: float | None
    icc2_1_label: str
    icc2_k: float | None
    icc2_k_ci_low: float | None
    icc2_k_ci_high: float | None
    icc2_k_label: str


class KendallW(BaseModel):
    """Kendall's coefficient of concordance of the judges' rankings (composite), tie-corrected."""

    n_items: int
    n_judges: int
    w: float | None
    chi2: float | None
    df: int
    p_value: float | None
    tie_groups: int


class BlandAltmanPair(BaseModel):
    """Bland-Altman of two judges on the composite: mean of (judge_a - judge_b) and 95% limits."""

    axis: str
    judge_a: str
    judge_b: str
    n: int
    mean_difference: float | None
    sd_difference: float | None
    loa_low: float | None
    loa_high: float | None
    points: list[tuple[float, float]] = []
    """(mean of the two judges, judge_a - judge_b) per contestant both graded, for the plot."""


class AgreementResult(BaseModel):
    """All agreement figures of a run."""

    n_boot: int
    seed: int
    contestants: list[ContestantSpread]
    axes: list[AxisAgreement]
    kendall_w: KendallW | None
    bland_altman: list[BlandAltmanPair]
    caveats: list[str]


#: The krippendorff package works on a units x values x values array; beyond this many cells (hundreds of
#: contestants with continuous scores) the identical closed form is used instead of gigabytes of memory.
_PACKAGE_WORK_LIMIT = 20_000_000


def krippendorff_interval_alpha(matrix: np.ndarray) -> float | None:
    """Krippendorff's alpha (interval) of a coders x units array with NaN for missing ratings.

    Computed by the ``krippendorff`` package; for very large inputs by the equivalent closed form (see
    :func:`interval_alpha_closed_form`). Identical coders give 1.0; None when undefined (fewer than two
    coders on any unit, or no variance)."""
    data = np.asarray(matrix, dtype=float)
    if data.ndim != 2 or data.shape[0] < 2:
        return None
    pairable = np.count_nonzero(np.isfinite(data), axis=0) >= 2
    if not pairable.any():
        return None
    values = data[:, pairable]
    values = values[np.isfinite(values)]
    if np.unique(values).size < 2:
        return None
    if data.shape[1] * np.unique(values).size ** 2 > _PACKAGE_WORK_LIMIT:
        return interval_alpha_closed_form(data)
    with np.errstate(all="ignore"):
        return finite(krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))


def interval_alpha_closed_form(matrix: np.ndarray) -> float | None:
    """Krippendorff's interval alpha from its closed form, for bootstrap replicates.

    With the squared-difference metric, over pairable values (units with at least two ratings; n of them):
    D_o = (1/n) sum_u 2 m_u SS_u / (m_u - 1) and D_e = 2 SS_total / (n - 1), where SS is a sum of squared
    deviations from the mean (within unit u with m_u values, and over all pairable values);
    alpha = 1 - D_o / D_e. It equals ``krippendorff.alpha(level_of_measurement="interval")`` (checked in
    the tests) but avoids building the value-by-value coincidence matrix, which is slow for continuous
    scores."""
    data = np.asarray(matrix, dtype=float)
    if data.ndim != 2 or data.shape[0] < 2:
        return None
    present = np.isfinite(data)
    counts = present.sum(axis=0)
    pairable = counts >= 2
    if not pairable.any():
        return None
    values = data[:, pairable]
    mask = present[:, pairable]
    m = counts[pairable].astype(float)
    filled = np.where(mask, values, 0.0)
    unit_means = filled.sum(axis=0) / m
    ss_units = (np.where(mask, values - unit_means, 0.0) ** 2).sum(axis=0)
    pooled = values[mask]
    n = pooled.size
    ss_total = float(((pooled - pooled.mean()) ** 2).sum())
    if ss_total <= 0:
        return None
    observed = float((2 * m * ss_units / (m - 1)).sum() / n)
    expected = 2 * ss_total / (n - 1)
    return finite(1 - observed / expected)


def _bootstrap_alpha(data: np.ndarray, n_boot: int, rng: np.random.Generator) -> tuple[float | None, float | None]:
    """Percentile interval of alpha over contestants resampled with replacement."""
    n_units = data.shape[1]
    if n_units < 2 or n_boot <= 0:
        return None, None
    samples = np.full(n_boot, np.nan)
    for b in range(n_boot):
        pick = rng.integers(0, n_units, size=n_units)
        value = interval_alpha_closed_form(data[:, pick])
        if value is not None:
            samples[b] = value
    return percentile_interval(samples)


def kendall_w(matrix: pd.DataFrame) -> KendallW | None:
    """Kendall's W of a items x raters matrix (items with a missing rating are dropped).

    Each rater ranks the items (average ranks for ties); see the module doc for the formula."""
    complete = matrix.dropna(axis=0, how="any")
    n, m = complete.shape
    if m < 2 or n < 2:
        return None
    ranks = np.column_stack([stats.rankdata(complete.iloc[:, j].to_numpy()) for j in range(m)])
    rank_sums = ranks.sum(axis=1)
    s = float(((rank_sums - rank_sums.mean()) ** 2).sum())
    ties = 0.0
    tie_groups = 0
    for j in range(m):
        _, counts = np.unique(complete.iloc[:, j].to_numpy(), return_counts=True)
        tied = counts[counts > 1]
        tie_groups += int(tied.size)
        ties += float((tied.astype(float) ** 3 - tied).sum())
    denominator = m**2 * (n**3 - n) - m * ties
    if denominator <= 0:
        return KendallW(n_items=n, n_judges=m, w=None, chi2=None, df=n - 1, p_value=None, tie_groups=tie_groups)
    w = 12 * s / denominator
    chi2 = m * (n - 1) * w
    return KendallW(
        n_items=n,
        n_judges=m,
        w=float(w),
        chi2=float(chi2),
        df=n - 1,
        p_value=float(stats.chi2.sf(chi2, n - 1)),
        tie_groups=tie_groups,
    )


def agreement(
    scores: pd.DataFrame, *, axes: Sequence[str] | None = None, n_boot: int = 1000, seed: int = 0
) -> AgreementResult:
    """Inter-judge agreement of the main run (see module doc). ``axes`` defaults to every score axis;
    an axis nobody scored (e.g. outcome in a pending season) is skipped."""
    scores = normalize_scores(scores)
    wanted = list(axes) if axes is not None else list(SCORE_AXES)
    unknown = [a for a in wanted if a not in SCORE_AXES]
    if unknown:
        raise ValueError(f"unknown axis {unknown[0]!r}; axes are {', '.join(SCORE_AXES)}")
    rng = np.random.default_rng(seed)
    caveats: list[str] = []
    composite = score_matrix(scores, "composite")
    if composite.empty:
        return AgreementResult(
            n_boot=n_boot,
            seed=seed,
            contestants=[],
            axes=[],
            kendall_w=None,
            bland_altman=[],
            caveats=["No grades in this run: agreement cannot be measured."],
        )
    labels = contestant_labels(scores)
    n_judges = int(composite.shape[1])
    if n_judges < 2:
        caveats.append(
            "Only one judge graded this run: inter-judge agreement (alpha, ICC, Kendall's W, Bland-Altman) "
            "is undefined."
        )

    contestants: list[ContestantSpread] = []
    for contestant, row in composite.iterrows():
        values = row.dropna().to_numpy()
        if values.size == 0:
            continue
        contestants.append(
            ContestantSpread(
                contestant_id=str(contestant),
                contestant_label=labels[str(contestant)],
                n_judges=int(values.size),
                low=float(values.min()),
                median=float(np.median(values)),
                high=float(values.max()),
                spread=float(values.max() - values.min()),
            )
        )

    axis_rows: list[AxisAgreement] = []
    for axis in wanted:
        matrix = score_matrix(scores, axis).dropna(axis=0, how="all")
        if matrix.empty:
            continue
        data = matrix.to_numpy().T  # coders x units
        alpha = krippendorff_interval_alpha(data)
        alpha_low, alpha_high = _bootstrap_alpha(data, n_boot, rng) if alpha is not None else (None, None)
        if alpha is None and n_judges >= 2:
            caveats.append(f"{axis}: Krippendorff's alpha is undefined (no variance, or no unit graded twice).")
        icc, reason = icc_two_way(matrix)
        if reason and n_judges >= 2:
            caveats.append(f"{axis}: {reason}.")
        axis_rows.append(
            AxisAgreement(
                axis=axis,
                n_items=int(matrix.shape[0]),
                n_judges=int(matrix.notna().any(axis=0).sum()),
                krippendorff_alpha=alpha,
                krippendorff_alpha_ci_low=alpha_low,
                krippendorff_alpha_ci_high=alpha_high,
                krippendorff_alpha_label=alpha_label(alpha),
                icc2_1=icc.icc2_1 if icc else None,
                icc2_1_ci_low=icc.icc2_1_ci_low if icc else None,
                icc2_1_ci_high=icc.icc2_1_ci_high if icc else None,
                icc2_1_label=icc_label(icc.icc2_1 if icc else None),
                icc2_k=icc.icc2_k if icc else None,
                icc2_k_ci_low=icc.icc2_k_ci_low if icc else None,
                icc2_k_ci_high=icc.icc2_k_ci_high if icc else None,
                icc2_k_label=icc_label(icc.icc2_k if icc else None),
            )
        )

    pairs: list[BlandAltmanPair] = []
    for judge_a, judge_b in itertools.combinations(composite.columns, 2):
        a, b = composite[judge_a].to_numpy(dtype=float), composite[judge_b].to_numpy(dtype=float)
        result = bland_altman(a, b)
        both = ~(np.isnan(a) | np.isnan(b))
        pairs.append(
            BlandAltmanPair(
                axis="composite",
                judge_a=judge_a,
                judge_b=judge_b,
                **result.model_dump(),
                points=[(float((x + y) / 2), float(x - y)) for x, y in zip(a[both], b[both], strict=True)],
            )
        )

    concordance = kendall_w(composite)
    if concordance is not None and concordance.n_items < 3:
        caveats.append(f"Kendall's W rests on {concordance.n_items} contestants: too few to read.")
    if len(contestants) < 10 and n_judges >= 2:
        caveats.append(
            f"Only {len(contestants)} contestants: agreement intervals are wide; read them, not the point values."
        )
    return AgreementResult(
        n_boot=n_boot,
        seed=seed,
        contestants=contestants,
        axes=axis_rows,
        kendall_w=concordance,
        bland_altman=pairs,
        caveats=caveats,
    )
