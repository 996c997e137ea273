"""Prompt layout for caching: on a rounds season (the real CapitalBench slice) every contestant's prompt starts
with the same instructions, season header and note of what the record leaves out; each decision names its round's
briefing by reference and quotes the lines its text cites; a calibration item keeps its own round's briefing, inline."""

from __future__ import annotations

import hashlib
from pathlib import Path

from grader.panel._prompts import judge_prompts, prompt_builder
from grader.season import load_bundle
from rubric import load_rubric

SEASON = Path(__file__).resolve().parents[2] / "seasons" / "cb-2026-06-1w"


def test_records_share_their_prefix_and_name_each_rounds_briefing_quoting_only_what_their_text_cites():
    """Every record starts with the same season header and note of what it leaves out (word for word: one cache
    prefix for the season); each decision names its own round's briefing by the reference of what the model was
    shown and quotes only lines of that briefing, each one containing a figure its text quotes. (Issue 32: the
    briefings were shared in full before, and a quarter of rounds no longer fitted a judge's window.)"""
    from grader.prompts._touched import cited_numbers

    bundle = load_bundle(SEASON)
    rubric = load_rubric("v0.4")
    _, _, _, builder = prompt_builder(bundle, rubric)
    prompts = {c.id: builder.build(c.id, naive=False) for c in bundle.contestants}
    heads = {p.user.split("\nContestant: ", 1)[0] for p in prompts.values()}
    assert len(heads) == 1 and "## Briefing of" not in heads.pop()
    quoted = 0
    for cid, prompt in prompts.items():
        decisions = bundle.decisions_of(cid)
        assert len(prompt.sections) == len(decisions)
        for d, section in zip(decisions, prompt.sections, strict=True):
            briefing = builder.round_briefing(d.round_id)
            ref = hashlib.sha256(briefing.encode()).hexdigest()[:12]
            assert f"(ref {ref}; not reproduced" in section.text
            lines = [ln[4:] for ln in section.text.split("\n") if ln.startswith("  > ")]
            text = d.rationale + " ".join(a.rationale or "" for a in d.allocation or [])
            for line in lines:  # a line of that briefing (a table row: its cells), with a figure of this text
                assert line in briefing or all(cell in briefing for cell in line.split(" | ")), line
                numbers = cited_numbers(line)
                assert not numbers or numbers & cited_numbers(text), line  # (a table's header has none)
            quoted += len(lines)
    assert quoted > 0


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
        assert prompt.shared_chars > 0 and prompt.user[prompt.shared_chars :].startswith("Contestant: ")
        rounds = frozenset(d.round_id for d in bundle.decisions_of(cid))
        by_rounds.setdefault(rounds, set()).add(prompt.user[: prompt.shared_chars])
    assert all(len(shared) == 1 for shared in by_rounds.values())
