"""Engine and sessions. ``GRADER_DATABASE_URL`` selects the database (default: SQLite ``grader.db`` here).

Writing and reading are apart. A command that writes migrates the schema to head first (under a lock file beside a
SQLite database, an advisory lock on PostgreSQL). A command that only reads (``read_only_access``: leaderboard,
report, verify, ledger, audit, cost, ...) never migrates, never creates a lock file and opens the database
read-only (SQLite ``mode=ro``, or ``immutable`` in a directory nobody may write; PostgreSQL read-only transactions),
so it works on a database it may not write; a database behind the code's schema is refused with what to run
(``SchemaMismatch``: ``grader db upgrade``). When a command ends (``close_engines``), a SQLite database is
checkpointed and, when no other process has it open, left in rollback-journal mode: the ``.db`` file alone is
then the whole database (copy it, share it, open it on a read-only medium).
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alembic.config import Config

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"

BUSY_TIMEOUT_ENV = "GRADER_SQLITE_BUSY_TIMEOUT_S"
"""Seconds a SQLite write waits for a lock another process holds before the command stops with exit 6 (default 10)."""
MAX_PAGES_ENV = "GRADER_FAULT_SQLITE_MAX_PAGES"
"""Fault injection for tests where no small filesystem can be mounted: SQLite's ``max_page_count``, so a write past
it fails exactly as on a full disk (SQLITE_FULL, "database or disk is full"). Never set in normal use."""

_access = {"read_only": False}


class SchemaMismatch(RuntimeError):
    """The database's schema is not the one this code expects (a read never migrates), or there is no database."""


def read_only_access(on: bool = True) -> None:
    """From here on this process only reads: no migration, no lock file, the database opened read-only (the CLI's
    reading commands call it first)."""
    _access["read_only"] = on


def database_url(url: str | None = None) -> str:
    return url or os.environ.get("GRADER_DATABASE_URL") or "sqlite:///grader.db"


