"""CapitalBench's ranking surface for readers: comparison sets numbered and ranked, and the words that say how much
of a contestant's rounds an outcome covers (resolved of decided, pending, cancelled upstream)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.replay._rounds import RoundResults


def comparison_set_standings(results: RoundResults) -> list[dict]:
    """CapitalBench's ranking surface, numbered in the order the sets formed (a model added later starts a new
    set): per set its members, the rounds every member completed, each member's score 100 × Σ returns / Σ oracle
    returns over those rounds and its rank in the set (1 best; a score that is unavailable is unranked)."""
    out = []
    for number, cs in enumerate(results.comparison_sets, start=1):
        ranked = [r for r in cs.rows if r.score is not None]
        out.append(
            {
                "number": number,
                "members": list(cs.members),
                "round_ids": list(cs.round_ids),
                "scores": {r.contestant_id: r.score for r in cs.rows},
                "ranks": {**{m: None for m in cs.members}, **{r.contestant_id: i for i, r in enumerate(ranked, 1)}},
                "rows": [r.model_dump() for r in cs.rows],
            }
        )
    return out


def _set_brief(st: dict, contestant_id: str) -> dict:
    return {
        "number": st["number"],
        "members": len(st["members"]),
        "rounds": len(st["round_ids"]),
        "score": st["scores"].get(contestant_id),
        "rank": st["ranks"].get(contestant_id),
        "ranked": sum(r is not None for r in st["ranks"].values()),
    }


def rounds_scope(o: dict) -> str:
    """How much of a contestant's rounds an outcome covers, said wherever the outcome is shown: "over 2 of 5
    rounds (3 pending)", "over 4 of 5 rounds (1 cancelled upstream, never resolves)"; "" for a trading season."""
    if not o or o.get("rounds_resolved") is None:
        return ""
    decided = o.get("rounds_decided")
    if decided is None:
        decided = (o.get("rounds_resolved") or 0) + (o.get("rounds_pending") or 0) + (o.get("rounds_cancelled") or 0)
    parts = []
    if o.get("rounds_pending"):
        parts.append(f"{o['rounds_pending']} pending")
    if o.get("rounds_cancelled"):
        parts.append(
            f"{o['rounds_cancelled']} cancelled upstream, never resolve" + ("s" if o["rounds_cancelled"] == 1 else "")
        )
    text = f"over {o['rounds_resolved']} of {decided} round{'s' if decided != 1 else ''}"
    return text + (f" ({'; '.join(parts)})" if parts else "")


def set_label(o: dict) -> str:
    """The comparison set an oracle score is taken from: "set 2: rank 1 of 5, 12 shared rounds"."""
    cs = (o or {}).get("comparison_set")
    if not cs:
        return ""
    rank = f"rank {cs['rank']} of {cs['ranked']}" if cs.get("rank") else "unranked"
    return f"comparison set {cs['number']}: {rank}, {cs['rounds']} shared round{'s' if cs['rounds'] != 1 else ''}"


#: How a rounds season is ranked (CapitalBench's comparison sets), said under every table that ranks one.
COMPARISON_NOTE = (
    "Ranked as CapitalBench ranks: inside equal-run comparison sets (a model added later starts a new "
    "set with the models present); a set's score is 100 × Σ returns / Σ oracle returns over the rounds "
    "every member completed (rounds never compounded). All-rounds figures are each contestant's own "
    "history: context, not a fair ranking surface."
)
