"""Read side of the leaderboard page: the run's latest scored version as a table, the flag reasons, and the rows
an item the viewer has not graded withholds (re-exported by ``console._queries``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from console._blind import HIDDEN_AUTHOR, Blind, resolve

LEADERBOARD_COLUMNS: tuple[str, ...] = (
    "rank",
    "contestant",
    "family",
    "model",
    "total",
    "band",
    "reasoning_median",
    "efficiency",
    "outcome_axis",
    "return",
    "benchmark_return",
    "alpha",
    "judges_low",
    "judges_high",
    "judge_spread",
    "n_judges",
    "flagged",
    "flag_reason",
    "process",
    "risk",
    "oracle_score",
    "comparison_set",
    "oracle_score_all_rounds",
    "outcome_over",
    "contestant_id",
)


def flag_reason(details: dict[str, Any] | None, flagged: bool = True) -> str:
    """Why a score is flagged, from its stored panel aggregation: the reasons and the judges missing."""
    if not flagged:
        return ""
    panel = (details or {}).get("panel") or {}
    reasons = list(panel.get("reasons") or [])
    missing = list(panel.get("missing") or [])
    text = "; ".join(reasons) or "flagged (no reason stored with this scored version)"
    return text + (f" — missing: {', '.join(missing)}" if missing else "")


#: Leaderboard columns that carry judges' scores (withheld for an item the viewer has not graded).
SCORE_COLUMNS: tuple[str, ...] = tuple(
    c for c in LEADERBOARD_COLUMNS if c not in ("contestant", "family", "model", "process", "risk", "contestant_id")
)


def blind_leaderboard_rows(rows: list[dict[str, Any]], blind: Blind) -> list[dict[str, Any]]:
    """Leaderboard rows with the hidden items' authors and scores withheld, visible rows first (by rank) and the
    hidden ones after by label (so their place reveals no score either)."""
    if not blind.hides_any:
        return rows
    shown = [r for r in rows if not blind.hides_key(r["contestant_id"])]
    hidden = [
        {
            **{k: None for k in r},
            "contestant_id": r["contestant_id"],
            "label": blind.label(r["contestant_id"]),
            "family": HIDDEN_AUTHOR,
            "model": HIDDEN_AUTHOR,
            "flagged": None,
            "details": None,
            "rounds_scope": None,
            "comparison_set": None,
        }
        for r in rows
        if blind.hides_key(r["contestant_id"])
    ]
    return shown + sorted(hidden, key=lambda r: r["label"])


def leaderboard(
    run_id: str,
    db_url: str | None = None,
    *,
    blind: Blind | None = None,
    facts: Mapping[str, dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], pd.DataFrame]:
    """Meta and the leaderboard table of the run's latest scored version (KeyError: no such run/version); the
    items ``blind`` hides show their neutral label and no score. The process and risk columns come from ``facts``
    (contestant key -> process facts; None: ``grader.reporting.run_process_facts`` of the run, seconds on a large
    season; {}: "—" everywhere, for a caller that fills them itself)."""
    from grader.panel.leaderboard import leaderboard_rows
    from grader.reporting import compact_facts, compact_risk, run_process_facts

    blind = resolve(run_id, blind, db_url)
    meta, rows = leaderboard_rows(run_id, None, db_url)
    rows = blind_leaderboard_rows(rows, blind)
    if facts is None:
        facts = run_process_facts(run_id, db_url)
    frame = pd.DataFrame(
        [
            {
                "rank": r["rank"],
                "contestant": r["label"],
                "family": r["family"],
                "model": r["model"],
                "total": r["total"],
                "band": r["band"],
                "reasoning_median": r["reasoning_median"],
                "efficiency": r["efficiency"],
                "outcome_axis": r["outcome_axis"],
                "return": r["return"],
                "benchmark_return": r["benchmark_return"],
                "alpha": r["alpha"],
                "judges_low": r["judges_low"],
                "judges_high": r["judges_high"],
                "judge_spread": None
                if r["judges_low"] is None or r["judges_high"] is None
                else r["judges_high"] - r["judges_low"],
                "n_judges": r["n_judges"],
                "flagged": r["flagged"],
                "flag_reason": flag_reason(r["details"], bool(r["flagged"])),
                "process": compact_facts(facts.get(r["contestant_id"])),
                "contestant_id": r["contestant_id"],
                "risk": compact_risk(facts.get(r["contestant_id"])),
                # rounds seasons: the comparison-set score (the ranking surface), all-rounds as context, and how
                # many of the contestant's rounds the outcome columns are over
                "oracle_score": r["oracle_score"],
                "comparison_set": r["comparison_set"] or None,
                "oracle_score_all_rounds": r["oracle_score_all_rounds"],
                "outcome_over": r["rounds_scope"] or None,
            }
            for r in rows
        ],
        columns=list(LEADERBOARD_COLUMNS),
    )
    return meta, frame
