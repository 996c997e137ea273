"""A superlative beside a precise figure whose measure is unsaid ("(-5.29%, the weakest of any sector)") is ranked on
the one field of its option the value equals, to support only (``Verifier._ranked_figure``). Same store as
``test_reading_classes``."""

from __future__ import annotations

import pytest

from tests.ledgers.test_reading_classes import read, store  # noqa: F401  (the shared fixture)

# -- a superlative beside a precise figure whose measure is unsaid: ranked on the field the value equals -----------
# (sectors' 5-session active returns: HEALTHCARE +4.07% first, UTILITIES +3.43% second)


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("It beat SPY over five sessions (+4.07%, the best of any sector).", "HEALTHCARE", "supported"),
        # the value alone says which measure: a refuted rank is a gap, never an accusation
        ("It beat SPY over five sessions (+3.43%, the best of any sector).", "UTILITIES", "not_verifiable"),
        # two significant digits could equal another measure by chance: not read
        ("It beat SPY over five sessions (+4.1%, the best of any sector).", "HEALTHCARE", "not_verifiable"),
    ],
)
def test_a_superlative_beside_a_precise_figure_ranks_on_the_field_it_equals(store, text, default, expected):  # noqa: F811
    got = [v.status for c, v in read(store, text, default) if "best" in c.text]
    assert got == [expected]
