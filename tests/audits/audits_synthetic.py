"""Synthetic panels with known answers for the audit tests (plain data, no storage)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pandas as pd

from audits import AuditInputs, RunMeta

FAMILIES = ("openai", "anthropic", "xai", "google")
JUDGES = (("judge-openai", "openai"), ("judge-anthropic", "anthropic"), ("judge-xai", "xai"))
# Distinctive outcome figures: a pending-season report must not contain any of them.
OUTCOME_VALUES = {
    "return": 0.137913,
    "benchmark_return": -0.052771,
    "alpha": 0.190684,
    "oracle_score": 41.9337,
    "sharpe": 1.73519,
    "max_drawdown": -0.083117,
}


def meta(run_type: str = "official", season_status: str = "resolved", **overrides: object) -> RunMeta:
    values: dict[str, object] = {
        "run_id": "run-0042",
        "run_type": run_type,
        "rubric_id": "grounded_financial_reasoning_judge_v0.4",
        "rubric_hash": "a" * 64,
        "rubric_judge_hash": "b" * 64,
        "panel_name": "three-provider-v1",
        "panel_hash": "c" * 64,
        "season_id": "demo-2022q1",
        "season_status": season_status,
        "manifest_hash": "d" * 64,
        "attribution": None,
        "generated_at": datetime(2024, 5, 1, 12, 0, tzinfo=UTC),
    }
    values.update(overrides)
    return RunMeta.model_validate(values)


def contestants(n_per_family: int = 3, families: tuple[str, ...] = FAMILIES) -> pd.DataFrame:
    rows = []
    for family in families:
        for i in range(n_per_family):
            rows.append(
                {
                    "contestant_id": f"{family}-{i}",
                    "contestant_label": f"{family.title()} model {i}",
                    "contestant_family": family,
                }
            )
    return pd.DataFrame(rows)


def panel_scores(
    *,
    seed: int = 1,
    n_per_family: int = 3,
    families: tuple[str, ...] = FAMILIES,
    judges: tuple[tuple[str, str], ...] = JUDGES,
    noise_sd: float = 2.0,
    bias: dict[str, float] | None = None,
    repeats: int = 1,
    repeat_sd: float = 1.5,
) -> pd.DataFrame:
    """Scores = contestant quality + judge noise (+ a planted bias on the judge's own family).

    ``bias`` maps judge_id -> points added to that judge's scores of its own-family contestants."""
    rng = np.random.default_rng(seed)
    people = contestants(n_per_family, families)
    quality = dict(zip(people["contestant_id"], rng.uniform(35, 80, len(people)), strict=True))
    rows = []
    for _, c in people.iterrows():
        for judge_id, judge_family in judges:
            base = quality[c["contestant_id"]] + rng.normal(0, noise_sd)
            if bias and c["contestant_family"] == judge_family:
                base += bias.get(judge_id, 0.0)
            for repeat in range(repeats):
                jitter = rng.normal(0, repeat_sd) if repeats > 1 else 0.0
                axes = {
                    axis: float(np.clip(base + jitter + rng.normal(0, 1.0), 0, 100))
                    for axis in ("reasoning", "evidence", "process", "outcome", "data_reliability")
                }
                composite = (
                    0.4 * axes["reasoning"] + 0.35 * axes["evidence"] + 0.15 * axes["process"] + 0.1 * axes["outcome"]
                )
                rows.append(
                    {
                        **c.to_dict(),
                        "judge_id": judge_id,
                        "judge_family": judge_family,
                        "repeat": repeat,
                        "composite": composite,
                        **axes,
                    }
                )
    return pd.DataFrame(rows)


def totals_from(scores: pd.DataFrame, *, with_outcome: bool = True) -> pd.DataFrame:
    main = scores[scores["repeat"] == 0]
    grouped = main.groupby(["contestant_id", "contestant_label"])["composite"].median().reset_index()
    grouped = grouped.rename(columns={"composite": "reasoning_median"})
    grouped["efficiency"] = np.nan
    grouped["total"] = grouped["reasoning_median"]
    grouped["band"] = pd.cut(
        grouped["total"], [-1, 44.999999, 66.999999, 101], labels=["Weak", "Mixed", "Strong"]
    ).astype(str)
    if with_outcome:
        for column, value in OUTCOME_VALUES.items():
            grouped[column] = value
    return grouped


def inputs(
    scores: pd.DataFrame | None = None,
    *,
    run_type: str = "official",
    season_status: str = "resolved",
    **extra: object,
) -> AuditInputs:
    scores = panel_scores() if scores is None else scores
    totals = totals_from(scores)
    return AuditInputs(
        meta=meta(run_type, season_status),
        scores=scores,
        totals=totals,
        **extra,
    )
