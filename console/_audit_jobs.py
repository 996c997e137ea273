"""The Audits page's report builds: one at a time, in a background worker process (``console._audit_worker``), so
the page answers at once (re-exported by ``console._ui``)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

AuditKey = tuple[str, str, int, tuple[int, int]]  # (db url, run id, scored version, human-grade stamp)


def build_audit_document(run_id: str, url: str, timeout: float = 1800):  # noqa: ANN201
    """Build the run's report document in a worker process and load it (errors name the worker's reason)."""
    with tempfile.TemporaryDirectory(prefix="grader-audit-") as tmp:
        out = Path(tmp) / "document.pickle"
        env = {
            **os.environ,
            "GRADER_DATABASE_URL": url,
            "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p),
        }
        done = subprocess.run(
            [sys.executable, "-m", "console._audit_worker", run_id, str(out)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
        if done.returncode != 0:
            lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
            raise RuntimeError(lines[-1] if lines else f"audit worker exited with {done.returncode}")
        return pickle.loads(out.read_bytes())  # noqa: S301 - our own worker's output, in our own temp dir


class AuditJobs:
    """Audit reports built one at a time in a background worker process, so the Audits page answers at once.

    A separate process (``console._audit_worker``) keeps the CPU-bound resampling off the interpreter that
    serves the pages; a thread only waits for it.

    A job is keyed by run, scored version and the human-grade stamp: a new calibration grade starts a
    rebuild, and the page shows the last finished report of the run (saying it is updating) meanwhile.
    Jobs of a run that have not started yet are cancelled when a newer one is submitted.
    """

    def __init__(self, keep: int = 16):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-audits")
        self._jobs: dict[AuditKey, Future] = {}
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
            job = self._pool.submit(build_audit_document, key[1], key[0])
            self._jobs[key] = job
            while len(self._jobs) > self._keep:
                oldest = next(iter(self._jobs))
                self._jobs.pop(oldest)
            return job

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
