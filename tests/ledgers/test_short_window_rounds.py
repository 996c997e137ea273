"""A round whose tables show only short windows (the late-July weekly format: 3 and 5 sessions): a move or relative
strength with no window written is read on the windows the writer was shown, to support only; a mismatch is not
verifiable (a longer move the writer knew of from elsewhere may be meant), never a contradiction."""

from __future__ import annotations

from datetime import date

import pandas as pd
import pytest

from grader.pit import FieldRow, PointInTimeStore, close_time
from ledgers import VerifierConfig, extract_claims, verify_many
from tests.ledgers.test_reading_classes import DECIDED, LABELS, UNIVERSE

SHORT = {  # return3d, return5d
    "SP500": (-0.010, -0.015),
    "HEALTHCARE": (0.025, 0.030),
    "TECHNOLOGY": (-0.032, -0.045),
    "ENERGY": (0.020, -0.018),
}


@pytest.fixture(scope="module")
def store() -> PointInTimeStore:
    when = close_time(date(2026, 7, 17))
    rows = [
        FieldRow(s, f, v, when, "capitalbench:R")
        for s, vals in SHORT.items()
        for f, v in zip(("return3d", "return5d"), vals, strict=True)
    ]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": s, "close": 100.0} for s in SHORT])
    labels = {s: {"name": UNIVERSE[s][0], "sector": LABELS[s][0], "asset_class": LABELS[s][1]} for s in SHORT}
    return PointInTimeStore(prices, rows, benchmark="SP500", labels=labels)


def _verdicts(store, text, default=None):
    claims = extract_claims(
        text,
        DECIDED,
        default,
        {s: UNIVERSE[s] for s in SHORT},
        benchmark="SP500",
        available_fields=["return3d", "return5d"],
    )
    got = verify_many(claims, store, VerifierConfig(benchmark="SP500"))
    return [(c.symbol, c.assertions[0].rule, v.status) for c, v in zip(claims, got, strict=True)]


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("Technology weakness persists.", None, [("TECHNOLOGY", "momentum", "supported")]),
        ("Healthcare strength continues.", None, [("HEALTHCARE", "momentum", "supported")]),
        # against the windows shown: a gap, not an accusation
        ("Technology strength continues.", None, [("TECHNOLOGY", "momentum", "not_verifiable")]),
        ("Energy strength continues.", None, [("ENERGY", "momentum", "not_verifiable")]),  # the windows disagree
        (
            "Defensive sector with strong relative strength.",
            "HEALTHCARE",
            [("HEALTHCARE", "relative_momentum", "supported")],
        ),
        ("Shows relative strength.", "TECHNOLOGY", [("TECHNOLOGY", "relative_momentum", "not_verifiable")]),
    ],
)
def test_an_unwindowed_move_is_read_on_the_short_windows_shown_to_support_only(store, text, default, expected):
    assert _verdicts(store, text, default) == expected
