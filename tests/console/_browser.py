"""Real-browser helpers: ``grader console`` on 127.0.0.1 in its own process group, and Debian's chromium
driven by Playwright (also used by ``benchmarks/bench_console_browser.py``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, seconds: float = 90) -> None:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if proc.poll() is not None:
            raise RuntimeError(f"console exited with {proc.returncode}: {proc.stdout.read()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"console not healthy at {url} within {seconds} s")


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def stop_group(proc: subprocess.Popen) -> None:
    """Stop the console and everything it started (its own process group): TERM, then KILL after 20 s."""
    pgid = proc.pid  # start_new_session: the console leads its own group
    for sig, grace in ((signal.SIGTERM, 20.0), (signal.SIGKILL, 10.0)):
        if not _group_alive(pgid):
            break
        os.killpg(pgid, sig)
        deadline = time.monotonic() + grace
        while _group_alive(pgid) and time.monotonic() < deadline:
            if proc.poll() is None:
                try:
                    proc.wait(timeout=0.2)
                except subprocess.TimeoutExpired:
                    pass
            else:
                time.sleep(0.2)
    proc.wait(timeout=10)


@contextmanager
def console_process(db_url: str, annotators: Path, cwd: Path):
    """``grader console --port N`` with this database and annotators file; yields its base URL."""
    port = free_port()
    grader = Path(sys.executable).parent / "grader"
    cmd = (
        [str(grader), "console", "--port", str(port)]
        if grader.exists()
        else [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(REPO / "console" / "app.py"),
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(port),
            "--server.headless",
            "true",
        ]
    )
    env = {
        **os.environ,
        "GRADER_DATABASE_URL": db_url,
        "GRADER_ANNOTATORS_FILE": str(annotators),
        "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
        # this checkout's code, not the one the virtualenv's editable install points to (another worktree's)
        "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p),
    }
    proc = subprocess.Popen(
        cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url
    finally:
        stop_group(proc)


_IDLE = (
    "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
    " || getComputedStyle(document.querySelector('[data-testid=\"stStatusWidget\"]')).visibility === 'hidden'"
)
_PROGRESSIVE = "() => !document.body.innerText.includes('are being computed from the season bundle')"
"""The leaderboard's caption while its process and risk columns are computed (its table reruns once they are)."""


def settle(page, timeout_ms: int = 60_000) -> None:  # noqa: ANN001
    """Wait until Streamlit has finished the current script run (its status widget is gone) and no part of the page
    is still being filled in (the leaderboard's table reruns once its process and risk columns are computed)."""
    page.wait_for_timeout(300)
    page.wait_for_function(_IDLE, timeout=timeout_ms)
    page.wait_for_function(_PROGRESSIVE, timeout=timeout_ms)
    page.wait_for_timeout(300)
    page.wait_for_function(_IDLE, timeout=timeout_ms)
    page.wait_for_timeout(500)


def launch(playwright):  # noqa: ANN001, ANN201
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: install it with `apt-get install chromium` (make browser)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
