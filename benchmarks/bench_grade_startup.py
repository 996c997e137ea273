"""Benchmark: the main thread's CPU time of ``grader grade`` (the fan-out benchmark's season and panel, a fresh
process on a fresh database) until its first judge request leaves, until the sixth does (the last of the slots that
make ten calls: 150 = 16 x 9 + 6, so the run ends ten replies after it) and until the sixteenth does (every slot of
the panel's concurrency filled), read by an audit hook on the process's ``socket.connect`` events (each request of
the first wave opens its own connection to the mock fake). CPU time, not wall time: the figure the start-up work costs,
less sensitive than the wall clock to the machine's other loads (see docs/architecture.md, "Start-up and laziness").

Then the per-slot gap: from the k-th reply (the SDK's ``httpx2.AsyncClient.send`` returning on the main thread) to
the (16 + k)-th request (that method called), the slot the reply freed being the one the next request takes: the
main thread's CPU between the two (the reply's reading and rows, the next request's making, and whatever else the
event loop ran in between: the prompts still being built in the first seconds) and the wall time, over the run.

``--profile PATH`` also writes a cProfile of one more run until its first request (``python -m pstats PATH``; the
profiler slows pure-Python work, the regular expressions' compilation most, by two to three times).

Run: .venv/bin/python benchmarks/bench_grade_startup.py [--runs N] [--workdir DIR] [--profile PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_grade_fanout import CONCURRENCY, CONTESTANTS, season_and_panel  # noqa: E402

BOOT = """
import json, os, sys, threading, time
main_thread, out, connects = threading.get_ident(), os.environ["STARTUP_OUT"], []
profile, profiler = os.environ.get("STARTUP_PROFILE"), None
if profile:
    import cProfile
    profiler = cProfile.Profile()
    profiler.enable()
def hook(event, args):
    if event != "socket.connect" or threading.get_ident() != main_thread:
        return
    connects.append(time.thread_time())
    if len(connects) == 1 and profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    if len(connects) == int(os.environ["STARTUP_WAVE"]):
        with open(out, "w") as f:
            json.dump(connects, f)
sys.addaudithook(hook)
import atexit, httpx2
sends, send = [], httpx2.AsyncClient.send
async def timed_send(self, *args, **kwargs):
    sends.append(("request", time.thread_time(), time.perf_counter()))
    reply = await send(self, *args, **kwargs)
    sends.append(("reply", time.thread_time(), time.perf_counter()))
    return reply
httpx2.AsyncClient.send = timed_send
def write_sends():
    with open(out + ".sends", "w") as f:
        json.dump(sends, f)
    if len(connects) < int(os.environ["STARTUP_WAVE"]):  # a reply came before the last slot's first request: its
        with open(out, "w") as f:  # connection was reused (a loaded machine), fewer connects than slots
            json.dump(connects, f)
atexit.register(write_sends)
sys.argv = ["grader", *sys.argv[1:]]
from grader.cli import main
main()
"""


def startup_once(season: Path, panel: Path, db: Path, profile: Path | None) -> tuple[list[float], list[list]]:
    """The main thread's CPU seconds at each of the first wave's requests (a fresh process, a fresh database), and
    every request's and reply's (kind, main thread's CPU, wall clock)."""
    for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        leftover.unlink(missing_ok=True)
    out = db.with_suffix(".json")
    sends = out.with_name(out.name + ".sends")
    out.unlink(missing_ok=True)
    sends.unlink(missing_ok=True)
    env = {
        **os.environ,
        "GRADER_DATABASE_URL": f"sqlite:///{db}",
        "PYTHONPATH": str(ROOT),
        "STARTUP_OUT": str(out),
        "STARTUP_WAVE": str(CONCURRENCY),
        "STARTUP_PROFILE": str(profile or ""),
    }
    args = ["grade", str(season), "--panel", str(panel), "--run-id", "startup", "--quiet"]
    done = subprocess.run([sys.executable, "-c", BOOT, *args], env=env, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0 or not out.exists():
        raise SystemExit(f"grader grade failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return json.loads(out.read_text()), json.loads(sends.read_text())


def slot_gaps(sends: list[list]) -> tuple[list[float], list[float]]:
    """(main-thread CPU seconds, wall seconds) from each reply to the request that takes the slot it freed: the k-th
    reply to the (CONCURRENCY + k)-th request."""
    requests = [(cpu, wall) for kind, cpu, wall in sends if kind == "request"]
    replies = [(cpu, wall) for kind, cpu, wall in sends if kind == "reply"]
    pairs = list(zip(replies, requests[CONCURRENCY:], strict=False))
    return [req[0] - rep[0] for rep, req in pairs], [req[1] - rep[1] for rep, req in pairs]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.mkdtemp(prefix="grader-startup-")))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", type=Path, default=None, help="cProfile of the first run until its first request")
    args = parser.parse_args()
    season, panel = season_and_panel(args.workdir)
    if args.profile:  # a run of its own: the profiler slows the run it watches
        startup_once(season, panel, args.workdir / "startup.db", args.profile)
    outcomes = [startup_once(season, panel, args.workdir / "startup.db", None) for _ in range(max(1, args.runs))]
    runs = [connects for connects, _ in outcomes]

    def fig(values: list[float]) -> str:
        return f"{statistics.median(values):5.2f} s (range {min(values):.2f}-{max(values):.2f})"

    print(
        f"grader grade, {CONTESTANTS} contestants, concurrency {CONCURRENCY}: the main thread's CPU time, median of "
        f"{len(runs)} run(s)"
    )
    print(f"  until the first request left:                 {fig([r[0] for r in runs])}")
    busiest = CONTESTANTS % CONCURRENCY or CONCURRENCY  # the slots started first make one call more than the rest
    print(
        f"  until the {busiest}th left (the last slot of {busiest} that make {-(-CONTESTANTS // CONCURRENCY)} calls: "
        f"the run's end follows it by that many replies): {fig([r[min(busiest, len(r)) - 1] for r in runs])}"
    )
    short = sum(len(r) < CONCURRENCY for r in runs)
    print(
        f"  until the {CONCURRENCY}th left (every slot filled):      {fig([r[-1] for r in runs])}"
        + (f" ({short} run(s) reused a connection: their last new one)" if short else "")
    )
    gaps = [slot_gaps(sends) for _, sends in outcomes]
    cpu = [statistics.median(c) * 1000 for c, _ in gaps]
    wall = [statistics.median(w) * 1000 for _, w in gaps]
    mean = [statistics.fmean(c) * 1000 for c, _ in gaps]
    print(
        f"  a reply to the request taking its slot ({len(gaps[0][0])} gaps a run), the main thread's CPU: median "
        f"{statistics.median(cpu):.1f} ms (runs {min(cpu):.1f}-{max(cpu):.1f}), mean {statistics.median(mean):.1f} ms; "
        f"wall median {statistics.median(wall):.1f} ms (runs {min(wall):.1f}-{max(wall):.1f})"
    )
    if args.profile:
        print(f"  cProfile of another run until its first request: {args.profile}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
