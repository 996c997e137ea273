"""The judge's structured grade, generated from a rubric.

The grade shape is fixed per output schema (``grade-v1``; ``grade-v2`` adds structured assertions to every
claim-ledger entry); only the sub-score properties come from the rubric (one integer 0..100 property per sub-component id). Every generated model is compatible with
OpenAI strict ``json_schema`` output: every property required, ``additionalProperties: false``, no
mapping with arbitrary keys, nullable values written as ``anyOf [..., null]``. Property order is the
order a judge should think in: claim ledger first, then the scores that follow from it, then the
lookahead check, verdict and summary.
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ._models import Rubric

ClaimStatus = Literal["supported", "not_verifiable", "contradicted"]
CLAIM_STATUSES: tuple[str, ...] = ("supported", "not_verifiable", "contradicted")

Score = Annotated[int, Field(ge=0, le=100, strict=True)]


class _GradePart(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClaimLedgerEntry(_GradePart):
    """One factual claim of the contestant, checked against the point-in-time snapshot of its decision."""

    claim: str = Field(description="The claim as the contestant made it (quoted or closely paraphrased).")
    decision_date: date = Field(description="Date of the decision that made the claim, YYYY-MM-DD.")
    symbol: str = Field(description="Symbol the claim is about; the benchmark symbol for market-wide claims.")
    cited_fields: list[str] = Field(
        description="Exact names of the snapshot fields checked (e.g. peRatio, analystTargetPrice)."
    )
    status: ClaimStatus = Field(
        description="supported: the cited fields back it; contradicted: data known at the time contradicts "
        "it; not_verifiable: no field known at the time bears on it."
    )
    note: str = Field(description="The values compared, e.g. 'peRatio 31.2 on 2022-01-14 vs claim under 20x'.")


class ClaimAssertion(_GradePart):
    """One checkable statement of a claim (output schema grade-v2), checked exactly by the verifier."""

    subject: str = Field(
        description="Symbol the statement is about (the benchmark symbol for the market); a "
        "number that belongs to another symbol named in the sentence is that symbol's."
    )
    field: str = Field(description="Exact snapshot field name, e.g. return30d, rsi14, beta1y.")
    kind: Literal["value", "above", "below", "rank"] = Field(
        description="value: the field equals value; above/below: the field is above/below value, or above/"
        "below the same field of relative_to; rank: the subject ranks within the top `rank` by the field."
    )
    value: float | None = Field(
        description="Stated number in the field's unit (fractions for percentages: "
        "'down 8.4%' is -0.084); null for a comparison with relative_to or a rank."
    )
    relative_to: str | None = Field(description="The other symbol of a comparison, else null.")
    rank: int | None = Field(description="For kind rank: the claimed position at most (1 = first), else null.")
    order: Literal["highest", "lowest"] | None = Field(description="For kind rank: which end ranks first.")
    group: str | None = Field(description="For kind rank: 'universe', 'sector' (the subject's sector peers), or null.")
    horizon: str | None = Field(description="The horizon as the contestant wrote it ('30d', '21 sessions'), or null.")


class ClaimLedgerEntryV2(ClaimLedgerEntry):
    """A claim-ledger entry with its structured assertions (output schema grade-v2, rubric v0.5)."""

    assertions: list[ClaimAssertion] = Field(
        description="What the claim asserts in checkable form; empty for a claim with nothing checkable."
    )


LEDGER_ENTRY_MODELS: dict[str, type[ClaimLedgerEntry]] = {"grade-v1": ClaimLedgerEntry, "grade-v2": ClaimLedgerEntryV2}


class OutcomeGrade(_GradePart):
    """How the decisions played out, from the labelled outcome section only; score null without one."""

    score: Annotated[int, Field(ge=0, le=100, strict=True)] | None = Field(
        description="0-100, or null when the prompt has no outcome section."
    )
    note: str


class DataReliabilityGrade(_GradePart):
    """Internal consistency of the decision record itself."""

    score: Score = Field(description="0-100.")
    note: str


class LookaheadCheck(_GradePart):
    """Whether the grade kept to point-in-time information."""

    passed: bool = Field(
        description="true only if no score, ledger status or note relied on information from after the "
        "decision it concerns."
    )
    note: str


class JudgeGrade(_GradePart):
    """Base of every rubric-generated grade model (``grade_model_for``); never instantiated directly."""

    def sub_scores(self, axis: Literal["reasoning", "evidence"]) -> dict[str, int]:
        """Sub-component id -> score for a weighted axis."""
        return getattr(self, axis).sub_scores.model_dump()


_MODEL_CACHE: dict[str, type[JudgeGrade]] = {}


def _axis_models(rubric: Rubric, axis_name: Literal["reasoning", "evidence"]) -> type[BaseModel]:
    axis = getattr(rubric.axes, axis_name)
    prefix = "Reasoning" if axis_name == "reasoning" else "Evidence"
    fields: dict[str, Any] = {
        sub.id: (Score, Field(title=sub.label, description=f"{sub.label}: {sub.description}"))
        for sub in axis.sub_components
    }
    sub_scores = create_model(
        f"{prefix}SubScores",
        __base__=_GradePart,
        __doc__=f"{axis.label}: one integer 0-100 per sub-component.",
        **fields,
    )
    return create_model(
        f"{prefix}Grade",
        __base__=_GradePart,
        __doc__=f"{axis.label}. {axis.description}",
        sub_scores=(sub_scores, ...),
        note=(str, Field(description=f"One to three sentences justifying the {axis.label.lower()} scores.")),
    )


def grade_model_for(rubric: Rubric) -> type[JudgeGrade]:
    """The pydantic model of a judge's structured grade under ``rubric``.

    Cached by the judge-facing hash, so two rubric versions that differ only in scoring share one model.
    """
    key = rubric.judge_facing_hash
    cached = _MODEL_CACHE.get(key)
    if cached is not None:
        return cached
    version = rubric.output_schema_version
    # types made from runtime values (the schema version, its ledger entry model): pydantic reads them, a static
    # checker cannot, so they are held as Any
    version_type: Any = Literal[version]
    ledger_type: Any = list[LEDGER_ENTRY_MODELS[version]]  # type: ignore[valid-type]  # a runtime model as a type argument
    model = create_model(
        "JudgeGrade",
        __base__=JudgeGrade,
        __doc__=f"A judge's grade of one contestant's decision record (output schema {version}).",
        schema_version=(version_type, Field(description=f'Always "{version}".')),
        claim_ledger=(
            ledger_type,
            Field(description="The contestant's factual claims, each checked against its decision's snapshot."),
        ),
        reasoning=(_axis_models(rubric, "reasoning"), ...),
        evidence=(_axis_models(rubric, "evidence"), ...),
        outcome=(OutcomeGrade, ...),
        data_reliability=(DataReliabilityGrade, ...),
        lookahead_check=(LookaheadCheck, ...),
        verdict=(str, Field(description='Short label, e.g. "Mixed / Improving but Inconsistent".')),
        summary=(str, Field(description="One sentence on what most shaped the grade.")),
    )
    _MODEL_CACHE[key] = model
    return model


_PORTABLE_DROP = {"minimum": "at least", "maximum": "at most", "format": "format", "pattern": "pattern"}


def _to_portable(node: Any) -> Any:
    if isinstance(node, dict):
        out = {key: _to_portable(value) for key, value in node.items()}
        notes = [f"{label} {out.pop(k)}" for k, label in _PORTABLE_DROP.items() if k in out]
        if notes:
            extra = "(" + ", ".join(notes) + ")"
            out["description"] = f"{out['description']} {extra}" if out.get("description") else extra
        return out
    if isinstance(node, list):
        return [_to_portable(item) for item in node]
    return node


def _const_to_enum(node: Any) -> Any:
    if isinstance(node, dict):
        out = {key: _const_to_enum(value) for key, value in node.items()}
        if "const" in out:
            out["enum"] = [out.pop("const")]
        return out
    if isinstance(node, list):
        return [_const_to_enum(item) for item in node]
    return node


def grade_json_schema(rubric: Rubric, *, portable: bool = False) -> dict[str, Any]:
    """JSON schema of the grade for strict structured output.

    ``portable=True`` moves numeric bounds and string formats into descriptions, for providers whose
    strict mode rejects them (the pydantic model still enforces them when the reply is validated).
    """
    schema = _const_to_enum(copy.deepcopy(grade_model_for(rubric).model_json_schema()))
    return _to_portable(schema) if portable else schema
