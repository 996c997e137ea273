"""Views of the score table the audits share: the main-run grades and contestant x judge matrices."""

from __future__ import annotations

import pandas as pd


def main_run(scores: pd.DataFrame) -> pd.DataFrame:
    """One grade per (contestant, judge): repeat 0, or the lowest repeat present for that pair.

    Self-preference, agreement and calibration describe the grades the run published, so they use the
    main run; repeats only feed self-consistency."""
    if scores.empty:
        return scores.copy()
    ordered = scores.sort_values(["contestant_id", "judge_id", "repeat"], kind="stable")
    return ordered.drop_duplicates(subset=["contestant_id", "judge_id"], keep="first").reset_index(drop=True)


def score_matrix(scores: pd.DataFrame, axis: str) -> pd.DataFrame:
    """Contestants (rows, sorted by id) x judges (columns, sorted by id) of one axis; NaN where missing."""
    graded = main_run(scores)
    if graded.empty:
        return pd.DataFrame(dtype=float)
    matrix = graded.pivot(index="contestant_id", columns="judge_id", values=axis).astype(float)
    return matrix.sort_index().sort_index(axis=1)


def contestant_labels(scores: pd.DataFrame) -> dict[str, str]:
    """contestant_id -> display name."""
    return dict(zip(scores["contestant_id"], scores["contestant_label"], strict=True))


def contestant_families(scores: pd.DataFrame) -> dict[str, str]:
    """contestant_id -> provider family (lower-cased for comparison)."""
    return {c: f.lower() for c, f in zip(scores["contestant_id"], scores["contestant_family"], strict=True)}


def judge_families(scores: pd.DataFrame) -> dict[str, str]:
    """judge_id -> provider family (lower-cased for comparison)."""
    return {j: f.lower() for j, f in zip(scores["judge_id"], scores["judge_family"], strict=True)}
