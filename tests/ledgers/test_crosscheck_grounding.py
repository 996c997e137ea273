"""Cross-check of judge ledgers and the per-judge grounding audit."""

from __future__ import annotations

from datetime import datetime

import pytest

from ledgers import (
    CitedValue,
    Claim,
    GroundingRow,
    Verifier,
    VerifierConfig,
    cohen_kappa,
    cross_check,
    grounding_by_judge,
    grounding_summary,
)

D1 = datetime.fromisoformat("2021-06-15T10:00:00-04:00")
CONFIG = VerifierConfig(benchmark="SP500")


@pytest.fixture(scope="module")
def verifier(store):
    return Verifier(store, CONFIG)


@pytest.fixture(scope="module")
def shown(store):
    """The snapshot a judge was shown for AAPL (a compacted prompt: no analyst fields)."""
    return store.snapshot(["AAPL"], D1, fields=["close", "rsi14", "peRatio", "sma200", "profitMargin"])


def _claim(text, status, fields=(), note="", values=(), symbol="AAPL", at=D1):
    return Claim(
        id=text[:20],
        text=text,
        decided_at=at,
        symbol=symbol,
        cited_fields=list(fields),
        judge_status=status,
        judge_note=note,
        cited_values=list(values),
    )


def test_clean_entry_has_no_flags(verifier, shown):
    claim = _claim("RSI at 60.4", "supported", ["rsi14"], note="rsi14 = 60.35 in the snapshot")
    cc = cross_check(claim, verifier.verify(claim), None, shown)
    assert cc.flags == [] and cc.agrees and cc.valid_citations == 1 and cc.cited == 1


def test_unknown_and_missing_fields(verifier, shown):
    claim = _claim(
        "strong profitability with analyst upside", "supported", ["profitMargin", "analystTargetPrice", "moatScore"]
    )
    cc = cross_check(claim, verifier.verify(claim), None, shown)
    assert set(cc.flags) == {"unknown_field", "field_not_in_snapshot"}
    assert cc.cited == 3 and cc.valid_citations == 1
    assert any("moatScore" in d for d in cc.details)


def test_known_fields_argument_limits_the_registry(verifier, shown):
    claim = _claim("P/E of 28.5", "supported", ["peRatio"])
    cc = cross_check(claim, verifier.verify(claim), {"close", "rsi14"}, shown)
    assert cc.flags == ["unknown_field"]


def test_misquoted_value_from_note_and_structured_values(verifier, shown):
    note = _claim("P/E of 28.5", "supported", ["peRatio"], note="peRatio = 31.6 per the snapshot")
    cc = cross_check(note, verifier.verify(note), None, shown)
    assert cc.flags == ["misquoted_value"] and cc.agrees  # the claim itself holds; the note misquotes
    structured = _claim("RSI in the 60s", "supported", ["rsi14"], values=[CitedValue(field="RSI", value="60.3")])
    assert "misquoted_value" not in cross_check(structured, verifier.verify(structured), None, shown).flags
    wrong = _claim("RSI in the 60s", "supported", ["rsi14"], values=[CitedValue(field="rsi14", value=66.0)])
    assert "misquoted_value" in cross_check(wrong, verifier.verify(wrong), None, shown).flags


def test_status_disagreement_and_lookahead(verifier, shown, store):
    wrong = _claim("RSI at 72", "supported", ["rsi14"])
    cc = cross_check(wrong, verifier.verify(wrong), None, shown)
    assert cc.flags == ["status_disagreement"] and cc.verifier_status == "contradicted" and not cc.agrees
    later = _claim(
        "P/E of 28.5",
        "supported",
        ["peRatio"],
        values=[
            CitedValue(field="peRatio", value=31.6, observed_at=datetime.fromisoformat("2021-07-28T16:00:00-04:00"))
        ],
    )
    assert "lookahead" in cross_check(later, verifier.verify(later), None, shown).flags
    at = datetime.fromisoformat("2021-07-27T12:00:00-04:00")
    leak = _claim("P/E of 31.6", "supported", ["peRatio"], at=at)
    cc = cross_check(leak, verifier.verify(leak), None, store.snapshot(["AAPL"], at))
    assert set(cc.flags) == {"status_disagreement", "lookahead"}


def test_kappa_matches_the_formula():
    judge = ["supported"] * 6 + ["not_verifiable"] * 3 + ["contradicted"] * 3
    verifier = ["supported"] * 5 + ["contradicted"] + ["not_verifiable"] * 2 + ["supported"] + ["contradicted"] * 3
    n = len(judge)
    po = sum(j == v for j, v in zip(judge, verifier, strict=True)) / n
    pe = sum((judge.count(s) / n) * (verifier.count(s) / n) for s in set(judge) | set(verifier))
    got = cohen_kappa(judge, verifier)
    assert got["kappa"] == pytest.approx((po - pe) / (1 - pe))
    assert got["kappa_low"] < got["kappa"] < got["kappa_high"]
    assert cohen_kappa(["supported"] * 4, ["supported"] * 4)["kappa"] is None  # undefined: p_e = 1
    assert cohen_kappa(["supported"], ["supported"])["kappa"] is None


def test_grounding_summary_per_judge(verifier, shown):
    entries = {
        "judge-a": [
            ("RSI at 60.4", "supported", ["rsi14"]),
            ("RSI at 72", "supported", ["rsi14"]),
            ("P/E of 28.5", "supported", ["peRatio"]),
            ("AAPL will rally", "not_verifiable", []),
        ],
        "judge-b": [
            ("RSI at 72", "contradicted", ["rsi14"]),
            ("P/E of 35", "contradicted", ["pe_ratio_x"]),
            ("trading above its 200-day average", "supported", ["sma200"]),
        ],
    }
    rows = []
    for judge, items in entries.items():
        for text, status, fields in items:
            claim = _claim(text, status, fields)
            v = verifier.verify(claim)
            rows.append(
                GroundingRow(judge=judge, claim=claim, verification=v, cross_check=cross_check(claim, v, None, shown))
            )
    by_judge = grounding_by_judge(rows)
    a, b = by_judge["judge-a"], by_judge["judge-b"]
    assert a["claims"] == 4 and a["citations"] == 3 and a["valid_citations"] == 3
    assert a["verifier_contradicted"] == 1 and a["contradicted_missed"] == 1 and a["missed_claim_ids"] == ["RSI at 72"]
    assert a["agreement"] == pytest.approx(3 / 4)
    assert b["contradicted_missed"] == 0 and b["valid_citation_share"] == pytest.approx(2 / 3)
    assert b["flags"] == {"unknown_field": 1}
    assert b["confusion"]["contradicted"]["contradicted"] == 2
    assert grounding_summary([])["valid_citation_share"] is None
