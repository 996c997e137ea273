"""Input checks: a malformed table is named with its row and column."""

from __future__ import annotations

import pandas as pd
import pytest
from audits_synthetic import inputs, panel_scores

from audits import AuditInputError, band_of
from audits._inputs import normalize_ledger, normalize_scores


def test_bad_score_names_table_row_and_column() -> None:
    scores = panel_scores()
    scores["evidence"] = scores["evidence"].astype(object)
    scores.loc[4, "evidence"] = "lots"
    with pytest.raises(AuditInputError, match=r"scores, row 5, column 'evidence': 'lots' is not a finite number"):
        normalize_scores(scores)


def test_out_of_range_missing_and_duplicate_rows_are_rejected() -> None:
    scores = panel_scores()
    scores.loc[0, "composite"] = 140
    with pytest.raises(AuditInputError, match=r"row 1, column 'composite': 140 is outside \[0, 100\]"):
        normalize_scores(scores)
    scores = panel_scores()
    scores.loc[2, "reasoning"] = None
    with pytest.raises(AuditInputError, match=r"row 3, column 'reasoning': value is missing"):
        normalize_scores(scores)
    scores = pd.concat([panel_scores(), panel_scores().iloc[[3]]], ignore_index=True)
    with pytest.raises(AuditInputError, match="duplicate row"):
        normalize_scores(scores)
    with pytest.raises(AuditInputError, match="missing column"):
        normalize_scores(panel_scores().drop(columns=["judge_family"]))


def test_outcome_may_be_missing_and_bad_ledger_status_is_named() -> None:
    scores = panel_scores()
    scores["outcome"] = None
    assert normalize_scores(scores)["outcome"].isna().all()
    ledger = pd.DataFrame(
        [
            {
                "judge_id": "j",
                "contestant_id": "c",
                "claim": "x",
                "cited_fields": ["close"],
                "cited_field_exists": True,
                "judge_status": "probably",
                "verifier_status": "supported",
                "lookahead_flag": False,
            }
        ]
    )
    with pytest.raises(AuditInputError, match=r"ledger, row 1, column 'judge_status'"):
        normalize_ledger(ledger)


def test_audit_inputs_validate_on_construction() -> None:
    scores = panel_scores()
    scores["repeat"] = scores["repeat"].astype(float)
    scores.loc[1, "repeat"] = 1.5
    with pytest.raises(AuditInputError, match="'repeat'"):
        inputs(scores)
    assert len(inputs().scores) == 36


@pytest.mark.parametrize(
    ("score", "band"),
    [
        (67, "Strong"),
        (66.9, "Mixed"),
        (45, "Mixed"),
        (44.99, "Weak"),
        (0, "Weak"),
        (100, "Strong"),
        (None, None),
    ],
)
def test_band_of_uses_lower_bounds(score: float | None, band: str | None) -> None:
    assert band_of(score) == band
