"""``python -m grader.demo build|synthetic``: write the demo season or a synthetic benchmark season."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from grader.demo._bundle import BuiltSeason
from grader.demo._demo import DEMO_DIR, build_demo_season
from grader.demo._synthetic import build_synthetic_season
from grader.demo._universe import MarketDataError

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


def _report(built: BuiltSeason, seconds: float) -> None:
    typer.echo(
        f"wrote {built.season_id} to {built.out_dir}: {built.n_contestants} contestants x {built.n_days} days, "
        f"{built.n_decisions} decisions, {built.n_trades} trades in {seconds:.2f} s"
    )


@app.command()
def build(
    out: Path = typer.Option(DEMO_DIR, "--out", help="Season directory to write."),
    market: Path | None = typer.Option(
        None,
        "--market",
        help="Closes: a bundle market/ folder or the wide-form source extract, e.g. data/market (default: committed copy).",
    ),
) -> None:
    """Rebuild the demo season demo-2022q1 (byte for byte reproducible)."""
    start = time.perf_counter()
    try:
        built = build_demo_season(out, market)
    except MarketDataError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    _report(built, time.perf_counter() - start)


@app.command()
def synthetic(
    out: Path = typer.Option(..., "--out", help="Season directory to write."),
    contestants: int = typer.Option(50, "--contestants", min=1),
    days: int = typer.Option(250, "--days", min=2),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Write a synthetic benchmark season (random-walk prices, the demo strategies cycled)."""
    start = time.perf_counter()
    built = build_synthetic_season(out, n_contestants=contestants, n_days=days, seed=seed)
    _report(built, time.perf_counter() - start)
