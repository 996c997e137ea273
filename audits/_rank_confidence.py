"""Rank confidence: how sure are the leaderboard's scores, ranks and bands, given the run's own sources of
variation?

Two sources, both real and both named in the report:

- **the panel**: in every bootstrap replicate the run's judges are drawn with replacement (as many as the panel
  has), so a contestant's reasoning median moves as it would under another draw of judges like these;
- **repeats**: when the run graded each record more than once (stability repeats), each drawn judge contributes
  one of its repeats for that record, drawn at random, so re-grading noise is in the interval too.

The replicate's reasoning median ``m_b`` is the median of the drawn judges' composites for the record, and its
Total Score is ``total_b = clip(total * m_b / m, 0, 100)`` with ``m`` the run's reasoning median: exact for
``total = 0.9 m + 0.1 efficiency`` (efficiency is ``m`` over the median decision time, normalised by the
season's best, which is held fixed), and for a total without timings (``total = m``). Ranks are recomputed
within the replicate (1 = best; ties share the better rank). From the replicates: the 95% percentile interval of
the score and of the rank, P(band) = the share of replicates in each band, and a borderline flag when the score
interval crosses a band edge.

Not covered, and said: the sampling of decisions within a record (judges grade whole records, not decisions),
and judges unlike the panel's. A run with one judge and no repeats has no source of variation: its intervals
are zero-width and the report says the ranks' uncertainty is unmeasured, not zero.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from pydantic import BaseModel
from scipy import stats

from audits._inputs import (
    DEFAULT_BANDS,
    Band,
    band_edges,
    band_of,
    normalize_scores,
    normalize_totals,
    sorted_bands,
)


class ContestantRankConfidence(BaseModel):
    """Bootstrap intervals of one contestant's Total Score and rank, and its band probabilities."""

    contestant_id: str
    contestant_label: str
    total: float
    band: str | None
    rank: int
    score_low: float
    score_high: float
    rank_low: int
    rank_high: int
    p_band: dict[str, float]
    borderline: bool
    n_grades: int = 0  # judge x repeat composites behind the record


class RankConfidenceResult(BaseModel):
    """Rank confidence of the whole leaderboard."""

    n_boot: int
    seed: int
    level: float
    bands: list[Band]
    contestants: list[ContestantRankConfidence]
    caveats: list[str]
    sources: list[str] = []  # what the replicates vary, e.g. "panel: 3 judges resampled with replacement"
    not_covered: list[str] = []


def _ranks(totals: np.ndarray) -> np.ndarray:
    """Ranks along the last axis, 1 = highest total, ties share the better (smaller) rank."""
    return stats.rankdata(-totals, method="min", axis=-1).astype(int)


