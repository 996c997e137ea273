"""The judge-grade model generated from a rubric: shape and OpenAI strict json_schema compatibility."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from openai.lib._pydantic import to_strict_json_schema
from pydantic import ValidationError

from rubric import VERSIONS_DIR, grade_json_schema, grade_model_for, load_rubric, synthetic_grade

CLAIM = {
    "claim": "GOOGL offers strong profitability and growth with analyst upside",
    "decision_date": "2022-01-14",
    "symbol": "GOOGL",
    "cited_fields": ["profitMargin", "operatingMarginTTM", "returnOnEquityTTM", "analystTargetPrice"],
    "status": "supported",
    "note": "profitMargin 0.29, analystTargetPrice 3350 vs close 2832",
}


def _objects(schema: Any, path: str = "$"):
    """Every object schema in the tree, with its path."""
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield path, schema
        for key, value in schema.items():
            yield from _objects(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from _objects(value, f"{path}[{index}]")


def test_schema_is_strict_compatible() -> None:
    model = grade_model_for(load_rubric("v0.4"))
    schema = model.model_json_schema()
    objects = list(_objects(schema))
    assert len(objects) >= 9
    for path, obj in objects:
        assert obj.get("additionalProperties") is False, path
        assert sorted(obj["required"]) == sorted(obj["properties"]), path
        assert "patternProperties" not in obj, path
    assert "default" not in str(schema)
    # openai's own strictifier has nothing to add or unravel
    assert to_strict_json_schema(model) == schema


def test_shape_and_property_order() -> None:
    rubric = load_rubric("v0.4")
    schema = grade_model_for(rubric).model_json_schema()
    assert list(schema["properties"]) == [
        "schema_version",
        "claim_ledger",
        "reasoning",
        "evidence",
        "outcome",
        "data_reliability",
        "lookahead_check",
        "verdict",
        "summary",
    ]
    defs = schema["$defs"]
    reasoning_subs = defs["ReasoningSubScores"]["properties"]
    assert list(reasoning_subs) == rubric.axes.reasoning.ids()
    assert reasoning_subs["thesis_quality"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 100,
        "title": "Thesis quality",
        "description": "Thesis quality: " + rubric.axes.reasoning.sub_components[1].description,
    }
    assert list(defs["EvidenceSubScores"]["properties"]) == rubric.axes.evidence.ids()
    assert defs["OutcomeGrade"]["properties"]["score"]["anyOf"] == [
        {"type": "integer", "minimum": 0, "maximum": 100},
        {"type": "null"},
    ]
    assert defs["ClaimLedgerEntry"]["properties"]["status"]["enum"] == ["supported", "not_verifiable", "contradicted"]
    assert defs["ClaimLedgerEntry"]["properties"]["decision_date"]["format"] == "date"
    assert defs["LookaheadCheck"]["properties"]["passed"]["type"] == "boolean"


def test_schema_version_is_an_enum_in_the_exported_schema() -> None:
    schema = grade_json_schema(load_rubric("v0.4"))
    assert schema["properties"]["schema_version"]["enum"] == ["grade-v1"]
    assert "const" not in str(schema)


def test_portable_schema_moves_bounds_into_descriptions() -> None:
    schema = grade_json_schema(load_rubric("v0.4"), portable=True)
    text = str(schema)
    assert "'minimum'" not in text and "'maximum'" not in text and "'format'" not in text
    claim_support = schema["$defs"]["EvidenceSubScores"]["properties"]["claim_support"]
    assert claim_support["description"].endswith("(at least 0, at most 100)")


def test_valid_grade_round_trips() -> None:
    rubric = load_rubric("v0.4")
    model = grade_model_for(rubric)
    grade = model.model_validate(synthetic_grade(rubric, claims=[CLAIM], outcome=None))
    assert grade.claim_ledger[0].decision_date == date(2022, 1, 14)
    assert grade.outcome.score is None
    assert grade.sub_scores("evidence")["claim_support"] == 70
    assert model.model_validate_json(grade.model_dump_json()) == grade


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda g: g["reasoning"]["sub_scores"].update(thesis_quality=101), "thesis_quality"),
        (lambda g: g["evidence"]["sub_scores"].update(claim_support=-1), "claim_support"),
        (lambda g: g["reasoning"]["sub_scores"].update(thesis_quality="80"), "thesis_quality"),
        (lambda g: g["reasoning"]["sub_scores"].pop("strategy_fit"), "strategy_fit"),
        (lambda g: g["reasoning"]["sub_scores"].update(made_up=50), "made_up"),
        (lambda g: g["data_reliability"].update(score=None), "data_reliability"),
        (lambda g: g.update(schema_version="grade-v0"), "schema_version"),
        (lambda g: g["claim_ledger"][0].update(status="plausible"), "status"),
    ],
)
def test_invalid_grades_are_rejected(mutate, where: str) -> None:
    rubric = load_rubric("v0.4")
    grade = synthetic_grade(rubric, claims=[CLAIM])
    mutate(grade)
    with pytest.raises(ValidationError, match=where):
        grade_model_for(rubric).model_validate(grade)


def test_model_is_shared_by_rubrics_with_the_same_judge_facing_content(tmp_path: Path) -> None:
    data = yaml.safe_load((VERSIONS_DIR / "v0.4.yaml").read_text(encoding="utf-8"))
    data["bands"] = {"strong": 70, "mixed": 40}
    variant = tmp_path / "variant.yaml"
    variant.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert grade_model_for(load_rubric(variant)) is grade_model_for(load_rubric("v0.4"))
    assert grade_model_for(load_rubric("v0.3")) is not grade_model_for(load_rubric("v0.4"))


def test_sub_score_properties_follow_the_rubric(tmp_path: Path) -> None:
    data = yaml.safe_load((VERSIONS_DIR / "v0.4.yaml").read_text(encoding="utf-8"))
    subs = data["axes"]["evidence"]["sub_components"]
    subs[-1]["weight"] += subs.pop(-2)["weight"]  # drop unsupported_claim_avoidance, keep 100
    path = tmp_path / "fewer.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    schema = grade_model_for(load_rubric(path)).model_json_schema()
    assert "unsupported_claim_avoidance" not in schema["$defs"]["EvidenceSubScores"]["properties"]
    assert len(schema["$defs"]["EvidenceSubScores"]["required"]) == 6
