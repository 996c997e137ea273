"""Real LLM decision records (CapitalBench rounds, CC BY 4.0): scrubbing leaves no identity and changes
nothing in text that names no one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.anonymizer import Anonymizer
from grader.season import Contestant
from tests.conftest import CB_ROUNDS as ROUNDS


def _texts_and_contestants() -> tuple[list[str], list[Contestant]]:
    texts: list[str] = []
    models: dict[str, str] = {}

    def walk(obj: object) -> None:
        if isinstance(obj, str):
            texts.append(obj)
        elif isinstance(obj, dict):
            for k, v in obj.items():
                if k not in ("model_id", "provider"):
                    walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    for path in sorted(ROUNDS.glob("*/runs/*/submissions/parsed/*.json")):
        record = json.loads(Path(path).read_text())
        models[record["model_id"]] = record["provider"]
        walk(record)
    contestants = [
        Contestant(
            id=m, display_name=m.replace("-", " ").title(), provider_family=p, model=m.split("-", 1)[1]
        )
        for m, p in sorted(models.items())
    ]
    return texts, contestants


@pytest.mark.skipif(not ROUNDS.is_dir(), reason="shared CapitalBench data not present")
def test_real_rationales_come_out_clean_and_otherwise_unchanged():
    texts, contestants = _texts_and_contestants()
    assert len(texts) > 1000 and len(contestants) >= 4
    anon = Anonymizer.for_contestants(contestants, "capitalbench")
    changed = 0
    for text in texts:
        result = anon.scrub(text)
        assert anon.find_leaks(result.text) == []
        if not result.replacements:
            assert result.text == text
            continue
        changed += 1
        # only the replaced spans differ; the rest of the text is kept
        assert all(
            r.kind in ("provider", "model", "contestant", "self_reference") for r in result.replacements
        )
        assert len(result.text) - len(text) == sum(
            len(r.replacement) - (r.end - r.start) for r in result.replacements
        )
    # market news naming model makers as companies ("Meta forecast ...") is scrubbed as [provider]
    # without a universe allowlist; that is a small share of the records
    assert 0 < changed < len(texts) * 0.05


@pytest.mark.skipif(not ROUNDS.is_dir(), reason="shared CapitalBench data not present")
def test_real_model_ids_and_names_become_aliases():
    _, contestants = _texts_and_contestants()
    anon = Anonymizer.for_contestants(contestants, "capitalbench")
    for c in contestants:
        alias = anon.alias_of(c.id)
        assert anon.scrub(f"Submitted by {c.id}.").text == f"Submitted by {alias}."
        assert anon.scrub(f"{c.display_name}: overweight semis.").text == f"{alias}: overweight semis."
