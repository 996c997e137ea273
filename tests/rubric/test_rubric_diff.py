"""rubric_diff: weights, sub-components, bands, panel, blend and instructions, and the score-only flag."""

from __future__ import annotations

from pathlib import Path

import yaml

from rubric import VERSIONS_DIR, WeightChange, load_rubric, rubric_diff


def _variant(tmp_path: Path, edit) -> Path:
    data = yaml.safe_load((VERSIONS_DIR / "v0.4.yaml").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "variant.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def test_identical_rubrics() -> None:
    diff = rubric_diff(load_rubric("v0.4"), load_rubric("v0.4"))
    assert diff.identical and diff.score_only and not diff.instructions_changed
    assert diff.summary_lines() == [
        "grounded_financial_reasoning_judge_v0.4 and grounded_financial_reasoning_judge_v0.4 have identical content"
    ]


def test_weights_only_change_is_score_only(tmp_path: Path) -> None:
    def edit(data: dict) -> None:
        data["id"] = "weights_variant"
        subs = data["axes"]["reasoning"]["sub_components"]
        subs[1]["weight"] = 14  # thesis_quality 12 -> 14
        subs[9]["weight"] = 8  # clarity_specificity 10 -> 8
        data["bands"]["strong"] = 70
        data["total"]["blend"] = {"reasoning_median": 85, "efficiency": 15}
        data["panel"]["aggregation"] = "mean"

    diff = rubric_diff(load_rubric("v0.4"), load_rubric(_variant(tmp_path, edit)))
    assert not diff.identical
    assert diff.score_only and not diff.judge_facing_changed
    assert diff.weight_changes == [
        WeightChange(key="axes.reasoning.clarity_specificity", before=10, after=8),
        WeightChange(key="axes.reasoning.thesis_quality", before=12, after=14),
    ]
    assert [(c.key, c.before, c.after) for c in diff.bands_changes] == [("bands.strong", 67, 70)]
    assert [(c.key, c.before, c.after) for c in diff.panel_changes] == [("aggregation", "median", "mean")]
    assert [(c.key, c.before, c.after) for c in diff.blend_changes] == [
        ("efficiency", 10, 15),
        ("reasoning_median", 90, 85),
    ]
    assert not diff.instructions_changed and diff.instructions_diff == ""
    lines = diff.summary_lines()
    assert lines[0].endswith("score-only change: stored grades can be re-scored without judge calls")
    assert "weight axes.reasoning.thesis_quality: 12 -> 14" in lines
    assert "bands bands.strong: 67 -> 70" in lines


def test_added_removed_sub_components_and_instruction_changes(tmp_path: Path) -> None:
    def edit(data: dict) -> None:
        subs = data["axes"]["evidence"]["sub_components"]
        removed = subs.pop(3)  # analyst_data (10)
        subs.append(
            {
                "id": "news_grounding",
                "label": "News grounding",
                "weight": removed["weight"],
                "description": "News claims cite a dated source.",
            }
        )
        data["instructions"] = data["instructions"].replace("Grade the whole horizon.", "Grade every decision.")

    diff = rubric_diff(load_rubric("v0.4"), load_rubric(_variant(tmp_path, edit)))
    assert diff.judge_facing_changed and not diff.score_only
    assert diff.added_sub_components == ["evidence.news_grounding"]
    assert diff.removed_sub_components == ["evidence.analyst_data"]
    assert diff.weight_changes == []  # a new or removed component is reported as such, not as a weight
    assert diff.instructions_changed
    assert "-1. Grade the whole horizon." in diff.instructions_diff
    assert "+1. Grade every decision." in diff.instructions_diff


def test_v03_to_v04() -> None:
    diff = rubric_diff(load_rubric("v0.3"), load_rubric("v0.4"))
    assert diff.judge_facing_changed and diff.instructions_changed
    panel = {c.key: (c.before, c.after) for c in diff.panel_changes}
    assert panel["anonymize"] == (False, True)
    assert panel["min_judges"] == (1, 2)
    assert panel["judges.anthropic"] == (None, "(present)")
    assert panel["judges.xai"] == (None, "(present)")
    assert "judges.xai.provider_family" not in panel  # children of an added judge are not repeated
    assert {(c.key, c.before, c.after) for c in diff.blend_changes} == {
        ("reasoning_median", 100, 90),
        ("efficiency", 0, 10),
    }
    assert diff.weight_changes == []
    assert "panel judges.xai: added" in diff.summary_lines()
