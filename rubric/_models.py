"""Pydantic models of a rubric version file, its consistency rules and its two hashes.

A rubric is data (``rubric/versions/*.yaml`` or a user's file), never code constants. The model
validates structure (unknown keys, types) and consistency (weights summing to 100, process
sub-components that exist, bands in order, ...). Every consistency problem is reported with the dotted
key it concerns, so the loader can point at the file and line.
"""

from __future__ import annotations

import hashlib
import json
import re
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

AxisName = Literal["reasoning", "evidence", "outcome", "data_reliability"]
WEIGHTED_AXES: tuple[str, str] = ("reasoning", "evidence")
DIRECT_AXES: tuple[str, str] = ("outcome", "data_reliability")
COMPOSITE_COMPONENTS: tuple[str, ...] = ("reasoning", "evidence", "process", "outcome")

SUPPORTED_OUTPUT_SCHEMAS: frozenset[str] = frozenset({"grade-v1", "grade-v2"})
"""grade-v1: seeds 002/003; grade-v2: grade-v1 plus structured assertions in every claim-ledger entry (v0.5)."""
"""Versions of the judge-grade shape this code can generate (see ``rubric._grade``)."""

_SNAKE_ID = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
_RESERVED_IDS = frozenset(dir(BaseModel)) | {"note", "score", "sub_scores"}


class _Frozen(BaseModel):
    # no NaN or infinity anywhere: `.inf` as a scale or a weight would crash a run after its grades are stored
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class SubComponent(_Frozen):
    """One weighted criterion of a weighted axis; its ``id`` is the key judges score it under."""

    id: str
    label: str = Field(min_length=1)
    weight: float = Field(ge=0, le=100)
    description: str = Field(min_length=1)


class WeightedAxis(_Frozen):
    """An axis scored as the weighted mean of its sub-components (weights sum to 100)."""

    label: str = Field(min_length=1)
    description: str = Field(min_length=1)
    sub_components: list[SubComponent] = Field(min_length=1)

    def weights(self) -> dict[str, float]:
        return {s.id: s.weight for s in self.sub_components}

    def ids(self) -> list[str]:
        return [s.id for s in self.sub_components]


class DirectAxis(_Frozen):
    """An axis the judge scores directly (one 0..100 score and a note)."""

    label: str = Field(min_length=1)
    description: str = Field(min_length=1)


class Axes(_Frozen):
    reasoning: WeightedAxis
    evidence: WeightedAxis
    outcome: DirectAxis
    data_reliability: DirectAxis


class CompositeWeights(_Frozen):
    """Per-judge composite weights in percent; data reliability is reported, not weighted."""

    reasoning: float = Field(ge=0, le=100)
    evidence: float = Field(ge=0, le=100)
    process: float = Field(ge=0, le=100)
    outcome: float = Field(ge=0, le=100)

    def as_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in COMPOSITE_COMPONENTS}


class OutcomeRedistribution(_Frozen):
    """How the outcome weight is shared when a contestant has no resolvable outcome."""

    method: Literal["proportional"] = "proportional"
    over: list[Literal["reasoning", "evidence", "process"]] = Field(min_length=1)


class ProcessDefinition(_Frozen):
    """Temporal/portfolio process quality: a weighted mean of named reasoning sub-scores."""

    description: str = Field(min_length=1)
    method: Literal["weighted_mean"] = "weighted_mean"
    axis: Literal["reasoning"] = "reasoning"
    weights: dict[str, float] = Field(min_length=1)


class Bands(_Frozen):
    """Inclusive lower bounds on the unrounded score; below ``mixed`` is weak."""

    strong: float = Field(ge=0, le=100)
    mixed: float = Field(ge=0, le=100)


class JudgeSlot(_Frozen):
    id: str = Field(min_length=1)
    provider_family: str = Field(min_length=1)
    label: str | None = None


class Panel(_Frozen):
    judges: list[JudgeSlot] = Field(min_length=1)
    aggregation: Literal["median", "mean"] = "median"
    anonymize: bool
    min_judges: int = Field(ge=1, le=100)


class TotalBlend(_Frozen):
    """Total Score blend in percent."""

    reasoning_median: float = Field(ge=0, le=100)
    efficiency: float = Field(ge=0, le=100)


