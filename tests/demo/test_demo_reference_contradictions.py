"""Every claim the reference baseline calls contradicted in the demo season is a real mismatch.

The demo's grounded contestants cite the true point-in-time values (checked by an independent reader in
``demo_checks``), so none of their claims may be contradicted; the planted misquoter (deepseek-r1) cites wrong
numbers, and each of its contradicted claims must be one of those wrong numbers, read with its sign and not an
indicator's parameter ("RSI(14) at 69.4" is RSI 69.4, "down 8.4%" is -8.4%)."""

from __future__ import annotations

import re

import pytest

from grader.demo import DEMO_DIR, DEMO_ENTRANTS, STRATEGIES
from grader.judges.reference import ReferenceJudge
from grader.season import load_bundle
from tests.demo.demo_checks import decisions_with_claims, true_value


@pytest.fixture(scope="module")
def run():
    bundle = load_bundle(DEMO_DIR)
    judge = ReferenceJudge(bundle, None)
    return bundle, {c.id: judge.checked_claims(c.id) for c in bundle.contestants}


def test_grounded_contestants_have_no_contradicted_claim(run):
    bundle, checked = run
    grounded = [e.id for e in DEMO_ENTRANTS if STRATEGIES[e.style].grounded]
    assert len(grounded) == 6
    wrong = [(cid, c.text, v.reason) for cid in grounded for c, v in checked[cid] if v.status == "contradicted"]
    assert wrong == []


def test_every_contradiction_of_the_misquoter_is_one_of_its_wrong_numbers(run):
    bundle, checked = run
    cited = {d.decided_at: cs for d, cs in decisions_with_claims(bundle, "deepseek-r1")}
    decisions = {d.decided_at: d for d in bundle.decisions_of("deepseek-r1")}
    contradicted = [(c, v) for c, v in checked["deepseek-r1"] if v.status == "contradicted"]
    assert len(contradicted) >= 80
    for claim, ver in contradicted:
        if not re.search(r"\d", claim.text):  # a planted qualitative claim ("uptrend" while the trend is down)
            assert ver.rule in ("momentum", "sma_position", "rsi_state"), (claim.text, ver.reason)
            continue
        matches = [c for c in cited[claim.decided_at] if claim.text in c.text or c.text in claim.text]
        assert matches, f"{claim.text!r} is no number the contestant cited"
        stated = claim.assertions[0].stated
        assert any(abs(stated - c.value) <= c.tolerance + 1e-9 for c in matches), (claim.text, stated)
        c = next(c for c in matches if abs(stated - c.value) <= c.tolerance + 1e-9)
        truth = true_value(bundle.store, c, decisions[claim.decided_at])
        assert abs(c.value - truth) > c.tolerance, f"{claim.text!r} is right ({truth}) but called contradicted"
