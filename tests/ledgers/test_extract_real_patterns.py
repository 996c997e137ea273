"""Extraction on patterns found in real CapitalBench rationales (after the report showed false contradictions)."""

from __future__ import annotations

from datetime import UTC, datetime

from ledgers import UniverseIndex, extract_claims

WHEN = datetime(2026, 6, 2, tzinfo=UTC)
INDEX = UniverseIndex(
    {
        "SEMICONDUCTORS": ["Semiconductors", "SMH"],
        "BROAD_AI_TECH": ["Broad AI Technology", "AIQ"],
        "SOFTWARE": ["Software", "IGV"],
        "CONSUMER_STAPLES": ["Consumer Staples Sector", "XLP"],
    },
    "SP500",
)


def _claims(text: str, default: str):
    return [(c.text, c.symbol) for c in extract_claims(text, WHEN, default, INDEX, benchmark="SP500")]


def test_a_holding_line_with_its_weight_sets_the_subject():
    text = (
        "Holdings:\n- SEMICONDUCTORS (Semiconductors), 30%: Strong momentum; leading tech tape.\n"
        "- BROAD_AI_TECH (Broad AI Technology), 25%: persistent thematic momentum (+22% 30d)."
    )
    claims = _claims(text, "SEMICONDUCTORS")
    assert ("+22% 30d", "BROAD_AI_TECH") in claims
    assert all(t not in ("30%", "25%") for t, _ in claims)  # the weights are not claims


def test_a_range_is_not_a_checkable_value():
    claims = _claims(
        "Avoid tech given a recent drawdown (-3% to -9% 1w in QQQ/IGV/SMH); staples up 4% 7d.", "CONSUMER_STAPLES"
    )
    assert all("9%" not in t and "3%" not in t for t, _ in claims)
    assert ("up 4% 7d", "CONSUMER_STAPLES") in claims  # the direction word stays with the number


def test_a_negative_number_keeps_its_sign():
    claims = _claims("- SOFTWARE (Software), 20%: Value held up best (-0.08% 7d).", "SOFTWARE")
    assert ("-0.08% 7d", "SOFTWARE") in claims


def test_an_aim_is_not_a_claim_of_past_performance():
    claims = extract_claims(
        "This allocation seeks relative outperformance through semis strength.",
        WHEN,
        "SEMICONDUCTORS",
        INDEX,
        benchmark="SP500",
    )
    assert claims and all(c.assertions[0].rule == "forecast" for c in claims)
