"""SIGKILL mid-run, run again: no completed call is repeated; final scores equal an uninterrupted run's.

The kill lands at a known point: the killed process's mock fakes answer exactly ``STALL_AFTER`` requests and
hold every later one (``GRADER_MOCK_STALL_AFTER``), so the test waits for those calls to be stored and kills
then, whatever the machine's load. No sleep races the work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from sqlalchemy import func, select

from grader.panel._mock import STALL_AFTER_ENV
from grader.panel.leaderboard import leaderboard_rows
from grader.storage import JudgeCallRow, session_scope
from tests.panel.conftest import write_panel


def _cmd(season, panel, run_id):
    return [sys.executable, "-m", "grader", "grade", str(season), "--panel", str(panel), "--run-id", run_id, "--quiet"]


def _ok_calls(url) -> int:
    try:
        with session_scope(url) as s:
            return (
                s.scalar(
                    select(func.count()).select_from(JudgeCallRow).where(JudgeCallRow.status.in_(("ok", "received")))
                )
                or 0
            )
    except Exception:
        return 0


STALL_AFTER = 2
TOTAL_CALLS = 6  # 3 judges x 2 contestants


def test_sigkill_then_resume(season, tmp_path):
    panel_path = write_panel(tmp_path / "panel.yaml")
    killed_url = f"sqlite:///{tmp_path / 'killed.db'}"
    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    env = {**os.environ, "GRADER_DATABASE_URL": killed_url}

    proc = subprocess.Popen(
        _cmd(season, panel_path, "k"),
        env={**env, STALL_AFTER_ENV: str(STALL_AFTER)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while _ok_calls(killed_url) < STALL_AFTER:
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "the first calls were not stored in time"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _ok_calls(killed_url) == STALL_AFTER  # killed with exactly these calls done, the rest in flight

    subprocess.run(_cmd(season, panel_path, "k"), env=env, check=True, capture_output=True)
    subprocess.run(
        _cmd(season, panel_path, "k"),
        env={**os.environ, "GRADER_DATABASE_URL": clean_url},
        check=True,
        capture_output=True,
    )

    with session_scope(killed_url) as s:
        rows = s.execute(
            select(JudgeCallRow.cache_key, func.count())
            .where(JudgeCallRow.status == "ok")
            .group_by(JudgeCallRow.cache_key)
        ).all()
    # nothing completed was paid for twice
    assert len(rows) == TOTAL_CALLS and all(n == 1 for _, n in rows), rows
    resumed = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("k", db_url=killed_url)[1]}
    clean = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("k", db_url=clean_url)[1]}
    assert resumed == clean
