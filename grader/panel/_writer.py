"""Storage work of a run on dedicated threads, most urgent first.

A run writes three kinds of rows: the ``sent`` row that must be committed before a request may leave, the raw
reply of a call that came back, and a grade with its verified ledger. On SQLite one thread writes (a second
writer waits on the file lock in sleeps of growing length: every write 2-3x slower, measured), so without an
order a request about to leave queued behind grades being stored, and every judge slot sat idle for that long.
Here the row a request waits for goes first, replies next, grades last; within a priority, first come first
served. A job already running is never interrupted.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import Future
from enum import IntEnum
from typing import Any

__all__ = ["Priority", "PriorityWriter"]


class Priority(IntEnum):
    SEND = 0
    """A row a request waits for before it leaves (its ``sent`` row, its prompt)."""
    REPLY = 1
    """A reply as received, and what parsing it decided."""
    STORE = 2
    """Grades, ledgers and everything else."""


class PriorityWriter:
    """``submit(priority, fn)`` runs ``fn`` on one of ``workers`` threads, lowest priority value first."""

    def __init__(self, workers: int = 1, name: str = "grader-db") -> None:
        self._queue: list[tuple[int, int, Callable[[], Any], Future]] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._closing = False
        self._threads = [threading.Thread(target=self._work, name=f"{name}_{i}", daemon=True) for i in range(workers)]
        for t in self._threads:
            t.start()

    def submit(self, priority: Priority, fn: Callable[[], Any]) -> Future:
        future: Future = Future()
        with self._ready:
            if self._closing:
                raise RuntimeError("the writer is shut down")
            heapq.heappush(self._queue, (int(priority), next(self._order), fn, future))
            self._ready.notify()
        return future

    def shutdown(self, wait: bool = True) -> None:
        """No new work; the queued work still runs. ``wait``: return when it has."""
        with self._ready:
            self._closing = True
            self._ready.notify_all()
        if wait:
            for t in self._threads:
                if t is not threading.current_thread():
                    t.join()

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closing:
                    self._ready.wait()
                if not self._queue:
                    return
                _, _, fn, future = heapq.heappop(self._queue)
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn()
            except BaseException as error:  # noqa: BLE001 - handed to whoever waits for it
                future.set_exception(error)
            else:
                future.set_result(result)
