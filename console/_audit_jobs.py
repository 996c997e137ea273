"""The Audits page's report builds: one at a time, in a background worker process (``console._audit_worker``), so
the page answers at once (re-exported by ``console._ui``)."""

from __future__ import annotations

import json
import os
import pickle
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from console._audit_worker import REPLY

REPO = Path(__file__).resolve().parents[1]

AuditKey = tuple[str, str, int, tuple[int, int]]  # (db url, run id, scored version, human-grade stamp)


class AuditWorker:
    """One worker process (``console._audit_worker``) that builds reports one after another: its modules (about 2.5 s
    of CPU) are imported once, not per report. Started on the first build; a worker that died or timed out is
    replaced on the next. Not thread-safe: one build at a time (:class:`AuditJobs` runs them in one thread)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen | None = None
        self._replies: queue.Queue[str | None] = queue.Queue()
        self._errors: Path | None = None  # the worker's standard error (its last line: why it failed)

    def _started(self) -> subprocess.Popen:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
        self._forget_errors()
        self._errors = Path(tempfile.mkdtemp(prefix="grader-audit-worker-")) / "stderr.txt"
        with self._errors.open("w") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "console._audit_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                env=env,
            )
        self._replies = queue.Queue()
        threading.Thread(target=self._read, args=(proc, self._replies), daemon=True).start()
        self._proc = proc
        return proc

    @staticmethod
    def _read(proc: subprocess.Popen, replies: queue.Queue) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(REPLY):  # anything else a library printed is not ours
                replies.put(line[len(REPLY) :])
        replies.put(None)  # the worker is gone

    def _failure(self) -> str:
        text = self._errors.read_text(errors="replace") if self._errors is not None and self._errors.exists() else ""
        lines = [line for line in text.splitlines() if line.strip()]
        return lines[-1] if lines else "the audit worker ended"

    def _forget_errors(self) -> None:
        if self._errors is not None:
            shutil.rmtree(self._errors.parent, ignore_errors=True)
            self._errors = None

    def build(self, run_id: str, url: str, timeout: float = 1800, on_first: Callable[[Any], None] | None = None):  # noqa: ANN201
        """The run's report document (errors name the worker's reason). ``on_first`` is given the worker's first
        version of the document (its charts not drawn yet) as soon as it is written, while the charts are drawn."""
        proc = self._started()
        with tempfile.TemporaryDirectory(prefix="grader-audit-") as tmp:
            out, first = Path(tmp) / "document.pickle", Path(tmp) / "first.pickle"
            job = {"run_id": run_id, "url": url, "out": str(out), "first": str(first) if on_first else None}
            assert proc.stdin is not None
            try:
                proc.stdin.write(json.dumps(job) + "\n")
                proc.stdin.flush()
            except OSError as exc:
                raise RuntimeError(self._failure()) from exc
            deadline = time.monotonic() + timeout
            while True:
                if on_first is not None and first.exists():
                    on_first(pickle.loads(first.read_bytes()))  # noqa: S301 - our own worker's output
                    on_first = None
                try:
                    reply = self._replies.get(timeout=0.1)
                    break
                except queue.Empty:
                    if time.monotonic() > deadline:
                        self.close()
                        raise TimeoutError(f"the audit report took more than {timeout:.0f} s") from None
            if reply is None:
                raise RuntimeError(self._failure())
            answer = json.loads(reply)
            if not answer["ok"]:
                raise RuntimeError(answer["error"])
            return pickle.loads(out.read_bytes())  # noqa: S301 - our own worker's output, in our own temp dir

    def close(self) -> None:
        """End the worker (its standard input closed; killed if it does not end within 10 s)."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
                proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait(timeout=10)
        self._forget_errors()


def build_audit_document(  # noqa: ANN201
    run_id: str, url: str, timeout: float = 1800, on_first: Callable[[Any], None] | None = None
):
    """Build the run's report document in a worker process of its own (see :meth:`AuditWorker.build`)."""
    worker = AuditWorker()
    try:
        return worker.build(run_id, url, timeout, on_first)
    finally:
        worker.close()


class AuditJobs:
    """Audit reports built one at a time in a background worker process, so the Audits page answers at once.

    A separate process (``console._audit_worker``, one for the server's life: :class:`AuditWorker`) keeps the
    CPU-bound resampling off the interpreter that serves the pages; a thread only waits for it.

    A job is keyed by run, scored version and the human-grade stamp: a new calibration grade starts a
    rebuild, and the page shows the last finished report of the run (saying it is updating) meanwhile.
    Jobs of a run that have not started yet are cancelled when a newer one is submitted.
    """

    def __init__(self, keep: int = 16):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-audits")
        self._jobs: dict[AuditKey, Future] = {}
        self._first: dict[AuditKey, Any] = {}  # a job's first version (charts not drawn), while it runs
        self._worker = AuditWorker()
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
