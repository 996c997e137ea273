"""Warm-up of a server process: the modules the pages import, and the picked run's warm-up (every contestant's
process facts and risk table, ``console._warmup``) computed in the console's background process, a future the pages
read when it is done (used by ``console._ui.prewarm_server``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from console._warmup import RunWarmup
from console._worker_client import Worker

#: Whether a warmed run's audit report is started too (in the background process), so that the Audits page has it
#: when opened: set by the console server (``console._serve``), not in tests that run the pages' scripts alone
BUILD_AUDITS = False


class Prewarm:
    """Work done once per server process and run so that first views are fast, none of it in the interpreter that
    serves the pages: the modules the pages import (already loaded when ``grader console`` started the server:
    ``console._serve``; else imported in a thread here), and the run's warm-up (:meth:`run`), computed by the
    console's background process (``console._worker``, at low CPU priority; the same process builds the audit
    reports, one job after another) while a thread here waits for it (:meth:`run`).

    A page never waits for the warm-up: the leaderboard draws its scores at once and fills its process and risk
    columns when it is done (:meth:`finished`); the contestant page reads its contestant's facts and risk table from
    it when done, else computes them itself. Once a run is warmed, the console server starts its audit report
    (:data:`BUILD_AUDITS`; else the Audits page starts it)."""

    def __init__(self, worker: Worker) -> None:
        self._worker = worker
        self._lock = threading.Lock()
        self._jobs: dict[tuple[str, str], Future] = {}
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-prewarm")
        self._pool.submit(self._imports)

    @staticmethod
    def _imports() -> None:
        from console._serve import import_pages

        import_pages()

    def _warm(self, url: str, run_id: str) -> RunWarmup:
        try:
            return self._worker.warm(run_id, url)
        except Exception as exc:  # noqa: BLE001 - best effort: the pages compute (and report) it themselves
            return RunWarmup(error=f"{type(exc).__name__}: {exc}")

    def finished(self, url: str, run_id: str) -> RunWarmup | None:
        """The run's warm-up when it is done, else None (nothing submitted: a page asks without starting the work,
        which :meth:`run` starts once the page's script has run)."""
        with self._lock:
            job = self._jobs.get((url, run_id))
        return job.result() if job is not None and job.done() else None

    def run(self, url: str, run_id: str, then: Callable[[], Any] | None = None) -> None:
        """Warm the run (once), then call ``then`` (the console server starts the run's audit report there:
        :data:`BUILD_AUDITS`)."""
        with self._lock:
            if (url, run_id) in self._jobs:
                return
            self._jobs[(url, run_id)] = self._pool.submit(self._warm, url, run_id)
            if then is not None:
                self._pool.submit(then)

    def forget(self) -> None:
        """Drop the warm-ups done so far (the sidebar's "Refresh data": a season bundle moved back, for one)."""
        with self._lock:
            self._jobs = {k: f for k, f in self._jobs.items() if not f.done()}
