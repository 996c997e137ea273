"""An annotator's session in a real browser (Playwright, Debian's chromium, 1280 px) on a calibration run: the
first visit opens on the latest scored run (not a newer dry run), the run picker sits above the sign-in box, no page
shows an ungraded item's author or judge score, notes are plain text, an over-long note is refused with a message,
and Back returns to the previous view the first time (the ledger's page number does not flip back)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from grader.storage import LedgerAnnotationRow, session_scope
from tests.console._browser import console_process, launch, settle
from tests.console.test_blind_calibration import RUN, _authors, _grade
from tests.console.test_browser_state import _sign_in_with_tab

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
SHOTS = os.environ.get("GRADER_CONSOLE_SHOTS")  # a folder: keep the 1280 px screenshots there for review


def _query(page) -> dict[str, str]:  # noqa: ANN001
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def _shot(page, name: str) -> None:  # noqa: ANN001
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def annotator_db(tmp_path, annotators, monkeypatch):
    from grader.calibration import build_set, grade_set
    from grader.panel import grade_season

    url = f"sqlite:///{tmp_path / 'grader.db'}"
    grade_season(
        ROOT / "seasons" / "demo-2022q1",
        rubric_name="v0.4",
        panel_name="reference",
        run_id="src",
        db_url=url,
        progress=False,
    )
    made = build_set("src", 6, window=2, seed=2, set_id="set6", out=tmp_path / "set6", db_url=url)
    grade_set("set6", db_url=url, progress=False)
    for k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "XAI_API_KEY"):
        monkeypatch.delenv(k, raising=False)
    grade_season(
        ROOT / "seasons" / "demo-2022q1",
        rubric_name="v0.4",
        panel_name="frontier",
        run_id="a-dry-run",
        db_url=url,
        progress=False,
    )  # the newest run: a dry run, no scored version
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    return url, annotators, made


def _body(page) -> str:  # noqa: ANN001
    return page.get_by_test_id("stMain").inner_text()


def _go(page, name: str) -> None:  # noqa: ANN001
    """Open a page with the sidebar's link, as a person does."""
    page.get_by_role("region", name="Sidebar").get_by_role("link", name=name, exact=True).click()
    page.get_by_role("heading", name=re.compile(name)).first.wait_for(timeout=60_000)
    settle(page)


def test_an_annotator_session_on_a_calibration_run(annotator_db, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    url_db, annotators, made = annotator_db
    path, tokens = annotators
    words = {w for pair in _authors(made).values() for w in pair}
    with console_process(url_db, path, tmp_path) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{url}/", wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=60_000)
            settle(page)
            sidebar = page.get_by_role("region", name="Sidebar")
            assert f'combobox "Run": {RUN} ·' in sidebar.aria_snapshot()  # the latest scored run, not the dry run
            assert "no scored version" not in _body(page)
            run_box = sidebar.get_by_label("Run").bounding_box()
            assert run_box["y"] < sidebar.get_by_label("Annotator").bounding_box()["y"]  # picker above sign-in
            _sign_in_with_tab(page, "alice", tokens["alice"])
            expect(page.get_by_text("Signed in as")).to_be_visible(timeout=30_000)
            settle(page)

            # blind: no page shows an ungraded item's author, model or judge score (read once the signed-in rerun
            # has drawn the calibration run's blind page: on a loaded machine the rerun outlasts settle())
            expect(page.get_by_text("Blind calibration").first).to_be_visible(timeout=60_000)
            settle(page)
            _shot(page, "leaderboard-blind")
            assert not [w for w in words if w in _body(page)]
            assert "Blind calibration" in _body(page)
            for name in ("Contestant", "Ledger review", "Calibration", "Audits", "Runs"):
                _go(page, name)
                _shot(page, f"{name.lower().replace(' ', '-')}-blind")
                assert not [w for w in words if w in _body(page)], name

            # Back returns to the previous view, the first time (the run and contestant named in the URL)
            page.goto(f"{url}/?run={RUN}", wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=60_000)
            settle(page)
            _go(page, "Contestant")
            page.get_by_role("combobox", name="Contestant").click()
            page.get_by_role("option", name=re.compile("Item 02")).click()
            settle(page)
            assert _query(page) == {"run": RUN, "contestant": "item-02"}
            _go(page, "Ledger review")
            page.go_back()
            settle(page)
            expect(page.get_by_role("heading", name="Contestant")).to_be_visible(timeout=30_000)
            assert _query(page) == {"run": RUN, "contestant": "item-02"}
            page.go_back()
            settle(page)
            page.wait_for_timeout(1500)
            assert _query(page) == {"run": RUN}  # the contestant page before the pick (its default: no parameter)
            page.go_back()
            settle(page)
            page.wait_for_timeout(1500)
            expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()  # and stays there

            # after grading item 3, its author and judges are shown
            _grade(url_db, annotators, "alice", 3)
            page.goto(f"{url}/contestant?run={RUN}&contestant=item-03", wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Contestant")).to_be_visible(timeout=60_000)
            settle(page)
            assert _authors(made)[3][1] in _body(page)

            # the contestant page links to its own ledger
            page.get_by_role("link", name=re.compile("Ledger review of .*'s claims")).click()
            expect(page.get_by_role("heading", name="Ledger review")).to_be_visible(timeout=60_000)
            settle(page)
            assert _query(page).get("who") == "item-03"
            assert page.get_by_text(re.compile(r"^\d+ claims match")).first.inner_text() != "0 claims match"

            # notes are plain text; an over-long note is refused with a message and nothing stored
            page.goto(f"{url}/ledger?run=src&per=10", wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Ledger review")).to_be_visible(timeout=60_000)
            settle(page)
            note = "see https://example.com/x and write to someone@example.com"
            field = page.get_by_role("textbox", name="Note").first
            field.fill(note)
            expect(field).to_have_value(note)  # the field holds it before the form is sent (no re-render in between)
            page.get_by_role("button", name="Record").first.click()
            expect(page.get_by_text("Recorded.")).to_be_visible(timeout=30_000)
            settle(page)
            with session_scope(url_db) as s:
                assert [a.note for a in s.query(LedgerAnnotationRow)] == [note]  # stored exactly as typed
            expect(page.get_by_text(note, exact=False).first).to_be_visible(timeout=30_000)
            assert page.locator("[data-testid=stMain] a[href*='example.com']").count() == 0
            assert page.locator("[data-testid=stMain] a[href^='mailto:']").count() == 0
            page.get_by_role("textbox", name="Note").first.fill("x" * 6000)  # a paste over the limit stays in the field
            page.get_by_role("button", name="Record").first.click()
            expect(page.get_by_text(re.compile("6,000 characters, longer than the limit of 5,000"))).to_be_visible(
                timeout=30_000
            )
            with session_scope(url_db) as s:
                notes = [a.note for a in s.query(LedgerAnnotationRow)]
            assert notes == [note]
            _shot(page, "ledger-notes")

            # the ledger's page number: Back returns to page 1 and stays there
            box = page.get_by_label("Page", exact=True)
            box.fill("2")
            box.press("Enter")
            settle(page)
            assert _query(page).get("page") == "2"
            page.go_back()
            settle(page)
            page.wait_for_timeout(1500)
            assert _query(page).get("page") is None
            expect(page.get_by_text(re.compile(r"page 1 of \d+")).first).to_be_visible()
        finally:
            browser.close()
