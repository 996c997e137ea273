"""Per-judge scores: axis scores, process quality and the composite with outcome redistribution."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from rubric import COMPOSITE_COMPONENTS, Rubric

from ._exact import exact, exact_number, to_float


class JudgeComposite(BaseModel):
    """One judge's axis scores and composite for one contestant (0-100 scale)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reasoning: float
    evidence: float
    process: float
    outcome: float | None
    """The outcome score used in the composite; None when no outcome was resolvable (redistributed)."""
    data_reliability: float | None
    """Reported beside the composite, never inside it."""
    composite: float
    outcome_used: bool
    weights: dict[str, float]
    """Effective composite weights in percent after any redistribution (sum 100)."""


def _weighted_mean(values: Mapping[str, Any], weights: Mapping[str, Any], what: str) -> Fraction:
    numerator: int | Fraction = 0
    total: int | Fraction = 0
    for key, weight in weights.items():
        w = exact_number(weight, f"{what} weight {key}")
        numerator += w * exact_number(values[key], f"{what} sub-score {key}")
        total += w
    if total <= 0:
        raise ValueError(f"{what}: weights must have a positive total")
    return Fraction(numerator) / total


def _check_ids(sub_scores: Mapping[str, Any], weights: Mapping[str, Any], what: str, *, extra_ok: bool) -> None:
    missing = [k for k in weights if k not in sub_scores]
    unknown = [] if extra_ok else [k for k in sub_scores if k not in weights]
    problems = []
    if missing:
        problems.append(f"missing sub-scores {', '.join(missing)}")
    if unknown:
        problems.append(f"unknown sub-score ids {', '.join(unknown)}")
    if problems:
        raise ValueError(f"{what}: {'; '.join(problems)}")


def axis_score_exact(sub_scores: Mapping[str, Any], weights: Mapping[str, Any], what: str = "axis") -> Fraction:
    _check_ids(sub_scores, weights, what, extra_ok=False)
    return _weighted_mean(sub_scores, weights, what)


def axis_score(sub_scores: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """Weighted sum of sub-scores divided by the total weight.

    ValueError when a weighted sub-component has no score or a score has no weight (grades made under
    a rubric with other sub-components need a re-grade, not a re-score).
    """
    return float(axis_score_exact(sub_scores, weights))


def process_quality_exact(reasoning_sub_scores: Mapping[str, Any], rubric: Rubric) -> Fraction:
    weights = rubric.process.weights
    _check_ids(reasoning_sub_scores, weights, "process", extra_ok=True)
    return _weighted_mean(reasoning_sub_scores, weights, "process")


def process_quality(reasoning_sub_scores: Mapping[str, float], rubric: Rubric) -> float:
    """Temporal/portfolio process quality: the rubric's weighted mean of named reasoning sub-scores."""
    return float(process_quality_exact(reasoning_sub_scores, rubric))


def composite_weights_exact(rubric: Rubric, outcome_used: bool) -> dict[str, Fraction]:
    weights = {name: exact(getattr(rubric.composite, name)) for name in COMPOSITE_COMPONENTS}
    if outcome_used:
        return weights
    outcome = weights.pop("outcome")
    over = rubric.outcome_redistribution.over
    base = sum((weights[c] for c in over), Fraction(0))
    if outcome and base:
        for component in over:
            weights[component] += outcome * weights[component] / base
    return weights


def composite_weights(rubric: Rubric, outcome_used: bool) -> dict[str, float]:
    """Effective composite weights in percent; without an outcome its weight is shared proportionally.

    v0.4 without outcome: reasoning 40 + 10*40/75, evidence 35 + 10*35/75, process 15.
    """
    return {k: float(v) for k, v in composite_weights_exact(rubric, outcome_used).items()}


def _part(obj: Any, key: str, what: str) -> Any:
    if isinstance(obj, Mapping):
        if key not in obj:
            raise ValueError(f"{what}: no {key!r}")
        return obj[key]
    if not hasattr(obj, key):
        raise ValueError(f"{what}: no {key!r}")
    return getattr(obj, key)


def _as_mapping(obj: Any, what: str) -> Mapping[str, Any]:
    if isinstance(obj, BaseModel):
        return obj.model_dump()
    if isinstance(obj, Mapping):
        return obj
    raise ValueError(f"{what}: expected an object of sub-scores, got {type(obj).__name__}")


def judge_composite_exact(grade_like: Any, rubric: Rubric, outcome_available: bool) -> dict[str, Any]:
    """Exact parts of ``judge_composite`` (Fractions), used by ``score_run`` to avoid double rounding."""
    reasoning_subs = _as_mapping(
        _part(_part(grade_like, "reasoning", "grade"), "sub_scores", "reasoning"), "reasoning.sub_scores"
    )
    evidence_subs = _as_mapping(
        _part(_part(grade_like, "evidence", "grade"), "sub_scores", "evidence"), "evidence.sub_scores"
    )
    values: dict[str, Fraction] = {
        "reasoning": axis_score_exact(reasoning_subs, rubric.axes.reasoning.weights(), "reasoning"),
        "evidence": axis_score_exact(evidence_subs, rubric.axes.evidence.weights(), "evidence"),
        "process": process_quality_exact(reasoning_subs, rubric),
    }
    outcome_raw = _part(_part(grade_like, "outcome", "grade"), "score", "outcome")
    outcome_used = bool(outcome_available) and outcome_raw is not None
    outcome = exact(outcome_raw, "outcome.score") if outcome_used else None
    if outcome is not None:  # without an outcome the weights have no "outcome" either
        values["outcome"] = outcome
    reliability = _part(_part(grade_like, "data_reliability", "grade"), "score", "data_reliability")
    weights = composite_weights_exact(rubric, outcome_used)
    total_weight = sum(weights.values(), Fraction(0))
    composite = sum((w * values[c] for c, w in weights.items() if w), Fraction(0)) / total_weight
    return {
        **values,
        "outcome": outcome,
        "data_reliability": None if reliability is None else exact(reliability, "data_reliability.score"),
        "composite": composite,
        "outcome_used": outcome_used,
        "weights": weights,
    }


def composite_model(parts: Mapping[str, Any]) -> JudgeComposite:
    return JudgeComposite(
        reasoning=float(parts["reasoning"]),
        evidence=float(parts["evidence"]),
        process=float(parts["process"]),
        outcome=to_float(parts["outcome"]),
        data_reliability=to_float(parts["data_reliability"]),
        composite=float(parts["composite"]),
        outcome_used=parts["outcome_used"],
        weights={k: float(v) for k, v in parts["weights"].items()},
    )


def judge_composite(grade_like: Any, rubric: Rubric, outcome_available: bool) -> JudgeComposite:
    """One judge's composite: reasoning, evidence, process, outcome weighted by ``rubric.composite``.

    ``grade_like`` is a grade model (``rubric.grade_model_for``) or its JSON dict. The outcome counts
    only when ``outcome_available`` and the judge gave an outcome score; otherwise its weight is
    redistributed as the rubric says. Data reliability is carried along, not weighted.
    """
    return composite_model(judge_composite_exact(grade_like, rubric, outcome_available))
