"""Classes of wording read since the reading classes of ``test_reading_classes`` (same store: 5- and 21-session
returns, 5-session active return, 21-session volatility, 63-session beta). Each class in wordings of its own, not
the labelled sets' sentences."""

from __future__ import annotations

import pytest

from tests.ledgers.test_reading_classes import read, statuses, store  # noqa: F401  (the shared fixture)


def _verdicts(store, text, rule=None, default=None):  # noqa: F811
    return [(c.symbol, v.status) for c, v in read(store, text, default) if rule is None or c.assertions[0].rule == rule]


# -- windows that disagree: one that dominates decides a support, never an accusation --------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # FINANCIALS 5d -0.05% (dead band), 21d +4.82%: the month dominates and agrees
        ("Financials have strong recent momentum.", [("FINANCIALS", "supported")]),
        # ... and against a claim of weakness it is not verifiable, never a contradiction
        ("Financials have weak recent momentum.", [("FINANCIALS", "not_verifiable")]),
        # ENERGY 5d +2.11%, 21d -3.99%: neither dominates (ratio about 1:2): which window was meant is a guess
        ("Energy has strong momentum.", [("ENERGY", "not_verifiable")]),
        ("Energy has weak momentum.", [("ENERGY", "not_verifiable")]),
    ],
)
def test_a_dominant_window_supports_an_unscoped_move_and_never_accuses(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "momentum") == expected


# -- windows and ranks spelled in words ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Utilities' five-session active return is 3.43%.", [("UTILITIES", "supported")]),
        ("Utilities' five-session active return is -3.43%.", [("UTILITIES", "contradicted")]),
        ("XLF returned 4.82% over twenty-one sessions.", [("FINANCIALS", "supported")]),
    ],
)
def test_a_window_spelled_in_words_names_its_field(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "exact_numeric") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Crude (USO) posted the best five-session return in the universe.", [("OIL", "supported")]),
        ("Semis posted the worst twenty-one-session return in the universe.", [("SEMICONDUCTORS", "supported")]),
        ("Utilities posted the best twenty-one-session return in the universe.", [("UTILITIES", "contradicted")]),
    ],
)
def test_a_superlative_over_a_window_spelled_in_words_is_ranked_on_it(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "ranking") == expected


# -- superlatives whose adjective carries the measure; the sheet is the universe ------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SMH is the most volatile fund on the sheet.", [("SEMICONDUCTORS", "supported")]),
        ("Tech is the most volatile sector.", [(None, "not_verifiable")]),  # "tech" alone names no option
        ("XLK is the most volatile sector.", [("TECHNOLOGY", "supported")]),  # 25.00%, first of the six sectors
        ("XLF is the least volatile sector.", [("FINANCIALS", "supported")]),  # 13.78%
        ("XLV is the least volatile sector.", [("HEALTHCARE", "contradicted")]),  # 16.50%, fifth of six
    ],
)
def test_most_and_least_volatile_rank_on_volatility_in_the_set_their_noun_names(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "ranking") == expected


def test_the_best_on_the_sheet_ranks_in_the_whole_universe(store):  # noqa: F811
    text = "USO beat SPY by 11.22% over five sessions, the best on the sheet."
    assert ("OIL", "supported") in _verdicts(store, text)


# -- the other term of a comparison and its relative clause ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Unlike SPY, which fell 0.95% over five sessions, XLV gained 3.12%.",
            [("SP500", "supported"), ("HEALTHCARE", "supported")],
        ),
        (
            "Compared with SPY, which was down 0.95% over five sessions, utilities rose 2.48%.",
            [("SP500", "supported"), ("UTILITIES", "supported")],
        ),
    ],
)
def test_unlike_marks_the_other_term_and_its_relative_clause_is_its_own(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "exact_numeric") + _verdicts(store, text, "any_field") == expected


@pytest.mark.parametrize(
    "text",
    ["XLU added 3.43% relative to SPY this week.", "XLU gained 3.43% vs SPY on the week."],
)
def test_a_word_window_after_the_benchmark_is_the_relative_returns(store, text):  # noqa: F811
    assert _verdicts(store, text, "relative_return") == [("UTILITIES", "supported")]


# -- a state noun after a cause is a fact; after a plan it is not ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Gains were driven by SMH weakness elsewhere.", [("SEMICONDUCTORS", "supported")]),
        ("The book was dragged by XLK weakness.", [("TECHNOLOGY", "supported")]),
        ("We would buy on XLK weakness.", []),
        ("Sell into XLV strength.", []),
    ],
)
def test_a_move_named_as_a_cause_is_taken_for_a_fact(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "momentum") == expected
