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

__all__ = ["EXIT_TERMINATED", "StopSignal", "terminate_as_interrupt"]

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


@contextmanager
def terminate_as_interrupt() -> Iterator[StopSignal]:
    """Inside the block, SIGTERM does what SIGINT does (see the module); yields which signal arrived. Outside the
    main thread (a command called from a worker thread) nothing changes."""
    stop = StopSignal()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_term(signum, frame) -> None:  # noqa: ANN001
        stop.received = signal.SIGTERM
        handler = signal.getsignal(signal.SIGINT)  # Python's, or asyncio.run's while it runs
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGTERM, previous)
