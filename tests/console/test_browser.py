"""A real browser (Playwright driving Debian's chromium) against ``grader console`` on 127.0.0.1:
sign in, grade blind, see the reveal, and save a screenshot."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import select

from grader.storage import HumanGradeRow, session_scope

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, seconds: float = 90) -> None:
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


@pytest.fixture
def console_server(console_env, tmp_path):
    """``grader console --port N`` on 127.0.0.1 with the test database and annotators."""
    port = _free_port()
    grader = Path(sys.executable).parent / "grader"
    cmd = [str(grader), "console", "--port", str(port)] if grader.exists() else [
        sys.executable, "-m", "streamlit", "run", str(Path(__file__).resolve().parents[2] / "console" / "app.py"),
        "--server.address", "127.0.0.1", "--server.port", str(port), "--server.headless", "true"]
    env = {**os.environ, "GRADER_DATABASE_URL": console_env.db_url,
           "GRADER_ANNOTATORS_FILE": str(console_env.annotators), "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url
    finally:
        _stop_group(proc)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def _stop_group(proc: subprocess.Popen) -> None:
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


def _settle(page) -> None:  # noqa: ANN001
    """Wait until Streamlit has finished the current script run (its status widget is gone)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || getComputedStyle(document.querySelector('[data-testid=\"stStatusWidget\"]')).visibility === 'hidden'",
        timeout=60_000,
    )
    page.wait_for_timeout(500)


def test_browser_sign_in_grade_and_reveal(console_env, console_server, tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install it with `apt-get install chromium` (make browser)")
    from playwright.sync_api import expect, sync_playwright

    shot = tmp_path / "console-calibration-reveal.png"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(console_server, wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=60_000)
            expect(page.get_by_text("MOCK PANEL").first).to_be_visible(timeout=60_000)
            _settle(page)

            page.get_by_label("Annotator").fill("alice")
            page.get_by_label("Token").fill(console_env.tokens["alice"])
            page.get_by_role("button", name="Sign in").click()
            expect(page.get_by_text("Signed in as")).to_be_visible(timeout=30_000)
            _settle(page)

            page.get_by_role("link", name="Calibration").click()
            submit = page.get_by_role("button", name="Submit grade and reveal the judges")
            expect(submit).to_be_visible(timeout=30_000)
            expect(page.get_by_text("Decision record of").first).to_be_visible()
            assert page.get_by_text("judge-openai").count() == 0  # blind until submitted
            page.get_by_label("Comment").fill("Browser test: coherent theses, weak sourcing.")
            submit.click()
            expect(page.get_by_text("Revealed: the judges' grades")).to_be_visible(timeout=60_000)
            _settle(page)
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()

    assert shot.stat().st_size > 10_000
    keep = os.environ.get("GRADER_SCREENSHOT_DIR")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
    with session_scope(console_env.db_url) as s:
        rows = s.scalars(select(HumanGradeRow)).all()
        assert [(r.annotator, r.comment) for r in rows] == [
            ("alice", "Browser test: coherent theses, weak sourcing.")]
