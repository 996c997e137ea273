"""Names that usually, not always, mean an option ("tech" for the technology sector; ``colloquial_names.yaml``,
``uncertain:``): they find claims and support them when the option's data hold, but never make a claim
contradicted, never take a figure from a certain subject, and never head a line. Same store as
``test_reading_classes`` (TECHNOLOGY: 5-session return -5.90%, 21-session -7.76%, beta 1.30)."""

from __future__ import annotations

import pytest

from ledgers import UniverseIndex
from tests.ledgers.test_reading_classes import UNIVERSE, read, store  # noqa: F401  (the shared fixture)


def _verdicts(store, text, default=None):  # noqa: F811
    return [(c.symbol, v.status) for c, v in read(store, text, default)]


@pytest.mark.parametrize(
    "text",
    [
        "Tech has sold off over the past week.",
        "Rotation out of tech after its slide this month.",
        "Avoids high-beta tech.",
    ],
)
def test_an_uncertain_name_finds_and_supports_a_true_claim(store, text):  # noqa: F811
    assert ("TECHNOLOGY", "supported") in _verdicts(store, text)


@pytest.mark.parametrize(
    ("uncertain", "certain"),
    [
        ("Tech rallied over the past week.", "Technology rallied over the past week."),
        ("Tech shows strong recent momentum.", "The technology sector shows strong recent momentum."),
        ("Tech names rallied over the past week.", "Technology rallied over the past week."),
    ],
)
def test_an_uncertain_name_never_makes_a_contradiction(store, uncertain, certain):  # noqa: F811
    assert ("TECHNOLOGY", "contradicted") in _verdicts(store, certain)  # the same claim, the name written in full
    got = read(store, uncertain)
    assert [(c.symbol, v.status) for c, v in got] == [("TECHNOLOGY", "not_verifiable")]
    assert "usually, not always" in got[0][1].reason


@pytest.mark.parametrize(
    ("text", "default", "figure"),
    [
        ("Defensive ballast away from tech: up 3.12% over five sessions.", "HEALTHCARE", "3.12%"),
        ("Strong tech-adjacent demand drove a 6.01% gain over twenty-one sessions.", "HEALTHCARE", "6.01%"),
    ],
)
def test_a_figure_stays_with_its_certain_subject(store, text, default, figure):  # noqa: F811
    got = [(c.symbol, v.status) for c, v in read(store, text, default) if figure in c.text]
    assert got == [(default, "supported")]


def test_an_uncertain_name_heads_nothing_and_is_found_only_when_asked_for():
    index = UniverseIndex(UNIVERSE)
    assert index.resolve("Tech") is None and index.resolve("Technology") == "TECHNOLOGY"
    text = "tech and semis"
    assert [m.symbol for m in index.mentions(text)] == ["SEMICONDUCTORS"]
    found = index.mentions(text, uncertain=True)
    assert [(m.symbol, m.uncertain) for m in found] == [("TECHNOLOGY", True), ("SEMICONDUCTORS", False)]
    assert "names" not in index.words_of("TECHNOLOGY")  # "tech names": its words never make a clause certain
