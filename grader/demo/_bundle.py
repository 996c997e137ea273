"""Assemble and write one generated season bundle (shared by the demo and the synthetic builders)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path

import pandas as pd
from pydantic import BaseModel, ConfigDict

from grader.demo._simulate import Entrant, simulate
from grader.demo._universe import FieldValue
from grader.demo._writer import decisions_file, fields_file, prices_file, yaml_file
from grader.pit import FieldRow, PointInTimeStore, close_time
from grader.season import write_bundle as write_bundle_files


class BuiltSeason(BaseModel):
    """What a builder wrote."""

    model_config = ConfigDict(frozen=True)

    out_dir: Path
    season_id: str
    n_contestants: int
    n_days: int
    n_decisions: int
    n_trades: int
    files: list[str]


def make_store(prices: pd.DataFrame, fields: Sequence[FieldValue], benchmark: str) -> PointInTimeStore:
    rows = [FieldRow(f.symbol, f.field, f.value, close_time(f.observed_at), f.source) for f in fields]
    return PointInTimeStore(prices, rows, benchmark=benchmark)


def observation_instants(prices: pd.DataFrame, fields: Sequence[FieldValue]) -> list[float]:
    """Every instant at which a close or a field value becomes known."""
    days: set[date] = set(prices["date"]) | {f.observed_at for f in fields}
    return [close_time(d).timestamp() for d in days]


def write_bundle(
    out_dir: Path,
    *,
    season: Mapping[str, object],
    season_header: str,
    entrants: Sequence[Entrant],
    contestants_header: str,
    prices: pd.DataFrame,
    fields: Sequence[FieldValue],
    equities: Sequence[str],
    etfs: Sequence[str],
    seed: int,
    readme: str,
) -> BuiltSeason:
    """Simulate the entrants over the season of ``season`` and write the bundle files into ``out_dir``.

    Everything is computed before the first file is written, and the bundle is written all or nothing
    (:func:`grader.season.write_bundle`; a bundle already at ``out_dir`` is replaced), so a failure leaves
    ``out_dir`` untouched.
    """
    start, end = season["start"], season["end"]
    days = sorted(d for d in set(prices["date"]) if start <= d <= end)
    if not days or days[0] != start or days[-1] != end:
        raise ValueError(f"season {start}..{end} must start and end on trading days present in the prices")
    benchmark = str(season["benchmark"])
    store = make_store(prices, fields, benchmark)
    records = simulate(
        store,
        equities,
        etfs,
        days,
        entrants,
        starting_cash=float(season["starting_cash"]),  # type: ignore[arg-type]
        seed=seed,
        observation_instants=observation_instants(prices, fields),
    )
    out_dir = Path(out_dir)
    write_bundle_files(
        out_dir,
        {
            "season.yaml": yaml_file(dict(season), season_header),
            "contestants.yaml": yaml_file([e.contestant() for e in entrants], contestants_header),
            "decisions.jsonl": decisions_file(records),
            "market/prices.csv": prices_file(prices),
            "market/fields.csv": fields_file(fields),
            "README.md": readme,
        },
        overwrite=True,
    )
    return BuiltSeason(
        out_dir=out_dir,
        season_id=str(season["id"]),
        n_contestants=len(entrants),
        n_days=len(days),
        n_decisions=len(records),
        n_trades=sum(len(trades) for r in records if isinstance(trades := r["trades"], list)),  # always a list
        files=[
            "README.md",
            "season.yaml",
            "contestants.yaml",
            "decisions.jsonl",
            "market/prices.csv",
            "market/fields.csv",
        ],
    )
