"""SIGTERM stops a command exactly as Ctrl-C (SIGINT) does.

A scheduler, ``docker stop``, ``systemctl stop`` or ``kill`` sends SIGTERM; Python's default is to die at once (exit
143, no ``finally``), leaving a run ``running``, its lease held and its calls ``sent``. Inside
:func:`terminate_as_interrupt` a SIGTERM runs whatever SIGINT would run at that moment: Python's own handler
(``KeyboardInterrupt`` where the main thread is) or, while ``asyncio.run`` drives the calls, asyncio's (the main
task is cancelled, then ``KeyboardInterrupt``). So the same clean-up runs: replies received are kept, calls in
flight are marked interrupted (never counted toward the retry cap), the lease is released, the resume command is
printed. The command then exits 143 (128 + SIGTERM) instead of 130, so a supervisor sees which signal stopped it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["EXIT_TERMINATED", "STOP", "StopSignal", "install", "terminate_as_interrupt"]

EXIT_TERMINATED = 143
"""Exit code of a command stopped by SIGTERM (130 for SIGINT)."""


class StopSignal:
    """Which signal stopped the command (None: none did)."""

    def __init__(self) -> None:
        self.received: int | None = None

    @property
    def exit_code(self) -> int:
        from grader.panel._gaps import EXIT_INTERRUPTED

        return EXIT_TERMINATED if self.received == signal.SIGTERM else EXIT_INTERRUPTED


STOP = StopSignal()
"""This process's: set by the SIGTERM handler (the ``grader`` process has one from its start)."""


def _on_term(signum, frame) -> None:  # noqa: ANN001
    STOP.received = signal.SIGTERM
    handler = signal.getsignal(signal.SIGINT)  # Python's, or asyncio.run's while it runs
    if callable(handler):
        handler(signal.SIGINT, frame)
    else:  # SIGINT ignored (a background job): SIGTERM still stops
        raise KeyboardInterrupt


def install() -> None:
    """SIGTERM as Ctrl-C for the rest of the process (``main`` calls it first thing: a command stopped while its
    modules load stops cleanly too). Only from the main thread."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_term)


@contextmanager
def terminate_as_interrupt() -> Iterator[StopSignal]:
    """Inside the block, SIGTERM does what SIGINT does (see the module); yields which signal arrived. Outside the
    main thread (a command called from a worker thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield StopSignal()
        return
    previous = signal.signal(signal.SIGTERM, _on_term)
    try:
        yield STOP
    finally:
        signal.signal(signal.SIGTERM, previous)
