"""Engine and sessions. ``GRADER_DATABASE_URL`` selects the database (default: SQLite ``grader.db`` here)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


def database_url(url: str | None = None) -> str:
    return url or os.environ.get("GRADER_DATABASE_URL") or "sqlite:///grader.db"


def _normalise(url: str) -> str:
    # the psycopg (v3) driver is the one installed
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


@lru_cache(maxsize=16)
def _engine(url: str) -> Engine:
    engine = create_engine(_normalise(url), future=True)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across a process crash
            cur.execute("PRAGMA busy_timeout=10000")
            cur.close()

    return engine


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", _normalise(url).replace("%", "%%"))
    return cfg


def get_engine(url: str | None = None, *, migrate: bool = True) -> Engine:
    """The engine for ``url`` with the schema migrated to head (idempotent)."""
    url = database_url(url)
    engine = _engine(url)
    if migrate and not getattr(engine, "_grader_migrated", False):
        with _migration_lock(engine), engine.begin() as conn:
            if engine.dialect.name == "postgresql":  # two first runs on one database: one migrates, one waits
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(730131)")
            cfg = alembic_config(url)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        engine._grader_migrated = True  # type: ignore[attr-defined]
    return engine


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """SQLite: an exclusive lock file beside the database while the schema is brought to head (two processes
    starting on a new file would both try to create it)."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        yield
        return
    import fcntl

    with open(f"{path}.migrate-lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@contextmanager
def session_scope(url: str | None = None) -> Iterator[Session]:
    """A transaction: committed on success, rolled back on any error."""
    factory = sessionmaker(bind=get_engine(url), expire_on_commit=False)
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
