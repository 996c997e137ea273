"""The console server's warm-up and start (issue 33): the warm-up works in small steps and waits while a page view
runs, and the server hands the GIL to a waiting thread sooner than Python's default."""

from __future__ import annotations

import gc
import sys
import threading
import time

import pytest

from console import _prewarm, _serve


def test_the_warm_up_waits_while_a_view_runs_and_a_moment_after(monkeypatch):
    views = _prewarm.Views()
    monkeypatch.setattr(views, "GRACE_SECONDS", 0.2)
    monkeypatch.setattr(views, "MAX_WAIT_SECONDS", 5.0)
    assert not views.busy() and views.wait_idle() < 0.05
    views.started()
    views.started()  # two sessions' script runs
    ended = []

    def finish() -> None:
        time.sleep(0.3)
        views.finished()
        time.sleep(0.3)
        ended.append(time.monotonic())
        views.finished()

    threading.Thread(target=finish).start()
    waited = views.wait_idle()
    assert ended and time.monotonic() - ended[0] >= 0.2  # the last view's end, then the grace
    assert 0.8 <= waited < 4.0 and not views.busy()


def test_a_server_always_busy_still_warms_up(monkeypatch):
    views = _prewarm.Views()
    monkeypatch.setattr(views, "MAX_WAIT_SECONDS", 0.3)
    views.started()  # never finished
    assert 0.3 <= views.wait_idle() < 1.0 and views.busy()


def test_the_warm_up_computes_every_contestants_facts_a_contestant_at_a_time(console_env, monkeypatch):
    from grader.reporting import run_process_facts

    asked: list = []
    real = run_process_facts

    def spy(run_id, url, contestants=None):  # noqa: ANN001, ANN202
        asked.append(None if contestants is None else set(contestants))
        return real(run_id, url, contestants=contestants)

    monkeypatch.setattr("grader.reporting.run_process_facts", spy)
    waits: list = []
    monkeypatch.setattr(_prewarm.VIEWS, "wait_idle", lambda: waits.append(1) or 0.0)
    facts = _prewarm._run_facts(console_env.db_url, console_env.run_id)
    assert facts == real(console_env.run_id, console_env.db_url) and len(facts) > 1
    steps = [a for a in asked if a is not None]
    assert all(len(a) == 1 for a in steps) and sorted(k for a in steps for k in a) == sorted(facts)  # one a step
    assert asked[-1] is None and len(waits) == len(facts) + 1  # a wait before each step after the first, and first


def test_the_server_starts_with_a_short_gil_switch_interval_and_its_run_options(monkeypatch):
    from streamlit.web import cli

    seen: dict = {}
    monkeypatch.setattr(cli, "main", lambda args, prog_name: seen.update(args=args) or 0)
    monkeypatch.setattr(_prewarm, "BUILD_AUDITS", False)
    before = sys.getswitchinterval()
    try:
        assert _serve.main(["console/app.py", "--runner.postScriptGC", "true"]) == 0
        assert sys.getswitchinterval() == pytest.approx(_serve.SWITCH_INTERVAL) and _serve.SWITCH_INTERVAL < before
    finally:
        sys.setswitchinterval(before)
        gc.unfreeze()
    assert seen["args"][:4] == ["run", "console/app.py", "--runner.postScriptGC", "true"]  # a given option is kept
    assert seen["args"][4:] == ["--runner.magicEnabled", "false"]
