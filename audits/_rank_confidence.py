"""Rank confidence: how sure are the leaderboard's scores, ranks and bands, given the decisions behind them?

Bootstrap over decisions. Each contestant's record is a set of decisions, each with a quality estimate
``score`` (0-100, from ``decision_scores``). In every bootstrap replicate each contestant's decisions are
resampled with replacement (as many as it has) and its Total Score is shifted by the change in the mean
decision score:

    total_b = clip(total + (mean(resampled scores) - mean(scores)), 0, 100)

Ranks are recomputed within the replicate (1 = best; ties share the better rank). From the replicates:
the 95% percentile interval of the score and of the rank, P(band) = the share of replicates in each band,
and a borderline flag when the score interval crosses a band edge (its ends fall in different bands).

What it measures: the sampling variability of a record's decisions. It does not include judge
disagreement or re-grading noise (see agreement and self-consistency). A contestant with no decision
scores keeps its total in every replicate (zero-width interval) and is named in a caveat.
"""

from __future__ import annotations

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
    normalize_decision_scores,
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
    n_decisions: int
    score_low: float
    score_high: float
    rank_low: int
    rank_high: int
    p_band: dict[str, float]
    borderline: bool


class RankConfidenceResult(BaseModel):
    """Rank confidence of the whole leaderboard."""

    n_boot: int
    seed: int
    level: float
    bands: list[Band]
    contestants: list[ContestantRankConfidence]
    caveats: list[str]


def _ranks(totals: np.ndarray) -> np.ndarray:
    """Ranks along the last axis, 1 = highest total, ties share the better (smaller) rank."""
    return stats.rankdata(-totals, method="min", axis=-1).astype(int)


def rank_confidence(
    totals: pd.DataFrame,
    decision_scores: pd.DataFrame,
    bands: Sequence[Band] = DEFAULT_BANDS,
    n_boot: int = 2000,
    seed: int = 0,
    *,
    level: float = 0.95,
) -> RankConfidenceResult:
    """Bootstrap over decisions: score and rank intervals, P(band), borderline flags (see module doc)."""
    totals = normalize_totals(totals)
    decisions = normalize_decision_scores(decision_scores)
    ordered_bands = sorted_bands(bands)
    if n_boot < 1:
        raise ValueError("n_boot must be at least 1")
    caveats: list[str] = []
    if totals.empty:
        return RankConfidenceResult(
            n_boot=n_boot,
            seed=seed,
            level=level,
            bands=ordered_bands,
            contestants=[],
            caveats=["No contestant totals in this run: no ranks to bootstrap."],
        )
    rng = np.random.default_rng(seed)
    totals = totals.sort_values("contestant_id", kind="stable").reset_index(drop=True)
    by_contestant = {c: g["score"].to_numpy(dtype=float) for c, g in decisions.groupby("contestant_id")}
    unknown = sorted(set(by_contestant) - set(totals["contestant_id"]))
    if unknown:
        caveats.append(f"Decision scores for {len(unknown)} contestant(s) without a total were ignored.")

    replicates = np.empty((n_boot, len(totals)))
    without: list[str] = []
    n_decisions: list[int] = []
    for i, row in totals.iterrows():
        values = by_contestant.get(row["contestant_id"], np.empty(0))
        n_decisions.append(int(values.size))
        if values.size == 0:
            replicates[:, i] = row["total"]
            without.append(str(row["contestant_label"]))
            continue
        picks = rng.integers(0, values.size, size=(n_boot, values.size))
        shift = values[picks].mean(axis=1) - values.mean()
        replicates[:, i] = np.clip(row["total"] + shift, 0, 100)
    if without:
        caveats.append(
            f"No decision scores for {', '.join(without)}: their totals are held fixed, so their intervals "
            f"are zero-width and understate the uncertainty."
        )
    single = [str(totals.at[i, "contestant_label"]) for i, n in enumerate(n_decisions) if n == 1]
    if single:
        caveats.append(f"One decision only for {', '.join(single)}: resampling cannot vary it.")

    replicate_ranks = _ranks(replicates)
    observed_ranks = _ranks(totals["total"].to_numpy(dtype=float))
    tail = (1 - level) / 2 * 100
    edges = band_edges(ordered_bands)
    ascending = list(reversed(ordered_bands))
    lows = np.array([b.low for b in ascending], dtype=float)
    band_names = np.array([b.name for b in ascending])
    contestants: list[ContestantRankConfidence] = []
    for i, row in totals.iterrows():
        column = replicates[:, i]
        low, high = (float(v) for v in np.percentile(column, [tail, 100 - tail]))
        rank_low, rank_high = (
            int(round(v)) for v in np.percentile(replicate_ranks[:, i], [tail, 100 - tail])
        )
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
                n_decisions=n_decisions[i],
                score_low=low,
                score_high=high,
                rank_low=rank_low,
                rank_high=rank_high,
                p_band=p_band,
                borderline=borderline,
            )
        )
    contestants.sort(key=lambda c: (c.rank, c.contestant_id))
    caveats.append(
        "Intervals come from resampling each record's decisions; they leave out judge disagreement and "
        "re-grading noise, so the true uncertainty is larger."
    )
    return RankConfidenceResult(
        n_boot=n_boot, seed=seed, level=level, bands=ordered_bands, contestants=contestants, caveats=caveats
    )
