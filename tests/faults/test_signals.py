"""SIGINT, SIGTERM and SIGKILL at a known point of a run (every call in flight), again and again at the same point:
each signal that can be caught ends with the resume command, its exit code, the lease released and no call left
``sent``; none of these interruptions counts toward the retry cap, so the run resumed after more crashes than the
cap allows completes, with the scores of an uninterrupted run and no completed call paid twice."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys

import pytest
from sqlalchemy import func, select

from grader.panel.leaderboard import leaderboard_rows
from grader.storage import JudgeCallRow, RunLeaseRow, session_scope
from tests.faults._helpers import (
    ATTEMPTS,
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
        done = run_and_stop(
            grade_cmd(season, panel, "f"), env, url, stall_after=0, wait_sent=TASKS, wait_total=n * TASKS, sig=sig
        )
        assert done.returncode == EXIT_BY_SIGNAL[sig], (sig, done.returncode, done.stderr[-2000:])
        if sig != signal.SIGKILL:
            word = "terminated (SIGTERM)" if sig == signal.SIGTERM else "interrupted"
            assert word in done.stderr and f"grader grade {season}" in done.stderr and "--run-id f" in done.stderr
            assert "Traceback" not in done.stderr
            assert not lease_held(url, "f")  # released: the next process needs no take-over
            assert run_status(url, "f") == "interrupted"
            assert count_calls(url, "sent") == 0  # every call in flight marked interrupted at once
            # the .db file alone, copied as a user does (by another process: a copy made here would close this
            # process's descriptor of it and so drop its SQLite locks), holds every attempt on record
            copy = tmp_path / "copy.db"
            subprocess.run(["cp", str(tmp_path / "faults.db"), str(copy)], check=True)
            copied = sqlite3.connect(copy)
            held = copied.execute("select count(*) from judge_calls").fetchone()[0]
            copied.close()
            assert held == count_calls(url, *ATTEMPTS) > 0
            for leftover in tmp_path.glob("copy.db*"):
                leftover.unlink()
        assert count_calls(url, "sent", "interrupted") == n * TASKS

    resumed = subprocess.run(grade_cmd(season, panel, "f"), env=env, cwd=REPO, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr[-2000:]  # complete: no judge lost its retries to our crashes
    assert run_status(url, "f") == "complete"
    with session_scope(url) as s:
        ok = s.execute(
            select(JudgeCallRow.cache_key, func.count())
            .where(JudgeCallRow.status == "ok")
            .group_by(JudgeCallRow.cache_key)
        ).all()
        numbers = s.execute(
            select(JudgeCallRow.judge_id, JudgeCallRow.contestant_id, JudgeCallRow.attempt).where(
                JudgeCallRow.status == "ok"
            )
        ).all()
    assert len(ok) == TASKS and all(k == 1 for _, k in ok)  # nothing completed paid twice
    assert {a for *_, a in numbers} == {len(signals) + 1}  # numbered on after the interrupted attempts

    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    subprocess.run(
        grade_cmd(season, panel, "f"),
        env={**os.environ, "GRADER_DATABASE_URL": clean_url},
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    scores = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("f", db_url=url)[1]}
    clean = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("f", db_url=clean_url)[1]}
    assert scores == clean


_STOP_ON_IMPORT = """
import os, signal, sys

class StopOnImport:  # a signal lands just as `module` starts loading
    def find_spec(self, name, path=None, target=None):
        if name != {module!r}:
            return None
        sys.meta_path.remove(self)
        try:  # inside an exec of source text, as when a dataclass is made (Python 3.11 then flags the interrupt as
            # unhandled for good: the process would die by SIGINT whatever exit code it asks for)
            exec("os.kill(os.getpid(), {sig})\\nfor _ in range(1000):\\n    pass", {{"os": os}})
        except KeyboardInterrupt:
            if {as_import_error!r}:  # what a C extension does (numpy's import_array): the stop becomes an ImportError
                raise ImportError("{module} failed to import") from None
            raise
        return None

