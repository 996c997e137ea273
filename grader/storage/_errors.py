"""What an operator's world does to storage, said in one line with an exit code of its own.

A locked database (another process holds SQLite's write lock longer than ``GRADER_SQLITE_BUSY_TIMEOUT_S``), a full
disk (SQLite's "database or disk is full", PostgreSQL's DiskFull, ``ENOSPC`` / ``EDQUOT`` writing a file), a
database or folder that may not be written, and a database whose schema is not this code's. Every write of a run is
its own committed transaction, so nothing stored is lost: the same command run again resumes.
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["EXIT_DB_LOCKED", "EXIT_DISK_FULL", "EXIT_NOT_WRITABLE", "EXIT_SCHEMA", "StorageFailure", "storage_failure"]

EXIT_DB_LOCKED = 6
EXIT_DISK_FULL = 7
EXIT_NOT_WRITABLE = 8
EXIT_SCHEMA = 9


@dataclass(frozen=True)
class StorageFailure:
    code: int
    message: str


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        orig = getattr(exc, "orig", None)  # SQLAlchemy's DBAPIError wraps the driver's error
        if orig is not None and id(orig) not in seen:
            yield orig
        exc = exc.__cause__ or exc.__context__


def storage_failure(exc: BaseException) -> StorageFailure | None:
    """The operator-facing failure ``exc`` (or an exception it wraps) is, or None when it is none of them."""
    from grader.storage._engine import SchemaMismatch

    resume = "nothing stored is lost; run the same command again to resume"
    for e in _chain(exc):
        if isinstance(e, SchemaMismatch):
            return StorageFailure(EXIT_SCHEMA, str(e))
        text = str(e).lower()
        sqlstate = getattr(e, "sqlstate", None)
        if "database is locked" in text or "database table is locked" in text or sqlstate in ("55P03",):
            return StorageFailure(
                EXIT_DB_LOCKED,
                "the database is locked by another process (it held the lock "
                "longer than we wait); " + resume + " once it is free",
            )
        if (
            "database or disk is full" in text
            or sqlstate == "53100"
            or (isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT))
        ):
            where = f" ({e.filename})" if isinstance(e, OSError) and e.filename else ""
            return StorageFailure(
                EXIT_DISK_FULL, f"no space left on the device{where}; free some space, then " + resume
            )
        if (
            "readonly database" in text
            or sqlstate == "25006"
            or (isinstance(e, OSError) and e.errno in (errno.EROFS, errno.EACCES, errno.EPERM))
        ):
            where = f" ({e.filename})" if isinstance(e, OSError) and e.filename else ""
            return StorageFailure(
                EXIT_NOT_WRITABLE,
                f"this command writes, and the database or folder{where} may "
                "not be written (read-only commands work there: leaderboard, report, verify, "
                "ledger, audit, cost)",
            )
        if "disk i/o error" in text:
            return StorageFailure(
                EXIT_DISK_FULL,
                "the disk failed a write (disk I/O error: full or failing?); " + resume + " once it is fixed",
            )
    return None