def rank_confidence(
    totals: pd.DataFrame,
    scores: pd.DataFrame,
    bands: Sequence[Band] = DEFAULT_BANDS,
    n_boot: int = 2000,
    seed: int = 0,
    *,
    level: float = 0.95,
) -> RankConfidenceResult:
    """Bootstrap over the panel's judges and their repeats (see module doc)."""
    totals = normalize_totals(totals)
    scores = normalize_scores(scores)
    ordered_bands = sorted_bands(bands)
    if n_boot < 1:
        raise ValueError("n_boot must be at least 1")
    not_covered = [
        "the sampling of decisions within a record (judges grade whole records, not decisions)",
        "judges unlike this panel's (another provider, another prompt)",
    ]
    if totals.empty:
        return RankConfidenceResult(
            n_boot=n_boot,
            seed=seed,
            level=level,
            bands=ordered_bands,
            contestants=[],
            caveats=["No contestant totals in this run: no ranks to bootstrap."],
            not_covered=not_covered,
        )
    rng = np.random.default_rng(seed)
    totals = totals.sort_values("contestant_id", kind="stable").reset_index(drop=True)
    usable = scores.dropna(subset=["composite"])
    judges = sorted(usable["judge_id"].unique())
    repeats = int(usable.groupby(["judge_id", "contestant_id"])["repeat"].nunique().max()) if len(usable) else 0
    sources = []
    if len(judges) > 1:
        sources.append(f"panel: the run's {len(judges)} judges resampled with replacement")
    if repeats > 1:
        sources.append(f"repeats: one of up to {repeats} gradings per judge and record, drawn at random")
    caveats: list[str] = []
    grades = {
        (c, j): g["composite"].to_numpy(dtype=float) for (c, j), g in usable.groupby(["contestant_id", "judge_id"])
    }
    draws = rng.integers(0, len(judges), size=(n_boot, len(judges))) if judges else np.empty((n_boot, 0), int)
    replicates = np.empty((n_boot, len(totals)))
    fixed: list[str] = []
    n_grades: list[int] = []
    for i, (_, row) in enumerate(totals.iterrows()):  # totals has a fresh 0..n-1 index (above)
        cid, total = row["contestant_id"], float(row["total"])
        median = row.get("reasoning_median")
        per_judge = [grades.get((cid, j), np.empty(0)) for j in judges]
        n_grades.append(int(sum(v.size for v in per_judge)))
        if not sources or median is None or pd.isna(median) or not any(v.size for v in per_judge):
            replicates[:, i] = total
            fixed.append(str(row["contestant_label"]))
            continue
        picked = np.full((n_boot, len(judges)), np.nan)
        for k, values in enumerate(per_judge):
            if values.size:
                picked[:, k] = values[rng.integers(0, values.size, size=n_boot)]
        drawn = np.take_along_axis(picked, draws, axis=1)  # a judge missing for this record (a gap) is NaN
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an all-gap draw is handled on the next line
            m_b = np.nanmedian(drawn, axis=1)
        m_b = np.where(np.isnan(m_b), float(median), m_b)  # every drawn judge was a gap: no information
        scale = m_b / float(median) if float(median) > 0 else np.ones(n_boot)
        replicates[:, i] = np.clip(total * scale if float(median) > 0 else m_b, 0, 100)
    if not sources:
        caveats.append(
            "This run has one judge and no repeats: nothing to resample, so every interval is "
            "zero-width. The ranks' uncertainty is unmeasured here, not zero; grade with a panel "
            "(or --repeats) to measure it."
        )
    elif fixed:
        caveats.append(
            f"No usable judge grade for {', '.join(fixed)}: their totals are held fixed (zero-width "
            "intervals), which understates their uncertainty."
        )

    replicate_ranks = _ranks(replicates)
    observed_ranks = _ranks(totals["total"].to_numpy(dtype=float))
    tail = (1 - level) / 2 * 100
    edges = band_edges(ordered_bands)
    ascending = list(reversed(ordered_bands))
    lows = np.array([b.low for b in ascending], dtype=float)
    band_names = np.array([b.name for b in ascending])
    contestants: list[ContestantRankConfidence] = []
    for i, (_, row) in enumerate(totals.iterrows()):
        column = replicates[:, i]
        low, high = (float(v) for v in np.percentile(column, [tail, 100 - tail]))
        rank_low, rank_high = (int(round(v)) for v in np.percentile(replicate_ranks[:, i], [tail, 100 - tail]))
        replicate_bands = band_names[np.clip(np.searchsorted(lows, column, side="right") - 1, 0, None)]
        p_band = {b.name: float(np.mean(replicate_bands == b.name)) for b in ordered_bands}
        borderline = any(low < edge <= high for edge in edges)
        contestants.append(
            ContestantRankConfidence(
                contestant_id=str(row["contestant_id"]),
                contestant_label=str(row["contestant_label"]),
                total=float(row["total"]),
                band=row["band"] or band_of(float(row["total"]), ordered_bands),
                rank=int(observed_ranks[i]),
                n_grades=n_grades[i],
                score_low=low,
                score_high=high,
                rank_low=rank_low,
                rank_high=rank_high,
                p_band=p_band,
                borderline=borderline,
            )
        )
    contestants.sort(key=lambda c: (c.rank, c.contestant_id))
    return RankConfidenceResult(
        n_boot=n_boot,
        seed=seed,
        level=level,
        bands=ordered_bands,
        contestants=contestants,
        caveats=caveats,
        sources=sources,
        not_covered=not_covered,
    )
