"""The Audits page's report builds: one at a time, in the console's background process (``console._worker``), so
the page answers at once (re-exported by ``console._ui``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from console._worker_client import Worker

AuditKey = tuple[str, str, int, tuple[int, int]]  # (db url, run id, scored version, human-grade stamp)


def build_audit_document(  # noqa: ANN201
    run_id: str, url: str, timeout: float = 1800, on_first: Callable[[Any], None] | None = None
):
    """Build the run's report document in a worker process of its own (see :meth:`Worker.build`)."""
    worker = Worker()
    try:
        return worker.build(run_id, url, timeout, on_first)
    finally:
        worker.close()


class AuditJobs:
    """Audit reports built one at a time in a background worker process, so the Audits page answers at once.

    A separate process (``console._worker``, one for the server's life, shared with the runs' warm-ups:
    :class:`console._worker_client.Worker`) keeps the CPU-bound resampling off the interpreter that serves the pages;
    a thread only waits for it.

    A job is keyed by run, scored version and the human-grade stamp: a new calibration grade starts a
    rebuild, and the page shows the last finished report of the run (saying it is updating) meanwhile.
    Jobs of a run that have not started yet are cancelled when a newer one is submitted.
    """

    def __init__(self, worker: Worker, keep: int = 16):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-audits")
        self._jobs: dict[AuditKey, Future] = {}
        self._first: dict[AuditKey, Any] = {}  # a job's first version (charts not drawn), while it runs
        self._worker = worker
        self._lock = threading.Lock()
        self._keep = keep

    def submit(self, key: AuditKey) -> Future:
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and not job.cancelled():  # running, built, or failed (see forget_failures)
                return job
            for other, fut in list(self._jobs.items()):
                if other[:2] == key[:2] and other != key and fut.cancel():
                    del self._jobs[other]
            job = self._pool.submit(self._worker.build, key[1], key[0], on_first=lambda doc: self._keep_first(key, doc))
            self._jobs[key] = job
            while len(self._jobs) > self._keep:
                oldest = next(iter(self._jobs))
                self._jobs.pop(oldest)
                self._first.pop(oldest, None)
            return job

    def _keep_first(self, key: AuditKey, document: Any) -> None:
        with self._lock:
            if key in self._jobs:
                self._first[key] = document

    def first_version(self, key: AuditKey):  # noqa: ANN201
        """The job's first version of the document (every section, its charts not drawn yet) while it runs, or
        None (not written yet, or the job is done: its result is the whole document)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.done():
                self._first.pop(key, None)
                return None
            return self._first.get(key)

    def forget_failures(self) -> None:
        """Drop failed jobs so the next view retries them (the sidebar's "Refresh data")."""
        with self._lock:
            for key, fut in list(self._jobs.items()):
                if fut.done() and (fut.cancelled() or fut.exception() is not None):
                    del self._jobs[key]

    def latest_finished(self, url: str, run_id: str, version: int):  # noqa: ANN201
        """The newest successfully built document of this run and version, if any."""
        with self._lock:
            done = [
                (k, f)
                for k, f in self._jobs.items()
                if k[:3] == (url, run_id, version) and f.done() and not f.cancelled() and f.exception() is None
            ]
        return max(done, key=lambda kf: kf[0][3])[1].result() if done else None