class EfficiencyRule(_Frozen):
    """Reasoning per second of decision time, normalised so the season's best scores ``scale``."""

    measure: Literal["reasoning_per_second"] = "reasoning_per_second"
    timing_field: Literal["decision_seconds"] = "decision_seconds"
    timing_statistic: Literal["median"] = "median"
    reference: Literal["season_best"] = "season_best"
    scale: float = Field(default=100, gt=0, le=100)  # efficiency is a 0-100 column


class TotalRule(_Frozen):
    blend: TotalBlend
    efficiency: EfficiencyRule
    no_timing: Literal["reasoning_median"] = "reasoning_median"


class RubricIssue(_Frozen):
    """One consistency problem: the dotted key it concerns and what is wrong."""

    key: str
    message: str


class RubricConsistencyError(ValueError):
    """Raised inside validation with every issue found; the loader turns it into a ``RubricError``."""

    def __init__(self, issues: list[RubricIssue]) -> None:
        self.issues = issues
        super().__init__("; ".join(f"{i.key}: {i.message}" for i in issues))


def _exact(value: float) -> Fraction:
    """The decimal value as written (0.1 is 1/10), so sums of weights are checked exactly."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _fmt(value: Fraction | float) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"


class Rubric(_Frozen):
    """A rubric version: axes, weights, composite, process, bands, panel, total and judge instructions."""

    id: str = Field(min_length=1)
    version: str = Field(min_length=1)
    title: str = ""
    description: str = ""
    source: str = ""
    output_schema_version: str
    axes: Axes
    composite: CompositeWeights
    outcome_redistribution: OutcomeRedistribution
    process: ProcessDefinition
    bands: Bands
    panel: Panel
    total: TotalRule
    instructions: str = Field(min_length=1)

    _source_path: str | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check_consistency(self) -> Rubric:
        issues = consistency_issues(self)
        if issues:
            raise RubricConsistencyError(issues)
        return self

    # -- views -------------------------------------------------------------------------------------

    def sub_component_weights(self, axis: Literal["reasoning", "evidence"]) -> dict[str, float]:
        """Sub-component id -> weight for a weighted axis."""
        return getattr(self.axes, axis).weights()

    def judge_facing(self) -> dict[str, Any]:
        """Exactly what a judge sees of this rubric (no weights, bands, blend or panel membership).

        Prompt builders render this (see ``judge_prompt``); ``judge_facing_hash`` covers it.
        """
        axes: dict[str, Any] = {}
        for name in ("reasoning", "evidence", "outcome", "data_reliability"):
            axis = getattr(self.axes, name)
            entry: dict[str, Any] = {"label": axis.label, "description": axis.description}
            if isinstance(axis, WeightedAxis):
                entry["sub_components"] = [
                    {"id": s.id, "label": s.label, "description": s.description} for s in axis.sub_components
                ]
            axes[name] = entry
        return {
            "output_schema_version": self.output_schema_version,
            "anonymized_input": self.panel.anonymize,
            "instructions": self.instructions,
            "axes": axes,
        }

    def judge_prompt(self) -> str:
        """The judge's system prompt: the instructions, then the axes and sub-components to score."""
        lines = [self.instructions.rstrip(), "", "AXES AND SUB-COMPONENTS TO SCORE (each an integer 0-100)"]
        view = self.judge_facing()["axes"]
        for name, axis in view.items():
            lines.append(f"- {name}: {axis['label']}. {axis['description']}")
            for sub in axis.get("sub_components", []):
                lines.append(f"    - {name}.sub_scores.{sub['id']}: {sub['label']}. {sub['description']}")
        lines += ["", f"Output schema version: {self.output_schema_version}"]
        return "\n".join(lines) + "\n"

    @property
    def source_path(self) -> str | None:
        """The file this rubric was loaded from (None when built in code); not part of any hash."""
        return self._source_path

    @property
    def content_hash(self) -> str:
        """SHA-256 of the canonical content (formatting and comments of the file do not count)."""
        return _sha256(self.model_dump(mode="json"))

    @property
    def judge_facing_hash(self) -> str:
        """SHA-256 of ``judge_facing()`` only: equal for two versions that differ only in scoring."""
        return _sha256(self.judge_facing())


