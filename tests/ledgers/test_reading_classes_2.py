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
        # "tech" usually, not always, means XLK: it supports, never contradicts (test_uncertain_names)
        ("Tech is the most volatile sector.", [("TECHNOLOGY", "supported")]),
        ("Tech is the least volatile sector.", [("TECHNOLOGY", "not_verifiable")]),
        ("XLK is the least volatile sector.", [("TECHNOLOGY", "contradicted")]),
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


# -- a set the writer defines by its holdings --------------------------------------------------------------------------


def _held(store, text, holdings):  # noqa: F811
    read_out = read(store, text, None, False, holdings)
    return [(c.symbol, v.status) for c, v in read_out if c.assertions[0].rule != "forecast"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # HEALTHCARE +3.12% 5d / +6.01% 21d; TECHNOLOGY -5.90% / -7.76%: each holding's move, never an accusation
        (
            "Allocates to sectors with recent strength ahead of the data.",
            [("HEALTHCARE", "supported"), ("TECHNOLOGY", "not_verifiable")],
        ),
        ("Concentrated in recent winners.", [("HEALTHCARE", "supported"), ("TECHNOLOGY", "not_verifiable")]),
        # a sign the words do not carry, a condition, an aim: no claim
        ("Allocates to sectors with recent momentum.", []),
        ("If sectors with recent strength fade, we cut.", []),
        ("We will look for sectors showing strength.", []),
    ],
)
def test_a_set_defined_by_the_holdings_says_each_holdings_move(store, text, expected):  # noqa: F811
    assert _held(store, text, ["HEALTHCARE", "TECHNOLOGY"]) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The remaining positions target areas with strong relative performance.",  # a part: which one is unsaid
        "Tilt toward cyclical and defensive sectors showing recent strength.",
        "Concentrated in three sectors with recent strength.",  # two are held
    ],
)
def test_a_set_that_is_a_part_of_the_portfolio_is_not_every_holding(store, text):  # noqa: F811
    assert _held(store, text, ["HEALTHCARE", "TECHNOLOGY"]) == []


def test_a_set_counted_as_the_holdings_is_every_holding(store):  # noqa: F811
    text = "Concentrated in two sectors with recent strength."
    assert _held(store, text, ["HEALTHCARE", "TECHNOLOGY"]) == [
        ("HEALTHCARE", "supported"),
        ("TECHNOLOGY", "not_verifiable"),
    ]


def test_a_set_phrase_in_a_sentence_that_names_options_is_not_the_holdings(store):  # noqa: F811
    text = "Utilities and staples are sectors with recent strength."
    assert ("HEALTHCARE", "supported") not in _held(store, text, ["HEALTHCARE"])


# -- an option's leadership; a move under a condition after it -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XLU leadership continues.", [("UTILITIES", "supported")]),  # +2.48% 5d: 3rd of 13
        ("XLU leadership over XLV.", []),  # a comparison, another reader's
    ],
)
def test_an_options_leadership_is_read_near_the_top_and_never_accused(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "ranking") == expected


@pytest.mark.parametrize("text", ["XLK weakness if rates spike.", "Strong XLV momentum should the rotation continue."])
def test_a_move_with_a_condition_after_it_is_a_scenario(store, text):  # noqa: F811
    assert _verdicts(store, text, "momentum") == []


# -- performance and returns with an adjective that carries a sign -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("Solid recent performance on rate relief.", "FINANCIALS", [("FINANCIALS", "supported")]),  # 21d +4.82%
        ("Robust 21-day returns.", "HEALTHCARE", [("HEALTHCARE", "supported")]),  # +6.01%
        ("Solid recent performance.", "SEMICONDUCTORS", [("SEMICONDUCTORS", "contradicted")]),  # -7.11%, -17.84%
        # a word the certainty reader does not know: checked, never an accusation
        ("Exceptional recent performance.", "SEMICONDUCTORS", [("SEMICONDUCTORS", "not_verifiable")]),
        ("Poor recent returns.", "SEMICONDUCTORS", [("SEMICONDUCTORS", "supported")]),
        # an adjective that says no direction is not read
        ("Consistent recent returns.", "HEALTHCARE", []),
        ("Steady recent performance.", "HEALTHCARE", []),
    ],
)
def test_performance_with_an_adjective_of_sign_is_a_move(store, text, default, expected):  # noqa: F811
    assert _verdicts(store, text, "momentum", default) == expected


