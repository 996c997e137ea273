"""Alias assignment: deterministic per seed, seed-dependent, independent of the contestants' file order."""

from __future__ import annotations

import hashlib
import random

import pytest

from grader.anonymizer import UNDISCLOSED, Anonymizer, alias_label
from grader.season import Contestant
from tests.anonymizer._corpus import CONTESTANTS


def test_alias_labels_run_like_spreadsheet_columns():
    assert [alias_label(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA",
    ]  # fmt: skip


def test_aliases_are_deterministic_for_a_seed():
    a = Anonymizer.for_contestants(CONTESTANTS, "season-7")
    b = Anonymizer.for_contestants(CONTESTANTS, "season-7")
    assert a.mapping == b.mapping
    assert [x.alias for x in a.assignments] == [f"Contestant {c}" for c in "ABCDEFG"]
    assert sorted(a.mapping.values()) == sorted(c.id for c in CONTESTANTS)


def test_alias_order_is_the_sha256_order_of_seed_and_id():
    a = Anonymizer.for_contestants(CONTESTANTS, "season-7")
    expected = sorted(CONTESTANTS, key=lambda c: hashlib.sha256(f"season-7\x1f{c.id}".encode()).hexdigest())
    assert [x.contestant_id for x in a.assignments] == [c.id for c in expected]


def test_another_seed_gives_another_assignment():
    a = Anonymizer.for_contestants(CONTESTANTS, "season-7")
    b = Anonymizer.for_contestants(CONTESTANTS, "season-8")
    assert a.mapping != b.mapping


def test_alias_order_does_not_depend_on_the_file_order():
    shuffled = list(CONTESTANTS)
    random.Random(3).shuffle(shuffled)
    assert shuffled != CONTESTANTS
    assert Anonymizer.for_contestants(shuffled, "s").mapping == Anonymizer.for_contestants(CONTESTANTS, "s").mapping


def test_alias_order_is_not_the_file_order_for_some_seed():
    """Across seeds the first alias goes to different contestants (the order carries no information)."""
    firsts = {Anonymizer.for_contestants(CONTESTANTS, f"seed-{i}").assignments[0].contestant_id for i in range(40)}
    assert len(firsts) >= 4


def test_lookups_both_ways():
    a = Anonymizer.for_contestants(CONTESTANTS, "s")
    for c in CONTESTANTS:
        assert a.contestant_of(a.alias_of(c.id)) == c.id
        assert a.contestant_of(a.alias_id_of(c.id)) == c.id
        assert a.alias_id_of(c.id) == "contestant-" + a.alias_of(c.id).split()[-1].lower()
    with pytest.raises(KeyError, match="unknown contestant"):
        a.alias_of("nobody")
    with pytest.raises(KeyError, match="unknown alias"):
        a.contestant_of("Contestant Z")


def test_more_than_26_contestants_get_two_letter_aliases():
    many = [Contestant(id=f"trader-{i}", display_name=f"Trader {i}", provider_family="acme", model=f"acme-{i}")
            for i in range(50)]  # fmt: skip
    a = Anonymizer.for_contestants(many, "s")
    aliases = [x.alias for x in a.assignments]
    assert len(set(aliases)) == 50
    assert aliases[26] == "Contestant AA" and aliases[-1] == "Contestant AX"


def test_anonymized_contestant_discloses_nothing():
    a = Anonymizer.for_contestants(CONTESTANTS, "s")
    view = a.anonymize_contestant(CONTESTANTS[0])
    assert view.id == a.alias_id_of(CONTESTANTS[0].id)
    assert view.display_name == a.alias_of(CONTESTANTS[0].id)
    assert view.provider_family == UNDISCLOSED and view.model == UNDISCLOSED
    assert [c.id for c in a.anonymized_contestants()] == [f"contestant-{x}" for x in "abcdefg"]


def test_duplicate_ids_are_rejected():
    with pytest.raises(ValueError, match="duplicate contestant ids: openai-gpt-5-5"):
        Anonymizer.for_contestants([CONTESTANTS[0], CONTESTANTS[0]], "s")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", "contestant-b"),
        ("display_name", "Contestant C"),
        ("display_name", "Model"),
        ("model", "provider"),
    ],
)
def test_names_that_collide_with_aliases_or_placeholders_are_rejected(field, value):
    base = {"id": "x1-trader", "display_name": "Trader", "provider_family": "acme", "model": "acme-1"}
    base[field] = value
    with pytest.raises(ValueError, match="collides with the anonymizer's aliases or placeholders"):
        Anonymizer.for_contestants([Contestant(**base)], "s")