sys.meta_path.insert(0, StopOnImport())
sys.argv = ["grader", *{args!r}]
from grader.cli import main
main()
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_the_command_line_loads_says_so_in_one_line(season, tmp_path, sig):
    """Ctrl-C or SIGTERM while ``grader`` itself loads (Typer, Rich, the verbs): what happened and the command to run
    again, 130 or 143, nothing written (it was a traceback and exit -2, or a silent death by SIGTERM)."""
    url = f"sqlite:///{tmp_path / 'early.db'}"
    script = _STOP_ON_IMPORT.format(
        module="typer",
        sig=int(sig),
        as_import_error=False,
        args=grade_cmd(season, write_panel(tmp_path / "panel.yaml"), "e")[3:],
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "GRADER_DATABASE_URL": url},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == EXIT_BY_SIGNAL[sig], (done.returncode, done.stderr[-2000:])
    message, again = done.stderr.strip().splitlines()  # what happened, then the command to run again
    assert "while the command line was loading" in message and again.strip().startswith("grader grade ")
    assert again.strip().endswith("--run-id e --quiet")
    assert not (tmp_path / "early.db").exists()  # nothing read or written


def test_a_stop_an_extension_turns_into_an_import_error_is_still_a_stop(season, tmp_path):
    """Ctrl-C while ``grade`` imports a C extension that reports it as an ``ImportError`` (numpy does): the stop's
    message and resume command, exit 130, no traceback (it was Typer's traceback of the ImportError, exit 1)."""
    url = f"sqlite:///{tmp_path / 'ext.db'}"
    panel = write_panel(tmp_path / "panel.yaml")
    script = _STOP_ON_IMPORT.format(
        module="grader.judges", sig=int(signal.SIGINT), as_import_error=True, args=grade_cmd(season, panel, "x")[3:]
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "GRADER_DATABASE_URL": url},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 130, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "ImportError" not in done.stderr, done.stderr[-2000:]
    assert "interrupted" in done.stderr and "--run-id x" in done.stderr
    again = subprocess.run(
        grade_cmd(season, panel, "x"),
        env={**os.environ, "GRADER_DATABASE_URL": url},
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert again.returncode == 0, again.stderr[-2000:]


def test_signals_at_random_moments_end_cleanly_and_the_run_completes(season, tmp_path):
    """The small campaign (``benchmarks/bench_faults.py`` runs the large one): SIGTERM, SIGKILL and SIGINT, each at a
    random moment of ``grader grade`` (start-up, calls, scoring; seeded, so each run of the suite draws the same),
    under an attempt cap of 2; every stop that can be caught ends with its message and 130/143, no traceback, its
    lease released; the run then completes with the scores of an uninterrupted one and nothing paid twice."""
    import random
    import time

    import yaml

    panel = capped_panel(tmp_path / "panel.yaml")
    data = yaml.safe_load(panel.read_text())
    data["mock"]["latency_s"] = 0.4
    data["concurrency"] = {"openai": 1, "anthropic": 1, "xai": 1}
    panel.write_text(yaml.safe_dump(data, sort_keys=False))
    clean_url = f"sqlite:///{tmp_path / 'clean.db'}"
    started = time.monotonic()
    subprocess.run(
        grade_cmd(season, panel, "r"),
        env={**os.environ, "GRADER_DATABASE_URL": clean_url},
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    took = time.monotonic() - started
    url = f"sqlite:///{tmp_path / 'random.db'}"
    env = {**os.environ, "GRADER_DATABASE_URL": url}
    rng = random.Random(37)
    for sig in (signal.SIGTERM, signal.SIGKILL, signal.SIGINT):
        proc = subprocess.Popen(
            grade_cmd(season, panel, "r"), env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            proc.wait(timeout=rng.uniform(0.1, took))
        except subprocess.TimeoutExpired:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
        if proc.returncode == 0 or (proc.returncode == -sig and run_status(url, "r") == "complete"):
            continue  # done before the signal, or it landed as the interpreter shut down (its work done)
        assert proc.returncode == EXIT_BY_SIGNAL[sig], (sig, proc.returncode, err[-2000:])
        if sig != signal.SIGKILL:
            assert "Traceback" not in err and ("Resume with" in err or "run the same command again" in err), err
            if run_status(url, "r") is not None:
                with session_scope(url) as s:
                    assert s.get(RunLeaseRow, "r") is None or s.get(RunLeaseRow, "r").pid != proc.pid
    resumed = subprocess.run(grade_cmd(season, panel, "r"), env=env, cwd=REPO, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    with session_scope(url) as s:
        ok = s.execute(
            select(JudgeCallRow.cache_key, func.count())
            .where(JudgeCallRow.status == "ok")
            .group_by(JudgeCallRow.cache_key)
        ).all()
    assert len(ok) == TASKS and all(k == 1 for _, k in ok)
    scores = {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("r", db_url=url)[1]}
    assert scores == {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows("r", db_url=clean_url)[1]}
