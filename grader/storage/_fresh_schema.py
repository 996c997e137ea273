"""A new SQLite database created at the schema's head in one script, not by running every migration.

``migrations/head.sqlite.sql`` is what the migrations leave in a new SQLite database: its ``sqlite_master``
statements (tables, then indexes, views and triggers, each in creation order) and the revision they are at. A
command that writes to a SQLite database that holds nothing yet runs that script in one transaction and records the
revision, as ``alembic upgrade head`` would have (alembic, its templates and twelve migrations are never loaded:
about 0.2 s of CPU and 0.5 s of wall clock at start-up, measured 2026-11-27). The script is used only while its
revision is the migrations' head; otherwise the migrations run as before. ``tests/storage/test_fresh_schema.py``
checks the script against the migrations run on a new database (regenerate it with
``python -m grader.storage._fresh_schema``)."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

HEAD_SCHEMA = Path(__file__).parent / "migrations" / "head.sqlite.sql"
_REVISION = "-- revision: "
_KINDS = ("table", "index", "view", "trigger")


def schema_statements(conn: sqlite3.Connection) -> list[str]:
    """The database's own schema as the statements that create it: tables, then indexes, views and triggers, each in
    the order they were made (SQLite's internal tables left out: SQLite makes them itself)."""
    rows = conn.execute(
        "SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite%' ORDER BY rowid"
    ).fetchall()
    return [sql for kind in _KINDS for t, sql in rows if t == kind]


def head_schema_text(revision: str, statements: list[str]) -> str:
    """The script's text: the revision line, then one statement per block."""
    return _REVISION + revision + "\n" + "".join(s + ";\n\n" for s in statements)


def read_head_schema() -> tuple[str, str] | None:
    """(revision, the statements as one script) of ``head.sqlite.sql``; None when it is missing or unreadable."""
    try:
        text = HEAD_SCHEMA.read_text(encoding="utf-8")
    except OSError:
        return None
    first, _, body = text.partition("\n")
    if not first.startswith(_REVISION) or not body.strip():
        return None
    return first[len(_REVISION) :].strip(), body


def create_at_head(conn: sqlite3.Connection, head: str | None) -> bool:
    """Create the schema at ``head`` in the empty database behind ``conn`` from the script (one transaction) and
    say so; False, touching nothing, when the database holds anything or the script is not at ``head`` (the
    migrations decide then). The caller holds the migration lock."""
    script = read_head_schema()
    if head is None or script is None or script[0] != head:
        return False
    if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        return False
    revision, body = script
    quoted = revision.replace("'", "''")
    conn.executescript(
        "BEGIN IMMEDIATE;\n" + body + f"INSERT INTO alembic_version (version_num) VALUES ('{quoted}');\nCOMMIT;\n"
    )
    return True


def migrated_schema() -> tuple[str, list[str]]:
    """(head revision, schema statements) of a new SQLite database brought to head by the migrations themselves."""
    from alembic import command
    from alembic.script import ScriptDirectory

    from grader.storage._engine import _engine, alembic_config

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'head.db'}"
        cfg = alembic_config(url)
        engine = _engine(url)
        try:
            with engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
            with sqlite3.connect(Path(tmp) / "head.db") as conn:
                statements = schema_statements(conn)
        finally:
            engine.dispose()
        head = ScriptDirectory.from_config(cfg).get_current_head()
    if head is None:
        raise RuntimeError("the migrations have no single head")
    return head, statements


def write_head_schema() -> Path:
    """Regenerate ``head.sqlite.sql`` from the migrations."""
    head, statements = migrated_schema()
    HEAD_SCHEMA.write_text(head_schema_text(head, statements), encoding="utf-8")
    return HEAD_SCHEMA


if __name__ == "__main__":
    print(write_head_schema())
