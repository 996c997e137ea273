"""normalise_grade: safe fixes are applied and reported, anything else rejects the grade; never raises."""

from __future__ import annotations

import json
from datetime import date

import pytest

from rubric import grade_model_for, load_rubric, normalise_grade, synthetic_grade

RUBRIC = load_rubric("v0.4")
CLAIM = {
    "claim": "AAPL trades below its 52-week high",
    "decision_date": "2022-01-14",
    "symbol": "AAPL",
    "cited_fields": ["close", "week52High"],
    "status": "supported",
    "note": "close 173.07 < week52High 182.94",
}


def _grade(**kwargs) -> dict:
    return synthetic_grade(RUBRIC, claims=[dict(CLAIM)], **kwargs)


def test_valid_grade_passes_unchanged_with_no_notes() -> None:
    raw = _grade()
    grade, notes = normalise_grade(raw, RUBRIC)
    assert notes == []
    assert grade == grade_model_for(RUBRIC).model_validate(raw)


def test_safe_spellings_are_normalised_and_reported() -> None:
    raw = _grade()
    raw["claim_ledger"][0]["status"] = "Supported "
    raw["claim_ledger"].append({**CLAIM, "status": "Not Verifiable", "cited_fields": "close, sma50"})
    raw["claim_ledger"].append({**CLAIM, "status": "unverifiable", "decision_date": "2022-01-14T16:00:00-05:00"})
    raw["reasoning"]["sub_scores"]["thesis_quality"] = "85"
    raw["evidence"]["sub_scores"]["claim_support"] = 64.0
    raw["lookahead_check"]["passed"] = "PASS"
    raw["outcome"]["score"] = " 55 "
    grade, notes = normalise_grade(raw, RUBRIC)
    assert grade is not None, notes
    assert [c.status for c in grade.claim_ledger] == ["supported", "not_verifiable", "not_verifiable"]
    assert grade.claim_ledger[1].cited_fields == ["close", "sma50"]
    assert grade.claim_ledger[2].decision_date == date(2022, 1, 14)
    assert grade.sub_scores("reasoning")["thesis_quality"] == 85
    assert grade.sub_scores("evidence")["claim_support"] == 64
    assert grade.lookahead_check.passed is True
    assert grade.outcome.score == 55
    assert len(notes) == 9
    assert all(note.startswith("normalised ") for note in notes)
    assert "normalised claim_ledger[0].status: 'Supported ' -> 'supported'" in notes
    assert "normalised reasoning.sub_scores.thesis_quality: '85' -> 85" in notes


def test_labels_and_key_spellings_map_to_ids() -> None:
    raw = _grade()
    subs = raw["reasoning"].pop("sub_scores")
    subs["Thesis quality"] = subs.pop("thesis_quality")
    subs["Risk Awareness"] = subs.pop("risk_awareness")
    raw["reasoning"]["Sub Scores"] = subs
    raw["Lookahead Check"] = raw.pop("lookahead_check")
    raw["confidence"] = 0.8  # an extra key no rubric asked for: dropped
    grade, notes = normalise_grade(raw, RUBRIC)
    assert grade is not None, notes
    assert grade.sub_scores("reasoning")["thesis_quality"] == 70
    assert "normalised grade: dropped unknown key 'confidence'" in notes
    assert "normalised reasoning.sub_scores.thesis_quality: key 'Thesis quality' read as 'thesis_quality'" in notes


def test_missing_schema_version_is_filled_and_json_text_is_parsed() -> None:
    raw = _grade()
    del raw["schema_version"]
    grade, notes = normalise_grade("```json\n" + json.dumps(raw) + "\n```", RUBRIC)
    assert grade is not None and grade.schema_version == "grade-v1"
    assert notes == ["normalised schema_version: missing -> 'grade-v1'"]


@pytest.mark.parametrize(
    ("mutate", "reason"),
    [
        (lambda g: g["reasoning"]["sub_scores"].update(thesis_quality=101), "reasoning.sub_scores.thesis_quality"),
        (lambda g: g["reasoning"]["sub_scores"].update(thesis_quality=85.5), "reasoning.sub_scores.thesis_quality"),
        (lambda g: g["reasoning"]["sub_scores"].update(thesis_quality=True), "reasoning.sub_scores.thesis_quality"),
        (
            lambda g: g["evidence"]["sub_scores"].update(vibes=50),
            "evidence.sub_scores.vibes: unknown sub-component id for this rubric",
        ),
        (lambda g: g["evidence"]["sub_scores"].pop("analyst_data"), "evidence.sub_scores.analyst_data: missing"),
        (lambda g: g["claim_ledger"][0].update(status="plausible"), "claim_ledger[0].status"),
        (lambda g: g["claim_ledger"][0].update(decision_date=20220114), "claim_ledger[0].decision_date"),
        (lambda g: g["data_reliability"].update(score="n/a"), "data_reliability.score"),
        (lambda g: g.update(schema_version="grade-v2"), "schema_version"),
        (lambda g: g.pop("verdict"), "verdict: missing"),
        (lambda g: g.update(claim_ledger={"claim": "x"}), "claim_ledger"),
    ],
)
def test_unsafe_problems_reject_the_grade_with_reasons(mutate, reason: str) -> None:
    raw = _grade()
    mutate(raw)
    grade, problems = normalise_grade(raw, RUBRIC)
    assert grade is None
    assert any(reason in problem for problem in problems), problems


@pytest.mark.parametrize("raw", ["not json {", b"\xff\xfe", 42, None, ["a list"], "[1, 2]"])
def test_garbage_never_raises(raw) -> None:
    grade, problems = normalise_grade(raw, RUBRIC)
    assert grade is None
    assert len(problems) == 1


def test_outcome_na_becomes_null_but_reliability_na_does_not() -> None:
    raw = _grade()
    raw["outcome"]["score"] = "N/A"
    grade, notes = normalise_grade(raw, RUBRIC)
    assert grade is not None and grade.outcome.score is None
    assert notes == ["normalised outcome.score: 'N/A' -> null"]
