"""``python -m console._worker``: the console's background process, which does its CPU-heavy work one job after
another: a run's warm-up (every contestant's process facts and risk table) and audit report documents.

The console server (one interpreter serving every page view) hands these to this separate process so that a page view
never competes with them for the interpreter's lock; a plain subprocess avoids multiprocessing re-importing the
Streamlit script. It reads one job a line on its standard input, a JSON object: its ``kind`` (``warm`` or ``audit``),
the run, the database URL (never on the command line, so a password in it does not show in the process list), the file
to write the result to (a pickle) and, for an audit, optionally a file for a first version written before it: every
section, its charts left undrawn (drawing them is about a fifth of the build), so the page shows the report while they
are drawn. Each job is answered by one line on its standard output, ``WORKER-JOB {"ok": true}`` or ``WORKER-JOB {"ok":
false, "error": ...}``. Each kind's modules are imported on its first job, once (an audit's about 2.5 s of CPU: scipy,
pingouin, matplotlib; a warm-up does not wait for them). It runs at a lower CPU priority (nice 10): on a small
machine the pages people are reading come first, the warm-up and the report a few seconds later. It ends when its
standard input closes (the server is gone).
"""

from __future__ import annotations

import json
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Any

REPLY = "WORKER-JOB "


def _write(path: str, result: Any) -> None:
    """Write atomically: the server polls for the file and must never read half of it."""
    part = Path(f"{path}.part")
    part.write_bytes(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    part.replace(path)


def build_audit(run_id: str, url: str, out: str, first: str | None = None) -> None:
    """Build the run's report document into ``out`` (and its first version into ``first`` before, when given)."""
    from audits import report_document
    from console._audit_reads import audit_report

    report = audit_report(run_id, url)
    if first:
        _write(first, report_document(report, draw_charts=False))
    _write(out, report_document(report))


HOLD_WARMUP = "GRADER_CONSOLE_HOLD_WARMUP"
"""For tests of what a page shows while a warm-up runs: a warm-up waits while the file this names exists (at most
five minutes), so a browser test can act before the figures arrive however fast the machine is."""


def warm(run_id: str, url: str, out: str) -> None:
    """Write the run's warm-up (``console._warmup.warm_run``) into ``out``."""
    from console._warmup import warm_run

    hold = os.environ.get(HOLD_WARMUP)
    deadline = time.monotonic() + 300
    while hold and Path(hold).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    _write(out, warm_run(run_id, url))


def run_job(job: dict[str, Any]) -> None:
    """Do one job (see the module's docstring); raises what the job raised."""
    kind = job.get("kind", "audit")
    if kind == "warm":
        warm(job["run_id"], job["url"], job["out"])
    elif kind == "audit":
        build_audit(job["run_id"], job["url"], job["out"], job.get("first"))
    else:
        raise ValueError(f"unknown job kind {kind!r}")


def main(argv: list[str]) -> int:
    if argv:
        print("usage: python -m console._worker (jobs on standard input, one JSON object a line)", file=sys.stderr)
        return 2
    if hasattr(os, "nice"):
        os.nice(10)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            run_job(json.loads(line))
            reply: dict[str, object] = {"ok": True}
        except Exception as exc:  # noqa: BLE001 - reported to the server, which shows it on the page
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        print(REPLY + json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
