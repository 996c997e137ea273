"""Fixtures for grading runs: a small bundle with two provider families and a per-test database."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import write_bundle

DECISIONS = [
    {
        "contestant_id": "m1",
        "decided_at": "2022-01-03T15:30:00-05:00",
        "trades": [{"symbol": "AAA", "side": "buy", "quantity": 10, "price": 101}],
        "rationale": "Buying AAA: it last closed at 101.00 and the trend is up; risk is a reversal.",
        "decision_seconds": 12.5,
    },
    {
        "contestant_id": "m1",
        "decided_at": "2022-01-05T15:30:00-05:00",
        "trades": [{"symbol": "AAA", "side": "sell", "quantity": 10, "price": 103}],
        "rationale": "Selling AAA at 103, momentum may fade.",
        "decision_seconds": 10.0,
    },
    {
        "contestant_id": "m2",
        "decided_at": "2022-01-03T15:30:00-05:00",
        "trades": [{"symbol": "BBB", "side": "buy", "quantity": 20, "price": 49}],
        "rationale": "Buying BBB: it closed at 60.00, cheap at a P/E of 12.",
        "decision_seconds": None,
    },
    {
        "contestant_id": "m2",
        "decided_at": "2022-01-04T15:30:00-05:00",
        "trades": [],
        "rationale": "Holding BBB.",
        "decision_seconds": None,
    },
]


def two_family_bundle(root: Path) -> Path:
    path = write_bundle(root, decisions=DECISIONS)
    contestants = [
        {"id": "m1", "display_name": "Model One", "provider_family": "openai", "model": "gpt-4.1"},
        {"id": "m2", "display_name": "Model Two", "provider_family": "anthropic", "model": "claude-3-7-sonnet"},
    ]
    (path / "contestants.yaml").write_text(yaml.safe_dump(contestants, sort_keys=False))
    return path


@pytest.fixture
def season(tmp_path) -> Path:
    return two_family_bundle(tmp_path / "season")


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'runs.db'}"


def write_panel(path: Path, **mock) -> Path:
    """The bundled mock panel with overrides of its mock settings."""
    from grader.panel import PANELS_DIR

    data = yaml.safe_load((PANELS_DIR / "mock.yaml").read_text())
    data["mock"].update(mock)
    data["name"] = path.stem
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path
