"""Fault suite, large: what an operator's world does to a grading run, and whether the run survives it.

- signals: campaigns of SIGKILL, SIGINT and SIGTERM at random moments of ``grader grade`` (start-up, calls, scoring),
  each followed by the same command until the run completes; the panel's attempt cap is 2, so a run survives only
  if our own interruptions never count toward it;
- a full disk: the database on a small tmpfs (a mount namespace of its own: root, or an unprivileged user namespace)
  that fills in the middle of the run, then resumed on a disk with room; where no tmpfs can be mounted, SQLite's page
  limit (the same SQLITE_FULL);
- a locked database (another process holds SQLite's write lock), a read-only one (reading commands, then a write);
- a hostile endpoint answering ``Retry-After: 3600`` to every first attempt;
- an endpoint per provider (OpenAI, Anthropic, xAI through their own SDKs against the grader's fakes) echoing the
  request's API key into its replies (a malformed first reply, then the key in every string of the grade): no byte
  of the key in the database (every table, WAL included), any file written or any command's output.

Each run is compared with an uninterrupted one (scores and bands), checked for calls paid twice (two ``ok``
attempts of one content address) and verified (``grader verify``). Prints what it ran and the outcomes; exits 1 if
any expectation fails.

Run: .venv/bin/python benchmarks/bench_faults.py [--contestants N] [--campaigns N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PANEL = """name: bench-faults
kind: mock
description: MOCK panel for the fault benchmark (attempt cap 2)
concurrency: {{openai: {limit}, anthropic: {limit}, xai: {limit}}}
retry: {{max_attempts: 2, base_delay_s: 0.05, max_delay_s: 0.5}}
mock: {{seed: 7, noise_sd: 4.0, latency_s: {latency}{failures}}}
judges:
  - {{judge_id: mock-openai, provider: openai, model: mock-gpt, family: openai, timeout_s: 30,
     pricing: {{input_per_mtok: 0.0, output_per_mtok: 0.0}}}}
  - {{judge_id: mock-anthropic, provider: anthropic, model: mock-claude, family: anthropic, timeout_s: 30,
     pricing: {{input_per_mtok: 0.0, output_per_mtok: 0.0}}}}
  - {{judge_id: mock-xai, provider: xai, model: mock-grok, family: xai, timeout_s: 30,
     pricing: {{input_per_mtok: 0.0, output_per_mtok: 0.0}}}}