# -- leadership said of a list of options: each one a leader, near the top, never contradicted ---------------------
# (5-session returns: OIL +10.27% first, HEALTHCARE +3.12% second, UTILITIES +2.48% third; TECHNOLOGY near the foot)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Leadership in crude and health care.", [("OIL", "supported"), ("HEALTHCARE", "supported")]),
        ("Tilt toward momentum leaders (XLV, XLK).", [("HEALTHCARE", "supported"), ("TECHNOLOGY", "not_verifiable")]),
        ("Concentrated in XLV/XLU leadership.", [("HEALTHCARE", "supported"), ("UTILITIES", "supported")]),
        (
            "Leadership areas: XLV, XLU and select defensive names.",
            [("HEALTHCARE", "supported"), ("UTILITIES", "supported")],
        ),
        # the list ends where a comparison, a condition or a move away begins
        ("Leadership in XLV relative to XLP.", [("HEALTHCARE", "supported")]),
        ("Rotation away from leadership in XLV and XLU.", []),
        ("If leadership in XLV and XLU fades, trim.", []),
    ],
)
def test_leadership_said_of_a_list_is_each_option_s(store, text, expected):  # noqa: F811
    assert _verdicts(store, text, "ranking") == expected


# -- a comparative risk level with nothing written to compare with: against the benchmark, to support only -----------
# (SPY: volatility 12.12%, beta 1.00; XLV 16.50%, 0.40; RSP 9.87%, 0.85; XLK 25.00%, 1.30)


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        ("Defensive with lower beta.", "HEALTHCARE", [("HEALTHCARE", "supported")]),
        ("Broad participation with lower volatility.", "EQUAL_WEIGHT_SP500", [("EQUAL_WEIGHT_SP500", "supported")]),
        ("Adds higher-beta exposure.", "TECHNOLOGY", [("TECHNOLOGY", "supported")]),
        # what it is lower than is unsaid: a mismatch is a gap, never an accusation
        ("Defensive with lower volatility.", "HEALTHCARE", [("HEALTHCARE", "not_verifiable")]),
        # the other term written: the comparisons reader's, and certain
        ("XLK has lower beta than XLV.", "TECHNOLOGY", [("TECHNOLOGY", "contradicted")]),
        # "of the two": another set, not the market
        ("It has the lower beta of the two.", "HEALTHCARE", []),
    ],
)
def test_a_comparative_risk_level_with_no_other_term_is_read_against_the_benchmark(store, text, default, expected):  # noqa: F811
    assert _verdicts(store, text, "compare", default) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Healthcare was at a 0.00% distance from its 52-week high.",
        "RSP sits at a 1.2% drawdown from its 52w high.",
        "XLF: 2.4% below its 52-week high.",
    ],
)
def test_a_distance_or_drawdown_from_the_52_week_high_names_the_distance(text):
    from ledgers.reading import parse_assertions

    got = [(a.rule, a.field) for a in parse_assertions(text, "HEALTHCARE", (), "SP500")]
    assert got == [("distance_52w_high", "week52High")]


# -- a predicate said of a coordinated list of options is each option's (support only) -----------------------------
# (21-session returns: HEALTHCARE +6.01%, FINANCIALS +4.82%, UTILITIES +1.65%, TECHNOLOGY -7.76%)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "XLV, XLF and XLU have shown positive momentum.",
            [("HEALTHCARE", "supported"), ("FINANCIALS", "supported"), ("UTILITIES", "supported")],
        ),
        ("XLK and XLV have shown positive momentum.", [("TECHNOLOGY", "not_verifiable"), ("HEALTHCARE", "supported")]),
        # not a list subject: a second verb, a comma, another clause
        ("Sell XLK and buy XLV with positive momentum.", [("HEALTHCARE", "supported")]),
        ("Rotate from XLK into XLV with positive momentum.", [("HEALTHCARE", "supported")]),
    ],
)
def test_a_predicate_of_a_list_subject_is_each_option_s(store, text, expected):  # noqa: F811
    assert sorted(_verdicts(store, text, "momentum")) == sorted(expected)


def test_cap_weight_names_the_s_and_p_500_beside_its_equal_weight_twin(store):  # noqa: F811
    """'cap weight' is keyed by SPY's ticker (both options' names hold "S&P 500"): equal weight against it."""
    from ledgers import UniverseIndex
    from tests.ledgers.test_reading_classes import UNIVERSE

    index = UniverseIndex(UNIVERSE)
    assert [m.symbol for m in index.mentions("equal weight beating cap weight")] == ["EQUAL_WEIGHT_SP500", "SP500"]
    got = [(c.symbol, v.status) for c, v in read(store, "Equal weight beating cap weight over five sessions.")]
    assert ("EQUAL_WEIGHT_SP500", "supported") in got  # RSP 5d +1.42% against SPY -0.95%


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an aim at a move the data already show: the move is each allocated option's
        (
            "Allocates to XLV and XLU to capture relative strength.",
            [("HEALTHCARE", "supported"), ("UTILITIES", "supported")],
        ),
        ("Buy XLV to capture recent outperformance.", [("HEALTHCARE", "supported")]),
        # an aim at a move still to come is a forecast
        ("Buy XLK to capture a rebound.", []),
    ],
)
def test_to_capture_a_given_move_reads_the_move(store, text, expected):  # noqa: F811
    assert sorted(_verdicts(store, text, "relative_momentum")) == sorted(expected)
