"""``python -m console._audit_worker``: a process that builds audit report documents, one job after another.

The console runs the audits (CPU-bound resampling) in this separate process so the server keeps answering pages; a
plain subprocess avoids multiprocessing re-importing the Streamlit script. It imports its modules once (about 2.5 s
of CPU: scipy, pingouin, matplotlib), then reads one job a line on its standard input, a JSON object: the run, the
database URL (never on the command line, so a password in it does not show in the process list), the file to write
the document to (a pickle) and, optionally, a file for a first version written before it: every section, its charts
left undrawn (drawing them is about a fifth of the build), so the page shows the report while they are drawn. Each
job is answered by one line on its standard output, ``AUDIT-JOB {"ok": true}`` or ``AUDIT-JOB {"ok": false,
"error": ...}``. It runs at a lower CPU priority (nice 10): on a small machine the pages people are reading come
first, the report a few seconds later. It ends when its standard input closes (the server is gone).
"""

from __future__ import annotations

import json
import os
import pickle
import sys
from pathlib import Path

REPLY = "AUDIT-JOB "


def _write(path: str, document) -> None:  # noqa: ANN001
    """Write atomically: the server polls for the file and must never read half of it."""
    part = Path(f"{path}.part")
    part.write_bytes(pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL))
    part.replace(path)


def build(run_id: str, url: str, out: str, first: str | None = None) -> None:
    """Build the run's report document into ``out`` (and its first version into ``first`` before, when given)."""
    from audits import report_document
    from console._audit_reads import audit_report

    report = audit_report(run_id, url)
    if first:
        _write(first, report_document(report, draw_charts=False))
    _write(out, report_document(report))


def main(argv: list[str]) -> int:
    if argv:
        print(
            "usage: python -m console._audit_worker (jobs on standard input, one JSON object a line)", file=sys.stderr
        )
        return 2
    if hasattr(os, "nice"):
        os.nice(10)
    import audits  # noqa: F401 - imported before the first job: a job waits for none of it
    import console._audit_reads  # noqa: F401
    import grader.reporting  # noqa: F401

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            job = json.loads(line)
            build(job["run_id"], job["url"], job["out"], job.get("first"))
            reply: dict[str, object] = {"ok": True}
        except Exception as exc:  # noqa: BLE001 - reported to the server, which shows it on the page
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        print(REPLY + json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
