"""``grader cost --run ID``: tokens and list-price dollars per judge (prompt cache read and write apart)."""

from __future__ import annotations

import typer
from rich.table import Table

from grader.cli._common import console, fail


def cost_table(run_id: str, db_url: str | None = None) -> Table | None:
    from grader.panel import run_costs

    rows = run_costs(run_id, db_url)
    if not rows:
        return None
    estimate = any(r.estimate for r in rows)
    from grader.prompts import counting_method

    title = f"Cost of run {run_id}" + (
        f" — ESTIMATE (dry run: prompt tokens {counting_method()}, "
        "output at each judge's max_output_tokens, instructions and the shared part of the records cached once sent; nothing paid)"
        if estimate
        else ""
    )
    batch_column = estimate and any(r.dollars_if_batched is not None for r in rows)
    t = Table(
        "judge",
        "calls",
        "in batches",
        "input uncached",
        "input cached",
        "cache writes",
        "output",
        "USD (list)",
        "USD synchronous, no cache",
        *(["USD via batch API"] if batch_column else []),
        title=title,
    )

    def usd(v: float | None) -> str:
        return "no price" if v is None else f"${v:,.4f}"

    def total(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    for r in rows:
        t.add_row(
            r.judge_id,
            f"{r.calls:,}",
            f"{r.batched:,}",
            f"{r.input_uncached:,}",
            f"{r.input_cached:,}",
            f"{r.cache_writes:,}",
            f"{r.output:,}",
            usd(r.dollars),
            usd(r.dollars_without_cache),
            *([usd(r.dollars_if_batched)] if batch_column else []),
        )
    if len(rows) > 1:
        t.add_row(
            "all",
            f"{sum(r.calls for r in rows):,}",
            f"{sum(r.batched for r in rows):,}",
            f"{sum(r.input_uncached for r in rows):,}",
            f"{sum(r.input_cached for r in rows):,}",
            f"{sum(r.cache_writes for r in rows):,}",
            f"{sum(r.output for r in rows):,}",
            usd(total([r.dollars for r in rows])),
            usd(total([r.dollars_without_cache for r in rows])),
            *([usd(total([r.dollars_if_batched for r in rows]))] if batch_column else []),
        )
    return t


def cost(run_id: str = typer.Option(..., "--run", "--run-id", help="Run id")) -> None:
    """Tokens and list-price dollars per judge of a run: input read from the provider's prompt cache and written
    to it apart, prices from the run's panel file; a dry run's figures are an estimate (said so)."""
    try:
        table = cost_table(run_id)
    except KeyError as exc:
        fail(str(exc).strip("'\""))
        return
    if table is None:
        console.print(f"run {run_id}: no judge call went out (reference baseline or nothing sent yet)")
        return
    console.print(table)
