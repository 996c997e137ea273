"""Calibration of the judges against human grades entered in the console.

For each axis humans graded, the human reference of an item (a contestant's record) is the mean of its
annotators' latest grades. Each judge's main-run score, and the panel median, is compared with it:

- ICC(2,1) of the pair (rater, human), absolute agreement (pingouin);
- mean bias (rater - human) and Bland-Altman 95% limits of agreement;
- quadratic-weighted Cohen's kappa on the bands of the two scores (statsmodels, weights (i - j)^2 over the
  band order), which asks whether judge and human put the record in the same band.

Where two annotators graded the same item, the same figures between them give the human-human baseline: a
judge that agrees with humans about as well as humans agree with each other is as good as this check can
show.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd
from pydantic import BaseModel

from audits._inputs import (
    DEFAULT_BANDS,
    SCORE_AXES,
    Band,
    band_of,
    normalize_human_grades,
    normalize_scores,
    sorted_bands,
)
from audits._panel import score_matrix
from audits._stats import bland_altman, cohen_kappa, icc_label, icc_two_way

PANEL_MEDIAN = "panel median"


class AgreementWithReference(BaseModel):
    """Agreement of one rater with a reference on one axis (both on the 0-100 scale)."""

    rater: str
    reference: str
    axis: str
    n_items: int
    icc2_1: float | None
    icc2_1_ci_low: float | None
    icc2_1_ci_high: float | None
    icc2_1_label: str
    mean_bias: float | None
    sd_difference: float | None
    loa_low: float | None
    loa_high: float | None
    weighted_kappa: float | None


class CalibrationPoint(BaseModel):
    """One item's rater score next to the human reference (for the calibration scatter)."""

    item_id: str
    axis: str
    rater: str
    score: float
    human: float


class CalibrationResult(BaseModel):
    """Judges and panel median against humans, and humans against each other."""

    has_human_grades: bool
    n_items: int
    n_annotators: int
    judges: list[AgreementWithReference]
    human_baseline: list[AgreementWithReference]
    points: list[CalibrationPoint]
    caveats: list[str]
    items_per_annotator: dict[str, int] = {}
    """Items each annotator graded (their latest grade of each counts)."""


def _band_names(scores: pd.Series, bands: Sequence[Band], who: str) -> list[str]:
    """The band of each (present) score; a score no band holds (infinite) is an error naming its rater."""
    names = [band_of(v, bands) for v in scores]
    if any(n is None for n in names):
        raise ValueError(f"{who}: a score that is not finite has no band")
    return [n for n in names if n is not None]


def _compare(
    rater: str, reference: str, axis: str, x: pd.Series, y: pd.Series, bands: Sequence[Band]
) -> AgreementWithReference:
    paired = pd.concat([x.rename("rater"), y.rename("reference")], axis=1).dropna()
    icc, _ = icc_two_way(paired)
    ba = bland_altman(paired["rater"].to_numpy(), paired["reference"].to_numpy())
    order = [b.name for b in reversed(sorted_bands(bands))]
    kappa = cohen_kappa(
        _band_names(paired["rater"], bands, rater),
        _band_names(paired["reference"], bands, reference),
        order,
        weights="quadratic",
    )
    return AgreementWithReference(
        rater=rater,
        reference=reference,
        axis=axis,
        n_items=int(len(paired)),
        icc2_1=icc.icc2_1 if icc else None,
        icc2_1_ci_low=icc.icc2_1_ci_low if icc else None,
        icc2_1_ci_high=icc.icc2_1_ci_high if icc else None,
        icc2_1_label=icc_label(icc.icc2_1 if icc else None),
        mean_bias=ba.mean_difference,
        sd_difference=ba.sd_difference,
        loa_low=ba.loa_low,
        loa_high=ba.loa_high,
        weighted_kappa=kappa,
    )


def calibration(
    scores: pd.DataFrame,
    human_grades: pd.DataFrame | None,
    *,
    bands: Sequence[Band] = DEFAULT_BANDS,
    axes: Sequence[str] | None = None,
) -> CalibrationResult:
    """Judges (and the panel median) vs human grades; human-human baseline; see the module doc."""
    scores = normalize_scores(scores)
    grades = normalize_human_grades(human_grades)
    allowed = list(axes) if axes is not None else list(SCORE_AXES)
    if grades.empty:
        return CalibrationResult(
            has_human_grades=False,
            n_items=0,
            n_annotators=0,
            judges=[],
            human_baseline=[],
            points=[],
            caveats=["No human grades yet: the judges' absolute scale is not yet anchored to human judgement."],
        )
    caveats: list[str] = []
    unknown_axes = sorted(set(grades["axis"]) - set(SCORE_AXES))
    if unknown_axes:
        caveats.append(f"Human grades on unknown axes ignored: {', '.join(unknown_axes)}.")
    withheld = sorted(set(grades["axis"]) & (set(SCORE_AXES) - set(allowed)))
    if withheld:
        caveats.append(f"Human grades on withheld axes not shown: {', '.join(withheld)}.")
    grades = grades[grades["axis"].isin(allowed)]
    graded_items = set(scores["contestant_id"])
    orphan = sorted(set(grades["item_id"]) - graded_items)
    if orphan:
        caveats.append(f"{len(orphan)} human-graded item(s) have no judge grade in this run and are ignored.")
    grades = grades[grades["item_id"].isin(graded_items)]

    judges: list[AgreementWithReference] = []
    baseline: list[AgreementWithReference] = []
    points: list[CalibrationPoint] = []
    for axis in [a for a in SCORE_AXES if a in set(grades["axis"])]:
        on_axis = grades[grades["axis"] == axis]
        human = on_axis.groupby("item_id")["score"].mean()
        matrix = score_matrix(scores, axis)
        raters = {judge: matrix[judge] for judge in matrix.columns}
        if matrix.shape[1] > 1:
            raters[PANEL_MEDIAN] = matrix.median(axis=1, skipna=True)
        for rater, series in raters.items():
            row = _compare(rater, "human", axis, series, human, bands)
            judges.append(row)
            for item in human.index:
                if item in series.index and np.isfinite(series[item]):
                    points.append(
                        CalibrationPoint(
                            item_id=item,
                            axis=axis,
                            rater=rater,
                            score=float(series[item]),
                            human=float(human[item]),
                        )
                    )
        per_annotator = on_axis.pivot(index="item_id", columns="annotator", values="score")
        for a, b in itertools.combinations(sorted(per_annotator.columns), 2):
            if (per_annotator[a].notna() & per_annotator[b].notna()).any():
                baseline.append(_compare(a, b, axis, per_annotator[a], per_annotator[b], bands))

    n_items = int(grades["item_id"].nunique())
    if n_items < 5:
        caveats.append(f"Only {n_items} human-graded item(s): ICC needs at least 5 and the figures are anecdotal.")
    if not baseline:
        caveats.append("No item was graded by two annotators yet: there is no human-human baseline.")
    return CalibrationResult(
        has_human_grades=True,
        n_items=n_items,
        items_per_annotator={str(k): int(v) for k, v in grades.groupby("annotator")["item_id"].nunique().items()},
        n_annotators=int(grades["annotator"].nunique()),
        judges=judges,
        human_baseline=baseline,
        points=points,
        caveats=caveats,
    )
