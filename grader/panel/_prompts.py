"""The prompts of a grading run: how the season is replayed and anonymized for them, built all at once or streamed
one contestant at a time, counted against the judges' context windows."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from grader._lazy import LazyMapping
from grader.panel._config import PanelConfig
from grader.panel._run_report import RunError

__all__ = [
    "REPLY_SHARE",
    "PromptStream",
    "anonymizer_seed",
    "headroom",
    "judge_prompts",
    "prompt_builder",
    "season_outcomes",
    "too_long",
]


def season_outcomes(bundle) -> tuple[Mapping, Mapping[str, dict], bool]:
    """(replays, outcome dict per contestant, pending?) for either bundle format (a trading season's replays and
    outcomes are computed per contestant when first read)."""

    if bundle.info.format == "rounds":
        from grader.replay import rounds_outcomes

        outcomes, pending = rounds_outcomes(bundle)
        return {}, outcomes, pending
    from grader.replay import cached_replays

    replays = cached_replays(bundle)  # computed once per bundle held in memory (the CLI's), else just computed
    # each contestant's outcome read from its replay when first asked
    return replays, LazyMapping(replays, lambda cid: replays[cid].outcome.as_dict()), False


def anonymizer_seed(bundle, rubric, secret: str = "") -> str:
    """Aliases depend on the season and its contestants and on what judges see, not on every byte of the
    bundle: a re-import that only adds a resolved round's outcomes keeps every alias, so only the prompts whose
    content changed need a new (paid) call. ``secret`` (the season's alias secret, ``grader.storage.alias_secret``)
    keeps anyone who knows the public inputs from recomputing which contestant an alias is."""
    public = f"{bundle.info.id}:{','.join(sorted(c.id for c in bundle.contestants))}:{rubric.judge_facing_hash}"
    return f"{secret}:{public}" if secret else public


def prompt_builder(bundle, rubric, secret: str = ""):
    """(replays, outcomes, pending, the season's PromptBuilder) exactly as a grading run sets them up."""
    from grader.anonymizer import Anonymizer, NamedView
    from grader.prompts import PromptBuilder

    replays, outcomes, pending = season_outcomes(bundle)
    anonymizer: Anonymizer | NamedView
    if rubric.panel.anonymize:
        try:
            anonymizer = Anonymizer.for_season(
                bundle.info, bundle.contestants, seed=anonymizer_seed(bundle, rubric, secret)
            )
        except ValueError as exc:  # a contestant that cannot be anonymized (its id reads as an alias): refused
            raise RunError(
                f"contestants.yaml: {exc} (an anonymized judge's view cannot tell it from an alias)"
            ) from None
    else:  # seed 003's v0.3: the judge sees the contestants' own names
        anonymizer = NamedView(bundle.contestants)
    return (
        replays,
        outcomes,
        pending,
        PromptBuilder(bundle, rubric.judge_prompt(), anonymizer, replays, outcomes, pending),
    )


def judge_prompts(bundle, rubric, naive: bool = True, secret: str = ""):
    """(replays, outcomes, pending, prompt per contestant) exactly as a grading run builds them (``naive``: also
    the size of a naive dump of each, for the savings table)."""
    replays, outcomes, pending, builder = prompt_builder(bundle, rubric, secret)
    return replays, outcomes, pending, {c.id: builder.build(c.id, naive=naive) for c in bundle.contestants}


class PromptStream:
    """The season's prompts built one contestant at a time, in season order, while earlier contestants' calls are
    in flight (a streaming run); read like the dict of prompts once built. (Building them in a forked worker
    process instead was measured: no faster here, the parent's copy-on-write faults ate the gain.)"""

    def __init__(self, builder, contestant_ids: list[str]) -> None:
        self.builder, self.order = builder, list(contestant_ids)
        self.built: dict[str, Any] = {}

    def build(self, contestant_id: str):  # noqa: ANN201 - a JudgePrompt
        if contestant_id not in self.built:
            self.built[contestant_id] = self.builder.build(contestant_id, naive=False)
        return self.built[contestant_id]

    def __getitem__(self, contestant_id: str):  # noqa: ANN204
        return self.build(contestant_id)

    def items(self):  # noqa: ANN201
        return [(cid, self.build(cid)) for cid in self.order]

    def values(self):  # noqa: ANN201
        return [p for _, p in self.items()]


REPLY_SHARE = 0.15
"""The share of a judge's context window a record must leave for the reply (PRODUCT.md, "Non-functional bars")."""


def too_long(prompts, panel: PanelConfig) -> list[str]:
    """Every (judge, contestant) whose prompt would not fit the judge's context window with room for its reply: at
    least ``REPLY_SHARE`` of the window and at least the judge's ``max_output_tokens`` left (tokens counted with the
    offline tokenizer: exact for cl100k models, an estimate for the others, said so)."""
    from grader.prompts import counting_method

    out = []
    for spec in panel.judges:
        if spec.context_window is None:
            continue
        room = max(spec.max_output_tokens, math.ceil(spec.context_window * REPLY_SHARE))
        for cid, p in sorted(prompts.items()):
            tokens = p.counted_tokens
            if tokens + room > spec.context_window:
                out.append(
                    f"{cid} for {spec.judge_id}: {tokens:,} prompt tokens ({counting_method(spec.model)}) + "
                    f"{room:,} for the reply (the larger of max_output_tokens {spec.max_output_tokens:,} and "
                    f"{REPLY_SHARE:.0%} of the window) > the {spec.context_window:,}-token window"
                )
    return out


def headroom(prompts, panel: PanelConfig, windowed: Mapping | None = None) -> list[dict]:
    """Per judge with a context window: its largest prompt (offline count), whose, and the share of the window left
    for the reply. A record graded in windows for a judge counts by its largest window (``windowed``: (judge,
    contestant) -> ``grader.panel._windowed.WindowedChain``)."""
    out = []
    windowed = windowed or {}
    for spec in panel.judges:
        if spec.context_window is None or not prompts:
            continue
        sizes = []
        for cid, p in prompts.items():
            chain = windowed.get((spec.judge_id, cid))
            tokens = max(w.counted_tokens for w in chain.prompts) if chain is not None else p.counted_tokens
            sizes.append((cid + (" (windowed)" if chain is not None else ""), tokens))
        cid, largest = max(sizes, key=lambda kv: (kv[1], kv[0]))
        out.append(
            {
                "judge": spec.judge_id,
                "window": spec.context_window,
                "largest_prompt": largest,
                "contestant": cid,
                "left": 1 - largest / spec.context_window,
            }
        )
    return out
