"""A figure written as the value of a key: the key names its field (ledgers/reading/_keys.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ledgers import extract_claims
from ledgers.reading._keys import spell

WHEN = datetime(2026, 7, 28, 20, tzinfo=UTC)


def _first(text: str):
    claims = extract_claims(text, WHEN, "ENERGY", None, benchmark="SP500")
    return claims[0].assertions[0]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("mdd_21s=-7.32%", "maxDrawdown21d"),  # abbreviations spelt out
        ("act_5s=-0.60%", "activeReturn5d"),
        ("ret_5s=+1.2%", "return5d"),
        ("maxdd 21s: -3.44%", "maxDrawdown21d"),
        ("prior_16s=+6.01%", "priorActiveReturn16d"),
        ("qual=0.58", "qualityEvidenceScore"),
        ("pb_rank=.030", "recentPullbackRank"),
        ('{"option": "SMALL_CAP", "quality_evidence_score": 0.756}', "qualityEvidenceScore"),  # a table's own name
        ("breadth_5s=43.5%", "positiveAssetShare5d"),
        ("r30d: +5.69%", "return30d"),  # a return and its window as one word
        ("vs_spy_30d: +4.07%", "activeReturn30d"),  # relative to the benchmark
        ("off_52w_high: -8.31%", "distance52wHigh"),  # a measure that holds a window-like part
        ("up_days_30d: 68%", "upDayShare30d"),  # a share, not the 30-day return the window alone would say
        ("spy_off_high: -0.76%", "distance52wHigh"),  # a ticker, then the field
    ],
)
def test_a_key_names_its_figure(text, field):
    assert _first(text).field == field


def test_a_key_not_read_is_never_matched_to_a_field_it_equals():
    a = _first("xyz_21s=-7.32%")
    assert a.rule == "unrecognised" and "xyz_21s" in (a.raw or "")


def test_a_word_before_a_colon_is_no_key_for_certain():
    assert _first("USO: +6.08% in 3 sessions").field == "return3d"  # the option leads, the words after bind


@pytest.mark.parametrize(
    ("key", "phrase"),
    [
        ("mdd_21s", "max drawdown 21s"),
        ("vol_z", "volume z-score"),
        ("dist_52w", "distance from 52-week high"),
        ("r7d", "return 7d"),
        ("off_52w_high", "distance from 52-week high"),
        ("r", None),
        ("off", None),
        ("ret_5s_21s", None),
        ("foo", None),
        ("rank", None),
    ],
)
def test_spell(key, phrase):
    assert spell(key) == phrase


def test_a_window_written_in_words_is_read():
    """'twenty-one sessions', 'ten sessions': windows written out are windows (a table's field, or a return
    derived from the closes over that many sessions)."""
    assert _first("TLT has shed 3.83% over twenty-one sessions.").field == "return21d"
    derived = _first("XLE rose 2.1% over ten sessions.")
    assert (derived.rule, derived.label) == ("derived_return", "10T")


def test_a_key_that_ranks_names_the_option_of_its_value():
    """'most_lowvol: XLP' is no key this reader spells; 'worst_21s: SMH' and 'most_volatile: SMH' are: a ranking
    of the option the value opens with, supported at first place, never contradicted (which set the sheet ranks is
    not written)."""
    from ledgers.reading import ranking_keys

    found = ranking_keys("worst_21s: SMH at -17.84%\nmost_volatile: SMH\nmost_lowvol: XLP\nbest_vol: XLU")
    assert [(k.field, k.polarity) for k in found] == [("return21d", -1), ("volatility20d", 1)]