"""

EXPECTED_EXIT = {signal.SIGKILL: -signal.SIGKILL, signal.SIGINT: 130, signal.SIGTERM: 143}
problems: list[str] = []


def check(ok: bool, what: str) -> None:
    if not ok:
        problems.append(what)
        print(f"  FAIL: {what}")


def grader(url: str, *args: str, env: dict | None = None, prefix: tuple = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "grader", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "GRADER_DATABASE_URL": url, **(env or {})},
    )


def grade_args(season: Path, panel: Path, run_id: str) -> list[str]:
    return ["grade", str(season), "--panel", str(panel), "--run-id", run_id, "--quiet"]


def scores(url: str, run_id: str) -> dict:
    from grader.panel.leaderboard import leaderboard_rows

    return {r["contestant_id"]: (r["total"], r["band"]) for r in leaderboard_rows(run_id, db_url=url)[1]}


def paid_twice(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "select count(*) from (select cache_key from judge_calls where status = 'ok' "
            "group by cache_key having count(*) > 1)"
        ).fetchone()[0]


def settle(url: str, db: Path, run_id: str, reference: dict, label: str) -> None:
    check(scores(url, run_id) == reference, f"{label}: scores differ from the uninterrupted run")
    check(paid_twice(db) == 0, f"{label}: a completed call was paid twice")
    verified = grader(url, "verify", "--run", run_id)
    check(verified.returncode == 0, f"{label}: verify failed: {verified.stderr[-300:]}")


def signal_campaigns(
    season: Path, panel: Path, work: Path, reference: dict, campaigns: int, rng: random.Random, run_seconds: float
) -> None:
    print(
        f"signals: {campaigns} campaign(s); each: a signal at a random moment (0.2 s .. {run_seconds:.1f} s), "
        "again until the run completes"
    )
    tally: dict[str, int] = {}
    for n in range(campaigns):
        db = work / f"signals-{n}.db"
        url = f"sqlite:///{db}"
        sent = early = late = 0
        for _ in range(40):
            sig = rng.choice([signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
            proc = subprocess.Popen(
                [sys.executable, "-m", "grader", *grade_args(season, panel, "s")],
                cwd=ROOT,
                env={**os.environ, "GRADER_DATABASE_URL": url},
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            try:
                proc.wait(timeout=rng.uniform(0.2, run_seconds))
            except subprocess.TimeoutExpired:
                proc.send_signal(sig)
                sent += 1
                tally[sig.name] = tally.get(sig.name, 0) + 1
            out, err = proc.communicate(timeout=120)
            if proc.returncode == 0:
                break
            status = _run_status(db)
            if proc.returncode in (-sig, 130, 143) and status is None:
                early += 1  # stopped before the command started: nothing written, nothing to resume
                continue
            if proc.returncode == -sig and status == "complete":
                late += 1  # landed while the interpreter shut down, its work done (signal handlers are gone then)
                break
            check(
                proc.returncode == EXPECTED_EXIT[sig],
                f"campaign {n}: {sig.name} gave exit {proc.returncode}: {err[-300:]}",
            )
            check("Traceback" not in err, f"campaign {n}: {sig.name} printed a traceback: {err[-300:]}")
            if sig != signal.SIGKILL and proc.returncode == EXPECTED_EXIT[sig]:
                check(
                    "Resume with" in err or "run the same command again" in err,
                    f"campaign {n}: {sig.name} without the resume command",
                )
                with sqlite3.connect(db) as conn:  # its own lease (one a SIGKILL left before is taken over later)
                    held = conn.execute("select count(*) from run_leases where pid = ?", (proc.pid,)).fetchone()[0]
                check(held == 0, f"campaign {n}: {sig.name} left its lease held")
        else:
            check(False, f"campaign {n}: not complete after 40 signals")
        with sqlite3.connect(db) as conn:
            interrupted = conn.execute("select count(*) from judge_calls where status = 'interrupted'").fetchone()[0]
        print(
            f"  campaign {n}: {sent} signal(s) ({early} before the command started, {late} after its work "
            f"ended), {interrupted} attempt(s) cut off, then complete"
        )
        if _run_status(db) == "complete":  # else nothing to compare (failed above)
            settle(url, db, "s", reference, f"campaign {n}")
    print(f"  signals sent: {tally}")


def _run_status(db: Path) -> str | None:
    if not db.exists():
        return None
    try:
        with sqlite3.connect(db) as conn:
            row = conn.execute("select status from runs").fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def _mount_runner() -> tuple[str, ...] | None:
    """A command prefix giving a private mount namespace where tmpfs may be mounted, or None."""
    for prefix in (("unshare", "-m"), ("unshare", "-rm")):
        probe = subprocess.run(
            [*prefix, "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs $d"], capture_output=True
        )
        if probe.returncode == 0:
            return prefix
    return None


def full_disk(season: Path, panel: Path, work: Path, reference: dict, room_kib: int) -> None:
    db = work / "full.db"
    url = f"sqlite:///{db}"
    assert grader(url, "import", str(season)).returncode == 0
    size = db.stat().st_size
    prefix = _mount_runner() if shutil.which("unshare") else None
    if prefix is not None:
        mnt = work / "tmpfs"
        mnt.mkdir()
        room = size + room_kib * 1024
        print(f"full disk: a {room // 1024} KiB tmpfs ({' '.join(prefix)}) holding the {size // 1024} KiB database")
        inner = (
            f'mount -t tmpfs -o size={room} tmpfs "{mnt}" && cp "{db}" "{mnt}/" && '
            f'GRADER_DATABASE_URL="sqlite:///{mnt}/full.db" "{sys.executable}" -m grader '
            + " ".join(f'"{a}"' for a in grade_args(season, panel, "f"))
            + f'; code=$?; rm -f "{work}"/full.db*; cp "{mnt}"/full.db* "{work}/"; exit $code'
        )
        done = subprocess.run([*prefix, "sh", "-c", inner], cwd=ROOT, capture_output=True, text=True)
    else:
        from grader.storage._engine import MAX_PAGES_ENV

        with sqlite3.connect(db) as conn:
            pages = conn.execute("pragma page_count").fetchone()[0]
        print(f"full disk: no tmpfs can be mounted here; SQLite's page limit at {pages + 24} pages (SQLITE_FULL)")
        done = grader(url, *grade_args(season, panel, "f"), env={MAX_PAGES_ENV: str(pages + 24)})
    print(f"  stopped: exit {done.returncode}: {done.stderr.strip()[:200]}")
    check(done.returncode == 7, f"full disk: exit {done.returncode}, not 7")
    check(
        "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1,
        f"full disk: not one line: {done.stderr[-500:]}",
    )
    with sqlite3.connect(db) as conn:
        stored = conn.execute("select count(*) from judge_calls where status = 'ok'").fetchone()[0]
    resumed = grader(url, *grade_args(season, panel, "f"))
    print(f"  {stored} call(s) stored before the disk filled; resumed with room: exit {resumed.returncode}")
    check(resumed.returncode == 0, f"full disk: resume exit {resumed.returncode}: {resumed.stderr[-300:]}")
    settle(url, db, "f", reference, "full disk")


def locked_and_read_only(season: Path, panel: Path, work: Path, reference: dict) -> None:
    from grader.storage._engine import BUSY_TIMEOUT_ENV

    folder = work / "ro"
    folder.mkdir()
    db = folder / "l.db"
    url = f"sqlite:///{db}"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("create table if not exists other_tool (x)")
    holder.execute("BEGIN EXCLUSIVE")
    started = time.perf_counter()
    done = grader(url, *grade_args(season, panel, "l"), env={BUSY_TIMEOUT_ENV: "1"})
    holder.execute("ROLLBACK")
    holder.close()
    print(
        f"locked database: exit {done.returncode} after {time.perf_counter() - started:.1f} s: "
        f"{done.stderr.strip()[:160]}"
    )
    check(done.returncode == 6, f"locked: exit {done.returncode}, not 6")
    resumed = grader(url, *grade_args(season, panel, "l"))
    check(resumed.returncode == 0, f"locked: resume exit {resumed.returncode}: {resumed.stderr[-300:]}")
    settle(url, db, "l", reference, "locked")

    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            print("read-only database: skipped (root without unshare)")
            return
        script = work / "ro.sh"
        script.write_text(
            '#!/bin/sh\nd="$1"; shift\nmount --bind "$d" "$d" && mount -o remount,bind,ro "$d" && exec "$@"\n'
        )
        script.chmod(0o755)
        prefix: tuple = ("unshare", "-m", str(script), str(folder))
    else:
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        prefix = ()
    outcomes = {}
    for args in (
        ["leaderboard", "--run", "l"],
        ["verify", "--run", "l"],
        ["ledger", "--run", "l"],
        ["audit", "--run", "l"],
        ["cost", "--run", "l"],
        ["report", "--run", "l", "--out", str(work / "ro-report")],
    ):
        outcomes[args[0]] = grader(url, *args, prefix=prefix).returncode
    wrote = grader(url, *grade_args(season, panel, "l2"), prefix=prefix)
    print(f"read-only database: reads {outcomes}; a write: exit {wrote.returncode}: {wrote.stderr.strip()[:120]}")
    check(all(code == 0 for code in outcomes.values()), f"read-only: a read failed: {outcomes}")
    check(wrote.returncode == 8, f"read-only: a write gave exit {wrote.returncode}, not 8")
    if not prefix:
        folder.chmod(0o755)


def hostile_retry_after(season: Path, work: Path, latency: float) -> None:
    panel = work / "hostile.yaml"
    failures = (
        ", failures: {mock-openai: [rate-limited:3600], mock-anthropic: [rate-limited:3600], "
        "mock-xai: [rate-limited:3600]}"
    )
    panel.write_text(PANEL.format(latency=latency, failures=failures, limit=4))
    url = f"sqlite:///{work / 'hostile.db'}"
    started = time.perf_counter()
    done = grader(url, *grade_args(season, panel, "h"))
    took = time.perf_counter() - started
    print(f"Retry-After 3600 on every first attempt, max_delay_s 0.5: exit {done.returncode} in {took:.1f} s")
    check(done.returncode == 0 and took < 120, f"hostile endpoint: exit {done.returncode} after {took:.0f} s")


def echoing_endpoints(season: Path, work: Path) -> None:
    import itertools
    import uuid

    import yaml

    from grader.fakes import FakeReply, example_from_schema, fake_server

    def echo(value, key: str):  # noqa: ANN001, ANN202
        if isinstance(value, dict):
            return {k: echo(v, key) for k, v in value.items()}
        if isinstance(value, list):
            return [echo(v, key) for v in value]
        return f"echo {key} echo" if value == "fake" else value  # the free-text strings of the example grade

    folder = work / "echo"
    folder.mkdir()
    db = folder / "echo.db"
    url = f"sqlite:///{db}"
    keys = {p: f"sk-echo-{p}-{uuid.uuid4().hex}" for p in ("openai", "anthropic", "xai")}
    env = {f"GRADER_BENCH_ECHO_{p.upper()}": k for p, k in keys.items()}
    outputs: list[str] = []
    servers = {}
    try:
        for provider in keys:
            served = itertools.count()

            def script(request, served=served):  # noqa: ANN001, ANN202
                key = request.api_key or ""
                if next(served) == 0:
                    return FakeReply.malformed(f"no grade today, {key}")
                return FakeReply.ok(echo(example_from_schema(request.schema), key))

            servers[provider] = fake_server(provider, script=script).start()
        judges = [
            {
                "judge_id": f"echo-{p}",
                "provider": p,
                "model": f"echo-{p}",
                "family": p,
                "timeout_s": 30,
                "api_key_env": f"GRADER_BENCH_ECHO_{p.upper()}",
                **({"host": f.host_port} if p == "xai" else {"base_url": f.base_url}),
            }
            for p, f in servers.items()
        ]
        panel = folder / "echo-panel.yaml"
        panel.write_text(
            yaml.safe_dump(
                {
                    "name": "echo",
                    "kind": "real",
                    "retry": {"max_attempts": 3, "base_delay_s": 0.01, "max_delay_s": 0.05},
                    "judges": judges,
                }
            )
        )
        started = time.perf_counter()
        graded = grader(
            url,
            "grade",
            str(season),
            "--panel",
            str(panel),
            "--run-id",
            "e",
            "--allow-real-api-calls",
            "--quiet",
            env=env,
        )
        took = time.perf_counter() - started
        echoed = sum(1 for f in servers.values() for r in f.requests if r.api_key in keys.values())
    finally:
        for f in servers.values():
            f.stop()
    check(graded.returncode == 0, f"echo: grade exit {graded.returncode}: {graded.stderr[-300:]}")
    outputs += [graded.stdout, graded.stderr]
    for args in (
        ["report", "--run", "e", "--out", str(folder / "report")],
        ["ledger", "--run", "e", "--format", "json"],
        ["ledger", "--run", "e"],
        ["audit", "--run", "e"],
        ["verify", "--run", "e"],
        ["cost", "--run", "e"],
        ["leaderboard", "--run", "e"],
    ):
        done = grader(url, *args, env=env)
        check(done.returncode == 0, f"echo: {args[0]} exit {done.returncode}: {done.stderr[-300:]}")
        outputs += [done.stdout, done.stderr]
    files = [p for p in folder.rglob("*") if p.is_file() and p.suffix != ".yaml"]
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    leaks = [
        k
        for k in keys.values()
        if k in dump or any(k in o for o in outputs) or any(k.encode() in p.read_bytes() for p in files)
    ]
    print(
        f"echoing endpoints (OpenAI, Anthropic, xAI SDKs): {echoed} request(s) carried a key that came back in "
        f"the replies; graded in {took:.1f} s; {len(files)} file(s), {len(dump):,} characters of database and "
        f"{len(outputs)} outputs searched: {len(leaks)} key(s) found, '[redacted]' stored "
        f"{dump.count('[redacted]')} time(s)"
    )
    check(echoed > 0 and not leaks and "[redacted]" in dump, f"echo: keys leaked: {len(leaks)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--contestants", type=int, default=8)
    parser.add_argument("--campaigns", type=int, default=5)
    parser.add_argument("--latency", type=float, default=1.0, help="mock reply latency (s) of the signal campaigns")
    parser.add_argument("--room-kib", type=int, default=2048, help="tmpfs room beyond the imported database (KiB)")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--only", choices=("signals", "disk", "locked", "hostile", "echo"), action="append")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    wanted = set(args.only or ("signals", "disk", "locked", "hostile", "echo"))
    from grader.demo import build_synthetic_season

    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        work = Path(tmp)
        os.chmod(work, 0o755)
        season = work / "season"
        build_synthetic_season(season, n_contestants=args.contestants, n_days=5, seed=0)
        slow = work / "panel.yaml"  # calls long enough for signals to land among them: 2 at a time per judge
        slow.write_text(PANEL.format(latency=args.latency, failures="", limit=2))
        fast = work / "fast.yaml"
        fast.write_text(PANEL.format(latency=0.05, failures="", limit=4))
        clean = f"sqlite:///{work / 'clean.db'}"
        started = time.perf_counter()
        first = grader(clean, *grade_args(season, slow, "s"))
        took = time.perf_counter() - started
        assert first.returncode == 0, first.stderr[-2000:]
        print(
            f"season: {args.contestants} synthetic contestants x 3 mock judges = {args.contestants * 3} calls; "
            f"an uninterrupted run at {args.latency:g} s a reply takes {took:.1f} s (seed {args.seed})"
        )
        reference = scores(clean, "s")
        assert grader(clean, *grade_args(season, fast, "fast")).returncode == 0
        check(scores(clean, "fast") == reference, "the panels' latency changed the scores")
        if "signals" in wanted:
            signal_campaigns(season, slow, work, reference, args.campaigns, rng, took)
        if "disk" in wanted:
            full_disk(season, fast, work, reference, args.room_kib)
        if "locked" in wanted:
            locked_and_read_only(season, fast, work, reference)
        if "hostile" in wanted:
            hostile_retry_after(season, work, 0.05)
        if "echo" in wanted:
            echoing_endpoints(season, work)
    print(f"faults: {'all expectations held' if not problems else f'{len(problems)} problem(s)'}")
    for p in problems:
        print(f"  - {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
