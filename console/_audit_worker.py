"""``python -m console._audit_worker RUN_ID OUT``: build a run's audit report document into a pickle.

The console runs the audits (CPU-bound resampling) in this separate process so the server keeps
answering pages; a plain subprocess avoids multiprocessing re-importing the Streamlit script. The
database is ``GRADER_DATABASE_URL`` (passed in the environment, never on the command line, so a
password in the URL does not show in the process list). It runs at a lower CPU priority (nice 10): on a small
machine the pages people are reading come first, the report a few seconds later.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m console._audit_worker RUN_ID OUT", file=sys.stderr)
        return 2
    run_id, out = argv
    if hasattr(os, "nice"):
        os.nice(10)
    from console._queries import audit_document

    document = audit_document(run_id, None)
    Path(out).write_bytes(pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
