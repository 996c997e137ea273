"""Benchmark: every console page on a 50-contestant x 250-day x 3-judge season (bar: < 1.5 s per page).

Builds (once, cached in --workdir) a synthetic season with ``grader.demo`` and a synthetic mock run of it
with ``console.build_synthetic_run`` (150 schema-valid synthetic grades, 250 ledger claims per grade:
37,500 ledger rows), then drives the real app with ``streamlit.testing.v1.AppTest``: each page is timed
on its first view (cold caches, in a fresh process) and on a repeat view. The ledger page is also timed
filtered and deep in its pagination, the calibration page on a submitted grade, and the audit report's
background build is timed separately (the Audits page answers at once and shows it when ready).

Run: .venv/bin/python benchmarks/bench_console.py [--workdir DIR] [--strict]
(--strict: exit 1 when a page is over the bar; timings depend on the machine's load.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BAR_SECONDS = 1.5
RUN_ID = "bench-console"


def page_text(at) -> str:  # noqa: ANN001
    parts: list[str] = []
    for kind in ("title", "subheader", "markdown", "caption", "info", "warning", "error", "success"):
        parts.extend(str(e.value) for e in getattr(at, kind))
    return "\n".join(parts)


def prepare(workdir: Path, contestants: int, days: int, claims: int) -> tuple[str, str]:
    """(database URL, annotator token) of the benchmark database, built when missing."""
    from console import AnnotatorDirectory, build_synthetic_run
    from grader.demo import build_synthetic_season
    from grader.storage import RunRow, session_scope

    workdir.mkdir(parents=True, exist_ok=True)
    season = workdir / f"season-{contestants}x{days}"
    if not (season / "decisions.jsonl").exists():
        t = time.perf_counter()
        build_synthetic_season(season, n_contestants=contestants, n_days=days, seed=0)
        print(f"built season {season} in {time.perf_counter() - t:.1f} s")
    url = f"sqlite:///{workdir / f'console-{contestants}x{days}x{claims}.db'}"
    with session_scope(url) as s:
        exists = s.get(RunRow, RUN_ID) is not None
    if not exists:
        t = time.perf_counter()
        made = build_synthetic_run(season, RUN_ID, db_url=url, claims_per_grade=claims)
        print(
            f"built run: {made.contestants} contestants, {made.grades} grades, {made.ledger_entries} ledger "
            f"entries in {time.perf_counter() - t:.1f} s"
        )
    annotators = workdir / "annotators.yaml"
    annotators.unlink(missing_ok=True)
    token = AnnotatorDirectory(annotators).add("bench")
    os.environ["GRADER_ANNOTATORS_FILE"] = str(annotators)
    os.environ["GRADER_DATABASE_URL"] = url
    return url, token


def timed(at, action=None) -> float:  # noqa: ANN001
    start = time.perf_counter()
    if action is None:
        at.run()
    else:
        action()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"page raised: {at.exception[0].value}")
    return elapsed


def parse_args(description: str, browser: bool = False) -> argparse.Namespace:
    """The console benchmarks' options (this one and bench_console_browser.py share the database; ``browser``: the
    browser bench's own options too)."""
    parser = argparse.ArgumentParser(description=description)
    if browser:
        parser.add_argument(
            "--page",
            action="append",
            default=[],
            help="time only the pages whose name contains this (case-insensitive; repeatable), e.g. --page contestant",
        )
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "grader-bench-console")
    parser.add_argument("--contestants", type=int, default=50)
    parser.add_argument("--days", type=int, default=250)
    parser.add_argument("--claims", type=int, default=250, help="ledger claims per grade")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strict", action="store_true")
    return parser.parse_args()


