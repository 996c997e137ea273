"""Open the report in Debian's headless chromium through Playwright and save a screenshot.

Skipped when /usr/bin/chromium is missing, except in CI (CI set), where it must run. The screenshot goes
to $SCREENSHOT_DIR when set (kept as an artifact), else to the test's temporary folder.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest
from audits_synthetic import inputs, panel_scores

from audits import build_report, write_report

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.browser


@pytest.fixture
def chromium() -> Path:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing (required in CI: install Debian's chromium package)")
        pytest.skip(f"{CHROMIUM} is missing")
    return CHROMIUM


def test_report_renders_in_headless_chromium(chromium: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    scores = panel_scores(bias={"judge-xai": 10.0}, repeats=2)
    main = scores[(scores["repeat"] == 0) & (scores["judge_id"] == "judge-anthropic")]
    grades = pd.DataFrame(
        {
            "item_id": main["contestant_id"],
            "annotator": "alice",
            "axis": "composite",
            "score": main["composite"].clip(0, 97) + 3,
            "created_at": datetime(2024, 4, 1, tzinfo=UTC),
        }
    )
    report = build_report(
        inputs(scores, run_type="mock", human_grades=grades),
        n_boot_rank=200,
        n_boot_alpha=100,
        n_permutations=2000,
    )
    page_path = write_report(report, tmp_path / "report")["html"]
    shots = Path(os.environ.get("SCREENSHOT_DIR", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    screenshot = shots / "audits_report.png"

    requested: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("request", lambda r: requested.append(r.url))
            page.goto(page_path.resolve().as_uri(), wait_until="load")
            assert page.title() == "Judge-agreement report: run run-0042"
            banner = page.locator(".banner")
            assert banner.is_visible()
            assert banner.inner_text() == "MOCK PANEL — scripted judges, not real LLM grades"
            widths = page.eval_on_selector_all("figure img", "imgs => imgs.map(i => i.naturalWidth)")
            assert len(widths) == 5 and all(w > 100 for w in widths)  # incl. Bland-Altman and rank intervals
            # fits 1280 px: no sideways scrolling of the page, and no table or chart wider than its column
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            overflowing = page.eval_on_selector_all(
                "main table, main figure", "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).length"
            )
            assert overflowing == 0
            assert page.locator("#self-preference table").count() == 2
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    assert all(url.startswith(("file://", "data:")) for url in requested), requested
    assert screenshot.stat().st_size > 20_000
