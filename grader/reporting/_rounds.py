"""A rounds season's outcome per round and contestant, for the console's contestant page and the report."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sqlalchemy import select

from grader.storage import ContestantRow, RunRow, SeasonRow, session_scope


def round_outcomes(contestant_row_id: int, db_url: str | None = None) -> pd.DataFrame:
    """A rounds season's per-round outcome of one contestant (rounds are independent: never compounded): the
    allocation it chose and, once the round resolved, its return, the S&P 500's, alpha, regret and the
    hindsight-oracle score; a pending round says why its outcome is withheld."""
    from grader.replay import score_rounds

    with session_scope(db_url) as s:
        c = s.get(ContestantRow, contestant_row_id)
        if c is None:
            raise KeyError(f"no contestant row {contestant_row_id}")
        season = s.get_one(SeasonRow, c.season_id)
        source, key = season.source_path, c.contestant_key
    results = score_rounds(Path(source))
    rows = []
    for o in results.outcomes:
        if o.contestant_id != key:
            continue
        summary = results.round(o.round_id)
        rows.append(
            {
                "round": o.round_id,
                "status": o.status,
                "allocation": ", ".join(
                    f"{sym} {w * 100:.0f}%" for sym, w in sorted(o.weights.items(), key=lambda kv: -kv[1])
                ),
                "return": o.portfolio_return,
                "S&P 500": o.benchmark_return,
                "alpha": o.alpha,
                "regret": o.regret,
                "oracle score": o.oracle_score,
                "oracle": ", ".join(summary.oracle_symbols) if summary is not None and o.status == "resolved" else None,
                "note": o.withheld or "",
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "round",
            "status",
            "allocation",
            "return",
            "S&P 500",
            "alpha",
            "regret",
            "oracle score",
            "oracle",
            "note",
        ],
    )


def _rounds_run(s, run_id: str):  # noqa: ANN001, ANN202 - a session, the run row
    """The run, when it grades a rounds season (None otherwise, or when there is no such run)."""
    from grader.season import SeasonInfo

    run = s.get(RunRow, run_id)
    if run is None or SeasonInfo.model_validate(s.get(SeasonRow, run.season_id).info).format != "rounds":
        return None
    return run


def round_outcome_rows(run_id: str, db_url: str | None = None) -> list[dict] | None:
    """Rounds seasons: one row per (round, contestant) for the report; None for a trading season."""

    with session_scope(db_url) as s:
        run = _rounds_run(s, run_id)
        if run is None:
            return None
        people = [
            (c.id, c.display_name)
            for c in s.scalars(
                select(ContestantRow)
                .where(ContestantRow.season_id == run.season_id)
                .order_by(ContestantRow.display_name)
            )
        ]
    rows = []
    for row_id, name in people:
        try:
            frame = round_outcomes(row_id, db_url)
        except (OSError, ValueError):
            return None  # the bundle moved: the section is left out rather than guessed
        for rec in frame.to_dict("records"):
            rows.append(
                {"contestant": name, **{k: (None if isinstance(v, float) and v != v else v) for k, v in rec.items()}}
            )
    return sorted(rows, key=lambda r: (r["round"], r["contestant"]))


def comparison_set_rows(run_id: str, db_url: str | None = None) -> list[dict] | None:
    """Rounds seasons: one row per (comparison set, member), best first in each set, with the member's all-rounds
    figures as context and how many of its rounds resolved; None for a trading season (or a bundle moved)."""
    from grader.replay import comparison_set_standings, score_rounds

    with session_scope(db_url) as s:
        run = _rounds_run(s, run_id)
        if run is None:
            return None
        names = {
            c.contestant_key: c.display_name
            for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
        }
        source = s.get_one(SeasonRow, run.season_id).source_path
    try:
        results = score_rounds(Path(source))
    except (OSError, ValueError):
        return None
    history = {c.contestant_id: c for c in results.contestants}
    rows = []
    for st in comparison_set_standings(results):
        for r in st["rows"]:
            c = history.get(r["contestant_id"])
            rows.append(
                {
                    "set": st["number"],
                    "members": len(st["members"]),
                    "shared rounds": len(st["round_ids"]),
                    "rank": st["ranks"].get(r["contestant_id"]),
                    "contestant": names.get(r["contestant_id"], r["contestant_id"]),
                    "set score": r["score"],
                    "set mean return": r["average_return"],
                    "set mean alpha": r["average_alpha"],
                    "all-rounds score": c.score_all_available if c else None,
                    "rounds resolved": c.rounds_resolved if c else None,
                    "rounds decided": c.rounds_decided if c else None,
                    "rounds pending": c.rounds_pending if c else None,
                    "rounds cancelled": c.rounds_cancelled if c else None,
                }
            )
    return rows
