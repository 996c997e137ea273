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
        Contestant(id=m, display_name=m.replace("-", " ").title(), provider_family=p, model=m.split("-", 1)[1])
        for m, p in sorted(models.items())
    ]
    return texts, contestants


@pytest.mark.skipif(not ROUNDS.is_dir(), reason="CapitalBench rounds not present")
def test_real_rationales_come_out_clean_and_otherwise_unchanged():
    """Real CapitalBench rationales name companies as market context (Meta -8%, Google Cloud +82%, an Anthropic
    data-center deal) and never identify their author: nothing is scrubbed, every company is kept verbatim and
    listed in the report with the reason."""
    texts, contestants = _texts_and_contestants()
    assert len(texts) > 1000 and len(contestants) >= 4
    anon = Anonymizer.for_contestants(contestants, "capitalbench")
    kept: set[str] = set()
    for text in texts:
        result = anon.scrub(text)
        assert anon.find_leaks(result.text) == []
        assert [r for r in result.replacements if r.kind not in ("self_reference", "contestant")] == []
        if not result.replacements:
            assert result.text == text
        kept |= {k.original for k in result.kept}
    assert {"Meta", "Google", "Anthropic"} <= kept


REAL_MARKET_SENTENCES = [  # verbatim from the rounds' rationales (CC BY 4.0)
    "Mega-cap tech showed mixed results (Meta -8%, high capex guidance) while breadth, value, financials",
    "Alphabet reported revenue growth of 24%, Google Cloud growth of 82%, and operating-margin expansion to 34%",
    "Broadcom-Apple silicon deal, Anthropic data-center deal, TSMC strong guidance and June sales repor",
    "FOMC July 29, GDP and PCE July 30, and Microsoft, Meta, Apple, and Amazon earnings",
]


@pytest.mark.parametrize("sentence", REAL_MARKET_SENTENCES)
def test_real_sentences_naming_companies_survive_verbatim(sentence):
    _, contestants = _texts_and_contestants()
    anon = Anonymizer.for_contestants(contestants, "capitalbench")
    assert any(sentence in t for t in _texts_and_contestants()[0])  # verbatim from the shipped rounds
    result = anon.scrub(sentence)
    assert result.text == sentence and result.replacements == [] and result.kept


@pytest.mark.skipif(not ROUNDS.is_dir(), reason="shared CapitalBench data not present")
def test_real_model_ids_and_names_become_a_neutral_token():
    _, contestants = _texts_and_contestants()
    anon = Anonymizer.for_contestants(contestants, "capitalbench")
    for c in contestants:
        alias = anon.alias_of(c.id)
        assert anon.scrub(f"Submitted by {c.id}.").text == "Submitted by [self-reference]."
        assert anon.scrub(f"{c.display_name}: overweight semis.").text in (
            "[model]: overweight semis.",
            "[self-reference]: overweight semis.",
        )
        assert alias not in anon.scrub(f"{c.display_name}: overweight semis.").text
