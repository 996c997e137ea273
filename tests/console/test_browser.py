"""A real browser (Playwright driving Debian's chromium) against ``grader console`` on 127.0.0.1:
sign in, grade blind, see the reveal, and save a screenshot."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from sqlalchemy import select

from grader.storage import HumanGradeRow, session_scope
from tests.console._browser import CHROMIUM, CHROMIUM_ARGS, console_process, settle

pytestmark = pytest.mark.browser


@pytest.fixture
def console_server(console_env, tmp_path):
    """``grader console --port N`` on 127.0.0.1 with the test database and annotators."""
    with console_process(console_env.db_url, console_env.annotators, tmp_path) as url:
        yield url


AXIS_LABELS = {
    "reasoning": "Reasoning quality (0–100)",
    "evidence": "Evidence grounding (0–100)",
    "data_reliability": "Data reliability (0–100)",
    "outcome": "Outcome (0–100)",
}


def grade_in_browser(page, values: dict[str, int], comment: str) -> None:  # noqa: ANN001
    """Fill the calibration form's axes and comment (typing, then Tab, as a person does)."""
    for axis, value in values.items():
        box = page.get_by_label(AXIS_LABELS[axis], exact=True)
        box.fill(str(value))
        box.press("Tab")
    page.get_by_label("Comment (plain text)").fill(comment)


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
            settle(page)

            page.get_by_label("Annotator").fill("alice")
            page.get_by_label("Token").fill(console_env.tokens["alice"])
            page.get_by_label("Token").press("Enter")  # Enter submits the sign-in form
            expect(page.get_by_text("Signed in as")).to_be_visible(timeout=30_000)
            settle(page)

            page.get_by_role("link", name="Calibration").click()
            submit = page.get_by_role("button", name=re.compile(r"Submit grade of Item \d+ and reveal the judges"))
            expect(submit).to_be_visible(timeout=30_000)
            expect(page.get_by_text("Decision record of").first).to_be_visible()
            assert page.get_by_text("judge-openai").count() == 0  # blind until submitted
            submit.click()  # an untouched form is not a grade
            expect(page.get_by_text("reasoning: a score 0-100 is required")).to_be_visible(timeout=30_000)
            settle(page)
            grade_in_browser(
                page,
                {"reasoning": 62, "evidence": 48, "data_reliability": 55},
                "Browser test: coherent theses, weak sourcing.",
            )
            submit.click()
            expect(page.get_by_text("Revealed: the judges' grades")).to_be_visible(timeout=60_000)
            settle(page)
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()

    assert shot.stat().st_size > 10_000
    keep = os.environ.get("GRADER_SCREENSHOT_DIR")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
    with session_scope(console_env.db_url) as s:
        rows = s.scalars(select(HumanGradeRow)).all()
        assert [(r.annotator, r.reasoning, r.evidence, r.comment) for r in rows] == [
            ("alice", 62, 48, "Browser test: coherent theses, weak sourcing.")
        ]
