"""The run's storage threads: the row a request waits for is written before grades already waiting."""

from __future__ import annotations

import threading

import pytest

from grader.panel._writer import Priority, PriorityWriter


def test_urgent_work_jumps_the_queue_and_equal_priorities_keep_their_order():
    writer = PriorityWriter(1, "t")
    gate, order = threading.Event(), []
    try:
        writer.submit(Priority.STORE, gate.wait)  # the thread is busy: everything below queues
        futures = [writer.submit(Priority.STORE, lambda k=k: order.append(("grade", k))) for k in range(3)]
        futures += [writer.submit(Priority.REPLY, lambda: order.append(("reply", 0)))]
        futures += [writer.submit(Priority.SEND, lambda k=k: order.append(("sent row", k))) for k in range(2)]
        gate.set()
        for f in futures:
            f.result(timeout=5)
    finally:
        writer.shutdown()
    assert order == [("sent row", 0), ("sent row", 1), ("reply", 0), ("grade", 0), ("grade", 1), ("grade", 2)]


def test_a_failing_job_reaches_its_caller_and_the_writer_goes_on():
    writer = PriorityWriter(1, "t")
    try:

        def boom():
            raise ValueError("constraint failed")

        with pytest.raises(ValueError, match="constraint failed"):
            writer.submit(Priority.SEND, boom).result(timeout=5)
        assert writer.submit(Priority.STORE, lambda: 42).result(timeout=5) == 42
    finally:
        writer.shutdown()


def test_shutdown_runs_what_was_queued_then_refuses_more():
    writer = PriorityWriter(2, "t")
    done = []
    futures = [writer.submit(Priority.STORE, lambda k=k: done.append(k)) for k in range(20)]
    writer.shutdown(wait=True)
    assert sorted(done) == list(range(20)) and all(f.done() for f in futures)
    with pytest.raises(RuntimeError):
        writer.submit(Priority.SEND, lambda: None)
