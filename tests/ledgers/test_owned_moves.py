"""Moves whose owner is named inside the noun phrase ("strong healthcare momentum", "a sharp technology drawdown",
"high-momentum healthcare and utilities sectors"), forecast words used as nouns ("AI spending forecasts"), lists of
windows after a comparison ("over both 5-day and 21-day windows"), and a move said of a list after "in"."""

from __future__ import annotations

import pytest

from tests.ledgers.test_reading_classes import statuses, store  # noqa: F401  (the fixture)


def _of(store, text, holding, *rules):  # noqa: F811
    return [(rule, sym, st) for rule, sym, st in statuses(store, text, holding) if rule in rules]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # HEALTHCARE +3.12% 5s, +6.01% 21s; UTILITIES +2.48%, +1.65%; TECHNOLOGY -5.90%, -7.76%
        ("Adding strong healthcare momentum to the book.", [("momentum", "HEALTHCARE", "supported")]),
        ("The book avoids a sharp technology drawdown.", [("momentum", "TECHNOLOGY", "supported")]),
        (
            "Tilt to high-momentum healthcare and utilities sectors.",
            [("momentum", "HEALTHCARE", "supported"), ("momentum", "UTILITIES", "supported")],
        ),
        # refuted on both windows, but the adjective is a matter of degree and no window is written: never contradicted
        ("Adding strong technology momentum to the book.", [("momentum", "TECHNOLOGY", "not_verifiable")]),
        # a condition, a forecast, a word in the list that names no option: not read
        ("If strong healthcare momentum fades, trim.", []),
        ("We expect strong healthcare momentum into the print.", []),
        ("Solar adds a high-momentum clean energy component.", []),
    ],
)
def test_a_move_with_its_owner_inside_the_phrase(store, text, expected):  # noqa: F811
    assert _of(store, text, "SP500", "momentum") == expected


def test_a_forecast_cited_as_a_noun_does_not_make_the_rest_of_the_clause_a_forecast(store):  # noqa: F811
    text = "Supported by large AI spending forecasts and strong recent momentum."
    assert _of(store, text, "HEALTHCARE", "momentum") == [("momentum", "HEALTHCARE", "supported")]
    assert _of(store, "JPM forecasts strong momentum.", "HEALTHCARE", "momentum") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # RSP +1.42% / +1.26% against SPY -0.95% / +0.21%; XLK -5.90% / -7.76%
        ("RSP outperformed SPY over both 5-day and 21-day windows.", [("compare", "EQUAL_WEIGHT_SP500", "supported")]),
        ("XLK has outperformed SPY over 5- and 21-session windows.", [("compare", "TECHNOLOGY", "contradicted")]),
        ("Trim XLK if it underperforms SPY over 2%.", []),  # a condition, not a window
    ],
)
def test_a_list_of_windows_after_a_comparison(store, text, expected):  # noqa: F811
    assert _of(store, text, "HEALTHCARE", "compare") == expected


def test_a_recent_move_said_of_a_list_after_in_is_each_options(store):  # noqa: F811
    text = "Recent gains in healthcare, utilities and XLK could reverse."
    assert _of(store, text, "SP500", "momentum") == [
        ("momentum", "HEALTHCARE", "supported"),
        ("momentum", "UTILITIES", "supported"),
        # refuted on every window, but the clause names several options: not certain enough to contradict
        ("momentum", "TECHNOLOGY", "not_verifiable"),
    ]
    assert _of(store, "Recent strength in healthcare and utilities.", "SP500", "momentum") == []


def test_a_move_said_of_the_options_after_in(store):  # noqa: F811
    text = "Strong momentum in healthcare and utilities supports the tilt."
    assert _of(store, text, "SP500", "momentum") == [
        ("momentum", "HEALTHCARE", "supported"),
        ("momentum", "UTILITIES", "supported"),
    ]
    # a word that names no option stands in the list: not read as the energy fund's
    assert "ENERGY" not in {sym for _, sym, _ in _of(store, "Strong momentum in clean energy.", "SP500", "momentum")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # said now, the move exists: read, refuted on both windows, but with no window written never contradicted
        ("XLV weakness persists.", [("momentum", "HEALTHCARE", "not_verifiable")]),
        ("XLK weakness persists.", [("momentum", "TECHNOLOGY", "supported")]),
        ("Sell into the unusually large XLE rally.", [("momentum", "ENERGY", "not_verifiable")]),  # +2.11%, -3.99%
        ("It adds XLV for a potential one-week rebound.", []),  # a move still to come
        ("Strong benchmark-relative monthly momentum.", [("relative_momentum", "HEALTHCARE", "supported")]),
    ],
)
def test_moves_said_now_intensified_or_still_to_come(store, text, expected):  # noqa: F811
    assert _of(store, text, "HEALTHCARE", "momentum", "relative_momentum") == expected
