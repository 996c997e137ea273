"""SIGTERM stops a command exactly as Ctrl-C (SIGINT) does.

A scheduler, ``docker stop``, ``systemctl stop`` or ``kill`` sends SIGTERM; Python's default is to die at once (exit
143, no ``finally``), leaving a run ``running``, its lease held and its calls ``sent``. Inside
:func:`terminate_as_interrupt` a SIGTERM runs whatever SIGINT would run at that moment: Python's own handler
(``KeyboardInterrupt`` where the main thread is) or, while ``asyncio.run`` drives the calls, asyncio's (the main
task is cancelled, then ``KeyboardInterrupt``). So the same clean-up runs: replies received are kept, calls in
flight are marked interrupted (never counted toward the retry cap), the lease is released, the resume command is
printed. The command then exits 143 (128 + SIGTERM) instead of 130, so a supervisor sees which signal stopped it.

Which signal arrived is recorded (``STOP``) from the process's start: while the command line loads, and while
``grade`` loads its modules and inputs, Ctrl-C runs a handler of our own that records it (a C extension being
imported turns the ``KeyboardInterrupt`` into an ``ImportError``: the record says it was a stop). Before calls are
sent Ctrl-C goes back to Python's handler (``asyncio.run`` installs its own only over that one). A stop that no
command reported itself is reported by ``main`` in one line (``report_stop``).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = [
    "EXIT_TERMINATED",
    "STOP",
    "StopSignal",
    "end_stopped",
    "hand_ctrl_c_to_python",
    "install",
    "report_stop",
    "stopped_while_loading",
    "terminate_as_interrupt",
]

EXIT_TERMINATED = 143
"""Exit code of a command stopped by SIGTERM (130 for SIGINT)."""
EXIT_INTERRUPTED = 130


class StopSignal:
    """Which signal stopped the command (None: none did)."""

    def __init__(self) -> None:
        self.received: int | None = None
        self.reported = False
        """A command said what the stop left and how to resume (``main`` adds nothing then)."""

    @property
    def exit_code(self) -> int:
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


def _on_int(signum, frame) -> None:  # noqa: ANN001
    if STOP.received is None:
        STOP.received = signal.SIGINT
    raise KeyboardInterrupt


def install() -> None:
    """SIGTERM as Ctrl-C for the rest of the process, and Ctrl-C recorded until :func:`hand_ctrl_c_to_python`
    (``grader.cli.main`` calls it first thing: a command stopped while its modules load stops cleanly too). Only
    from the main thread; a Ctrl-C the shell ignores (a background job) stays ignored."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_term)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_int)


def hand_ctrl_c_to_python() -> None:
    """Ctrl-C back to Python's own handler (``asyncio.run`` replaces only that one with its own, which cancels the
    calls in flight cleanly); what arrived before stays recorded."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is _on_int:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def report_stop(what: str) -> None:
    """One line on stderr for a stop no command reported: which signal, ``what`` it left, the command to run again."""
    import shlex

    word = "terminated (SIGTERM)" if STOP.received == signal.SIGTERM else "interrupted"
    again = shlex.join(["grader", *sys.argv[1:]])
    print(f"{word}: {what}; run the same command again:\n  {again}", file=sys.stderr, flush=True)
    STOP.reported = True


def end_stopped() -> None:
    """End a stopped process now with 130 or 143 (what it wrote is closed by then). ``os._exit``: Python 3.11 would
    otherwise turn the exit into a death by SIGINT (-2) when the stop landed inside an ``exec`` of source text
    (a dataclass or named tuple being made while modules load): that sets a flag no handler clears."""
    import os

    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(STOP.exit_code)


def stopped_while_loading() -> None:
    """A stop while the command line was still loading: nothing read or written yet."""
    report_stop("stopped while the command line was loading, before anything was read or written")
    end_stopped()


@contextmanager
def terminate_as_interrupt() -> Iterator[StopSignal]:
    """Inside the block, SIGTERM does what SIGINT does (see the module); yields which signal arrived. Outside the
    main thread (a command called from a worker thread) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield StopSignal()
        return
    STOP.received, STOP.reported = None, False  # this command's (a process may run several: tests)
    previous = signal.signal(signal.SIGTERM, _on_term)
    recording = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if recording:  # Ctrl-C recorded too while the command loads (hand_ctrl_c_to_python before calls leave)
        signal.signal(signal.SIGINT, _on_int)
    try:
        yield STOP
    finally:
        signal.signal(signal.SIGTERM, previous)
        if recording and signal.getsignal(signal.SIGINT) is _on_int:
            signal.signal(signal.SIGINT, signal.default_int_handler)
