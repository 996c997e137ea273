"""Rubric versions as data: models, loading, hashes, the judge-grade schema, grade normalisation, diff.

Bundled versions live in ``rubric/versions/*.yaml``; anywhere a version name is accepted a path to a
user's YAML file works too. ``Rubric.content_hash`` covers the whole canonical content;
``Rubric.judge_facing_hash`` covers only what a judge sees, so a version changing only weights, bands,
blend or aggregation is recognisably score-only.
"""

from ._diff import RubricDiff, ValueChange, WeightChange, rubric_diff
from ._grade import (
    CLAIM_STATUSES,
    ClaimLedgerEntry,
    ClaimStatus,
    DataReliabilityGrade,
    JudgeGrade,
    LookaheadCheck,
    OutcomeGrade,
    grade_json_schema,
    grade_model_for,
)
from ._load import (
    VERSIONS_DIR,
    RubricError,
    available_rubrics,
    load_rubric,
    load_rubric_file,
    rubric_from_mapping,
)
from ._models import (
    COMPOSITE_COMPONENTS,
    SUPPORTED_OUTPUT_SCHEMAS,
    Axes,
    Bands,
    CompositeWeights,
    DirectAxis,
    EfficiencyRule,
    JudgeSlot,
    OutcomeRedistribution,
    Panel,
    ProcessDefinition,
    Rubric,
    RubricIssue,
    SubComponent,
    TotalBlend,
    TotalRule,
    WeightedAxis,
)
from ._normalise import normalise_grade
from ._synthetic import SYNTHETIC_VERDICT, synthetic_grade

__all__ = [
    "CLAIM_STATUSES",
    "COMPOSITE_COMPONENTS",
    "SUPPORTED_OUTPUT_SCHEMAS",
    "SYNTHETIC_VERDICT",
    "VERSIONS_DIR",
    "Axes",
    "Bands",
    "ClaimLedgerEntry",
    "ClaimStatus",
    "CompositeWeights",
    "DataReliabilityGrade",
    "DirectAxis",
    "EfficiencyRule",
    "JudgeGrade",
    "JudgeSlot",
    "LookaheadCheck",
    "OutcomeGrade",
    "OutcomeRedistribution",
    "Panel",
    "ProcessDefinition",
    "Rubric",
    "RubricDiff",
    "RubricError",
    "RubricIssue",
    "SubComponent",
    "TotalBlend",
    "TotalRule",
    "ValueChange",
    "WeightChange",
    "WeightedAxis",
    "available_rubrics",
    "grade_json_schema",
    "grade_model_for",
    "load_rubric",
    "load_rubric_file",
    "normalise_grade",
    "rubric_diff",
    "rubric_from_mapping",
    "synthetic_grade",
]
