"""SIGINT, SIGTERM and SIGKILL at a known point of a run (every call in flight), again and again at the same point:
each signal that can be caught ends with the resume command, its exit code, the lease released and no call left
``sent``; none of these interruptions counts toward the retry cap, so the run resumed after more crashes than the
cap allows completes, with the scores of an uninterrupted run and no completed call paid twice."""

from __future__ import annotations

import os
import signal
import subprocess

from sqlalchemy import func, select

from grader.panel.leaderboard import leaderboard_rows
from grader.storage import JudgeCallRow, session_scope
from tests.faults._helpers import (
    EXIT_BY_SIGNAL,
    REPO,
    count_calls,
    grade_cmd,
    lease_held,
    run_and_stop,
    run_status,
)
from tests.panel.conftest import write_panel

TASKS = 6  # 3 judges x 2 contestants
CAP = 2


def capped_panel(path):
    """The mock panel with an attempt cap of ``CAP``."""
    import yaml

    write_panel(path)
    data = yaml.safe_load(path.read_text())
    data["retry"]["max_attempts"] = CAP
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def test_stops_at_the_same_point_never_use_up_the_retry_cap(season, tmp_path):
    panel = capped_panel(tmp_path / "panel.yaml")
    url = f"sqlite:///{tmp_path / 'faults.db'}"
    env = {**os.environ, "GRADER_DATABASE_URL": url}
    signals = [signal.SIGTERM, signal.SIGKILL, signal.SIGINT]
    assert len(signals) > CAP
    for n, sig in enumerate(signals, start=1):
        # every request held: all six calls in flight when the signal lands, the same point every time
        done = run_and_stop(grade_cmd(season, panel, "f"), env, url, stall_after=0, wait_sent=TASKS,
                            wait_total=n * TASKS, sig=sig)
        assert done.returncode == EXIT_BY_SIGNAL[sig], (sig, done.returncode, done.stderr[-2000:])
        if sig != signal.SIGKILL:
            word = "terminated (SIGTERM)" if sig == signal.SIGTERM else "interrupted"
            assert word in done.stderr and f"grader grade {season}" in done.stderr and "--run-id f" in done.stderr
            assert "Traceback" not in done.stderr
            assert not lease_held(url, "f")  # released: the next process needs no take-over
            assert run_status(url, "f") == "interrupted"
            assert count_calls(url, "sent") == 0  # every call in flight marked interrupted at once
        assert count_calls(url, "sent", "interrupted") == n * TASKS

    resumed = subprocess.run(grade_cmd(season, panel, "f"), env=env, cwd=REPO, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr[-2000:]  # complete: no judge lost its retries to our crashes
    assert run_status(url, "f") == "complete"
    with session_scope(url) as s:
        ok = s.execute(select(JudgeCallRow.cache_key, func.count()).where(JudgeCallRow.status == "ok")
                       .group_by(JudgeCallRow.cache_key)).all()
        numbers = s.execute(select(JudgeCallRow.judge_id, JudgeCallRow.contestant_id, JudgeCallRow.attempt)
                            .where(JudgeCallRow.status == "ok")).all()
    assert len(ok) == TASKS and all(k == 1 for _, k in ok)  # nothing completed paid twice
    assert {a for *_, a in numbers} == {len(signals) + 1}  # numbered on after the interrupted attempts

    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    subprocess.run(grade_cmd(season, panel, "f"), env={**os.environ, "GRADER_DATABASE_URL": clean_url}, cwd=REPO,
                   check=True, capture_output=True)
    scores = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("f", db_url=url)[1]}
    clean = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("f", db_url=clean_url)[1]}
    assert scores == clean
