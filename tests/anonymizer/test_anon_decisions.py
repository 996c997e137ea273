"""Decision anonymization: scrubbed copies, alias ids and the grader-side scrub record."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from grader.anonymizer import Anonymizer, ScrubRecord
from grader.season import AllocationItem, Decision, Trade
from tests.anonymizer._corpus import CONTESTANTS

ET = timezone(timedelta(hours=-5))


def _decision(**kw) -> Decision:
    base = {
        "contestant_id": "anthropic-claude-opus-4-8",
        "decided_at": datetime(2022, 1, 3, 15, 30, tzinfo=ET),
        "trades": [Trade(symbol="GOOGL", side="buy", quantity=3, price=140.0)],
        "rationale": "I'm Claude. Buying GOOGL: Gemini 3.1 Pro traffic is rising, unlike GPT-4.1's.",
        "context": "Prompt shown to claude-opus-4-8 by the harness.",
        "decision_seconds": 12.5,
        "confidence": 0.7,
        "line": 4,
    }
    base.update(kw)
    return Decision(**base)


@pytest.fixture(scope="module")
def anon() -> Anonymizer:
    return Anonymizer.for_contestants(CONTESTANTS, "decisions", allowlist=["GOOGL"])


def test_decision_copy_is_scrubbed_and_aliased(anon):
    d = _decision()
    out, record = anon.anonymize_decision(d)
    me = anon.alias_of(d.contestant_id)
    gemini = anon.alias_of("google-gemini-3-1-pro")
    assert out.contestant_id == anon.alias_id_of(d.contestant_id)
    # a neutral token, never an alias, where a model stood (issue 30)
    assert out.rationale == "[self-reference]. Buying GOOGL: [model] traffic is rising, unlike [model]'s."
    assert gemini not in out.rationale and me not in (out.context or "")
    assert out.context == "Prompt shown to [model] by the harness."
    # everything else is unchanged, and the input is untouched (frozen model, copy returned)
    assert (out.decided_at, out.trades, out.decision_seconds, out.confidence, out.line) == (
        d.decided_at, d.trades, d.decision_seconds, d.confidence, d.line,
    )  # fmt: skip
    assert d.rationale.startswith("I'm Claude")
    assert out.key.startswith("contestant-")
    assert anon.find_leaks(out.rationale) == [] and anon.find_leaks(out.context or "") == []


def test_scrub_record_lists_what_was_replaced_per_field(anon):
    d = _decision()
    _, record = anon.anonymize_decision(d)
    assert isinstance(record, ScrubRecord)
    assert record.decision_key == d.key
    assert record.contestant_id == d.contestant_id
    assert record.alias_id == anon.alias_id_of(d.contestant_id)
    assert sorted(record.fields) == ["context", "rationale"]
    assert [r.original for r in record.fields["rationale"]] == ["I'm Claude", "Gemini 3.1 Pro", "GPT-4.1"]
    assert [r.original for r in record.fields["context"]] == ["claude-opus-4-8"]
    assert record.count == 4


def test_allocation_rationales_are_scrubbed_too(anon):
    d = _decision(
        trades=[],
        allocation=[
            AllocationItem(symbol="XLK", weight=0.6, rationale="Grok 4.3 would agree; OpenAI capex."),
            AllocationItem(symbol="BIL", weight=0.4, rationale=None),
        ],
        context=None,
        rationale="Barbell.",
    )
    out, record = anon.anonymize_decision(d)
    assert out.allocation is not None
    assert out.allocation[0].rationale == "[model] would agree; OpenAI capex."
    assert out.allocation[1].rationale is None
    assert [a.weight for a in out.allocation] == [0.6, 0.4]
    assert list(record.fields) == ["allocation[0].rationale"]
    assert out.context is None and out.rationale == "Barbell."


def test_clean_decision_has_an_empty_record(anon):
    out, record = anon.anonymize_decision(_decision(rationale="Buying GOOGL on momentum.", context=None))
    assert out.rationale == "Buying GOOGL on momentum."
    assert record.fields == {} and record.count == 0


def test_unknown_contestant_is_an_error(anon):
    with pytest.raises(KeyError, match="unknown contestant 'nobody'"):
        anon.anonymize_decision(_decision(contestant_id="nobody"))
