"""Self-preference audit: does a judge score its own provider family higher than the rest of the panel does?

Three views per judge, all on the main-run composite:

- seed 002's table: mean (judge - consensus) over own-family contestants, the same over the others, and
  their difference (the gap); consensus = the panel median per contestant (the judge included);
- the leave-one-out (LOO) index: judge minus the mean of the *other* judges per contestant, so the judge's
  own score does not pull the reference. Judges of the contestant's own family are left out of that
  reference too: otherwise one judge's self-preference (say xAI's judge inflating xAI models) lowers every
  other judge's index on those contestants and poses as their self-preference. LOO gap = mean over
  own-family contestants minus mean over the others;
- a permutation test of the LOO gap over contestants: the family labels are shuffled (every subset of the
  same size as the own-family set is equally likely under "no self-preference"); the one-sided p-value is
  the share of label assignments whose gap is at least the observed one. When the number of distinct
  assignments C(n, k) is at most ``n_permutations`` they are all enumerated (exact test), otherwise a seeded
  Monte Carlo sample is drawn and p = (1 + hits) / (1 + n_permutations).

A judge is flagged when its Holm-adjusted one-sided p-value (over the judges tested) is below the
significance level and its LOO gap is positive.
"""

from __future__ import annotations

import itertools
import math
from typing import Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel
from statsmodels.stats.multitest import multipletests

from audits._inputs import normalize_scores
from audits._panel import contestant_families, contestant_labels, judge_families, score_matrix
from audits._stats import finite

_TOLERANCE = 1e-9


class ConsensusPoint(BaseModel):
    """One judge's composite for one contestant next to the panel consensus (for the scatter chart)."""

    judge_id: str
    contestant_id: str
    contestant_label: str
    score: float
    consensus: float
    own_family: bool


class JudgeSelfPreference(BaseModel):
    """Self-preference figures of one judge (points on the 0-100 composite scale)."""

    judge_id: str
    judge_family: str
    n_own: int
    n_others: int
    own_vs_consensus: float | None
    others_vs_consensus: float | None
    gap: float | None
    loo_own: float | None
    loo_others: float | None
    loo_gap: float | None
    p_value: float | None
    p_value_two_sided: float | None
    p_value_holm: float | None
    permutation_method: Literal["exact", "monte-carlo"] | None
    n_assignments: int | None
    min_attainable_p: float | None
    flagged: bool
    note: str


class SelfPreferenceResult(BaseModel):
    """Per-judge self-preference with the honest limits of what the sample supports."""

    n_contestants: int
    n_permutations: int
    seed: int
    significance_level: float
    judges: list[JudgeSelfPreference]
    points: list[ConsensusPoint]
    caveats: list[str]


def _mean(values: np.ndarray) -> float | None:
    return float(values.mean()) if values.size else None


def _neutral_reference(
    matrix: pd.DataFrame, judge: str, judge_family: dict[str, str], family_of: pd.Series
) -> pd.Series:
    """Per contestant, the mean of the other judges, leaving out judges of the contestant's own family
    (their possible self-preference on it must not pose as this judge's); NaN when none remains."""
    others = [j for j in matrix.columns if j != judge]
    values = matrix[others].to_numpy(dtype=float)
    families = np.array([judge_family[j] for j in others])
    neutral = families[None, :] != family_of.reindex(matrix.index).to_numpy()[:, None]
    kept = np.where(neutral & np.isfinite(values), values, np.nan)
    counts = np.isfinite(kept).sum(axis=1)
    with np.errstate(all="ignore"):
        means = np.where(counts > 0, np.nansum(kept, axis=1) / np.maximum(counts, 1), np.nan)
    return pd.Series(means, index=matrix.index)


def _permutation_test(
    loo: np.ndarray, own: np.ndarray, *, n_permutations: int, rng: np.random.Generator
) -> tuple[float, float, Literal["exact", "monte-carlo"], int]:
    """One- and two-sided p-values of the LOO gap under random family labels."""
    n, k = loo.size, int(own.sum())
    observed = loo[own].mean() - loo[~own].mean()
    total = loo.sum()
    n_assignments = math.comb(n, k)
    if n_assignments <= n_permutations:
        subsets = np.array(list(itertools.combinations(range(n), k)), dtype=int)
        method: Literal["exact", "monte-carlo"] = "exact"
    else:
        keys = rng.random((n_permutations, n))
        subsets = np.argpartition(keys, k - 1, axis=1)[:, :k]
        method = "monte-carlo"
    own_sums = loo[subsets].sum(axis=1)
    gaps = own_sums / k - (total - own_sums) / (n - k)
    hits_greater = int(np.count_nonzero(gaps >= observed - _TOLERANCE))
    hits_two_sided = int(np.count_nonzero(np.abs(gaps) >= abs(observed) - _TOLERANCE))
    if method == "exact":
        return hits_greater / n_assignments, hits_two_sided / n_assignments, method, n_assignments
    return (
        (1 + hits_greater) / (1 + n_permutations),
        (1 + hits_two_sided) / (1 + n_permutations),
        method,
        n_assignments,
    )