def _sha256(content: Any) -> str:
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _check_sum_100(key: str, weights: dict[str, float]) -> list[RubricIssue]:
    total = sum((_exact(w) for w in weights.values()), Fraction(0))
    if total != 100:
        parts = " + ".join(f"{name} {_fmt(w)}" for name, w in weights.items())
        return [RubricIssue(key=key, message=f"weights sum to {_fmt(total)}, expected 100 ({parts})")]
    return []


def consistency_issues(rubric: Rubric) -> list[RubricIssue]:
    """Every consistency problem of a structurally valid rubric (empty when it is usable)."""
    issues: list[RubricIssue] = []
    if rubric.output_schema_version not in SUPPORTED_OUTPUT_SCHEMAS:
        issues.append(
            RubricIssue(
                key="output_schema_version",
                message=f"unknown output schema {rubric.output_schema_version!r}; "
                f"supported: {', '.join(sorted(SUPPORTED_OUTPUT_SCHEMAS))}",
            )
        )

    for axis_name in WEIGHTED_AXES:
        axis: WeightedAxis = getattr(rubric.axes, axis_name)
        base = f"axes.{axis_name}.sub_components"
        seen: set[str] = set()
        for index, sub in enumerate(axis.sub_components):
            if not _SNAKE_ID.match(sub.id):
                issues.append(RubricIssue(key=f"{base}[{index}].id", message=f"{sub.id!r} is not a snake_case id"))
            elif sub.id in _RESERVED_IDS or sub.id.startswith("model_"):
                issues.append(RubricIssue(key=f"{base}[{index}].id", message=f"{sub.id!r} is a reserved name"))
            if sub.id in seen:
                issues.append(RubricIssue(key=f"{base}[{index}].id", message=f"duplicate sub-component id {sub.id!r}"))
            seen.add(sub.id)
        issues += _check_sum_100(base, axis.weights())

    issues += _check_sum_100("composite", rubric.composite.as_dict())

    over = rubric.outcome_redistribution.over
    if len(set(over)) != len(over):
        issues.append(RubricIssue(key="outcome_redistribution.over", message="lists a component twice"))
    if rubric.composite.outcome > 0 and sum(_exact(getattr(rubric.composite, c)) for c in over) == 0:
        issues.append(
            RubricIssue(
                key="outcome_redistribution.over",
                message=f"components {', '.join(over)} all have composite weight 0, "
                "so the outcome weight cannot be shared in proportion to them",
            )
        )

    reasoning_ids = set(rubric.axes.reasoning.ids())
    for sub_id, weight in rubric.process.weights.items():
        if sub_id not in reasoning_ids:
            issues.append(
                RubricIssue(
                    key=f"process.weights.{sub_id}",
                    message=f"unknown reasoning sub-component id {sub_id!r}; known: {', '.join(sorted(reasoning_ids))}",
                )
            )
        if weight < 0:
            issues.append(RubricIssue(key=f"process.weights.{sub_id}", message="weight must be >= 0"))
    if sum(_exact(w) for w in rubric.process.weights.values()) <= 0:
        issues.append(RubricIssue(key="process.weights", message="weights must have a positive total"))

    bands = rubric.bands
    if not 0 < bands.mixed < bands.strong <= 100:
        issues.append(
            RubricIssue(
                key="bands",
                message=f"need 0 < mixed < strong <= 100, got mixed {_fmt(bands.mixed)}, strong {_fmt(bands.strong)}",
            )
        )

    judge_ids = [j.id for j in rubric.panel.judges]
    for index, judge_id in enumerate(judge_ids):
        if judge_ids.index(judge_id) != index:
            issues.append(RubricIssue(key=f"panel.judges[{index}].id", message=f"duplicate judge slot {judge_id!r}"))
    if rubric.panel.min_judges > len(judge_ids):
        issues.append(
            RubricIssue(
                key="panel.min_judges",
                message=f"{rubric.panel.min_judges} is more than the {len(judge_ids)} judge slot(s) listed",
            )
        )

    issues += _check_sum_100("total.blend", rubric.total.blend.model_dump())
    return issues
