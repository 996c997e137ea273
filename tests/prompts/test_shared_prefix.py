"""Prompt layout for caching: on a rounds season (the real CapitalBench slice) every contestant's prompt starts
with the same instructions, season header and round briefings; each decision points to its round's briefing by
reference; a calibration item keeps only its own round's briefing, inline."""

from __future__ import annotations

import re
from pathlib import Path

from grader.panel._prompts import judge_prompts
from grader.season import load_bundle
from rubric import load_rubric

SEASON = Path(__file__).resolve().parents[2] / "seasons" / "cb-2026-06-1w"


def test_records_start_with_their_rounds_briefings_shared_word_for_word_and_never_grow():
    """Each record starts with the briefings of exactly the rounds its contestant took part in, in round order;
    contestants of the same rounds share that whole prefix; no record is longer than with briefings inline."""
    from grader.prompts import PromptBuilder

    bundle = load_bundle(SEASON)
    rubric = load_rubric("v0.4")
    *_, prompts = judge_prompts(bundle, rubric, naive=False)
    assert len({p.system for p in prompts.values()}) == 1
    label = {r.id: i for i, r in enumerate(sorted(bundle.info.rounds, key=lambda r: (r.decided_at, r.id)), 1)}
    prefixes: dict[frozenset, set[str]] = {}
    for cid, prompt in prompts.items():
        head, own = prompt.user.split("\nContestant: ", 1)
        rounds = {d.round_id for d in bundle.decisions_of(cid)}
        shown = [int(n) for n in re.findall(r"## Briefing of Round (\d+) ", head)]
        assert shown == sorted(label[r] for r in rounds)  # exactly its rounds, in order
        assert "## Briefing of" not in own and "a later round's briefing was not known" in head
        refs = set(re.findall(r"## Briefing of Round \d+ \(decided [\d-]+\) \(ref ([0-9a-f]{12})\)", head))
        assert set(re.findall(r"the briefing of Round \d+ \(decided [\d-]+\) \(ref ([0-9a-f]{12})", own)) <= refs
        prefixes.setdefault(frozenset(rounds), set()).add(head)
    assert all(len(heads) == 1 for heads in prefixes.values())  # same rounds, same prefix word for word
    assert any(len([c for c in prompts if frozenset(d.round_id for d in bundle.decisions_of(c)) == rs]) > 1
               for rs in prefixes)  # some contestants do share one
    saved = PromptBuilder.shared_briefings
    try:
        PromptBuilder.shared_briefings = lambda self, round_ids=None: ""  # the inline layout, for comparison
        *_, inline = judge_prompts(bundle, rubric, naive=False)
    finally:
        PromptBuilder.shared_briefings = saved
    for cid, prompt in prompts.items():
        assert prompt.token_estimate <= inline[cid].token_estimate * 1.01


def test_an_item_keeps_only_its_rounds_briefing_inline():
    from grader.anonymizer import Anonymizer
    from grader.panel._prompts import anonymizer_seed, season_outcomes
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


def test_the_shared_part_of_a_record_is_marked_for_a_cache_breakpoint():
    """``shared_chars`` ends right before the contestant's own record; records of the same rounds have the same
    shared part, word for word."""
    bundle = load_bundle(SEASON)
    *_, prompts = judge_prompts(bundle, load_rubric("v0.4"), naive=False)
    by_rounds: dict[frozenset, set[str]] = {}
    for cid, prompt in prompts.items():
        assert prompt.shared_chars > 0 and prompt.user[prompt.shared_chars:].startswith("Contestant: ")
        rounds = frozenset(d.round_id for d in bundle.decisions_of(cid))
        by_rounds.setdefault(rounds, set()).add(prompt.user[: prompt.shared_chars])
    assert all(len(shared) == 1 for shared in by_rounds.values())
