"""Background warm-up of a server process: the modules the pages import and the picked run's data (used by
``console._ui.prewarm_server``), and the run's process facts as a future the pages read when it is done."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from console import _nav, _queries

#: Whether a warmed run's audit report is started too (in its niced worker process), so that the Audits page has it
#: when opened: set by the console server (``console._serve``), not in tests that run the pages' scripts alone
BUILD_AUDITS = False


class Prewarm:
    """Work done once per server process and run, in one background thread, so that first views are fast: the
    modules the pages import (already loaded when ``grader console`` started the server: ``console._serve``), the
    run's season bundle, its replays and process facts, and its risk market (the trailing-window statistics every
    contestant page reads).

    The process facts (every contestant's, from the season bundle: seconds on a large season) are a future
    (:meth:`facts`): the leaderboard draws its scores at once and fills its process and risk columns when the future
    is done; the contestant page reads them when done, else computes its own contestant's alone (the season bundle
    and what is derived from it are computed once when two threads ask, ``grader.season.cached_derived``). The audit
    report is not built in this process (CPU-heavy: it would slow every page on a small machine): once the run is
    warmed, the console server starts its build in a worker process at low CPU priority (:data:`BUILD_AUDITS`; else
    the Audits page starts it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._facts: dict[tuple[str, str], Future] = {}
        self._warmed: set[tuple[str, str]] = set()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-prewarm")
        self._pool.submit(self._imports)

    @staticmethod
    def _imports() -> None:
        from console._serve import import_pages

        import_pages()

    def facts(self, url: str, run_id: str) -> Future:
        """The run's process facts (contestant key -> facts, ``grader.reporting.run_process_facts``), computed once
        in the background thread; a failure is kept in the future (see :meth:`forget`)."""
        with self._lock:
            job = self._facts.get((url, run_id))
            if job is None:
                job = self._facts[(url, run_id)] = self._pool.submit(_run_facts, url, run_id)
            return job

    def finished_facts(self, url: str, run_id: str) -> Future | None:
        """The future of :meth:`facts` when it is done, else None (nothing submitted: a page asks without starting
        the work, which :meth:`run` starts once the page's script has run)."""
        with self._lock:
            job = self._facts.get((url, run_id))
        return job if job is not None and job.done() else None

    def run(self, url: str, run_id: str, then: Callable[[], Any] | None = None) -> None:
        """Warm the run: its process facts first (the leaderboard's process and risk columns), then the risk market,
        then ``then`` (the console server starts the run's audit report there: :data:`BUILD_AUDITS`)."""
        self.facts(url, run_id)
        with self._lock:
            if (url, run_id) in self._warmed:
                return
            self._warmed.add((url, run_id))
        self._pool.submit(self._warm_run, url, run_id)
        if then is not None:
            self._pool.submit(then)

    def forget(self) -> None:
        """Drop the facts computed so far (the sidebar's "Refresh data": a season bundle moved back, for one)."""
        with self._lock:
            self._facts = {k: f for k, f in self._facts.items() if not f.done()}
            self._warmed.clear()

    @staticmethod
    def _warm_run(url: str, run_id: str) -> None:
        try:
            people = _queries.run_contestants(run_id, url)
            if people:
                _nav.contestant_risk_table(people[0].row_id, url)  # fills the season's risk statistics
        except Exception:  # noqa: BLE001 - warming is best effort: the page computes (and reports) it itself
            return


def _run_facts(url: str, run_id: str) -> dict[str, dict[str, Any]]:
    from grader.reporting import run_process_facts

    return run_process_facts(run_id, url)  # loads and keeps the bundle and its replays
