"""The judge's view of a season: same layout, aliases only, mapping kept outside, nothing written on error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from grader.anonymizer import UNDISCLOSED, find_leaks, write_anonymized_bundle
from grader.season import BundleError, load_bundle
from tests.anonymizer._corpus import word_present
from tests.conftest import write_bundle

DECISIONS = [
    {"contestant_id": "m1", "decided_at": "2022-01-03T15:30:00-05:00",
     "trades": [{"symbol": "AAA", "side": "buy", "quantity": 10, "price": 101}],
     "rationale": "As an OpenAI model (GPT-4.1), I buy AAA; Model Two is too cautious. Alpha Corp momentum.",
     "context": "You are gpt-4.1, trading for m1.", "decision_seconds": 12.5},
    {"contestant_id": "m1", "decided_at": "2022-01-05T15:30:00-05:00",
     "trades": [{"symbol": "AAA", "side": "sell", "quantity": 10, "price": 103}],
     "rationale": "Selling AAA; Claude 3.7 Sonnet would agree.", "decision_seconds": 10.0},
    {"contestant_id": "m2", "decided_at": "2022-01-03T15:30:00-05:00",
     "trades": [{"symbol": "BBB", "side": "buy", "quantity": 20, "price": 49}],
     "rationale": "I'm Claude, buying BBB (Beta Inc) for value. Unlike Model One, I size small.",
     "decision_seconds": None, "confidence": 0.6},
    {"contestant_id": "m2", "decided_at": "2022-01-04T15:30:00-05:00", "trades": [],
     "rationale": "Holding. claude-3-7-sonnet-20250219 signing off.", "decision_seconds": None},
]  # fmt: skip
IDENTITIES = ["OpenAI", "GPT", "gpt-4.1", "Claude", "Sonnet", "Model One", "Model Two", "m1", "m2"]


@pytest.fixture
def season(tmp_path: Path) -> Path:
    return write_bundle(tmp_path / "season", decisions=DECISIONS)


def test_writes_the_judge_view_and_keeps_the_mapping_outside(season, tmp_path):
    out = tmp_path / "views" / "judge"
    result = write_anonymized_bundle(season, out, seed="s1")

    assert result.out_dir == out and result.decisions == 4 and result.contestants == 2
    assert result.mapping_path == tmp_path / "views" / "judge.mapping.json"
    assert result.scrub_log_path == tmp_path / "views" / "judge.scrub-log.jsonl"
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [
        "contestants.yaml",
        "decisions.jsonl",
        "market/fields.csv",
        "market/prices.csv",
        "season.yaml",
    ]
    assert sorted(p.name for p in out.parent.iterdir()) == [
        "judge",
        "judge.mapping.json",
        "judge.scrub-log.jsonl",
    ]

    # same layout: it loads as a season bundle
    view = load_bundle(out)
    assert [c.display_name for c in view.contestants] == ["Contestant A", "Contestant B"]
    assert all(c.provider_family == UNDISCLOSED and c.model == UNDISCLOSED for c in view.contestants)
    assert {d.contestant_id for d in view.decisions} == {"contestant-a", "contestant-b"}

    # copied as is
    for rel in ("market/prices.csv", "market/fields.csv"):
        assert (out / rel).read_bytes() == (season / rel).read_bytes()
    # season.yaml without what names the competition (its name, attribution); market and rules kept
    judged, source = (
        yaml.safe_load((out / "season.yaml").read_text()),
        yaml.safe_load((season / "season.yaml").read_text()),
    )
    assert judged["name"] == "Anonymized season" and "attribution" not in judged
    # no public id: the season's id is a neutral label (rounds likewise; the map stays grader-side)
    assert judged["id"] == "season" and "tiny" not in (out / "season.yaml").read_text()
    assert {k: v for k, v in judged.items() if k not in ("name", "id")} == {
        k: v for k, v in source.items() if k not in ("name", "attribution", "id")
    }
    assert load_bundle(out).info.id == "season"  # the judge's view is a valid bundle

    # no identity anywhere in the judge's view
    original = load_bundle(season)
    for rel in ("contestants.yaml", "decisions.jsonl"):
        text = (out / rel).read_text()
        assert find_leaks(text, original.contestants) == [], rel
        assert [w for w in IDENTITIES if word_present(w, text)] == [], rel


def test_mapping_and_scrub_log_lead_back_to_the_originals(season, tmp_path):
    out = tmp_path / "judge"
    result = write_anonymized_bundle(season, out, seed="s1")
    mapping = json.loads(result.mapping_path.read_text())
    assert "GRADER-SIDE ONLY" in mapping["warning"]
    assert mapping["seed"] == "s1" and mapping["season_id"] == "tiny" and mapping["neutral_ids"] == {"tiny": "season"}
    alias_to_id = {a["alias_id"]: a["contestant_id"] for a in mapping["aliases"]}
    assert sorted(alias_to_id.values()) == ["m1", "m2"]
    assert {a["contestant_id"]: a["model"] for a in mapping["aliases"]} == {
        "m1": "gpt-4.1",
        "m2": "claude-3-7-sonnet",
    }

    view, original = load_bundle(out), load_bundle(season)
    by_key = {(d.contestant_id, d.decided_at): d for d in original.decisions}
    for d in view.decisions:
        src = by_key[(alias_to_id[d.contestant_id], d.decided_at)]
        assert d.trades == src.trades and d.decision_seconds is None  # no timings: latency differs by family
        assert d.confidence == src.confidence

    m1 = next(a for a in mapping["aliases"] if a["contestant_id"] == "m1")
    m2 = next(a for a in mapping["aliases"] if a["contestant_id"] == "m2")
    first = next(d for d in view.decisions if d.contestant_id == m1["alias_id"])
    assert first.rationale == (
        "[self-reference] ([self-reference]), I buy AAA; [model] is too cautious. Alpha Corp momentum."
    )
    assert m1["alias"] not in first.rationale and m2["alias"] not in first.rationale
    assert first.context == "You are [model], trading for [model]."

    records = [json.loads(line) for line in result.scrub_log_path.read_text().splitlines()]
    assert len(records) == 4
    assert sum(len(r) for rec in records for r in rec["fields"].values()) == result.replacements
    assert {rec["decision_key"].split("@")[0] for rec in records} == {"m1", "m2"}


def test_same_seed_same_bytes_other_seed_other_aliases(season, tmp_path):
    write_anonymized_bundle(season, tmp_path / "a", seed="s1")
    write_anonymized_bundle(season, tmp_path / "b", seed="s1")
    for rel in ("contestants.yaml", "decisions.jsonl"):
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()
    maps = set()
    for seed in ("s1", "s2", "s3", "s4"):
        result = write_anonymized_bundle(season, tmp_path / f"m-{seed}", seed=seed)
        aliases = json.loads(result.mapping_path.read_text())["aliases"]
        maps.add(tuple(a["contestant_id"] for a in aliases))
    assert maps == {("m1", "m2"), ("m2", "m1")}


def test_invalid_bundle_writes_nothing(tmp_path):
    bad = write_bundle(tmp_path / "bad", decisions=[{**DECISIONS[0], "contestant_id": "ghost"}])
    out = tmp_path / "judge"
    with pytest.raises(BundleError, match="unknown contestant 'ghost'"):
        write_anonymized_bundle(bad, out, seed="s")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad"]


def test_existing_output_is_not_overwritten_unless_asked(season, tmp_path):
    out = tmp_path / "judge"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        write_anonymized_bundle(season, out, seed="s")
    assert (out / "keep.txt").exists()
    write_anonymized_bundle(season, out, seed="s", overwrite=True)
    assert not (out / "keep.txt").exists() and (out / "decisions.jsonl").exists()
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())  # no temporary left behind


def test_output_inside_the_season_is_refused(season):
    with pytest.raises(ValueError, match="must not be written inside the season"):
        write_anonymized_bundle(season, season / "judge", seed="s")


def test_identity_mentions_in_season_yaml_are_reported_and_the_attribution_dropped(season, tmp_path):
    info = yaml.safe_load((season / "season.yaml").read_text())
    info["attribution"] = "Decisions by OpenAI and Anthropic models, CC BY 4.0."
    (season / "season.yaml").write_text(yaml.safe_dump(info, sort_keys=False))
    result = write_anonymized_bundle(season, tmp_path / "judge", seed="s")
    assert result.season_yaml_mentions == ["OpenAI", "Anthropic"]  # reported for a person to check
    assert "attribution" not in yaml.safe_load((tmp_path / "judge" / "season.yaml").read_text())


def test_a_rounds_season_reaches_the_judge_with_no_public_round_id(tmp_path):
    """Issue 30: a public round id with an allocation finds a model in the round's published results; the judge's
    view names rounds and the season neutrally, and is still a valid bundle."""
    import re

    from grader.demo import DEMO_DIR

    season = DEMO_DIR.parent / "cb-2026-06-1w"
    out = tmp_path / "judge"
    write_anonymized_bundle(season, out, seed="s")
    text = "".join(p.read_text() for p in sorted(out.rglob("*")) if p.is_file())
    assert not re.search(r"CB-\d{4}-\d{2}-\d{2}", text) and "cb-2026-06-1w" not in text
    view = load_bundle(out)
    assert view.info.id == "season" and {r.id for r in view.info.rounds} == {f"round-{i:02d}" for i in range(1, 20)}
    assert len(view.decisions) == len(load_bundle(season).decisions)
