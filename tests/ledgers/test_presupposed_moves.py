"""A move a sentence takes for given is a past fact even where the sentence forecasts ("could reverse energy gains",
"its recent outperformance may fade", "a rebound after recent weakness"), and an option named in brackets right
after a short noun phrase ("Tech (XLK) is ...", "Low volatility (SPLV) was flat") is that phrase's subject, not an
aside. Also: a sign said over a window ("XLK is up on the week"), adjectives of steady or strong momentum, "held up
better than", and an option named right before "leading" (near the top, never contradicted). Read by structure;
with no window written, a move is checked but never contradicted."""

from __future__ import annotations

import pytest

from tests.ledgers.test_reading_classes import statuses, store  # noqa: F401  (the shared fixture)


def _of(store, text, holding, *rules):  # noqa: F811
    return [(rule, sym, st) for rule, sym, st in statuses(store, text, holding) if rule in rules]


MOVES = ("momentum", "relative_momentum")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the object of a verb that would undo or extend the move
        ("A ceasefire could reverse crude gains.", [("momentum", "OIL", "supported")]),  # OIL +10.27% 5s, +28.6% 21s
        ("Tariff relief might unwind the semis slump.", [("momentum", "SEMICONDUCTORS", "supported")]),
        ("Earnings misses would erase financials outperformance.", [("relative_momentum", "FINANCIALS", "supported")]),
        # a coordinated list of owners: each one's move
        (
            "A ceasefire could reverse crude and utilities gains.",
            [("momentum", "OIL", "supported"), ("momentum", "UTILITIES", "supported")],
        ),
        # the subject a modal predicates a fate of
        ("Semis weakness could persist into earnings.", [("momentum", "SEMICONDUCTORS", "supported")]),
        ("Utilities gains may fade.", [("momentum", "UTILITIES", "supported")]),
        # after "after": the move before the event
        ("Buyers may step in after the semis slump.", [("momentum", "SEMICONDUCTORS", "supported")]),
    ],
)
def test_a_move_taken_for_given_under_a_forecast_is_read_as_a_past_fact(store, text, expected):  # noqa: F811
    assert _of(store, text, "HEALTHCARE", *MOVES) == expected


def test_an_owner_pronoun_gives_the_clauses_subject_and_the_undoing_may_have_its_circumstance(store):  # noqa: F811
    text = "Healthcare could give back its recent outperformance on policy headlines."
    assert _of(store, text, "HEALTHCARE", *MOVES) == [("relative_momentum", "HEALTHCARE", "supported")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # refuted on every window but no window is written: checked, never contradicted
        ("Rate cuts could reverse XLK gains.", [("momentum", "TECHNOLOGY", "not_verifiable")]),
        # the windows disagree (ENERGY +2.11% 5s, -3.99% 21s): no verdict
        ("A ceasefire could reverse energy gains.", [("momentum", "ENERGY", "not_verifiable")]),
    ],
)
def test_a_move_taken_for_given_with_no_window_is_never_contradicted(store, text, expected):  # noqa: F811
    assert _of(store, text, "HEALTHCARE", *MOVES) == expected


@pytest.mark.parametrize(
    "text",
    [
        "If energy gains continue, add to the position.",  # a condition: nothing taken for given
        "Stocks could reverse gains.",  # no option named and no owner
        "A ceasefire could reverse gains in crude and AI names.",  # a list with a word that names no option
        "Favor financials outperformance into earnings.",  # "outperformance" alone is no move taken for given
        "A spike in volatility could hurt semis.",  # a spike is read only as a move taken for given
    ],
)
def test_what_takes_no_move_for_given_is_not_read_as_one(store, text):  # noqa: F811
    got = _of(store, text, "HEALTHCARE", *MOVES)
    assert all(st != "contradicted" for _, _, st in got) and not any(
        sym in ("OIL", "HEALTHCARE", "FINANCIALS") for _, sym, _ in got
    ), got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tech (XLK) fell 5.90% over five sessions.", ("TECHNOLOGY", "supported")),
        ("Staples (XLP) rose 0.32% over five sessions.", ("CONSUMER_STAPLES", "supported")),
        # it rose 2.11%: its figure, but the second reading before an accusation does not take a subject from brackets
        ("Energy names (XLE) fell 2.11% over five sessions.", ("ENERGY", "not_verifiable")),
    ],
)
def test_an_option_bracketed_after_the_opening_noun_phrase_is_the_clauses_subject(store, text, expected):  # noqa: F811
    got = [(sym, st) for rule, sym, st in statuses(store, text, "HEALTHCARE") if rule == "exact_numeric"]
    assert got == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Healthcare beat the market (SPY) by 4.07% over five sessions.",  # a reference after a verb: an aside
        "Healthcare rose 3.12% over five sessions (XLP lagged).",  # more than a name in the brackets
    ],
)
def test_a_bracketed_reference_or_aside_is_not_the_subject(store, text):  # noqa: F811
    got = [(sym, st) for rule, sym, st in statuses(store, text, "HEALTHCARE") if rule == "exact_numeric"]
    assert all(sym == "HEALTHCARE" for sym, _ in got), got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XLK is up on the week.", [("TECHNOLOGY", "contradicted")]),  # TECHNOLOGY -5.90% over 5 sessions
        ("XLE is still positive 5d.", [("ENERGY", "supported")]),
        ("SMH down over the month.", [("SEMICONDUCTORS", "supported")]),  # -17.84% over 21 sessions
    ],
)
def test_a_sign_said_over_a_window_is_the_sign_of_that_windows_return(store, text, expected):  # noqa: F811
    assert [(sym, st) for rule, sym, st in statuses(store, text, "HEALTHCARE") if rule == "momentum"] == expected


