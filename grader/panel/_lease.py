"""One process per run id: a lease row in the database (SQLite and PostgreSQL alike).

A process takes the lease before it writes anything for a run and keeps it alive with a heartbeat every
``HEARTBEAT_S`` seconds. A second process on the same run id finds the row and stops with who holds the run
(host, pid) and since when. A lease is taken over only when its holder is gone: its heartbeat is older than
``EXPIRY_S`` (the holder was killed or its machine lost), or the holder is a process of this host that no longer
exists. The take-over is a compare-and-swap on the lease token, so two processes cannot both win it.
"""

from __future__ import annotations

import os
import socket
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.exc import IntegrityError

from grader.storage import RunLeaseRow, session_scope

HEARTBEAT_S = 15.0
EXPIRY_S = 90.0


class RunBusy(RuntimeError):
    """Another process holds the run."""

    def __init__(self, run_id: str, host: str, pid: int, since: datetime, heartbeat: datetime):
        self.run_id, self.host, self.pid, self.since, self.heartbeat = run_id, host, pid, since, heartbeat
        ago = (datetime.now(UTC) - _aware(heartbeat)).total_seconds()
        super().__init__(
            f"run {run_id!r} is being graded by process {pid} on {host} since {_aware(since):%Y-%m-%d %H:%M:%S} UTC "
            f"(last heartbeat {ago:.0f} s ago); wait for it to finish, or stop it and run the same command again "
            f"to resume"
        )


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _matched(result: Result[Any]) -> int:
    """The rows an UPDATE matched. ``Session.execute`` is typed to return a ``Result``; for an UPDATE without RETURNING
    it is a ``CursorResult``, which has the count."""
    if not isinstance(result, CursorResult):
        raise TypeError(f"an UPDATE returned {type(result).__name__}, not a CursorResult: no row count")
    return result.rowcount


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class RunLease:
    run_id: str
    token: str
    db_url: str | None
    taken_over: str | None = None  # "host pid" of a dead holder this lease replaced
    _stop: threading.Event | None = None
    _thread: threading.Thread | None = None

    def heartbeat(self) -> bool:
        """Refresh the heartbeat; False when the lease is no longer ours."""
        with session_scope(self.db_url) as s:
            done = s.execute(
                update(RunLeaseRow)
                .where(RunLeaseRow.run_id == self.run_id, RunLeaseRow.token == self.token)
                .values(heartbeat_at=datetime.now(UTC))
            )
            return bool(_matched(done))

    def start_heartbeat(self, every_s: float = HEARTBEAT_S) -> None:
        stop = self._stop = threading.Event()

        def beat() -> None:
            while not stop.wait(every_s):
                try:
                    self.heartbeat()
                except Exception:  # noqa: BLE001 - a missed beat is retried; expiry is generous
                    pass

        self._thread = threading.Thread(target=beat, name=f"lease-{self.run_id}", daemon=True)
        self._thread.start()

    def release(self) -> None:
        if self._stop is not None:
            self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with session_scope(self.db_url) as s:
            s.execute(delete(RunLeaseRow).where(RunLeaseRow.run_id == self.run_id, RunLeaseRow.token == self.token))

    def __enter__(self) -> RunLease:
        self.start_heartbeat()
        return self

    def __exit__(self, exc_type, exc, tb) -> None:  # noqa: ANN001
        if exc_type is None:
            self.release()
            return
        try:  # the run failed (a locked database, a full disk, ...): that error is the one to report
            self.release()
        except Exception:  # noqa: BLE001, S110 - a lease left behind is taken over: its pid is gone
            pass


def acquire_lease(run_id: str, db_url: str | None = None, *, expiry_s: float = EXPIRY_S) -> RunLease:
    """Take the run's lease or raise ``RunBusy`` naming its holder."""
    token = uuid.uuid4().hex
    host, pid = socket.gethostname(), os.getpid()
    now = datetime.now(UTC)
    try:
        with session_scope(db_url) as s:
            s.add(RunLeaseRow(run_id=run_id, token=token, host=host, pid=pid, acquired_at=now, heartbeat_at=now))
        return RunLease(run_id, token, db_url)
    except IntegrityError:
        pass
    with session_scope(db_url) as s:
        held = s.get(RunLeaseRow, run_id)
        if held is None:  # released in between: try once more from the start
            return acquire_lease(run_id, db_url, expiry_s=expiry_s)
        stale = (now - _aware(held.heartbeat_at)) > timedelta(seconds=expiry_s)
        dead = held.host == host and not _alive(held.pid)
        if not (stale or dead):
            raise RunBusy(run_id, held.host, held.pid, held.acquired_at, held.heartbeat_at)
        previous = f"{held.host} pid {held.pid}"
        won = s.execute(
            update(RunLeaseRow)
            .where(RunLeaseRow.run_id == run_id, RunLeaseRow.token == held.token)
            .values(token=token, host=host, pid=pid, acquired_at=now, heartbeat_at=now)
        )
        if not _matched(won):  # another process took it over first, or its holder released it
            s.rollback()
            fresh = s.get(RunLeaseRow, run_id)
            if fresh is None:  # released in between: try once more from the start
                return acquire_lease(run_id, db_url, expiry_s=expiry_s)
            raise RunBusy(run_id, fresh.host, fresh.pid, fresh.acquired_at, fresh.heartbeat_at)
    return RunLease(run_id, token, db_url, taken_over=previous)
