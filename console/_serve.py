"""``python -m console._serve APP [streamlit run options]``: ``streamlit run APP`` with the modules the pages import
loaded first (``grader console`` starts the console this way).

Streamlit imports a page's modules on the first page view after the server starts: pandas, pyarrow, SQLAlchemy, the
grader's storage, scoring and reporting packages (about 800 modules, 1 to 2 s of CPU on a small machine), and the
audits package (about 870 more, 1.1 s: scipy, pingouin, matplotlib), which the Audits page and every audit report
handed back by the background process need (unpickling the first report imported it in the middle of whatever page
view was running). Loaded
here, before the server answers, that first view (a person opening the console) does not wait for them. They are
loaded before Streamlit starts its server rather than beside it: two threads importing the same packages at once can
wait for each other's import locks.

Two of Streamlit's defaults cost every script run (every page view and widget change) CPU for nothing here, so they
are turned off: "magic" (``runner.magicEnabled``: the pages write nothing by bare expressions, yet Streamlit rewrites
each page's syntax tree whenever its compiled-script cache is empty, which it empties each time the last browser tab
closes: a reload) and the full garbage collection after every run (``runner.postScriptGC``: about 0.1 s of CPU per run
over the 180,000 objects of the imported modules; Python's own collector still runs). The imported modules' objects are
frozen out of the collector's scans (``gc.freeze``).
"""

from __future__ import annotations

import gc
import importlib
import sys

#: Streamlit options every console server runs with (see the module's docstring); a command line may override them
RUN_OPTIONS = ("--runner.magicEnabled", "false", "--runner.postScriptGC", "false")


def import_pages() -> None:
    """Import what the pages and their first reads import (the same modules a first page view would load)."""
    importlib.import_module("pyarrow")  # every data grid (no type stubs: imported by name)
    from matplotlib.backends import backend_agg  # noqa: F401 - matplotlib, loaded before the server answers

    import audits  # noqa: F401 - the Audits page, and every audit report the background process hands back (1.1 s)
    import console._queries  # noqa: F401
    import console._ui  # noqa: F401
    import console._writes  # noqa: F401
    import grader.panel.leaderboard  # noqa: F401 - the leaderboard's rows
    import grader.scoring  # noqa: F401
    from grader.reporting import compact_facts, run_process_facts, run_risk_evidence  # noqa: F401 - loaded when read


def main(argv: list[str]) -> int:
    import_pages()
    from streamlit.web import cli

    from console import _prewarm

    _prewarm.BUILD_AUDITS = True  # a warmed run's audit report is built ahead, in its niced worker process
    gc.collect()
    gc.freeze()  # what is loaded now lives as long as the server: no collection scans it again
    given = {arg.split("=", 1)[0] for arg in argv}
    options = [
        arg for k in range(0, len(RUN_OPTIONS), 2) if RUN_OPTIONS[k] not in given for arg in RUN_OPTIONS[k : k + 2]
    ]
    return cli.main(args=["run", *argv, *options], prog_name="streamlit")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
