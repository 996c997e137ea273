"""A new SQLite database is created at the schema's head from ``migrations/head.sqlite.sql``, which must be exactly
what the migrations leave; a stale script or a database that holds anything leaves the work to the migrations."""

from __future__ import annotations

import sqlite3

import pytest
from alembic import command

from grader.storage import _fresh_schema as fresh
from grader.storage import close_engines, get_engine, schema_revisions
from grader.storage._engine import _engine, alembic_config, head_revision


@pytest.fixture(scope="module")
def migrated() -> tuple[str, list[str]]:
    return fresh.migrated_schema()


def _statements(path) -> list[str]:  # noqa: ANN001
    with sqlite3.connect(path) as conn:
        return fresh.schema_statements(conn)


def _no_migrations(monkeypatch) -> list[str]:  # noqa: ANN001
    ran: list[str] = []
    monkeypatch.setattr(command, "upgrade", lambda cfg, rev: ran.append(rev))
    return ran


def test_the_script_is_what_the_migrations_leave_in_a_new_database(migrated):
    head, statements = migrated
    assert head == head_revision()
    assert fresh.HEAD_SCHEMA.read_text(encoding="utf-8") == fresh.head_schema_text(head, statements), (
        "migrations/head.sqlite.sql is stale: run `python -m grader.storage._fresh_schema`"
    )
    assert any(s.startswith("CREATE TABLE judge_calls") for s in statements)
    assert any(s.startswith("CREATE INDEX") or s.startswith("CREATE UNIQUE INDEX") for s in statements)


def test_a_new_sqlite_database_is_created_from_the_script_without_running_the_migrations(
    tmp_path, monkeypatch, migrated
):
    ran = _no_migrations(monkeypatch)
    url = f"sqlite:///{tmp_path / 'new.db'}"
    try:
        get_engine(url)
    finally:
        close_engines()
    assert ran == []
    assert _statements(tmp_path / "new.db") == migrated[1]
    assert schema_revisions(url) == (migrated[0], migrated[0])
    monkeypatch.undo()
    try:  # the migrations agree it is at head: nothing left to do, nothing changed
        get_engine(url)
    finally:
        close_engines()
    assert _statements(tmp_path / "new.db") == migrated[1]


def test_a_script_at_another_revision_is_not_used(tmp_path, monkeypatch, migrated):
    stale = tmp_path / "stale.sql"
    stale.write_text(fresh.head_schema_text("0001", ["CREATE TABLE nothing_here (x INTEGER)"]), encoding="utf-8")
    monkeypatch.setattr(fresh, "HEAD_SCHEMA", stale)
    url = f"sqlite:///{tmp_path / 'new.db'}"
    try:
        get_engine(url)
    finally:
        close_engines()
    assert _statements(tmp_path / "new.db") == migrated[1]  # by the migrations
    assert schema_revisions(url)[0] == migrated[0]


def test_a_database_that_holds_anything_is_migrated_not_scripted(tmp_path, monkeypatch, migrated):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with _engine(url).begin() as conn:  # an older schema
        cfg = alembic_config(url)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0004")
    close_engines()
    with sqlite3.connect(tmp_path / "old.db") as conn:
        assert fresh.create_at_head(conn, migrated[0]) is False  # it holds tables: the script refuses
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0004",)]
    try:
        get_engine(url)
    finally:
        close_engines()
    assert schema_revisions(url)[0] == migrated[0]
    with sqlite3.connect(tmp_path / "old.db") as conn:  # every table and index of the head
        names = conn.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite%'").fetchall()
    with sqlite3.connect(":memory:") as conn:
        conn.executescript(fresh.read_head_schema()[1])
        expected = conn.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite%'").fetchall()
    assert sorted(names) == sorted(expected)


def test_a_new_database_on_a_full_disk_is_a_full_disk_and_holds_nothing(tmp_path, monkeypatch):
    """The script runs on the engine's own connection (its pragmas: here the fault injection's page limit, as on a
    full disk): it fails as a full disk does, one transaction rolled back, and the next try on room creates it."""
    from grader.storage import storage_failure
    from grader.storage._engine import MAX_PAGES_ENV
    from grader.storage._errors import EXIT_DISK_FULL

    url = f"sqlite:///{tmp_path / 'full.db'}"
    monkeypatch.setenv(MAX_PAGES_ENV, "3")
    try:
        with pytest.raises(Exception) as caught:
            get_engine(url)
    finally:
        close_engines()
    failure = storage_failure(caught.value)
    assert failure is not None and failure.code == EXIT_DISK_FULL
    assert _statements(tmp_path / "full.db") == []
    monkeypatch.delenv(MAX_PAGES_ENV)
    ran = _no_migrations(monkeypatch)
    try:
        get_engine(url)
    finally:
        close_engines()
    assert ran == [] and schema_revisions(url)[0] == head_revision()