def self_preference(
    scores: pd.DataFrame, *, n_permutations: int = 10_000, seed: int = 0, significance_level: float = 0.05
) -> SelfPreferenceResult:
    """Self-preference per judge: seed 002's table, the LOO index and a permutation test (see module doc)."""
    scores = normalize_scores(scores)
    matrix = score_matrix(scores, "composite")
    caveats: list[str] = []
    if matrix.empty:
        return SelfPreferenceResult(
            n_contestants=0,
            n_permutations=n_permutations,
            seed=seed,
            significance_level=significance_level,
            judges=[],
            points=[],
            caveats=["No grades in this run: self-preference cannot be measured."],
        )
    rng = np.random.default_rng(seed)
    labels = contestant_labels(scores)
    families = contestant_families(scores)
    judge_family = judge_families(scores)
    consensus = matrix.median(axis=1, skipna=True)
    own_family_of = pd.Series({c: families[c] for c in matrix.index})
    if matrix.shape[1] < 2:
        caveats.append("Only one judge: there is no panel to compare it with, so self-preference is not measured.")

    rows: list[JudgeSelfPreference] = []  # before the Holm adjustment over the judges (flag and note after it)
    permuted: dict[int, tuple[float, float]] = {}  # row index -> (p-value, smallest attainable p) of a tested judge
    points: list[ConsensusPoint] = []
    for judge in matrix.columns:
        family = judge_family[judge]
        column = matrix[judge]
        graded = column.notna()
        own = (own_family_of == family) & graded
        others = (own_family_of != family) & graded
        deviation = (column - consensus).to_numpy()
        for contestant in matrix.index[graded.to_numpy()]:
            points.append(
                ConsensusPoint(
                    judge_id=judge,
                    contestant_id=contestant,
                    contestant_label=labels[contestant],
                    score=float(column[contestant]),
                    consensus=float(consensus[contestant]),
                    own_family=bool(own[contestant]),
                )
            )
        loo_series = column - _neutral_reference(matrix, judge, judge_family, own_family_of)
        valid = loo_series.notna().to_numpy()
        loo = loo_series.to_numpy()[valid]
        own_valid = own.to_numpy()[valid]
        n_own, n_others = int(own_valid.sum()), int((~own_valid).sum())
        own_gap = finite(_mean(deviation[own.to_numpy()]))
        others_gap = finite(_mean(deviation[others.to_numpy()]))
        loo_own, loo_others = finite(_mean(loo[own_valid])), finite(_mean(loo[~own_valid]))
        figures: dict[str, object] = {}  # the permutation test's, when the judge has both groups
        if n_own >= 1 and n_others >= 1:
            p_greater, p_two, method, n_assignments = _permutation_test(
                loo, own_valid, n_permutations=n_permutations, rng=rng
            )
            figures = {
                "p_value": p_greater,
                "p_value_two_sided": p_two,
                "permutation_method": method,
                "n_assignments": n_assignments,
                "min_attainable_p": 1 / n_assignments,
            }
            permuted[len(rows)] = (p_greater, 1 / n_assignments)
        row = JudgeSelfPreference(
            judge_id=judge,
            judge_family=family,
            n_own=int(own.sum()),
            n_others=int(others.sum()),
            own_vs_consensus=own_gap,
            others_vs_consensus=others_gap,
            gap=own_gap - others_gap if own_gap is not None and others_gap is not None else None,
            loo_own=loo_own,
            loo_others=loo_others,
            loo_gap=loo_own - loo_others if loo_own is not None and loo_others is not None else None,
            p_value=None,
            p_value_two_sided=None,
            p_value_holm=None,
            permutation_method=None,
            n_assignments=None,
            min_attainable_p=None,
            flagged=False,
            note="",
        ).model_copy(update=figures)
        rows.append(row)

    tested = list(permuted)
    holm: dict[int, float] = {}
    best_holm: dict[int, float] = {}
    if tested:
        adjusted = multipletests([float(permuted[i][0]) for i in tested], method="holm")[1]
        holm = {i: float(p) for i, p in zip(tested, adjusted, strict=True)}
        # Holm-adjusted p is non-decreasing in every raw p: adjusting every judge's smallest attainable p gives
        # each judge's smallest attainable adjusted p, i.e. whether it could be flagged at all at this size
        floor = multipletests([float(permuted[i][1]) for i in tested], method="holm")[1]
        best_holm = {i: float(p) for i, p in zip(tested, floor, strict=True)}

    judges: list[JudgeSelfPreference] = []
    for i, row in enumerate(rows):
        p_holm = holm.get(i)
        loo_gap = row.loo_gap
        flagged = p_holm is not None and p_holm < significance_level and loo_gap is not None and loo_gap > 0
        note, judge_caveats = _plain_words(
            row, p_holm, flagged, significance_level, labels, matrix, own_family_of, best_holm.get(i), len(tested)
        )
        caveats.extend(judge_caveats)
        judges.append(row.model_copy(update={"p_value_holm": p_holm, "flagged": flagged, "note": note}))

    caveats.append(
        "The panel consensus includes the judge itself; the leave-one-out index and the permutation test "
        "compare it with the other judges only. A flag says the pattern is unlikely under random family "
        "labels, not why it happens."
    )
    return SelfPreferenceResult(
        n_contestants=int(matrix.shape[0]),
        n_permutations=n_permutations,
        seed=seed,
        significance_level=significance_level,
        judges=judges,
        points=points,
        caveats=caveats,
    )


