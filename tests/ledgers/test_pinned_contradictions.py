"""Every contradicted verdict the reference judge gives on the real rounds is one a person has checked by hand
(tests/ledgers/fixtures/pinned_contradictions.yaml, written by a reviewer who never read the verifier): a new
contradicted verdict fails here until someone checks it against the round's tables and pins it with the reason
it is right. A false accusation is the worst error the grader can make."""

from __future__ import annotations

from pathlib import Path

import yaml

from grader.reporting._contradictions import reference_contradictions
from tests.conftest import CB_ROUNDS

PINNED = Path(__file__).parent / "fixtures" / "pinned_contradictions.yaml"


def _pinned() -> dict[tuple, dict]:
    return {(p["round"], p["model"], p["subject"], p["claim"]): p for p in yaml.safe_load(PINNED.read_text())}


def test_every_contradiction_was_checked_by_a_person() -> None:
    """On the repository's 50 rounds, or on every public round with GRADER_TEST_CB_ROUNDS pointing at them."""
    rounds = CB_ROUNDS
    pinned = _pinned()
    found = reference_contradictions(rounds)
    assert found, "the real rounds hold genuine contradictions: the reference judge must still find some"
    unchecked = [c for c in found if c.key not in pinned]
    assert not unchecked, "contradicted verdicts nobody has checked:\n" + "\n".join(
        f"{c.round} {c.model} {c.subject}: {c.claim!r} in {c.clause!r} ({c.reason[:160]})" for c in unchecked
    )
    wrong = [(c, pinned[c.key]) for c in found if pinned[c.key]["verdict"] != "correct"]
    assert not wrong, "false accusations (a person checked them):\n" + "\n".join(
        f"{c.round} {c.model} {c.claim!r}: {p['verdict']}: {p['reason']}" for c, p in wrong
    )


def test_the_pinned_list_is_well_formed() -> None:
    entries = yaml.safe_load(PINNED.read_text())
    assert len(entries) >= 40 and all(
        e["reason"] and e["verdict"] in ("correct", "false_accusation", "unsure") for e in entries
    )
