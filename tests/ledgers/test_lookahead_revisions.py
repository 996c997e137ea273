"""A claim quoting a value known only after its decision (a later revision, a later round's table) is
flagged as lookahead, with the later value and when it was observed in the evidence and the reason."""

from __future__ import annotations

from datetime import date, datetime

import pandas as pd
import pytest

from grader.pit import MARKET_TZ, FieldRow, PointInTimeStore, close_time
from ledgers import Claim, VerifierConfig, structured_assertions, verify

DECIDED = datetime(2022, 1, 5, 15, 30, tzinfo=MARKET_TZ)
CFG = VerifierConfig(benchmark="SP500")


def _store() -> PointInTimeStore:
    days = [date(2022, 1, d) for d in (3, 4, 5, 6, 7, 10, 11)]
    prices = pd.DataFrame(
        [{"date": d, "symbol": s, "close": c} for d in days for s, c in (("AAA", 100.0 + d.day), ("SP500", 4700.0))]
    )
    rows = [
        FieldRow("AAA", "peRatio", 25.5, close_time(date(2021, 12, 31)), "filing-q3"),
        FieldRow("AAA", "peRatio", 27.35, close_time(date(2022, 1, 10)), "filing-q4"),
    ]  # the revision
    return PointInTimeStore(prices, rows, benchmark="SP500")


@pytest.mark.parametrize(
    "claim",
    [
        Claim(id="t", text="trades at a P/E of 27.35", decided_at=DECIDED, symbol="AAA"),
        Claim(
            id="s",
            text="P/E 27.35",
            decided_at=DECIDED,
            symbol="AAA",
            structured=True,
            assertions=structured_assertions([{"subject": "AAA", "field": "peRatio", "kind": "value", "value": 27.35}]),
        ),
    ],
    ids=["text", "structured"],
)
def test_a_revised_value_quoted_before_the_revision_is_lookahead(claim):
    v = verify(claim, _store(), CFG)
    assert v.lookahead and v.status == "contradicted"
    assert "matches only the value observed later (2022-01-10: 27.35)" in v.reason
    assert any(e.value == 27.35 for e in v.evidence)


def test_the_value_known_then_is_no_lookahead():
    v = verify(Claim(id="x", text="P/E of 25.5", decided_at=DECIDED, symbol="AAA"), _store(), CFG)
    assert v.status == "supported" and not v.lookahead


def test_a_value_only_a_later_round_published_is_lookahead_in_a_rounds_store():
    """Rounds seasons check a decision against its own round's table (a scoped store); the lookahead check
    still sees what later rounds published."""
    store = _store()
    early = store.scoped(lambda src: src == "filing-q3")
    v = verify(Claim(id="r", text="P/E of 27.35", decided_at=DECIDED, symbol="AAA"), early, CFG)
    assert v.lookahead and "2022-01-10: 27.35" in v.reason
    # a decision after the later round sees the later value in its own scope, and it is no lookahead there
    late = store.scoped(lambda src: src == "filing-q4")
    later_decision = datetime(2022, 1, 11, 15, 30, tzinfo=MARKET_TZ)
    v2 = verify(Claim(id="r2", text="P/E of 27.35", decided_at=later_decision, symbol="AAA"), late, CFG)
    assert v2.status == "supported" and not v2.lookahead
