"""Compare two rubrics (and, with a run, every contestant's score, rank and band under both)."""

from __future__ import annotations

from rich.table import Table

from grader.hygiene import for_terminal
from grader.scoring import scores_under as score_under_rubrics


def scores_under(run_id: str, rubrics: list, db_url: str | None = None) -> list[dict]:
    """Score a stored run under each of two rubrics (pure computation, nothing stored, no judge call): per
    contestant, its label and its score under the first (``a``) and the second (``b``)."""
    scored = score_under_rubrics(run_id, rubrics, db_url)
    return [
        {"contestant": c, "label": scored.names[c], "a": scored.by_rubric[0][c], "b": scored.by_rubric[1][c]}
        for c in scored.contestants
    ]


def print_rubric_diff(a: str, b: str, run_id: str | None, console) -> None:
    from rubric import load_rubric, rubric_diff

    ra, rb = load_rubric(a), load_rubric(b)
    diff = rubric_diff(ra, rb)
    t = Table(title=f"rubric diff {ra.id} → {rb.id}", title_justify="left")
    t.add_column("change")
    for line in diff.summary_lines():
        t.add_row(for_terminal(line))
    console.print(t)
    console.print(
        f"content hash {ra.content_hash[:12]} → {rb.content_hash[:12]}; judge-facing hash "
        f"{ra.judge_facing_hash[:12]} → {rb.judge_facing_hash[:12]} "
        f"({'re-grade needed' if diff.judge_facing_changed else 'score-only: re-score without judge calls'})"
    )
    if not run_id:
        return
    rows = scores_under(run_id, [ra, rb])
    tt = Table(title=f"run {run_id} under {ra.id} and {rb.id}", title_justify="left")
    for col in ("contestant", f"total {ra.version}", f"total {rb.version}", "Δ", "rank", "band"):
        tt.add_column(col, justify="left" if col in ("contestant", "band") else "right")
    for r in sorted(rows, key=lambda r: r["b"].rank or 10**6):
        sa, sb = r["a"], r["b"]
        delta = None if sa.total is None or sb.total is None else sb.total - sa.total
        rank = f"{sa.rank} → {sb.rank}"
        band = f"{sa.band} → {sb.band}"
        moved = sa.rank != sb.rank
        changed_band = sa.band != sb.band
        tt.add_row(
            for_terminal(r["label"]),
            f"{sa.total:.1f}" if sa.total is not None else "—",
            f"{sb.total:.1f}" if sb.total is not None else "—",
            "—" if delta is None else f"{delta:+.1f}",
            f"[bold yellow]{rank}[/]" if moved else rank,
            f"[bold magenta]{band}[/]" if changed_band else band,
        )
    console.print(tt)
