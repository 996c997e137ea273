"""A grading run in its own process, stopped by a signal at a known point, and what the database holds after."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from grader.panel._mock import STALL_AFTER_ENV
from grader.storage import JudgeCallRow, RunLeaseRow, RunRow, session_scope

REPO = Path(__file__).resolve().parents[2]


def grade_cmd(season, panel, run_id) -> list[str]:
    return [sys.executable, "-m", "grader", "grade", str(season), "--panel", str(panel), "--run-id", run_id, "--quiet"]


def count_calls(url: str, *statuses: str) -> int:
    try:
        with session_scope(url) as s:
            return (
                s.scalar(select(func.count()).select_from(JudgeCallRow).where(JudgeCallRow.status.in_(statuses))) or 0
            )
    except Exception:  # noqa: BLE001 - the database may not exist yet
        return 0


def run_and_stop(
    cmd: list[str],
    env: dict,
    url: str,
    *,
    stall_after: int,
    wait_sent: int,
    wait_total: int,
    sig: int,
    timeout_s: float = 120,
) -> subprocess.CompletedProcess:
    """Start ``cmd`` with its mock fakes answering ``stall_after`` requests and holding the rest; once ``wait_sent``
    attempts are in flight (``sent``) and ``wait_total`` attempts are on record (attempts a killed process left
    ``sent`` are marked interrupted before new ones leave), send ``sig``; its exit code and output."""
    proc = subprocess.Popen(
        cmd,
        env={**env, STALL_AFTER_ENV: str(stall_after)},
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + timeout_s
    while count_calls(url, "sent") < wait_sent or count_calls(url, *ATTEMPTS) < wait_total:
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"ended before the stop point ({proc.returncode}): {err[-2000:]}")
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("the stop point was not reached in time")
        time.sleep(0.05)
    os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


ATTEMPTS = ("sent", "interrupted", "received", "ok", "invalid", "error")


def lease_held(url: str, run_id: str) -> bool:
    with session_scope(url) as s:
        return s.get(RunLeaseRow, run_id) is not None


def run_status(url: str, run_id: str) -> str | None:
    with session_scope(url) as s:
        run = s.get(RunRow, run_id)
        return run.status if run is not None else None


EXIT_BY_SIGNAL = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGKILL: -signal.SIGKILL}
