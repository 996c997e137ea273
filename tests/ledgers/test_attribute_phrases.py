"""Levels said as attributes of named options ("high-beta semiconductor holdings", "elevated volatility, especially
in semis"), an option's bare "strength" or "weakness", "near highs", a comparison verb with no object, and a scope
put in front of a superlative ("Among the sectors, ..."): read by the phrase's structure, each with the subject it
names, and never a guess where the structure leaves the subject or the set unsaid."""

from __future__ import annotations

import pytest

from tests.ledgers.test_reading_classes import read, statuses, store  # noqa: F401  (the shared fixture)


def _of_rule(store, text, holding, *rules):  # noqa: F811
    return [(sym, st) for rule, sym, st in statuses(store, text, holding) if rule in rules]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the options the noun phrase lists; a forecast takes the attribute for given
        (
            "A hawkish Fed could pressure high-beta semiconductor and technology holdings.",
            [("SEMICONDUCTORS", "supported"), ("TECHNOLOGY", "supported")],  # beta 2.20, 1.30
        ),
        ("Risk-off could hurt high-beta holdings such as semis.", [("SEMICONDUCTORS", "supported")]),
        ("The tradeoff is elevated volatility, especially in semis.", [("SEMICONDUCTORS", "supported")]),  # 65.9%
        ("It balances low-beta staples exposure.", [("CONSUMER_STAPLES", "supported")]),  # beta 0.30
        # refuted (beta 1.30), but a head noun ("exposure") is a word the certainty check does not read: no accusation
        ("Low-beta technology exposure.", [("TECHNOLOGY", "not_verifiable")]),
    ],
)
def test_a_level_said_of_the_options_a_noun_phrase_lists_is_theirs(store, text, expected):  # noqa: F811
    assert _of_rule(store, text, "HEALTHCARE", "beta_level", "volatility_level") == expected


@pytest.mark.parametrize(
    "text",
    [
        "A hawkish Fed could pressure high-beta AI names.",  # "AI" is no option
        "XLF adds higher-beta exposure.",  # higher than what is unsaid
        "It adds high-beta semiconductor and crypto-linked holdings.",  # a word that names no option in the list
    ],
)
def test_an_attribute_of_anything_but_listed_options_is_not_read_as_theirs(store, text):  # noqa: F811
    got = _of_rule(store, text, "HEALTHCARE", "beta_level", "volatility_level")
    assert all(sym == "SEMICONDUCTORS" and st != "contradicted" for sym, st in got) and not any(
        sym == "HEALTHCARE" for sym, _ in got
    )


@pytest.mark.parametrize(
    ("text", "holding", "expected"),
    [
        ("Defensive with momentum via XLV strength.", "FINANCIALS", [("HEALTHCARE", "supported")]),
        ("Broadening away from semis weakness.", "HEALTHCARE", []),  # "away from": a plan, not a state
        ("Rotation amid semis weakness.", "HEALTHCARE", [("SEMICONDUCTORS", "supported")]),
        ("Sticky inflation favors XLE strength.", "HEALTHCARE", []),  # a view
        ("Buy on XLE weakness.", "HEALTHCARE", []),  # a plan
        ("If semis weakness persists, trim.", "HEALTHCARE", []),  # a condition
    ],
)
def test_an_options_bare_strength_is_read_only_where_it_states_its_present_state(
    store,  # noqa: F811
    text,
    holding,
    expected,
):
    assert _of_rule(store, text, holding, "momentum") == expected


def test_a_bare_strength_says_no_window_and_is_never_contradicted(store):  # noqa: F811
    """ "via XLK strength": XLK fell over every window, yet which window the writer meant is unsaid."""
    assert _of_rule(store, "Defensive with momentum via XLK strength.", "HEALTHCARE", "momentum") == [
        ("TECHNOLOGY", "not_verifiable")
    ]


@pytest.mark.parametrize(
    ("text", "holding", "expected"),
    [
        # the verb's own subject, named right before it or opening the sentence for a second predicate
        ("XLF adds exposure to the energy catalyst and has recently outperformed.", "HEALTHCARE", ["FINANCIALS"]),
        ("Utilities have been outperforming.", "HEALTHCARE", ["UTILITIES"]),
        ("Outperforming with a positive 5-session return.", "HEALTHCARE", ["HEALTHCARE"]),
        ("XLU, which has outperformed over 5 sessions.", "HEALTHCARE", ["UTILITIES"]),
        # whose the verb is cannot be told: not read
        ("Avoids weak energy and rate-sensitive defensives lagging.", "HEALTHCARE", []),
        ("Value and quality tilt outperforming.", "HEALTHCARE", []),
    ],
)
def test_a_comparison_verb_with_no_object_is_read_only_of_a_certain_subject(store, text, holding, expected):  # noqa: F811
    assert [sym for rule, sym, _ in statuses(store, text, holding) if rule == "compare"] == expected


