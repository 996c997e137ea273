"""Benchmark: the console's pages in a real browser at 50 contestants x 250 days x 3 judges (bar: 1.5 s).

Starts ``grader console`` on the benchmark database of ``bench_console.py`` (built once in --workdir) and drives
Debian's chromium with Playwright. For each page it prints:

- new tab: a new tab of the same browser (a new Streamlit session; the page's data not viewed before in any
  session) opened on the page's URL, until the page's last element is drawn, the script run has finished and no
  element still shows the grey placeholder of code being loaded.
  The browser has loaded the leaderboard and another contestant's page before (its cache holds Streamlit's and
  the charting library's scripts, as after any earlier visit); the first visit with an empty cache is printed apart;
- reload: the same tab reloaded (another new session, the URL keeps the page), median of --repeats;
- the contestant page's decision timeline opened (a click on its expander, until its table is drawn: the page draws
  its long tables on demand), in the new tab and (median) after each reload;
- the Audits page, in the new tab: until a report is shown (its bar is 2 s: the report built in a background worker
  started when the run was first viewed; the previous one while new human grades are added, or a first version while
  its charts are drawn), and until the whole report with the latest human grades is shown (the signed-in calibration
  views before add grades: a rebuild, timed with no bar);
- the console server's own CPU seconds per view (its process in /proc; not its background process's, not the
  browser's), and its background process's over the whole bench (the runs' warm-ups, the audit reports);
- the calibration views of a signed-in annotator: an item opened in a new tab, a switch to another item, a grade
  submitted until the judges' grades are revealed (first, then the median of two more, each on an ungraded item).

The server is warmed once before timing (one page view that imports the modules), as a running console is.
Run: .venv/bin/python benchmarks/bench_console_browser.py [--workdir DIR] [--strict] [--page NAME ...]
(--page contestant: only the pages whose name contains it; the signed-in calibration views go with "calibration")
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

BAR_SECONDS = 1.5
#: The Audits page's whole report (built in the background): under 2 s, or shown progressively
REPORT_BAR_SECONDS = 2.0
#: With --page and no calibration view: a pause before the pages are timed, the time the calibration views take
SETTLE_SECONDS = 15.0
STATUS_RUNNING = (
    "() => { const w = document.querySelector('[data-testid=\"stStatusWidget\"]');"
    " return !w || getComputedStyle(w).visibility === 'hidden'; }"
)
#: Elements whose code the browser loads on first use show a grey placeholder until then: a page is drawn without them
NO_PLACEHOLDER = "() => !document.querySelector('[data-testid=\"stSkeleton\"]')"


_SERVER: dict[str, int] = {}
#: CPU seconds of the console server's process per timed view (its own, not its background process's): row name -> (new
#: tab or first, median of the rest)
CPU: dict[str, tuple[float, float]] = {}


def _find_server(base: str) -> None:
    """Remember the console server's process (``python -m console._serve ... --server.port N``) for :func:`_cpu`."""
    port = base.rsplit(":", 1)[1]
    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"console._serve" in args and port.encode() in args:
            _SERVER["pid"] = int(entry.name)
            return


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _cpu() -> float:
    """The console server's CPU seconds so far (user + system; nan where /proc is not there)."""
    try:
        fields = _stat(_SERVER["pid"])
    except (KeyError, OSError):
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    """CPU seconds so far of the console server's child processes that still run (its background process: the
    runs' warm-ups and the audit reports; nan where /proc is not there)."""
    if "pid" not in _SERVER:
        return float("nan")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(int(entry.name))
        except OSError:
            continue
        if int(fields[1]) == _SERVER["pid"]:  # its parent
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _until_drawn(page, marker: str, timeout: float = 120.0) -> None:  # noqa: ANN001
    """Poll until ``marker`` (regex) is on the page, Streamlit's script run has finished and no element still waits
    for its code (a grey placeholder)."""
    pattern = re.compile(marker)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.get_by_text(pattern).count() and page.evaluate(STATUS_RUNNING) and page.evaluate(NO_PLACEHOLDER):
            exceptions = page.locator('[data-testid="stException"]')
            if exceptions.count():
                raise RuntimeError(f"page raised: {exceptions.first.inner_text()[:300]}")
            return
        page.wait_for_timeout(25)
    raise TimeoutError(f"{marker!r} not drawn within {timeout} s on {page.url}")


