"""The console server's handle on its background process (``console._worker``): one long-lived process for the
server's life that does the CPU-heavy jobs (a run's warm-up, audit reports) one after another, so that the
interpreter serving the pages never does them (re-exported by ``console._ui``)."""

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
from pathlib import Path
from typing import Any

from console._warmup import RunWarmup
from console._worker import REPLY

REPO = Path(__file__).resolve().parents[1]


class Worker:
    """One worker process (``console._worker``) doing jobs one after another: its modules are imported once, not per
    job. Started on the first job; a worker that died or timed out is replaced on the next. Thread-safe: a job waits
    for the one before it (the audit jobs' thread and the warm-up's thread share one worker)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen | None = None
        self._replies: queue.Queue[str | None] = queue.Queue()
        self._errors: Path | None = None  # the worker's standard error (its last line: why it failed)
        self._lock = threading.Lock()  # one job at a time

    def _started(self) -> subprocess.Popen:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
        self._forget_errors()
        self._errors = Path(tempfile.mkdtemp(prefix="grader-console-worker-")) / "stderr.txt"
        with self._errors.open("w") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "console._worker"],
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
        return lines[-1] if lines else "the console's worker process ended"

    def _forget_errors(self) -> None:
        if self._errors is not None:
            shutil.rmtree(self._errors.parent, ignore_errors=True)
            self._errors = None

    def _job(
        self,
        job: dict[str, Any],
        timeout: float,
        what: str,
        first: Path | None = None,
        on_first: Callable[[Any], None] | None = None,
    ) -> Any:
        """Send ``job`` (its ``out``: a file in a temporary directory, read back), wait for its answer and return the
        result; ``on_first`` is given the ``first`` file's content as soon as it is written."""
        with self._lock:
            proc = self._started()
            assert proc.stdin is not None
            try:
                proc.stdin.write(json.dumps(job) + "\n")
                proc.stdin.flush()
            except OSError as exc:
                raise RuntimeError(self._failure()) from exc
            deadline = time.monotonic() + timeout
            while True:
                if on_first is not None and first is not None and first.exists():
                    on_first(pickle.loads(first.read_bytes()))  # noqa: S301 - our own worker's output
                    on_first = None
                try:
                    reply = self._replies.get(timeout=0.1)
                    break
                except queue.Empty:
                    if time.monotonic() > deadline:
                        self._close()
                        raise TimeoutError(f"{what} took more than {timeout:.0f} s") from None
            if reply is None:
                raise RuntimeError(self._failure())
            answer = json.loads(reply)
            if not answer["ok"]:
                raise RuntimeError(answer["error"])
            return pickle.loads(Path(job["out"]).read_bytes())  # noqa: S301 - our own worker's, in our own temp dir

    def build(self, run_id: str, url: str, timeout: float = 1800, on_first: Callable[[Any], None] | None = None):  # noqa: ANN201
        """The run's audit report document (errors name the worker's reason). ``on_first`` is given the worker's first
        version of the document (its charts not drawn yet) as soon as it is written, while the charts are drawn."""
        with tempfile.TemporaryDirectory(prefix="grader-audit-") as tmp:
            out, first = Path(tmp) / "document.pickle", Path(tmp) / "first.pickle"
            job = {
                "kind": "audit",
                "run_id": run_id,
                "url": url,
                "out": str(out),
                "first": str(first) if on_first else None,
            }
            return self._job(job, timeout, "the audit report", first, on_first)

    def warm(self, run_id: str, url: str, timeout: float = 1800) -> RunWarmup:
        """The run's warm-up (``console._warmup.warm_run``), computed in the worker."""
        with tempfile.TemporaryDirectory(prefix="grader-warm-") as tmp:
            job = {"kind": "warm", "run_id": run_id, "url": url, "out": str(Path(tmp) / "warmup.pickle")}
            return self._job(job, timeout, "the run's warm-up")

    def _close(self) -> None:
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

    def close(self) -> None:
        """End the worker (its standard input closed; killed if it does not end within 10 s), after its current job."""
        with self._lock:
            self._close()

    @property
    def pid(self) -> int | None:
        """The worker process's id while it runs (None before its first job and after :meth:`close`)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None
