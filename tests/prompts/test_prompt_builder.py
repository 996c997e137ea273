"""Prompts of rounds seasons: what a judge may not see (round ids, timings, the season name)."""

from __future__ import annotations


def test_a_rounds_season_prompt_names_rounds_neutrally_and_shows_no_timings():
    """The judge sees no public round id (with the allocation it finds a model in the round's published
    results), no season name or attribution, no decision timings: neutral round labels with their dates."""
    import re

    from grader.panel._prompts import judge_prompts
    from grader.season import load_bundle
    from rubric import load_rubric
    from tests.conftest import REPO

    bundle = load_bundle(REPO / "seasons" / "cb-2026-06-1w")
    *_, prompts = judge_prompts(bundle, load_rubric("v0.4"))
    for cid, prompt in prompts.items():
        text = prompt.system + prompt.user
        assert not re.search(r"CB-2026-\d\d-\d\d", text), cid
        assert re.search(r"Round \d+ \(decided 2026-06-\d\d\)", text)
        assert bundle.info.name not in text and "Ishtiaq" not in text and "github.com" not in text
        seconds = {f"{d.decision_seconds:g}" for d in bundle.decisions_of(cid) if d.decision_seconds}
        assert not any(re.search(rf"\b{re.escape(s)}\s*(?:s|sec|seconds)\b", text) for s in seconds)
