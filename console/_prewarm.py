"""Background warm-up of a server process: the modules the pages import and the picked run's data (used by
``console._ui.prewarm_server``)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from console import _nav, _queries


class Prewarm:
    """Work done once per server process and run, in a background thread, so that first views are fast: the
    modules the pages import, the run's season bundle, its replays and process facts, and its risk market (the
    trailing-window statistics every contestant page reads). The audit report is not built here: it is CPU-heavy
    and would slow every page on a small machine; the Audits page starts it (in a niced worker process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: set[tuple[str, str]] = set()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-prewarm")
        self._pool.submit(self._imports)

    @staticmethod
    def _imports() -> None:
        from matplotlib.backends import backend_agg  # noqa: F401 - the contestant page's chart

        from grader.reporting import run_process_facts, run_risk_evidence  # noqa: F401 - resolved lazily: loads them

    def run(self, url: str, run_id: str) -> None:
        with self._lock:
            if (url, run_id) in self._seen:
                return
            self._seen.add((url, run_id))
        self._pool.submit(self._warm_run, url, run_id)

    @staticmethod
    def _warm_run(url: str, run_id: str) -> None:
        try:
            from grader.reporting import run_process_facts

            run_process_facts(run_id, url)  # loads and keeps the bundle and its replays
            people = _queries.run_contestants(run_id, url)
            if people:
                _nav.contestant_risk_table(people[0].row_id, url)  # fills the season's risk statistics
        except Exception:  # noqa: BLE001 - warming is best effort: the page computes (and reports) it itself
            return
