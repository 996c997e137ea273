"""The database as an operator meets it: copied as a lone ``.db`` file, read-only, behind the code's schema, locked by
another process, on a full disk. Each ends with one clear line and an exit code of its own, and a resumed run gives
the scores of an uninterrupted one without paying twice."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest
from sqlalchemy import func, select

from grader.panel.leaderboard import leaderboard_rows
from grader.storage import JudgeCallRow, session_scope
from grader.storage._engine import BUSY_TIMEOUT_ENV, MAX_PAGES_ENV, alembic_config
from grader.storage._errors import EXIT_DB_LOCKED, EXIT_DISK_FULL, EXIT_NOT_WRITABLE, EXIT_SCHEMA
from tests.faults._helpers import REPO, grade_cmd
from tests.panel.conftest import write_panel

READS = (
    ["leaderboard", "--run", "g"],
    ["verify", "--run", "g"],
    ["ledger", "--run", "g", "--format", "csv"],
    ["audit", "--run", "g"],
    ["cost", "--run", "g"],
    ["db", "status"],
)


def _grader(url: str, *args: str, env: dict | None = None, prefix: tuple = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "grader", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "GRADER_DATABASE_URL": url, **(env or {})},
    )


def _scores(url: str, run_id: str = "g") -> dict:
    return {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows(run_id, db_url=url)[1]}


def _one_line_error(done: subprocess.CompletedProcess, code: int, *words: str) -> None:
    assert done.returncode == code, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr and done.stderr.strip().startswith("error:"), done.stderr[-3000:]
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


@pytest.fixture
def graded(season, tmp_path):
    """A completed mock run ``g`` in its own folder (and the panel it used)."""
    panel = write_panel(tmp_path / "panel.yaml")
    folder = tmp_path / "db"
    folder.mkdir()
    url = f"sqlite:///{folder / 'runs.db'}"
    done = _grader(url, *grade_cmd(season, panel, "g")[3:])
    assert done.returncode == 0, done.stderr[-3000:]
    return folder, url, panel


def test_the_db_file_alone_is_the_whole_database(graded, tmp_path):
    folder, url, _ = graded
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(folder / "runs.db", copy / "runs.db")  # what a user does to back up or share a run: only the .db
    with sqlite3.connect(f"file:{copy / 'runs.db'}?mode=ro", uri=True) as conn:
        assert conn.execute("select count(*) from judge_calls where status = 'ok'").fetchone()[0] == 6
    copied = _grader(f"sqlite:///{copy / 'runs.db'}", "verify", "--run", "g")
    assert copied.returncode == 0 and "nothing changed" in copied.stdout, copied.stderr[-2000:]
    assert _scores(f"sqlite:///{copy / 'runs.db'}") == _scores(url)


def _read_only(folder):
    """A command prefix that runs it with ``folder`` read-only: a read-only bind mount in a mount namespace of its
    own as root (chmod does not stop root), the folder's and file's permissions otherwise."""
    if os.geteuid() != 0:
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        return ()
    if shutil.which("unshare") is None:
        pytest.skip("root without unshare: cannot make a folder read-only")
    script = folder.parent / "ro.sh"
    script.write_text(
        '#!/bin/sh\nd="$1"; shift\nmount --bind "$d" "$d" && mount -o remount,bind,ro "$d" && exec "$@"\n'
    )
    script.chmod(0o755)
    return ("unshare", "-m", str(script), str(folder))


def test_reading_commands_work_on_a_read_only_database(graded, tmp_path):
    folder, url, panel = graded
    (folder / "runs.db.migrate-lock").unlink()
    before = sorted(p.name for p in folder.iterdir())
    for args in READS:  # writable folder first: a read creates no file (no lock file, no WAL left behind)
        done = _grader(url, *args)
        assert done.returncode == 0, (args, done.stderr[-2000:])
    assert sorted(p.name for p in folder.iterdir()) == before
    prefix = _read_only(folder)
    out = tmp_path / "report"
    for args in (*READS, ["report", "--run", "g", "--out", str(out)]):
        done = _grader(url, *args, prefix=prefix)
        assert done.returncode == 0, (args, done.stderr[-2000:])
    assert (out / "report.html").is_file()
    season = panel.parent / "season"
    wrote = _grader(url, *grade_cmd(season, panel, "g2")[3:], prefix=prefix)
    _one_line_error(wrote, EXIT_NOT_WRITABLE, "may not be written")


def test_a_read_of_a_database_behind_the_schema_says_so(tmp_path):
    from alembic import command

    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0009")
    done = _grader(url, "leaderboard", "--run", "x")
    _one_line_error(done, EXIT_SCHEMA, "revision 0009", "grader db upgrade")
    with sqlite3.connect(tmp_path / "old.db") as conn:  # the read migrated nothing
        assert conn.execute("select version_num from alembic_version").fetchone()[0] == "0009"
    upgraded = _grader(url, "db", "upgrade")
    assert upgraded.returncode == 0 and "from revision 0009" in upgraded.stdout, upgraded.stderr
    after = _grader(url, "db", "status")
    assert after.returncode == 0 and "up to date" in after.stdout


def test_a_locked_database_stops_with_its_own_code_and_resumes(graded, season, tmp_path):
    folder, url, panel = graded
    holder = sqlite3.connect(folder / "runs.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing and never letting go
    try:
        done = _grader(url, *grade_cmd(season, panel, "locked")[3:], env={BUSY_TIMEOUT_ENV: "0.3"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    _one_line_error(done, EXIT_DB_LOCKED, "locked", "run the same command again")
    again = _grader(url, *grade_cmd(season, panel, "locked")[3:])
    assert again.returncode == 0, again.stderr[-2000:]
    assert _scores(url, "locked") == _scores(url, "g")


def test_a_full_disk_stops_with_its_own_code_and_resumes(season, tmp_path):
    """The disk fills in the middle of the run (SQLite's page limit: the same SQLITE_FULL a full disk gives; the
    benchmark fills a real tmpfs where the machine allows); grown and resumed: the scores of a clean run, nothing
    paid twice, the manifest verifies."""
    panel = write_panel(tmp_path / "panel.yaml")
    url = f"sqlite:///{tmp_path / 'full.db'}"
    assert _grader(url, "import", str(season)).returncode == 0
    with sqlite3.connect(tmp_path / "full.db") as conn:
        pages = conn.execute("pragma page_count").fetchone()[0]
    full = _grader(url, *grade_cmd(season, panel, "g")[3:], env={MAX_PAGES_ENV: str(pages + 12)})
    _one_line_error(full, EXIT_DISK_FULL, "no space left", "run the same command again")
    with session_scope(url) as s:
        assert s.scalar(select(func.count()).select_from(JudgeCallRow)) > 0  # it stopped in the middle
    grown = _grader(url, *grade_cmd(season, panel, "g")[3:])
    assert grown.returncode == 0, grown.stderr[-2000:]
    assert _grader(url, "verify", "--run", "g").returncode == 0
    with session_scope(url) as s:
        ok = s.execute(
            select(JudgeCallRow.cache_key, func.count())
            .where(JudgeCallRow.status == "ok")
            .group_by(JudgeCallRow.cache_key)
        ).all()
    assert len(ok) == 6 and all(n == 1 for _, n in ok)
    clean = f"sqlite:///{tmp_path / 'clean.db'}"
    assert _grader(clean, *grade_cmd(season, panel, "g")[3:]).returncode == 0
    assert _scores(url) == _scores(clean)


def test_reading_commands_work_on_a_read_only_postgresql_database(season, tmp_path):
    """A PostgreSQL database that accepts no writes (a read replica; here ``default_transaction_read_only``): the
    reading commands work, a write says so in one line (exit 8)."""
    import sqlalchemy as sa

    from tests.conftest import fresh_pg_database

    panel = write_panel(tmp_path / "panel.yaml")
    with fresh_pg_database("grader_ro") as url:
        assert _grader(url, *grade_cmd(season, panel, "g")[3:]).returncode == 0
        admin = sa.create_engine(url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(sa.text(f'ALTER DATABASE "{url.rsplit("/", 1)[1]}" SET default_transaction_read_only = on'))
        admin.dispose()
        for args in (*READS, ["report", "--run", "g", "--out", str(tmp_path / "report")]):
            done = _grader(url, *args)
            assert done.returncode == 0, (args, done.stderr[-2000:])
        wrote = _grader(url, *grade_cmd(season, panel, "g2")[3:])
        _one_line_error(wrote, EXIT_NOT_WRITABLE, "may not be written")
