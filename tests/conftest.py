"""Shared fixtures: a small valid bundle writer, database URLs (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import os
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

# Property tests draw the same examples on every run of `make test` (CI included): a failure is reproducible and a
# clean run stays clean. `HYPOTHESIS_PROFILE=explore make test` draws new examples (fix what it finds and pin it
# with @example).
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"
"""Source data shipped with the repository (data/README.md): market closes and a slice of CapitalBench rounds."""
MARKET = DATA / "market"
CB_ROUNDS = Path(os.environ.get("GRADER_TEST_CB_ROUNDS") or DATA / "capitalbench" / "rounds")
"""CapitalBench rounds the tests read: the shipped slice, or a full copy named by ``GRADER_TEST_CB_ROUNDS``."""
PG_ADMIN_URL = os.environ.get("GRADER_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def write_bundle(root: Path, *, decisions: list[dict] | None = None, fields: str | None = None) -> Path:
    """A tiny valid season: 3 symbols + benchmark, 2 contestants, real-looking closes."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "market").mkdir(exist_ok=True)
    season = {
        "id": "tiny",
        "name": "Tiny test season",
        "start": "2022-01-03",
        "end": "2022-01-14",
        "benchmark": "SP500",
        "risk_free_rate": 0.0,
        "starting_cash": 10000,
        "currency": "USD",
        "universe": [
            {"symbol": "AAA", "name": "Alpha Corp", "sector": "Technology", "asset_class": "equity"},
            {"symbol": "BBB", "name": "Beta Inc", "sector": "Energy", "asset_class": "equity"},
            {"symbol": "CCC", "name": "Gamma Ltd", "sector": "Energy", "asset_class": "equity"},
        ],
    }
    (root / "season.yaml").write_text(yaml.safe_dump(season, sort_keys=False))
    contestants = [
        {"id": "m1", "display_name": "Model One", "provider_family": "openai", "model": "gpt-4.1"},
        {"id": "m2", "display_name": "Model Two", "provider_family": "anthropic", "model": "claude-3-7-sonnet"},
    ]
    (root / "contestants.yaml").write_text(yaml.safe_dump(contestants, sort_keys=False))
    days = [
        "2021-12-30",
        "2021-12-31",
        "2022-01-03",
        "2022-01-04",
        "2022-01-05",
        "2022-01-06",
        "2022-01-07",
        "2022-01-10",
        "2022-01-11",
        "2022-01-12",
        "2022-01-13",
        "2022-01-14",
    ]
    base = {"AAA": 100.0, "BBB": 50.0, "CCC": 20.0, "SP500": 4700.0}
    drift = {"AAA": 1.0, "BBB": -0.5, "CCC": 0.2, "SP500": 5.0}
    lines = ["date,symbol,close"]
    for i, d in enumerate(days):
        for s in base:
            lines.append(f"{d},{s},{base[s] + drift[s] * i:.4f}")
    (root / "market" / "prices.csv").write_text("\n".join(lines) + "\n")
    (root / "market" / "fields.csv").write_text(
        fields
        if fields is not None
        else "symbol,field,value,observed_at,source\n"
        "AAA,peRatio,25.5,2021-12-31,illustrative\n"
        "AAA,peRatio,27.0,2022-01-10,illustrative\n"
    )
    if decisions is None:
        decisions = [
            {
                "contestant_id": "m1",
                "decided_at": "2022-01-03T15:30:00-05:00",
                "trades": [{"symbol": "AAA", "side": "buy", "quantity": 10, "price": 101}],
                "rationale": "Buying AAA on momentum.",
                "decision_seconds": 12.5,
            },
            {
                "contestant_id": "m1",
                "decided_at": "2022-01-05T15:30:00-05:00",
                "trades": [{"symbol": "AAA", "side": "sell", "quantity": 10, "price": 103}],
                "rationale": "Selling AAA, momentum faded.",
                "decision_seconds": 10.0,
            },
            {
                "contestant_id": "m2",
                "decided_at": "2022-01-03T15:30:00-05:00",
                "trades": [{"symbol": "BBB", "side": "buy", "quantity": 20, "price": 49}],
                "rationale": "Buying BBB for value.",
                "decision_seconds": None,
            },
            {
                "contestant_id": "m2",
                "decided_at": "2022-01-04T15:30:00-05:00",
                "trades": [],
                "rationale": "Holding.",
                "decision_seconds": None,
            },
        ]
    (root / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in decisions))
    return root


@pytest.fixture
def tiny_bundle(tmp_path: Path) -> Path:
    return write_bundle(tmp_path / "tiny")


def _pg_available() -> bool:
    try:
        import sqlalchemy as sa

        eng = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
        with eng.connect() as c:
            c.execute(sa.text("select 1"))
        eng.dispose()
        return True
    except Exception:
        return False


@contextmanager
def fresh_pg_database(prefix: str = "grader_test"):
    """A new, empty PostgreSQL database (its URL), dropped afterwards; a skip when PostgreSQL is not reachable
    (a failure in CI, where it is required)."""
    import sqlalchemy as sa

    if not _pg_available():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not reachable at 127.0.0.1:5432 (required in CI)")
        pytest.skip("PostgreSQL not reachable")
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        from grader.storage._engine import _engine

        _engine.cache_clear()
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def pg_url():
    """A fresh PostgreSQL database for this test session (dropped afterwards)."""
    with fresh_pg_database() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """Every storage test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'grader.db'}"
    url = request.getfixturevalue("pg_url")
    # isolate tests sharing the session database: wipe rows between tests
    import sqlalchemy as sa

    from grader.storage import Base, get_engine

    eng = get_engine(url)
    with eng.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(sa.text(f'DELETE FROM "{table.name}"'))
    return url