def test_near_highs_is_read_only_of_a_certain_subject(store):  # noqa: F811
    def near(text):
        return [
            (a.symbol or c.symbol)
            for c, _ in read(store, text, "HEALTHCARE")
            for a in c.assertions or []
            if a.rule == "near_52w_extreme"
        ]

    assert near("XLE is trading near its highs.") == ["ENERGY"]
    assert near("Positive 5-session alpha and near highs.") == ["HEALTHCARE"]
    assert near("With the broad tape near highs, add cyclicals.") == []  # "the broad tape" names no option


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Among the sectors, XLV has the best 5-session return.", "supported"),  # 1st of the sectors, +3.12%
        ("XLV has the best 5-session return.", "contradicted"),  # OIL +10.27% in the universe
        ("Among our picks, XLV has the best 5-session return.", "not_verifiable"),  # a set no table names
        ("In the last week, XLV had the best 5-session return.", "contradicted"),  # a time, not a set
    ],
)
def test_a_scope_put_in_front_of_a_superlative_is_where_it_ranks(store, text, expected):  # noqa: F811
    assert _of_rule(store, text, "HEALTHCARE", "ranking") == [("HEALTHCARE", expected)]


@pytest.mark.parametrize(
    ("text", "holding", "rule", "expected"),
    [
        ("XLV has lower beta than the benchmark.", "HEALTHCARE", "compare", [("HEALTHCARE", "supported")]),
        ("Positive 5-session alpha.", "HEALTHCARE", "relative_momentum", [("HEALTHCARE", "supported")]),
        ("We seek to generate positive alpha.", "HEALTHCARE", "relative_momentum", []),  # an aim
        ("Utilities have led recently.", "HEALTHCARE", "ranking", [("UTILITIES", "supported")]),  # 3rd on 5 sessions
        ("Recent strength in utilities supports the tilt.", "HEALTHCARE", "momentum", [("UTILITIES", "supported")]),
        ("Recent strength in utilities and staples.", "HEALTHCARE", "momentum", []),  # a list: whose is unsaid
        ("The utilities sector is also showing strength.", "HEALTHCARE", "momentum", [("UTILITIES", "supported")]),
        ("SMH fell, and its high beta adds risk.", "HEALTHCARE", "beta_level", [("SEMICONDUCTORS", "supported")]),
        # a market word that is no subject of the phrase, in another option's rationale: not read as the oil fund's
        # (it was, and a hand check found it: the strength is the energy fund's)
        (
            "Energy equities have support from the sharp crude move and positive recent relative strength.",
            "ENERGY",
            "relative_momentum",
            [],
        ),
        ("Crude inventory draws and recent price strength.", "OIL", "momentum", [("OIL", "supported")]),
        ("Value, breadth and international relative strength.", "HEALTHCARE", "relative_momentum", []),
    ],
)
def test_phrases_read_on_holdout_v8_each_with_a_certain_subject(store, text, holding, rule, expected):  # noqa: F811
    assert _of_rule(store, text, holding, rule) == expected


@pytest.mark.parametrize(
    ("text", "holding", "rule", "expected"),
    [
        ("Helped by rising crude prices.", "ENERGY", "momentum", [("OIL", "supported")]),  # +10.27% 5s, +28.6% 21s
        ("A rebound could hurt the falling semis.", "HEALTHCARE", "momentum", [("SEMICONDUCTORS", "supported")]),
        ("Rotation in a rising market.", "HEALTHCARE", "momentum", []),  # a kind of market, not this one
        ("Rising oil demand supports refiners.", "ENERGY", "momentum", []),  # demand is no price
        ("Utilities have also been firm.", "HEALTHCARE", "momentum", [("UTILITIES", "supported")]),
        ("Lower exposure to high-beta semis.", "HEALTHCARE", "beta_level", [("SEMICONDUCTORS", "supported")]),
        (
            "Crude's high recent volatility argues for a smaller size.",
            "ENERGY",
            "volatility_level",
            [("OIL", "supported")],
        ),
    ],
)
def test_participles_possessives_and_bare_lists(store, text, holding, rule, expected):  # noqa: F811
    assert _of_rule(store, text, holding, rule) == expected
