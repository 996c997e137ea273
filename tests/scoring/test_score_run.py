"""score_run: a whole run from stored grades, including the rescore-only-weights case."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from grader.scoring import judge_composite, score_run
from rubric import VERSIONS_DIR, grade_model_for, load_rubric, synthetic_grade

V04 = load_rubric("v0.4")
V03 = load_rubric("v0.3")


def _uniform(reasoning: int, evidence: int, outcome: int | None = None) -> dict:
    # uniform sub-scores: axis = that score, process = reasoning
    return synthetic_grade(V04, reasoning=reasoning, evidence=evidence, outcome=outcome)


def _run() -> dict:
    return {
        # composites without outcome: (136/3*r + 119/3*e + 15*r)/100
        "alpha": {"openai": _uniform(80, 80), "anthropic": _uniform(70, 70), "xai": _uniform(90, 90)},
        "beta": {"openai": _uniform(60, 60), "anthropic": _uniform(50, 50), "xai": None},
        "gamma": {"openai": _uniform(66, 66), "anthropic": _uniform(66, 66), "xai": _uniform(66, 66)},
        "delta": {"openai": _uniform(40, 40), "anthropic": None, "xai": None},
    }


def test_score_run_end_to_end() -> None:
    timings = {"alpha": [10.0, None, 10.0], "beta": [5.0, 5.0], "gamma": None}
    results = score_run(_run(), V04, timings, outcome_available=False)
    by_id = {r.contestant_id: r for r in results}

    alpha = by_id["alpha"]
    assert alpha.reasoning_median == 80
    assert alpha.median_decision_seconds == 10
    assert alpha.panel.official_eligible and not alpha.flagged
    assert sorted(alpha.judges) == ["anthropic", "openai", "xai"]
    assert alpha.axis_medians == {
        "reasoning": 80,
        "evidence": 80,
        "process": 80,
        "outcome": None,
        "data_reliability": 80,
    }

    beta = by_id["beta"]
    assert beta.reasoning_median == 55  # median of 60 and 50, 2 of 3 judges
    assert beta.flagged and not beta.official_eligible

    # efficiency: alpha 80/10 = 8 per s, beta 55/5 = 11 per s (best)
    assert beta.efficiency == 100
    assert alpha.efficiency == 800 / 11
    assert alpha.total == (90 * 80 + 10 * 800 / 11) / 100 == 0.9 * 80 + 80 / 11
    assert beta.total == (90 * 55 + 10 * 100) / 100

    gamma = by_id["gamma"]  # no timing: reasoning median alone
    assert gamma.efficiency is None and gamma.total == 66 and gamma.band == "mixed"

    delta = by_id["delta"]  # 1 of 3 judges: no score, no rank
    assert delta.reasoning_median is None and delta.total is None and delta.rank is None and delta.band is None

    assert [(r.contestant_id, r.rank) for r in results] == [
        ("alpha", 1),
        ("gamma", 2),
        ("beta", 3),
        ("delta", None),
    ]
    assert alpha.band == "strong" and beta.band == "mixed"


def test_ties_share_a_rank() -> None:
    grades = {
        c: {"openai": _uniform(70, 70), "anthropic": _uniform(70, 70), "xai": _uniform(70, 70)} for c in ("a", "b")
    }
    grades["c"] = {"openai": _uniform(50, 50), "anthropic": _uniform(50, 50), "xai": _uniform(50, 50)}
    results = score_run(grades, V04)
    assert [(r.contestant_id, r.rank) for r in results] == [("a", 1), ("b", 1), ("c", 3)]


def test_outcome_availability_per_contestant() -> None:
    grades = {
        "resolved": {"openai": _uniform(60, 60, outcome=100)},
        "pending": {"openai": _uniform(60, 60, outcome=100)},
    }
    results = {r.contestant_id: r for r in score_run(grades, V03, outcome_available={"resolved": True})}
    assert results["resolved"].total == 64  # 0.9*60 + 0.1*100
    assert results["pending"].total == 60  # outcome redistributed
    assert results["resolved"].judges["openai"].outcome_used is True
    assert results["pending"].judges["openai"].outcome_used is False


def test_stored_models_and_dicts_score_the_same() -> None:
    model = grade_model_for(V04)
    as_models = {
        c: {j: (None if g is None else model.model_validate(g)) for j, g in by_judge.items()}
        for c, by_judge in _run().items()
    }
    assert score_run(as_models, V04) == score_run(_run(), V04)


def test_panel_median_of_exact_composites_matches_judge_composite() -> None:
    grades = {
        "x": {
            "openai": synthetic_grade(V04, reasoning=71, evidence=64, outcome=None),
            "anthropic": synthetic_grade(V04, reasoning=73, evidence=61, outcome=None),
            "xai": synthetic_grade(V04, reasoning=59, evidence=77, outcome=None),
        }
    }
    (result,) = score_run(grades, V04, outcome_available=False)
    composites = sorted(judge_composite(g, V04, False).composite for g in grades["x"].values())
    assert result.reasoning_median == composites[1]
    assert (result.panel.low, result.panel.high) == (composites[0], composites[2])


def test_weights_only_rescore_changes_scores_without_new_grades(tmp_path: Path) -> None:
    data = yaml.safe_load((VERSIONS_DIR / "v0.4.yaml").read_text(encoding="utf-8"))
    data["composite"] = {"reasoning": 20, "evidence": 55, "process": 15, "outcome": 10}
    path = tmp_path / "evidence_heavy.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    heavy = load_rubric(path)
    assert heavy.judge_facing_hash == V04.judge_facing_hash
    grades = {
        "reasoner": dict.fromkeys(["openai", "anthropic", "xai"], _uniform(90, 50, outcome=50)),
        "grounder": dict.fromkeys(["openai", "anthropic", "xai"], _uniform(50, 90, outcome=50)),
    }
    before = {r.contestant_id: r.rank for r in score_run(grades, V04)}
    after = {r.contestant_id: r.rank for r in score_run(grades, heavy)}
    assert before == {"reasoner": 1, "grounder": 2}
    assert after == {"grounder": 1, "reasoner": 2}


def test_grade_from_another_rubric_is_refused_with_contestant_and_judge() -> None:
    grade = _uniform(70, 70)
    del grade["reasoning"]["sub_scores"]["thesis_quality"]
    with pytest.raises(ValueError, match="contestant c1, judge xai: reasoning: missing sub-scores thesis_quality"):
        score_run({"c1": {"xai": grade}}, V04)


def test_timings_as_arrays_or_precomputed_medians() -> None:
    import numpy as np

    grades = {c: dict.fromkeys(["openai", "anthropic", "xai"], _uniform(60, 60)) for c in ("a", "b")}
    results = {r.contestant_id: r for r in score_run(grades, V04, {"a": np.array([4.0, 6.0, np.nan]), "b": 10})}
    assert results["a"].median_decision_seconds == 5 and results["b"].median_decision_seconds == 10
    assert (results["a"].efficiency, results["b"].efficiency) == (100, 50)
