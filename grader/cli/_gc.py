"""Garbage-collector settings of the ``grader`` process (measured on a 150-contestant grading run).

- ``tune_process`` (called by ``main``): young collections every 20,000 allocations instead of 700. A run
  allocates millions of short-lived objects (replies, rows, frames) beside a few hundred thousand long-lived
  ones (modules, SDK types); at the default thresholds the full collections that rescan the long-lived ones
  took 0.6-0.8 s of the run.
- ``start_up_without_collections``: none at all while a command imports its modules and loads its inputs
  (they make few cycles; collecting during imports cost 0.1-0.2 s), then the heap built so far is frozen (never
  rescanned: it lives until the process ends) and collections resume for the work itself.

Both act only in a process ``main`` started: a command invoked as a library (tests, notebooks) leaves the
collector as it found it. Cycles are still collected, only less often; nothing here changes what a command
computes.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["GC_THRESHOLDS", "start_up_without_collections", "tune_process"]

GC_THRESHOLDS = (20_000, 20, 20)

_tuned = False


def tune_process() -> None:
    """The ``grader`` command's own process: fewer, larger young collections from here on."""
    global _tuned
    _tuned = True
    gc.set_threshold(*GC_THRESHOLDS)


@contextmanager
def start_up_without_collections() -> Iterator[Callable[[], None]]:
    """No collections inside the block until the ``resume()`` it yields is called (then the heap is frozen and
    collections resume); on leaving, collections are on again whatever happened. A no-op (``resume`` too)
    outside a process :func:`tune_process` set up."""
    if not _tuned or not gc.isenabled():
        yield lambda: None
        return
    gc.disable()

    def resume() -> None:
        if not gc.isenabled():
            gc.freeze()
            gc.enable()

    try:
        yield resume
    finally:
        gc.enable()
