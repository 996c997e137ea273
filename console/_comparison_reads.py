"""Read side of the comparison page: two runs side by side, or one run's stored grades scored under two rubrics
(re-exported by ``console._queries``)."""

from __future__ import annotations

import pandas as pd

from console._blind import Blind, resolve
from console._leaderboard_reads import blind_leaderboard_rows


def compare_runs(
    run_a: str, run_b: str, db_url: str | None = None, *, blind_a: Blind | None = None, blind_b: Blind | None = None
) -> pd.DataFrame:
    """Two runs side by side per contestant (matched by contestant id): total, rank and band in each (an item a
    run's ``blind`` hides: its label and no figure)."""
    from grader.panel.leaderboard import leaderboard_rows

    keep = ["contestant_id", "contestant", "total", "rank", "band", "reasoning_median"]
    blinds = {run_a: resolve(run_a, blind_a, db_url), run_b: resolve(run_b, blind_b, db_url)}
    a, b = (
        pd.DataFrame(
            [
                {**r, "contestant": r["label"]}
                for r in blind_leaderboard_rows(leaderboard_rows(run, None, db_url)[1], blinds[run])
            ],
            columns=[*keep, "label"],
        )[keep]
        for run in (run_a, run_b)
    )
    merged = a[keep].merge(b[keep], on="contestant_id", how="outer", suffixes=(" A", " B"))
    merged["contestant"] = merged["contestant A"].fillna(merged["contestant B"])
    in_a, in_b = merged["contestant A"].notna(), merged["contestant B"].notna()
    merged["in"] = ["both" if a and b else ("only A" if a else "only B") for a, b in zip(in_a, in_b, strict=True)]
    both = in_a & in_b
    merged["Δ total"] = merged["total B"] - merged["total A"]
    # a contestant in one run only has no rank move or band change (None), not a "changed" one
    merged["rank moved"] = (merged["rank A"] != merged["rank B"]).where(both, None).astype(object)
    merged["band changed"] = (merged["band A"] != merged["band B"]).where(both, None).astype(object)
    cols = [
        "contestant",
        "in",
        "total A",
        "total B",
        "Δ total",
        "rank A",
        "rank B",
        "rank moved",
        "band A",
        "band B",
        "band changed",
        "reasoning_median A",
        "reasoning_median B",
        "contestant_id",
    ]
    return merged[cols].sort_values(["rank B", "rank A"], na_position="last").reset_index(drop=True)


def compare_rubrics(
    run_id: str, rubric_a: str, rubric_b: str, db_url: str | None = None, *, blind: Blind | None = None
) -> pd.DataFrame:
    """Every contestant of a run scored under rubric A and rubric B from its stored grades (no judge call,
    nothing stored), as ``grader rubric diff --run`` does; an item ``blind`` hides: its label and no figure."""
    from grader.scoring import scores_under
    from rubric import load_rubric

    ra, rb = load_rubric(rubric_a), load_rubric(rubric_b)
    blind = resolve(run_id, blind, db_url)
    under = scores_under(run_id, [ra, rb], db_url)
    grades, names, scored = under.contestants, under.names, under.by_rubric
    frame = pd.DataFrame(
        [
            {
                "contestant": names[c],
                "total A": a.total,
                "total B": b.total,
                "Δ total": None if a.total is None or b.total is None else b.total - a.total,
                "rank A": a.rank,
                "rank B": b.rank,
                "rank moved": a.rank != b.rank,
                "band A": a.band,
                "band B": b.band,
                "band changed": a.band != b.band,
                "contestant_id": c,
            }
            for c in grades
            if not blind.hides_key(c)
            for a, b in [(scored[0][c], scored[1][c])]
        ]
        + [
            {"contestant": blind.label(c), "contestant_id": c}
            for c in sorted(grades, key=blind.label)
            if blind.hides_key(c)
        ],
        columns=[
            "contestant",
            "total A",
            "total B",
            "Δ total",
            "rank A",
            "rank B",
            "rank moved",
            "band A",
            "band B",
            "band changed",
            "contestant_id",
        ],
    )
    frame.attrs["rubrics"] = {"A": ra.id, "B": rb.id}
    if frame.empty:
        return frame
    shown = frame[~frame["contestant_id"].map(blind.hides_key)]
    return pd.concat(
        [shown.sort_values("rank B", na_position="last"), frame[frame["contestant_id"].map(blind.hides_key)]]
    ).reset_index(drop=True)