def main() -> int:
    args = parse_args(__doc__.splitlines()[0])

    url, token = prepare(args.workdir, args.contestants, args.days, args.claims)
    from streamlit.testing.v1 import AppTest

    from console import ledger_page
    from grader.storage import LedgerEntryRow, session_scope

    with session_scope(url) as s:
        n_ledger = s.query(LedgerEntryRow).count()
    print(f"database {url}: {args.contestants} contestants x {args.days} days x 3 judges, {n_ledger} ledger rows")

    # a running server has imported its modules once; time that apart from the pages
    start = time.perf_counter()
    import altair  # noqa: F401
    import pandas  # noqa: F401

    import console._ui  # noqa: F401
    import grader.panel.leaderboard  # noqa: F401

    warmup = time.perf_counter() - start

    at = AppTest.from_file(str(ROOT / "console" / "app.py"), default_timeout=300)
    results: list[tuple[str, float, float]] = []

    def page(name: str, path: str | None, setup=None, expect: str | None = None) -> None:  # noqa: ANN001
        if path:
            at.switch_page(path)
        if setup:
            setup()
        first = timed(at)
        repeat = statistics.median(timed(at) for _ in range(args.repeats))
        if expect and expect not in page_text(at):
            raise RuntimeError(f"{name}: expected {expect!r} on the page")
        results.append((name, first, repeat))

    page("Leaderboard (first page after process start)", None, expect="MOCK PANEL")
    page(f"Contestant (judges, NAV, {args.days}-day timeline)", "views/contestant.py", expect="Decision timeline")
    page("Ledger review (page 1 of all claims)", "views/ledger.py", expect="claims match")

    def deep() -> None:
        at.selectbox(key="ledger_judge").set_value(at.selectbox(key="ledger_judge").options[2])
        at.radio(key="ledger_disagree").set_value("disagreements")

    page("Ledger review (judge + disagreement filter)", None, deep)
    last_page = ledger_page(RUN_ID, None, 1, int(at.selectbox(key="ledger_page_size").value), url).pages
    at.selectbox(key="ledger_judge").set_value("(any)")
    at.radio(key="ledger_disagree").set_value("any")
    timed(at)
    page(
        f"Ledger review (page {last_page} of all claims)",
        None,
        lambda: at.number_input(key="ledger_page").set_value(last_page),
        expect=f"page {last_page} of {last_page}",
    )

    at.text_input(key="sign_in_name").input("bench")
    at.text_input(key="sign_in_token").input(token)
    at.button(key="sign_in_button").click()
    timed(at)
    page(f"Calibration (blind record of {args.days} days)", "views/calibration.py", expect="Your grade")
    prefix = next(
        w.key
        for w in at.number_input
        if w.key and w.key.startswith("cg_") and w.key.endswith("_reasoning") and ":" not in w.key
    ).removesuffix("reasoning")
    at.number_input(key=f"{prefix}reasoning").set_value(60)
    at.number_input(key=f"{prefix}evidence").set_value(55)
    at.number_input(key=f"{prefix}data_reliability").set_value(50)  # every axis but outcome is required
    form = next(b for b in at.form_submit_button if b.key != "sign_in_button")
    submit = timed(at, form.click().run)
    if "Revealed: the judges' grades" not in page_text(at):
        raise RuntimeError("calibration: the grade was not recorded and revealed")
    results.append(("Calibration: submit a grade + reveal", submit, float("nan")))
    page("Audits (page answer)", "views/audits.py", expect="Audits")
    page("Runs (two runs side by side)", "views/runs.py", expect="Runs")
    page(
        "Runs (two rubric versions on one run)",
        None,
        lambda: at.radio(key="cmp_mode").set_value("Two rubric versions on one run"),
        expect="A = ",
    )

    # the audit report itself is built in a background process: time it until the page shows it
    at.switch_page("views/audits.py")
    start = time.perf_counter()
    while True:
        at.run()
        if any(r.key == "audit_section" for r in at.radio):  # the report is shown: its section picker
            break
        if time.perf_counter() - start > 600:
            raise RuntimeError("the audit report did not finish within 10 minutes")
        time.sleep(0.5)
    build = time.perf_counter() - start
    ready = statistics.median(timed(at) for _ in range(args.repeats))
    results.append(("Audits (report shown, after background build)", ready, ready))

    width = max(len(r[0]) for r in results)
    print(f"\n{'page':<{width}}  first view  repeat (median of {args.repeats})")
    over = []
    for name, first, repeat in results:
        warmup_page = "after process start" in name  # loads the season bundle and replays once per process
        flag = "" if warmup_page or max(first, 0 if repeat != repeat else repeat) < BAR_SECONDS else "  OVER BAR"
        if flag:
            over.append(name)
        rep = "      —" if repeat != repeat else f"{repeat:7.3f} s"
        print(f"{name:<{width}}  {first:7.3f} s   {rep}{flag}")
    print(
        f"\nserver start (imports, once per process): {warmup:.2f} s; the first page after process start also loads "
        "the season bundle and its replays once (not held to the bar; see bench_console_browser.py for views in "
        "a running server)"
    )
    print(
        f"audit report background build (every audit, console resampling): {build:.1f} s "
        "(the page answers meanwhile and refreshes itself)"
    )
    print(
        f"bar: {BAR_SECONDS} s per page; {len(results) - len(over)}/{len(results)} within; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    return 1 if args.strict and over else 0


if __name__ == "__main__":
    raise SystemExit(main())