#: The Audits page shows a report: a first version (charts being drawn), the previous one (new grades being added)
#: or the whole one
REPORT_SHOWN = "() => document.body.innerText.includes('live from the database')"
#: ... the whole report with every human grade so far
WHOLE_REPORT = (
    "() => document.body.innerText.includes('live from the database')"
    " && !document.body.innerText.includes('charts are being drawn')"
    " && !document.body.innerText.includes('Building the audit report')"
)


def _until_report(page, shown: str, timeout: float = 300.0) -> None:  # noqa: ANN001
    """Poll until the Audits page shows its report (``shown``: REPORT_SHOWN or WHOLE_REPORT)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(shown) and page.evaluate(STATUS_RUNNING) and page.evaluate(NO_PLACEHOLDER):
            return
        page.wait_for_timeout(25)
    raise TimeoutError(f"no audit report within {timeout} s on {page.url}")


def _open_table(page, label: str, timeout: float = 60.0) -> float:  # noqa: ANN001
    """Click the expander whose label starts with ``label`` (regex) and return the time until the data grid in it is
    drawn and the script run it starts has finished."""
    grid = page.locator('[data-testid="stExpander"] [data-testid="stDataFrame"] canvas')
    start = time.perf_counter()
    page.get_by_text(re.compile(label)).click()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if grid.count() and page.evaluate(STATUS_RUNNING) and page.evaluate(NO_PLACEHOLDER):
            return time.perf_counter() - start
        page.wait_for_timeout(25)
    raise TimeoutError(f"{label!r}: no table drawn within {timeout} s on {page.url}")


AXIS_LABELS = ("Reasoning quality (0–100)", "Evidence grounding (0–100)", "Data reliability (0–100)")


def _calibration_views(base: str, run_id: str, context, items, item: int) -> list[tuple[str, float, float]]:  # noqa: ANN001
    """A signed-in annotator's calibration views: open the page in a new tab, switch to another item, submit a grade
    (until the judges are revealed); each --repeats times on items nobody graded, median."""
    ungraded = [i for i in items if not i.annotators and i.has_record and i.number != item]
    opened, switched, submitted = [], [], []
    cpu: dict[str, list[float]] = {"open": [], "switch": [], "submit": []}
    for k in range(3):
        here, there = ungraded[2 * k], ungraded[2 * k + 1]
        tab = context.new_page()
        start, used = time.perf_counter(), _cpu()
        tab.goto(f"{base}/calibration?run={run_id}&item={here.number}", wait_until="commit")
        _until_drawn(tab, rf"^Submit grade of {here.alias}")
        opened.append(time.perf_counter() - start)
        cpu["open"].append(_cpu() - used)
        tab.get_by_role("combobox", name="Item").click()
        tab.keyboard.type(there.alias)  # the list is virtualized: filter it to the item
        option = tab.get_by_role("option", name=there.alias, exact=True)
        start, used = time.perf_counter(), _cpu()
        option.click()
        _until_drawn(tab, rf"^Submit grade of {there.alias}")
        switched.append(time.perf_counter() - start)
        cpu["switch"].append(_cpu() - used)
        while tab.get_by_label(AXIS_LABELS[0], exact=True).count() > 1:  # the previous item's form fading out
            tab.wait_for_timeout(25)
        for label, value in zip(AXIS_LABELS, (55, 60, 50), strict=True):
            box = tab.get_by_label(label, exact=True)
            box.fill(str(value))
            box.press("Tab")
        tab.wait_for_timeout(300)
        start, used = time.perf_counter(), _cpu()
        tab.get_by_role("button", name=re.compile(r"^Submit grade of")).click()
        _until_drawn(tab, rf"^Revealed: the judges' grades of {there.alias}")
        submitted.append(time.perf_counter() - start)
        cpu["submit"].append(_cpu() - used)
        tab.close()
    for row, key in (
        ("Calibration (signed in): open an item in a new tab", "open"),
        ("Calibration: switch to another item", "switch"),
        ("Calibration: submit a grade -> judges revealed", "submit"),
    ):
        CPU[row] = (cpu[key][0], statistics.median(cpu[key][1:]))
    return [
        ("Calibration (signed in): open an item in a new tab", opened[0], statistics.median(opened[1:])),
        ("Calibration: switch to another item", switched[0], statistics.median(switched[1:])),
        ("Calibration: submit a grade -> judges revealed", submitted[0], statistics.median(submitted[1:])),
    ]


def main() -> int:
    from bench_console import RUN_ID, parse_args, prepare

    args = parse_args(__doc__.splitlines()[0], browser=True)

    from playwright.sync_api import sync_playwright

    from console import calibration_items, run_contestants
    from tests.console._browser import console_process, launch

    url, token = prepare(args.workdir, args.contestants, args.days, args.claims)
    people = run_contestants(RUN_ID, url)
    middle = people[len(people) // 2].key
    items = calibration_items(RUN_ID, url)  # an item nobody graded yet (bench_console.py grades some): the form
    item = next((i.number for i in items if not i.annotators), items[0].number)
    pages = [  # (name, path and query, the page's last element)
        ("Leaderboard", f"?run={RUN_ID}", r"^Flagged: fewer judges"),
        (
            f"Contestant ({args.days}-day NAV, timeline, risk)",
            f"contestant?run={RUN_ID}&contestant={middle}",
            rf"^Decision timeline \({args.days} decisions\)",
        ),
        ("Ledger review (page 1 of all claims)", f"ledger?run={RUN_ID}", r"^Sign in \(sidebar\) to record"),
        (
            "Ledger review (judge-xai, contradicted)",
            f"ledger?run={RUN_ID}&judge=judge-xai&verifier=contradicted",
            r"^Sign in \(sidebar\) to record",
        ),
        ("Calibration (signed out)", f"calibration?run={RUN_ID}&item={item}", r"^Sign in \(sidebar\) to grade"),
        ("Runs", f"runs?run={RUN_ID}", r"^Spearman"),
        # last: opening Audits starts the report's background build (a niced worker process), which then
        # competes for the CPU with whatever is measured next on a small machine
        ("Audits (page answer)", f"audits?run={RUN_ID}", r"Building the audit report|live from the database"),
    ]
    leaderboard_drawn = pages[0][2]  # the warm-up views open the leaderboard whatever is timed
    if args.page:
        pages = [page for page in pages if any(want.lower() in page[0].lower() for want in args.page)]
    calibration_wanted = any(name.startswith("Calibration") for name, _, _ in pages)
    results: list[tuple[str, float, float]] = []
    with console_process(url, Path(os.environ["GRADER_ANNOTATORS_FILE"]), args.workdir) as base, sync_playwright() as p:
        _find_server(base)
        browser = launch(p)
        try:
            # a first visit ever: an empty browser cache downloads Streamlit's scripts (said apart: once per browser)
            cold = browser.new_context()
            tab = cold.new_page()
            start, used = time.perf_counter(), _cpu()
            tab.goto(f"{base}/?run={RUN_ID}", wait_until="commit")
            _until_drawn(tab, leaderboard_drawn)
            server_warmup = time.perf_counter() - start
            server_warmup_cpu = _cpu() - used
            cold.close()
            context = browser.new_context(viewport={"width": 1400, "height": 1000})  # one browser profile
            tab = context.new_page()
            start, used = time.perf_counter(), _cpu()
            tab.goto(f"{base}/?run={RUN_ID}", wait_until="commit")
            _until_drawn(tab, leaderboard_drawn)
            first_visit = time.perf_counter() - start
            first_visit_cpu = _cpu() - used
            # the browser has seen every kind of element before (their scripts are static files it keeps, as after
            # any earlier visit); the contestant timed below is another one, so its data is still cold on the server
            tab.goto(f"{base}/contestant?run={RUN_ID}&contestant={people[0].key}", wait_until="commit")
            _until_drawn(tab, rf"^Decision timeline \({args.days} decisions\)")
            tab.close()
            if not calibration_wanted:
                # the calibration views below take about this long: the server's background warm-up of the run has
                # finished (as in a full run) before the pages are timed
                time.sleep(SETTLE_SECONDS)
            else:
                # the grading form: sign in on the calibration page of a new tab, until the blind record and form show
                signing = browser.new_context(viewport={"width": 1400, "height": 1000})  # its cookie stays there
                tab = signing.new_page()
                tab.goto(f"{base}/calibration?run={RUN_ID}&item={item}", wait_until="commit")
                _until_drawn(tab, r"^Sign in \(sidebar\) to grade")
                tab.get_by_label("Annotator").fill("bench")
                tab.get_by_label("Token").fill(token)
                start = time.perf_counter()
                tab.get_by_role("button", name="Sign in").click()
                _until_drawn(tab, r"^Submit grade of Item")
                signed_in = time.perf_counter() - start
                calibration = _calibration_views(base, RUN_ID, signing, items, item)
                signing.close()
            for name, path, marker in pages:
                tab = context.new_page()  # a new tab: a new Streamlit session, the browser's cache shared
                start, used = time.perf_counter(), _cpu()
                tab.goto(f"{base}/{path}", wait_until="commit")
                _until_drawn(tab, marker)
                first = time.perf_counter() - start
                first_cpu = _cpu() - used
                if name.startswith("Audits"):  # the report is built in the background: until it is shown
                    _until_report(tab, REPORT_SHOWN)
                    report_shown = time.perf_counter() - start
                    _until_report(tab, WHOLE_REPORT)
                    whole = time.perf_counter() - start
                timeline = rf"^The {args.days} decisions"  # the contestant page's timeline expander
                opened = [_open_table(tab, timeline)] if name.startswith("Contestant") else []
                again, again_cpu = [], []
                for _ in range(args.repeats):
                    start, used = time.perf_counter(), _cpu()
                    tab.reload(wait_until="commit")  # a reload is a new session too: the URL keeps the page
                    _until_drawn(tab, marker)
                    again.append(time.perf_counter() - start)
                    again_cpu.append(_cpu() - used)
                    if name.startswith("Contestant"):
                        opened.append(_open_table(tab, timeline))
                tab.close()
                results.append((name, first, statistics.median(again)))
                CPU[name] = (first_cpu, statistics.median(again_cpu))
                if opened:
                    timed = ("Contestant: open the decision timeline", opened[0], statistics.median(opened[1:]))
                    results.append(timed)
                if name.startswith("Audits"):
                    results.append(("Audits: a report shown (new tab)", report_shown, float("nan")))
                    results.append(("Audits: the whole report with the latest grades", whole, float("nan")))
                if name.startswith("Calibration"):
                    results.append(("Calibration: sign in -> blind record and form", signed_in, float("nan")))
                    results.extend(calibration)
            background_cpu = _children_cpu()
        finally:
            browser.close()

    width = max(len(r[0]) for r in results)
    print(
        f"\n{args.contestants} contestants x {args.days} days x 3 judges, {args.claims} claims per grade; "
        f"Debian chromium via Playwright"
    )
    print(f"{'page':<{width}}  new tab   reload (median of {args.repeats})   server CPU: new tab / reload")
    over = []
    for name, first, again in results:
        bar = REPORT_BAR_SECONDS if name.startswith("Audits: a report") else BAR_SECONDS
        if name.startswith("Audits: the whole report"):
            bar = float("inf")  # the calibration views above added grades: rebuilt in the background, not a view
        flag = "" if max(first, again if again == again else 0.0) < bar else "  OVER BAR"
        if flag:
            over.append(name)
        shown = f"{again:6.3f} s" if again == again else "      —"
        used = CPU.get(name)
        cpu = f"{used[0]:5.2f} / {used[1]:5.2f} s" if used else ""
        print(f"{name:<{width}}  {first:6.3f} s  {shown}   {cpu:>17}{flag}")
    print(
        f"server warm-up (the first page view after start: imports, caches; empty browser cache): "
        f"{server_warmup:.2f} s (server CPU {server_warmup_cpu:.2f} s); a first visit with an empty browser cache "
        f"afterwards: {first_visit:.2f} s (server CPU {first_visit_cpu:.2f} s)"
    )
    print(
        f"the server's background process (runs' warm-ups, audit reports), CPU over the bench: {background_cpu:.2f} s"
    )
    print(
        f"bar: {BAR_SECONDS} s per page view; {len(results) - len(over)}/{len(results)} within; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    return 1 if args.strict and over else 0


if __name__ == "__main__":
    raise SystemExit(main())
