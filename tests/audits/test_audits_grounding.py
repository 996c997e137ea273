"""Grounding: valid citations, verifier agreement, missed contradictions, lookahead failures."""

from __future__ import annotations

import pandas as pd
import pytest

from audits import grounding


def _claim(
    judge: str, judge_status: str, verifier_status: str, *, cited: list[str], exists: bool, flag: bool = False
) -> dict[str, object]:
    return {
        "judge_id": judge,
        "contestant_id": "c1",
        "claim": f"{judge} says {judge_status}",
        "cited_fields": cited,
        "cited_field_exists": exists,
        "judge_status": judge_status,
        "verifier_status": verifier_status,
        "lookahead_flag": flag,
    }


def test_grounding_counts_per_judge() -> None:
    ledger = pd.DataFrame(
        [
            _claim("j1", "supported", "supported", cited=["peRatio"], exists=True),
            _claim("j1", "supported", "contradicted", cited=["rsi14"], exists=True),
            _claim("j1", "not_verifiable", "not_verifiable", cited=[], exists=False),
            _claim("j1", "contradicted", "contradicted", cited=["beta", "madeUpField"], exists=False, flag=True),
            _claim("j2", "supported", "supported", cited=["close"], exists=True),
            _claim("j2", "supported", "supported", cited=["sma50"], exists=True),
        ]
    )
    checks = pd.DataFrame(
        {"judge_id": ["j1", "j1", "j2"], "contestant_id": ["c1", "c2", "c1"], "passed": [True, False, True]}
    )
    result = grounding(ledger, checks)
    j1, j2 = result.judges
    assert j1.n_claims == 4 and j1.n_citing_claims == 3 and j1.n_uncited_claims == 1
    assert j1.valid_citation_share == pytest.approx(2 / 3)
    assert j1.status_agreement == pytest.approx(3 / 4)
    # kappa by hand: categories (supported, not_verifiable, contradicted)
    # judge: S,S,N,C -> marginals 2/4, 1/4, 1/4 ; verifier: S,C,N,C -> 1/4, 1/4, 2/4
    pe = 0.5 * 0.25 + 0.25 * 0.25 + 0.25 * 0.5
    assert j1.status_kappa == pytest.approx((0.75 - pe) / (1 - pe))
    assert j1.n_missed_contradictions == 1
    assert j1.n_lookahead_failures == 1 and j1.n_lookahead_checks == 2
    assert j1.n_lookahead_flagged_claims == 1
    assert [m.claim for m in result.missed_contradictions] == ["j1 says supported"]
    assert j2.valid_citation_share == 1.0 and j2.status_kappa is None  # one category only: undefined
    assert any("kappa with the verifier is undefined" in c for c in result.caveats)


def test_empty_ledger_is_reported_not_raised() -> None:
    result = grounding(None, None)
    assert not result.has_ledger and result.judges == []
    assert any("No claim ledgers" in c for c in result.caveats)


def test_stability_repeats_are_counted_apart_from_the_main_grading() -> None:
    main = pd.DataFrame(
        [
            _claim("j1", "supported", "supported", cited=["close"], exists=True),
            _claim("j1", "supported", "contradicted", cited=["rsi14"], exists=True),
        ]
    )
    # two re-gradings of the same input: the same two claims twice more, one missed contradiction each time
    repeats = pd.concat([main, main], ignore_index=True)
    checks = pd.DataFrame({"judge_id": ["j1"], "contestant_id": ["c1"], "passed": [True]})
    result = grounding(main, checks, repeats)
    (j1,) = result.judges
    assert (j1.n_claims, j1.n_missed_contradictions, j1.n_lookahead_checks) == (2, 1, 1)
    (r1,) = result.repeats
    assert (r1.n_claims, r1.n_missed_contradictions, r1.n_lookahead_checks) == (4, 2, 0)
    assert any("4 claims from stability repeats are counted apart" in c for c in result.caveats)
    assert grounding(main, checks).repeats == []
