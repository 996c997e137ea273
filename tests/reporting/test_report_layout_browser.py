"""The report of a real mock run of the demo season, with every section a user gets (process facts, risk
evidence, both identity probes), fits a 1280-pixel window without sideways scrolling, in headless chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader.cli._app import app

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.browser


def test_demo_report_fits_1280_pixels(tmp_path, monkeypatch):
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing (required in CI)")
        pytest.skip(f"{CHROMIUM} is missing")
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'demo.db'}")
    runner = CliRunner()
    season = str(REPO / "seasons" / "demo-2022q1")
    for args in (
        ["grade", season, "--rubric", "v0.4", "--panel", "mock", "--run-id", "m", "--quiet"],
        ["probe-judges", "--run", "m", "--n", "20"],
        ["report", "--run", "m", "--out", str(tmp_path / "report")],
    ):
        out = runner.invoke(app, args)
        assert out.exit_code == 0, (args, out.output)
    page_path = tmp_path / "report" / "report.html"
    html = page_path.read_text()
    for section in (
        "Process facts",
        "Risk evidence (PortBench)",
        "Can a judge tell who wrote this?",
        "Score and rank intervals",
        "Bland-Altman per judge pair",
    ):
        assert section in html, section
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(page_path.resolve().as_uri(), wait_until="load")
            assert page.evaluate("document.documentElement.scrollWidth") <= 1280
            too_wide = page.evaluate("""() => [...document.querySelectorAll('main table, main figure')]
                .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
                .map(e => (e.closest('section') || {}).id)""")
            assert too_wide == []
        finally:
            browser.close()
