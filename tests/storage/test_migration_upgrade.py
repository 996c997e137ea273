"""Upgrading a database that already holds runs: 0004 -> head keeps every scored version and numbers them within
their run (SQLite, whose foreign keys forbid rebuilding a referenced table, and PostgreSQL)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
import sqlalchemy as sa
from alembic import command

from grader.storage._engine import _engine, alembic_config
from tests.conftest import fresh_pg_database


def _upgrade(url: str, revision: str) -> None:
    with _engine(url).begin() as conn:
        cfg = alembic_config(url)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def _populate(url: str) -> None:
    with _engine(url).begin() as c:
        c.execute(
            sa.text(
                'insert into seasons (id, season_key, content_hash, name, start, "end", benchmark, '
                "source_path, info, file_hashes, imported_at) values (1, 's', 'h', 'n', '2022-01-03', "
                "'2022-02-01', 'SP', '/x', '{}', '{}', '2022-01-01')"
            )
        )
        c.execute(
            sa.text(
                "insert into contestants (id, season_id, contestant_key, display_name, provider_family, "
                "model) values (1, 1, 'c', 'C', 'openai', 'm')"
            )
        )
        for run in ("a", "b"):
            c.execute(
                sa.text(
                    "insert into runs (id, season_id, rubric_id, rubric_hash, judge_facing_hash, "
                    "panel_name, panel_hash, run_type, repeats, status, official_eligible, created_at) "
                    f"values ('{run}', 1, 'v', 'h', 'j', 'p', 'ph', 'mock', 1, 'complete', false, "
                    "'2022-01-01')"
                )
            )
        for vid, run in ((1, "a"), (2, "b"), (3, "a")):
            c.execute(
                sa.text(
                    "insert into score_versions (id, run_id, rubric_id, rubric_hash, judge_calls, "
                    f"created_at, note) values ({vid}, '{run}', 'v', 'h', 0, '2022-01-01', '')"
                )
            )
            c.execute(
                sa.text(
                    "insert into contestant_scores (version_id, contestant_id, total, reasoning_median, "
                    "band, n_judges, flagged, official_eligible, outcome, details) values "
                    f"({vid}, 1, 50, 50, 'mixed', 1, false, false, '{{}}', '{{}}')"
                )
            )


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_upgrade_from_0004_numbers_existing_versions_within_their_run(backend, tmp_path):
    with ExitStack() as stack:
        url = (
            f"sqlite:///{tmp_path / 'old.db'}"
            if backend == "sqlite"
            else stack.enter_context(fresh_pg_database("grader_mig"))
        )
        stack.callback(_engine.cache_clear)
        _upgrade(url, "0004")
        _populate(url)
        _upgrade(url, "head")
        with _engine(url).begin() as c:
            rows = c.execute(sa.text("select id, run_id, number from score_versions order by id")).fetchall()
            assert [tuple(r) for r in rows] == [(1, "a", 1), (2, "b", 1), (3, "a", 2)]
            assert c.execute(sa.text("select count(*) from contestant_scores")).scalar() == 3
            with pytest.raises(sa.exc.IntegrityError):  # one number per run
                c.execute(
                    sa.text(
                        "insert into score_versions (run_id, number, rubric_id, rubric_hash, judge_calls, "
                        "created_at, note) values ('a', 2, 'v', 'h', 0, '2022-01-01', '')"
                    )
                )


def test_the_head_read_from_the_migration_files_is_alembics_head():
    from alembic.script import ScriptDirectory

    from grader.storage._engine import head_revision

    assert head_revision() == ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def test_a_database_at_head_is_opened_for_writing_without_loading_alembic(tmp_path):
    """The schema check is one read: a second writing process on a current database never loads alembic, and one
    behind the head is still migrated. (A new SQLite database is created from the head's script without alembic
    either: tests/storage/test_fresh_schema.py.)"""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'g.db'}"
    script = (
        "import sys; from grader.storage import get_engine; get_engine(sys.argv[1]); print('alembic' in sys.modules)"
    )

    def open_for_writing() -> str:
        done = subprocess.run([sys.executable, "-c", script, url], capture_output=True, text=True, check=True)
        return done.stdout.strip()

    assert open_for_writing() == "False"  # a new database: created at head from the script
    assert open_for_writing() == "False"  # at head: one read, no alembic
    _engine(url).dispose()
    with _engine(url).begin() as c:  # as if the code had moved on a revision
        c.execute(sa.text("update alembic_version set version_num = '0011'"))
    assert open_for_writing() == "True"
    with _engine(url).connect() as c:
        from grader.storage._engine import head_revision

        assert c.execute(sa.text("select version_num from alembic_version")).scalar() == head_revision()
