"""Prompt layout for caching: on a rounds season (the real CapitalBench slice) every contestant's prompt starts
with the same instructions, season header and round briefings; each decision points to its round's briefing by
reference; a calibration item keeps only its own round's briefing, inline."""

from __future__ import annotations

import os
import re
from pathlib import Path

from grader.panel._grade import judge_prompts
from grader.season import load_bundle
from rubric import load_rubric

SEASON = Path(__file__).resolve().parents[2] / "seasons" / "cb-2026-06-1w"


def test_every_record_starts_with_the_same_briefings_and_decisions_point_to_theirs():
    bundle = load_bundle(SEASON)
    *_, prompts = judge_prompts(bundle, load_rubric("v0.4"), naive=False)
    users = [p.user for p in prompts.values()]
    assert len({p.system for p in prompts.values()}) == 1
    common = os.path.commonprefix(users)
    assert "# Round briefings" in common and common.count("## Briefing of Round ") == len(bundle.info.rounds)
    assert len(common) > 0.8 * min(len(u) for u in users)  # most of every prompt is the shared prefix
    refs_in_block = set(re.findall(r"## Briefing of Round \d+ \(decided [\d-]+\) \(ref ([0-9a-f]{12})\)", common))
    for user in users:
        own = user[len(common):]
        assert "## Decision " in own and "## Briefing of" not in own  # briefings only in the shared part
        for ref in re.findall(r"the briefing of Round \d+ \(decided [\d-]+\) \(ref ([0-9a-f]{12})", own):
            assert ref in refs_in_block
    # a later round's briefing is labelled as unknown at an earlier decision
    assert "a later round's briefing was not known at an earlier decision" in common


def test_an_item_keeps_only_its_rounds_briefing_inline():
    from grader.anonymizer import Anonymizer
    from grader.panel._grade import anonymizer_seed, season_outcomes
    from grader.prompts import PromptBuilder

    bundle = load_bundle(SEASON)
    rubric = load_rubric("v0.4")
    replays, outcomes, pending = season_outcomes(bundle)
    anonymizer = Anonymizer.for_season(bundle.info, bundle.contestants, seed=anonymizer_seed(bundle, rubric))
    builder = PromptBuilder(bundle, rubric.judge_prompt(), anonymizer, replays, outcomes, pending)
    contestant = bundle.contestants[0].id
    item = builder.build_item(contestant, 2, 2, "item-01", "Item 01")
    assert "# Round briefings" not in item.user
    assert item.user.count("What the model was shown (briefing ref") == 1