def _normalise(url: str) -> str:
    # the psycopg (v3) driver is the one installed
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL (None: not SQLite, or in memory)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(_normalise(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return parsed.database


def _read_only_sqlite(path: str):  # noqa: ANN202 - a DB-API connection factory
    """A read-only connection: ``mode=ro``; ``immutable=1`` when the directory is not writable and no WAL is in
    use (SQLite could not create the shared-memory file a WAL database needs, and nobody can write there)."""
    if not Path(path).is_file():
        raise SchemaMismatch(f"no database at {path} (nothing to read; a command that writes creates it)")
    folder = os.path.dirname(os.path.abspath(path))
    frozen = not os.access(folder, os.W_OK) and not os.path.exists(f"{path}-wal")
    uri = f"file:{Path(path).absolute().as_posix()}?{'immutable=1' if frozen else 'mode=ro'}"
    return lambda: sqlite3.connect(uri, uri=True, check_same_thread=False)


@lru_cache(maxsize=16)
def _engine(url: str, read_only: bool = False) -> Engine:
    path = sqlite_path(url)
    if read_only and path is not None:
        from sqlalchemy.pool import QueuePool

        engine = create_engine("sqlite://", creator=_read_only_sqlite(path), poolclass=QueuePool, future=True)
    elif read_only and url.startswith("postgresql"):
        engine = create_engine(
            _normalise(url), future=True, connect_args={"options": "-c default_transaction_read_only=on"}
        )
    else:
        engine = create_engine(_normalise(url), future=True)
    if engine.dialect.name == "sqlite":
        busy_ms = int(float(os.environ.get(BUSY_TIMEOUT_ENV) or 10) * 1000)
        max_pages = os.environ.get(MAX_PAGES_ENV, "").strip()

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={busy_ms}")
            if not read_only:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")  # WAL: durable across a process crash
                if max_pages.isdigit():
                    cur.execute(f"PRAGMA max_page_count={int(max_pages)}")
            cur.close()

    _opened.append((engine, path if not read_only else None))
    return engine


_opened: list[tuple[Engine, str | None]] = []


def close_engines() -> None:
    """Close every engine this process opened; a SQLite file it wrote is checkpointed (its WAL folded into the
    ``.db``) and switched back to rollback-journal mode unless another process has it open (that one does it when
    it ends): the ``.db`` file alone is then the complete database. Best effort: never raises."""
    while _opened:
        engine, path = _opened.pop()
        try:
            engine.dispose()
        except Exception:  # noqa: BLE001, S112 - closing what is left
            continue
        if path is None or not os.path.exists(path):
            continue
        try:
            conn = sqlite3.connect(path, timeout=0.2)
            try:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                conn.execute("PRAGMA journal_mode=DELETE").fetchall()  # refused while others have it open
            finally:
                conn.close()
        except sqlite3.Error:
            pass
    _engine.cache_clear()


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", _normalise(url).replace("%", "%%"))
    return cfg


def get_engine(url: str | None = None, *, migrate: bool = True) -> Engine:
    """The engine for ``url`` with the schema migrated to head (idempotent); after :func:`read_only_access`, a
    read-only engine whose schema must already be at head (``SchemaMismatch`` otherwise)."""
    url = database_url(url)
    if _access["read_only"]:
        engine = _engine(url, True)
        if not getattr(engine, "_grader_checked", False):
            check_schema(engine, url)
            engine._grader_checked = True  # type: ignore[attr-defined]
        return engine
    engine = _engine(url)
    if migrate and not getattr(engine, "_grader_migrated", False):
        if not _at_head(engine):  # a schema already at head: no lock, and alembic is never loaded (~0.1 s)
            with _migration_lock(engine):
                if not _created_at_head(engine):  # a new SQLite database: the head's schema in one script
                    from alembic import command

                    with engine.begin() as conn:
                        if engine.dialect.name == "postgresql":  # two first runs on one database: one migrates
                            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(730131)")
                        cfg = alembic_config(url)
                        cfg.attributes["connection"] = conn
                        command.upgrade(cfg, "head")
        engine._grader_migrated = True  # type: ignore[attr-defined]
    return engine


@lru_cache(maxsize=1)
def head_revision() -> str | None:
    """The code's head revision, read from the migration files' ``revision`` / ``down_revision`` lines without
    loading alembic: the one revision no other revises (None when that is not one: alembic decides then)."""
    revisions: set[str] = set()
    revised: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        text = script.read_text(encoding="utf-8")
        revision = re.search(r"^revision\s*(?::[^=\n]*)?=\s*['\"]([^'\"]+)['\"]", text, re.M)
        down = re.search(r"^down_revision\s*(?::[^=\n]*)?=\s*(.*)$", text, re.M)
        if revision is None or down is None:
            return None
        revisions.add(revision.group(1))
        revised.update(re.findall(r"['\"]([^'\"]+)['\"]", down.group(1)))
    heads = revisions - revised
    return heads.pop() if len(heads) == 1 else None


def _created_at_head(engine: Engine) -> bool:
    """A SQLite database that holds nothing yet created at the schema's head from ``migrations/head.sqlite.sql``
    (``grader.storage._fresh_schema``); False when that does not apply (the migrations run then). Under the
    migration lock."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        return False
    from grader.storage._fresh_schema import create_at_head

    conn = engine.raw_connection()  # the engine's own connection: its pragmas (busy timeout, WAL, page limit)
    try:
        driver = conn.driver_connection
        return isinstance(driver, sqlite3.Connection) and create_at_head(driver, head_revision())
    except sqlite3.DatabaseError as exc:  # not a database: the migrations say so as before; a full disk is said
        if "file is not a database" in str(exc) or "malformed" in str(exc):
            return False
        raise
    finally:
        conn.close()


def _at_head(engine: Engine) -> bool:
    """Whether the database's schema is already at the code's head (one cheap read; False when unsure)."""
    head = head_revision()
    if head is None:
        return False
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version").fetchall()
    except DBAPIError:  # no alembic_version table: a new database
        return False
    return [r[0] for r in rows] == [head]


def schema_revisions(url: str | None = None) -> tuple[str | None, str]:
    """(the database's schema revision, None when it has none; the code's head revision), read without writing."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    url = database_url(url)
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    with _engine(url, True).connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    return current, head or ""


def check_schema(engine: Engine, url: str) -> None:
    """Refuse to read a database whose schema is not this code's head, saying what to run."""
    current, head = schema_revisions(url)
    if current == head:
        return
    if current is None:
        raise SchemaMismatch(
            "the database holds no grader schema (an empty or foreign database): a command that "
            "writes creates it, or run `grader db upgrade`"
        )
    raise SchemaMismatch(
        f"the database schema is at revision {current}, this grader expects {head}: run "
        "`grader db upgrade` (with write access) first; reading never migrates"
    )


def upgrade_database(url: str | None = None) -> tuple[str | None, str]:
    """Migrate the schema to head (the explicit `grader db upgrade`); (revision before, revision after)."""
    url = database_url(url)
    before = None
    path = sqlite_path(url)
    if path is None or os.path.exists(path):
        before = schema_revisions(url)[0]
    get_engine(url)
    return before, schema_revisions(url)[1]


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[None]:
    """SQLite: an exclusive lock file beside the database while the schema is brought to head (two processes
    starting on a new file would both try to create it)."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None  # read-only engines never get here
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
