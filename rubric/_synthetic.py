"""Synthetic, schema-valid grades for tests, fake provider servers and benchmarks.

These are never a judge's output and must never be presented as one: the verdict and summary say so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._models import Rubric

SYNTHETIC_VERDICT = "Synthetic / Not a judge grade"


def _sub_scores(rubric: Rubric, axis: str, value: int | Mapping[str, int]) -> dict[str, int]:
    ids = getattr(rubric.axes, axis).ids()
    if isinstance(value, Mapping):
        missing = [i for i in ids if i not in value]
        unknown = [k for k in value if k not in ids]
        if missing or unknown:
            raise ValueError(f"{axis} sub-scores: missing {missing}, unknown {unknown}")
        return {i: value[i] for i in ids}
    return dict.fromkeys(ids, value)


def synthetic_grade(
    rubric: Rubric,
    *,
    reasoning: int | Mapping[str, int] = 70,
    evidence: int | Mapping[str, int] = 70,
    outcome: int | None = 60,
    data_reliability: int = 80,
    claims: Sequence[Mapping[str, Any]] = (),
    lookahead_passed: bool = True,
) -> dict[str, Any]:
    """A grade as JSON (dict) that validates against ``grade_model_for(rubric)``.

    An int for ``reasoning``/``evidence`` gives every sub-component that score; a mapping gives each
    sub-component id its own.
    """
    return {
        "schema_version": rubric.output_schema_version,
        "claim_ledger": [dict(c) for c in claims],
        "reasoning": {"sub_scores": _sub_scores(rubric, "reasoning", reasoning), "note": "synthetic"},
        "evidence": {"sub_scores": _sub_scores(rubric, "evidence", evidence), "note": "synthetic"},
        "outcome": {"score": outcome, "note": "synthetic"},
        "data_reliability": {"score": data_reliability, "note": "synthetic"},
        "lookahead_check": {"passed": lookahead_passed, "note": "synthetic"},
        "verdict": SYNTHETIC_VERDICT,
        "summary": "Synthetic grade for tests and benchmarks, not produced by any judge.",
    }
