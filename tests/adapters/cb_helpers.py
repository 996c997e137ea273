"""Shared helpers for the CapitalBench adapter tests: where the real rounds live, which run is official."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from tests.conftest import CB_ROUNDS

REPO = Path(__file__).resolve().parents[2]
ROUNDS = CB_ROUNDS


def rounds_dir() -> Path:
    if not ROUNDS.is_dir():
        pytest.skip(f"CapitalBench data not present at {ROUNDS}")
    return ROUNDS


def round_ids() -> list[str]:
    return sorted(p.name for p in ROUNDS.iterdir() if (p / "manifest.yaml").is_file()) if ROUNDS.is_dir() else []


def track_of(round_id: str) -> str:
    return round_id.rsplit("-", 1)[-1]


def official_run(round_dir: Path) -> Path | None:
    """The run the operator selected as official, read straight from the source files."""
    for manifest in sorted(round_dir.glob("runs/*/run_manifest.yaml")):
        if (yaml.safe_load(manifest.read_text()) or {}).get("operator_selected_official") is True:
            return manifest.parent
    return None


def leaderboard(round_dir: Path) -> list[dict[str, str]]:
    run = official_run(round_dir)
    assert run is not None
    with (run / "results" / "leaderboard.csv").open(newline="") as fh:
        return list(csv.DictReader(fh))


def is_resolved(round_dir: Path) -> bool:
    return (round_dir / "prices" / "exit_prices.csv").is_file()
