"""Content hash vs judge-facing hash: a score-only change keeps the judge-facing hash."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import yaml

from rubric import VERSIONS_DIR, load_rubric

V04_TEXT = (VERSIONS_DIR / "v0.4.yaml").read_text(encoding="utf-8")


def _variant(tmp_path: Path, name: str, edit) -> Path:
    data = yaml.safe_load(V04_TEXT)
    edit(data)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _weights_only(data: dict) -> None:
    subs = {s["id"]: s for s in data["axes"]["reasoning"]["sub_components"]}
    subs["thesis_quality"]["weight"] = 14
    subs["clarity_specificity"]["weight"] = 8
    data["composite"] = {"reasoning": 45, "evidence": 30, "process": 15, "outcome": 10}


def test_hashes_are_sha256_hex_of_canonical_content() -> None:
    rubric = load_rubric("v0.4")
    canonical = json.dumps(rubric.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert rubric.content_hash == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    facing = json.dumps(rubric.judge_facing(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert rubric.judge_facing_hash == hashlib.sha256(facing.encode("utf-8")).hexdigest()


def test_comments_and_formatting_do_not_change_the_content_hash(tmp_path: Path) -> None:
    reformatted = tmp_path / "reformatted.yaml"
    reformatted.write_text(
        "# a different comment\n" + yaml.safe_dump(yaml.safe_load(V04_TEXT), sort_keys=True, width=60),
        encoding="utf-8",
    )
    assert load_rubric(reformatted).content_hash == load_rubric("v0.4").content_hash


def test_weights_only_variant_keeps_judge_facing_hash(tmp_path: Path) -> None:
    base = load_rubric("v0.4")
    variant = load_rubric(_variant(tmp_path, "weights", _weights_only))
    assert variant.content_hash != base.content_hash
    assert variant.judge_facing_hash == base.judge_facing_hash


def test_bands_blend_and_aggregation_changes_keep_judge_facing_hash(tmp_path: Path) -> None:
    def edit(data: dict) -> None:
        data["bands"] = {"strong": 70, "mixed": 50}
        data["total"]["blend"] = {"reasoning_median": 80, "efficiency": 20}
        data["panel"]["aggregation"] = "mean"
        data["panel"]["min_judges"] = 3

    base = load_rubric("v0.4")
    variant = load_rubric(_variant(tmp_path, "scoring", edit))
    assert variant.content_hash != base.content_hash
    assert variant.judge_facing_hash == base.judge_facing_hash


def test_instruction_change_changes_judge_facing_hash(tmp_path: Path) -> None:
    def edit(data: dict) -> None:
        data["instructions"] = data["instructions"].replace("Grade the whole horizon.", "Grade every decision.")

    base = load_rubric("v0.4")
    variant = load_rubric(_variant(tmp_path, "instructions", edit))
    assert variant.judge_facing_hash != base.judge_facing_hash


def test_sub_component_wording_and_anonymization_are_judge_facing(tmp_path: Path) -> None:
    def relabel(data: dict) -> None:
        data["axes"]["evidence"]["sub_components"][0]["description"] = "Claims backed by named fields."

    def deanonymize(data: dict) -> None:
        data["panel"]["anonymize"] = False

    base = load_rubric("v0.4")
    assert load_rubric(_variant(tmp_path, "relabel", relabel)).judge_facing_hash != base.judge_facing_hash
    assert load_rubric(_variant(tmp_path, "plain", deanonymize)).judge_facing_hash != base.judge_facing_hash


def test_v03_and_v04_differ_in_both_hashes() -> None:
    v03, v04 = load_rubric("v0.3"), load_rubric("v0.4")
    assert v03.content_hash != v04.content_hash
    assert v03.judge_facing_hash != v04.judge_facing_hash
