"""Moves and leadership said as noun phrases ("its recent sharp rally", "the recent 7-day oil rally", "sector
leadership") and lagging over a window ("lagged SPY over 21 sessions", "has lagged over 21 sessions"), read by the
phrase's structure: what is read, whose it is, and what is never contradicted."""

from __future__ import annotations

import pytest

from tests.ledgers.test_reading_classes import DECIDED, UNIVERSE, read, statuses, store  # noqa: F401  (the shared fixture)


def _moves(store, text, holding):  # noqa: F811
    return [(sym, st) for rule, sym, st in statuses(store, text, holding) if rule == "momentum"]


@pytest.mark.parametrize(
    ("text", "holding", "expected"),
    [
        # the option named inside the phrase is its subject; "recent" is the short windows
        ("Crude's recent sharp rally is the catalyst.", "HEALTHCARE", [("OIL", "supported")]),  # OIL +10.27% 5s
        (
            "Traders could fade the recent oil rally.",
            "HEALTHCARE",
            [("OIL", "supported")],
        ),  # a past fact a forecast takes for given
        ("The recent semis weakness continues.", "HEALTHCARE", [("SEMICONDUCTORS", "supported")]),
        ("Its recent pullback.", "OIL", [("OIL", "contradicted")]),  # OIL rose over every window
        ("Crude had a sharp recent rise.", "OIL", [("OIL", "supported")]),  # a market word naming the option itself
        # a time word alone: the clause's subject
        ("Healthcare: recent strength with low beta.", "HEALTHCARE", [("HEALTHCARE", "supported")]),
    ],
)
def test_a_move_said_as_a_noun_phrase_is_the_sign_of_its_subjects_return(store, text, holding, expected):  # noqa: F811
    assert _moves(store, text, holding) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Commodity weakness persists.",  # another subject's move
        "Earnings strength supports the name.",
        "Sticky inflation favors dollar strength.",  # a view of the future, no time word
        "It has the deepest recent pullback in the group.",  # a ranking, not a move
        "Staples and utilities, which showed recent strength, are defensive.",  # a set
        "If a pullback comes, add.",  # an indefinite move under a condition
        "Buy on weakness.",
        "Value outperformed in the recent selloff.",  # the market's move, not the subject's
        "A very low recent-pullback rank.",  # "recent-pullback" modifies "rank"
    ],
)
def test_phrases_that_name_no_single_subject_or_no_past_move_are_not_read(store, text):  # noqa: F811
    assert _moves(store, text, "HEALTHCARE") == []


def test_a_recent_move_is_not_contradicted_while_the_month_agrees_with_it(store):  # noqa: F811
    """ "XLE's recent pullback": XLE rose over 5 sessions (+2.11%) but fell over 21 (-3.99%); writers differ on how
    long "recent" is, so the claim is not verifiable, never a false accusation."""
    assert _moves(store, "XLE's recent pullback.", "HEALTHCARE") == [("ENERGY", "not_verifiable")]


def test_a_move_with_no_window_written_is_checked_but_never_contradicted(store):  # noqa: F811
    """ "A large prior semiconductor run": which window is unsaid; SMH fell over the month (-17.84% 21s), yet a
    longer run may be meant."""
    got = [(c.symbol, v.status) for c, v in read(store, "TSMC could disappoint after a large prior semis run.")]
    assert ("SEMICONDUCTORS", "not_verifiable") in got
    assert all(st != "contradicted" for _, st in got)


@pytest.mark.parametrize(
    ("text", "holding", "status"),
    [
        ("Healthcare: sector leadership with low beta.", "HEALTHCARE", "supported"),  # first of the sectors on 5s
        ("XLV showed leadership this month.", "HEALTHCARE", "supported"),
        ("XLK showed leadership this month.", "TECHNOLOGY", "not_verifiable"),  # last: vague, never contradicted
    ],
)
def test_leadership_is_a_place_among_the_first_three_never_a_contradiction(store, text, holding, status):  # noqa: F811
    got = [(sym, st) for rule, sym, st in statuses(store, text, holding) if rule == "ranking"]
    assert got == [(holding, status)]


@pytest.mark.parametrize(
    "text", ["AI leadership remains intact.", "Value leadership over growth.", "Momentum leaders."]
)
def test_leadership_of_another_subject_or_a_set_is_not_read(store, text):  # noqa: F811
    assert [r for r, _, _ in statuses(store, text, "HEALTHCARE") if r == "ranking"] == []


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("XLE lagged SPY over the past week.", "contradicted"),  # 5s: +2.11% vs SPY -0.95%: it led
        ("XLE lagged SPY over 21 sessions.", "supported"),  # -3.99% vs +0.21%: the window written, not every window
        ("XLE has lagged over 21 sessions despite rising oil.", "supported"),  # no option named: against the market
        ("XLE has outperformed over 21 sessions.", "not_verifiable"),  # false, but the reference is unsaid
    ],
)
def test_lagging_is_read_over_the_window_written(store, text, status):  # noqa: F811
    got = [st for rule, sym, st in statuses(store, text, "HEALTHCARE") if rule == "compare" and sym == "ENERGY"]
    assert got == [status]


@pytest.mark.parametrize("text", ["XLE outperformed peers.", "XLE lagged expectations.", "XLE beat over 21 sessions."])
def test_lagging_something_that_is_no_option_is_not_read(store, text):  # noqa: F811
    assert [r for r, _, _ in statuses(store, text, "HEALTHCARE") if r == "compare"] == []


def test_no_drawdown_from_highs_is_at_the_52_week_high():
    """ "No drawdown from highs" says the close is at its 52-week high (the only high the tables show)."""
    from ledgers import extract_claims

    claims = extract_claims("XLV: no drawdown from highs.", DECIDED, "HEALTHCARE", UNIVERSE)
    got = [(a.rule, a.field, a.label) for c in claims for a in c.assertions or ()]
    assert ("near_52w_extreme", "week52High", "at") in got


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("XLV: low S&P beta and recent gains.", "supported"),  # beta 0.40: against the market, as every beta is
        ("XLK: low market beta.", "contradicted"),  # beta 1.30
    ],
)
def test_a_beta_level_may_name_the_market_it_is_taken_against(store, text, status):  # noqa: F811
    got = [st for rule, _, st in statuses(store, text, "HEALTHCARE") if rule == "beta_level"]
    assert got == [status]


def test_a_dated_move_of_a_list_of_options_is_each_ones(store):  # noqa: F811
    # "the recent XLF/XLE run-up": both ran up recently; each is checked (FINANCIALS -0.05% over 5 sessions, the dead
    # band, but +4.82% over 21: the month dominates and agrees; ENERGY +2.11%)
    text = "A reversal of the recent sharp XLF/XLE run-up is the risk."
    assert _moves(store, text, "HEALTHCARE") == [("FINANCIALS", "supported"), ("ENERGY", "supported")]