@pytest.mark.parametrize(
    "text",
    [
        "If XLE is down on the week, trim.",  # a condition
        "XLF has positive 5-day and 21-day relative strength.",  # a measure follows: relative, not the return's sign
        "Semis could be down on the week.",  # a forecast
        "Up on the week, broadly.",  # no certain subject
    ],
)
def test_a_sign_over_a_window_with_no_certain_subject_or_a_measure_after_is_not_read_so(store, text):  # noqa: F811
    got = [(sym, st) for rule, sym, st in statuses(store, text, "HEALTHCARE") if rule == "momentum"]
    assert got == []


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Steady momentum in XLV.", "supported"),
        ("Sustained momentum.", "supported"),
        ("Strong trailing momentum in XLV amid policy headlines.", "supported"),  # "trailing" is no verb here
    ],
)
def test_adjectives_of_steady_or_strong_momentum_and_trailing_as_an_adjective(store, text, status):  # noqa: F811
    got = [(rule, st) for rule, sym, st in statuses(store, text, "HEALTHCARE") if sym == "HEALTHCARE"]
    assert got == [("momentum", status)]


def test_held_up_better_than_is_a_comparison_read_with_certainty(store):  # noqa: F811
    got = [
        (sym, st)
        for rule, sym, st in statuses(store, "XLK held up better than XLV over 5 sessions.")
        if rule == "compare"
    ]
    assert got == [("TECHNOLOGY", "contradicted")]  # -5.90% against +3.12%


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XLV leading with a 3.12% five-session gain.", [("HEALTHCARE", "supported")]),  # 2nd of 13 on 5 sessions
        ("XLK leading, per the table.", [("TECHNOLOGY", "not_verifiable")]),  # last: never a contradiction
        ("Rally with XLK leading declines.", []),  # leading what is written: not a standing
        ("Rates leading to a selloff in XLK.", []),
    ],
)
def test_an_option_named_right_before_leading_is_near_the_top_never_contradicted(store, text, expected):  # noqa: F811
    got = [(sym, st) for rule, sym, st in statuses(store, text, "UTILITIES") if rule == "ranking"]
    assert got == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A BOJ surprise or XLK weakness could extend the pullback.", []),  # a cause that may be hypothetical
        ("Recent XLK weakness could extend the pullback.", [("momentum", "TECHNOLOGY", "supported")]),  # dated: a fact
    ],
)
def test_a_move_a_modal_makes_a_cause_is_taken_for_given_only_when_dated(store, text, expected):  # noqa: F811
    assert _of(store, text, "HEALTHCARE", *MOVES) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Over 21 sessions XLV is up 6.01%.", ("HEALTHCARE", "supported")),  # the window the sentence opens with
        ("Over 21 sessions XLK is up 7.76%.", ("TECHNOLOGY", "not_verifiable")),  # -7.76%: inferred, no accusation
        ("XLE lost 3.99%.", ("ENERGY", "supported")),  # no window: the field it equals, a fall
    ],
)
def test_a_plain_move_takes_the_window_the_sentence_opens_with_and_its_verbs_sign(store, text, expected):  # noqa: F811
    got = [(sym, st) for rule, sym, st in statuses(store, text, "UTILITIES") if rule in ("exact_numeric", "any_field")]
    assert got == [expected]
