"""Probe items: anonymized decisions exactly as the judges see them, sampled evenly over provider families."""

from __future__ import annotations

import random
from dataclasses import dataclass

from grader.season import Decision, SeasonBundle

MAX_RATIONALE_CHARS = 6_000
"""A longer rationale is cut (the cut is said in the item): a probe call should cost a grading call's fraction."""


@dataclass(frozen=True)
class ProbeItem:
    key: str  # the decision key (grader-side; never sent)
    family: str  # the author's provider family (grader-side; never sent)
    text: str  # what the judge is shown


def _actions(d: Decision) -> str:
    if d.allocation:
        return "allocation: " + ", ".join(f"{a.symbol} {a.weight * 100:.0f}%" for a in d.allocation)
    if d.trades:
        return "trades: " + "; ".join(f"{t.side} {t.quantity:g} {t.symbol}" for t in d.trades)
    return "no trades (hold)"


def probe_items(bundle: SeasonBundle, anonymizer, n: int, seed: int = 0) -> list[ProbeItem]:
    """Up to ``n`` decisions, the same number from every family (as many as the smallest family allows), drawn
    with a seeded generator; each anonymized as in a grading run, with public round ids replaced."""
    from grader.prompts import PUBLIC_ROUND_ID as _PUBLIC_ROUND_ID
    from grader.prompts import fence

    family = {c.id: c.provider_family for c in bundle.contestants}
    by_family: dict[str, list[Decision]] = {}
    for d in sorted(bundle.decisions, key=lambda d: d.key):
        if (d.rationale or "").strip():
            by_family.setdefault(family[d.contestant_id], []).append(d)
    if len(by_family) < 2:
        return []
    per = min(min(len(v) for v in by_family.values()), max(1, n // len(by_family)))
    rng = random.Random(f"identity-probe:{seed}")
    chosen = [d for fam in sorted(by_family) for d in rng.sample(by_family[fam], per)]
    rng.shuffle(chosen)
    items = []
    for d in chosen:
        shown, _ = anonymizer.anonymize_decision(d)
        rationale = _PUBLIC_ROUND_ID.sub("a round", shown.rationale or "")
        if len(rationale) > MAX_RATIONALE_CHARS:
            rationale = rationale[:MAX_RATIONALE_CHARS] + " [... cut for the probe]"
        items.append(
            ProbeItem(
                key=d.key,
                family=family[d.contestant_id],
                text=f"Decision ({_actions(shown)}).\n{fence(rationale, 'rationale')}",
            )
        )
    return items
