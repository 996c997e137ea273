"""SIGKILL mid-run, run again: no completed call is repeated; final scores equal an uninterrupted run's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from sqlalchemy import func, select

from grader.panel.leaderboard import leaderboard_rows
from grader.storage import JudgeCallRow, session_scope
from tests.panel.conftest import write_panel


def _cmd(season, panel, run_id):
    return [sys.executable, "-m", "grader", "grade", str(season), "--panel", str(panel), "--run-id", run_id,
            "--quiet"]


def _ok_calls(url) -> int:
    try:
        with session_scope(url) as s:
            return s.scalar(select(func.count()).select_from(JudgeCallRow).where(
                JudgeCallRow.status.in_(("ok", "received")))) or 0
    except Exception:
        return 0


def test_sigkill_then_resume(season, tmp_path):
    panel_path = write_panel(tmp_path / "slow.yaml", latency_s=1.5)
    text = panel_path.read_text().replace("concurrency: {openai: 8, anthropic: 8, xai: 8}",
                                          "concurrency: {openai: 1, anthropic: 1, xai: 1}")
    panel_path.write_text(text)
    killed_url = f"sqlite:///{tmp_path / 'killed.db'}"
    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    env = {**os.environ, "GRADER_DATABASE_URL": killed_url}

    proc = subprocess.Popen(_cmd(season, panel_path, "k"), env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _ok_calls(killed_url) < 1:
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        assert time.monotonic() < deadline, "no call completed in time"
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = _ok_calls(killed_url)
    assert 1 <= done_before < 6, done_before

    subprocess.run(_cmd(season, panel_path, "k"), env=env, check=True, capture_output=True)
    subprocess.run(_cmd(season, panel_path, "k"), env={**os.environ, "GRADER_DATABASE_URL": clean_url},
                   check=True, capture_output=True)

    with session_scope(killed_url) as s:
        rows = s.execute(select(JudgeCallRow.cache_key, func.count()).where(JudgeCallRow.status == "ok")
                         .group_by(JudgeCallRow.cache_key)).all()
    assert len(rows) == 6 and all(n == 1 for _, n in rows), rows  # nothing completed was paid for twice
    resumed = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("k", db_url=killed_url)[1]}
    clean = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("k", db_url=clean_url)[1]}
    assert resumed == clean