def _plain_words(
    row: JudgeSelfPreference,
    p_holm: float | None,
    flagged: bool,
    level: float,
    labels: dict[str, str],
    matrix: pd.DataFrame,
    own_family_of: pd.Series,
    best_holm: float | None = None,
    n_tested: int = 1,
) -> tuple[str, list[str]]:
    """A one-line reading of a judge's figures, and the caveats it owes the reader."""
    judge, family = str(row.judge_id), str(row.judge_family)
    n_own, n_others = row.n_own, row.n_others
    caveats: list[str] = []
    if n_own == 0:
        note = f"No contestant of its own family ({family}) in this run: self-preference cannot be measured."
        return note, [f"Judge {judge}: {note}"]
    if n_others == 0:
        note = "Every contestant it graded is of its own family: there is no comparison group."
        return note, [f"Judge {judge}: {note}"]
    if row.p_value is None:
        note = "The other judges graded none of the same contestants: no leave-one-out comparison."
        return note, [f"Judge {judge}: {note}"]
    gap, p_raw, min_raw = row.loo_gap, row.p_value, row.min_attainable_p
    if gap is None or p_raw is None or min_raw is None:  # never: a tested judge has all three (see the caller)
        raise ValueError(f"judge {judge}: a permutation test without its leave-one-out gap")
    loo_gap, p_value, min_p = float(gap), float(p_raw), float(min_raw)
    if flagged:
        note = (
            f"Scores its own family {loo_gap:+.1f} points more (vs the other judges) than the other contestants; "
            f"one-sided p = {p_value:.3g}, Holm-adjusted {p_holm:.3g}: flagged as self-preference."
        )
    elif best_holm is not None and best_holm >= level:
        note = (
            f"Cannot be tested at this size: leave-one-out gap {loo_gap:+.1f}, one-sided p = {p_value:.3g}; even the "
            f"most extreme result could not be flagged after the Holm adjustment over {n_tested} judge(s) "
            f"(smallest attainable adjusted p = {best_holm:.2f})."
        )
    else:
        note = f"No significant self-preference: leave-one-out gap {loo_gap:+.1f}, one-sided p = {p_value:.3g}."
    if n_own == 1:
        # .at gives any scalar pandas-stubs knows; pd.notna's overloads list fewer of them
        own_ids = [c for c in matrix.index if own_family_of[c] == family and pd.notna(matrix.at[c, judge])]  # type: ignore[arg-type]
        name = labels[own_ids[0]] if own_ids else "one contestant"
        caveats.append(
            f"Judge {judge} has one own-family contestant ({name}): its gap is a single observation, "
            f"directional, not a statistic."
        )
    if best_holm is not None and best_holm >= level:
        caveats.append(
            f"Judge {judge}: with {n_own + n_others} contestants, {n_own} of its own family, the most extreme result "
            f"has p = {min_p:.3g}, and after the Holm adjustment over {n_tested} judge(s) at least {best_holm:.2f}: "
            f"the test cannot reach significance at {level:g}; read the gap as directional only."
        )
        if not note.startswith("Cannot be tested"):
            note += " Too few contestants for significance after the Holm adjustment."
    return note, caveats
