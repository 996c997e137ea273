"""Loading by name or path, and refusing inconsistent rubrics with file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rubric import VERSIONS_DIR, RubricError, available_rubrics, load_rubric

V04_TEXT = (VERSIONS_DIR / "v0.4.yaml").read_text(encoding="utf-8")


def _write(tmp_path: Path, text: str, name: str = "custom.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(text: str, needle: str) -> int:
    return text.splitlines().index(needle) + 1


@pytest.mark.parametrize("name", ["v0.4", "0.4", "V0.4", "grounded_financial_reasoning_judge_v0.4", " v0.4 "])
def test_load_by_any_version_spelling(name: str) -> None:
    assert load_rubric(name).id == "grounded_financial_reasoning_judge_v0.4"


def test_load_by_path_str_and_pathlike(tmp_path: Path) -> None:
    path = _write(tmp_path, V04_TEXT)
    by_str = load_rubric(str(path))
    by_path = load_rubric(path)
    assert by_str.content_hash == by_path.content_hash == load_rubric("v0.4").content_hash
    assert by_str.source_path == str(path)


def test_available_rubrics_lists_the_bundled_versions() -> None:
    assert available_rubrics() == [
        "grounded_financial_reasoning_judge_v0.3",
        "grounded_financial_reasoning_judge_v0.4",
        "grounded_financial_reasoning_judge_v0.5",
    ]


def test_unknown_version_names_the_bundled_ones() -> None:
    with pytest.raises(RubricError, match=r"unknown rubric 'v9'.*v0\.3.*v0\.4"):
        load_rubric("v9")


def test_missing_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(RubricError, match="no such rubric file") as info:
        load_rubric(str(missing))
    assert str(missing) in str(info.value)


def test_weights_summing_to_99_are_refused_naming_file_line_and_key(tmp_path: Path) -> None:
    text = V04_TEXT.replace(
        "      - id: thesis_quality\n        label: Thesis quality\n        weight: 12\n",
        "      - id: thesis_quality\n        label: Thesis quality\n        weight: 11\n",
    )
    assert text != V04_TEXT
    path = _write(tmp_path, text)
    with pytest.raises(RubricError) as info:
        load_rubric(str(path))
    message = str(info.value)
    line = _line_of(text, "    sub_components:")  # the reasoning axis' list is the first one
    assert f"{path}:{line}: axes.reasoning.sub_components: weights sum to 99, expected 100" in message
    assert "thesis_quality 11" in message
    assert info.value.issues == [("axes.reasoning.sub_components", info.value.issues[0][1], line)]


def test_composite_and_blend_sums_are_checked(tmp_path: Path) -> None:
    data = yaml.safe_load(V04_TEXT)
    data["composite"]["outcome"] = 5
    data["total"]["blend"]["efficiency"] = 20
    path = _write(tmp_path, yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(RubricError) as info:
        load_rubric(str(path))
    keys = [key for key, _, _ in info.value.issues]
    assert keys == ["composite", "total.blend"]
    assert "weights sum to 95, expected 100" in str(info.value)
    assert "weights sum to 110, expected 100" in str(info.value)


def test_decimal_weights_that_sum_to_100_exactly_are_accepted(tmp_path: Path) -> None:
    data = yaml.safe_load(V04_TEXT)
    data["composite"] = {"reasoning": 33.3, "evidence": 33.3, "process": 23.4, "outcome": 10}
    rubric = load_rubric(_write(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    assert rubric.composite.reasoning == 33.3


def test_unknown_process_sub_component_is_named(tmp_path: Path) -> None:
    text = V04_TEXT.replace(
        "    temporal_consistency: 10\n    portfolio", "    temporal_consistancy: 10\n    portfolio"
    )
    path = _write(tmp_path, text)
    with pytest.raises(RubricError) as info:
        load_rubric(str(path))
    line = _line_of(text, "    temporal_consistancy: 10")
    assert f"{path}:{line}: process.weights.temporal_consistancy: unknown reasoning sub-component id" in str(info.value)


def test_missing_bands_are_refused(tmp_path: Path) -> None:
    data = yaml.safe_load(V04_TEXT)
    del data["bands"]
    path = _write(tmp_path, yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(RubricError, match=r"bands: missing \(required\)"):
        load_rubric(str(path))


def test_bands_out_of_order_are_refused(tmp_path: Path) -> None:
    data = yaml.safe_load(V04_TEXT)
    data["bands"] = {"strong": 45, "mixed": 67}
    with pytest.raises(RubricError, match="need 0 < mixed < strong <= 100, got mixed 67, strong 45"):
        load_rubric(_write(tmp_path, yaml.safe_dump(data, sort_keys=False)))


def test_unknown_key_is_refused_with_its_line(tmp_path: Path) -> None:
    text = V04_TEXT.replace("bands:\n  strong: 67\n", "bands:\n  strong: 67\n  excellent: 90\n")
    path = _write(tmp_path, text)
    with pytest.raises(RubricError) as info:
        load_rubric(str(path))
    assert f"{path}:{_line_of(text, '  excellent: 90')}: bands.excellent: unknown key" in str(info.value)


def test_duplicate_and_non_snake_case_sub_component_ids_are_refused(tmp_path: Path) -> None:
    data = yaml.safe_load(V04_TEXT)
    subs = data["axes"]["evidence"]["sub_components"]
    subs[1]["id"] = "claim_support"
    subs[2]["id"] = "MomentumTechnical"
    with pytest.raises(RubricError) as info:
        load_rubric(_write(tmp_path, yaml.safe_dump(data, sort_keys=False)))
    message = str(info.value)
    assert "axes.evidence.sub_components[1].id: duplicate sub-component id 'claim_support'" in message
    assert "axes.evidence.sub_components[2].id: 'MomentumTechnical' is not a snake_case id" in message


def test_min_judges_above_panel_size_is_refused(tmp_path: Path) -> None:
    data = yaml.safe_load(V04_TEXT)
    data["panel"]["min_judges"] = 4
    with pytest.raises(RubricError, match="panel.min_judges: 4 is more than the 3 judge slot"):
        load_rubric(_write(tmp_path, yaml.safe_dump(data, sort_keys=False)))


def test_wrong_type_is_reported_with_key(tmp_path: Path) -> None:
    data = yaml.safe_load(V04_TEXT)
    data["axes"]["reasoning"]["sub_components"][0]["weight"] = "ten"
    with pytest.raises(RubricError, match=r"axes\.reasoning\.sub_components\[0\]\.weight: Input should be a valid"):
        load_rubric(_write(tmp_path, yaml.safe_dump(data, sort_keys=False)))


def test_yaml_syntax_error_and_empty_file(tmp_path: Path) -> None:
    broken = _write(tmp_path, "id: x\naxes: [unclosed\n", "broken.yaml")
    with pytest.raises(RubricError, match=rf"{broken}:\d+: not valid YAML"):
        load_rubric(str(broken))
    empty = _write(tmp_path, "", "empty.yaml")
    with pytest.raises(RubricError, match="expected a mapping of rubric keys, got empty"):
        load_rubric(str(empty))


def test_unsupported_output_schema_version_is_refused(tmp_path: Path) -> None:
    text = V04_TEXT.replace("output_schema_version: grade-v1", "output_schema_version: grade-v9")
    with pytest.raises(RubricError, match="output_schema_version: unknown output schema 'grade-v9'"):
        load_rubric(_write(tmp_path, text))
