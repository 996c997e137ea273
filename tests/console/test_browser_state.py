"""Real browser (Playwright, Debian's chromium) against ``grader console``: Tab-then-click sign-in, links that
keep the run, reloads that keep the page, and two annotators re-grading one item at once on PostgreSQL, each
grade landing on that item."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from sqlalchemy import select

from console import build_synthetic_run, calibration_items
from grader.storage import HumanGradeRow, session_scope
from tests.console._browser import console_process, launch, settle
from tests.console._helpers import make_env
from tests.console.test_browser import grade_in_browser

pytestmark = pytest.mark.browser


def _query(page) -> dict[str, str]:  # noqa: ANN001
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def _sign_in_with_tab(page, name: str, token: str) -> None:  # noqa: ANN001
    """Type the name, Tab, type the token, Tab out of it, then click the button (the failing path before)."""
    page.get_by_label("Annotator").click()
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    page.keyboard.type(token)
    page.keyboard.press("Tab")
    page.get_by_role("button", name="Sign in").click()


def _session_cookie(page, other_than: str = "", timeout_s: float = 30.0) -> dict:  # noqa: ANN001
    """The ``grader_session`` cookie (one whose value is not ``other_than``), once the sign-in's script has written
    it: the script runs in a component frame after the page shows "Signed in as", so under load it lands later."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        found = [c for c in page.context.cookies() if c["name"] == "grader_session" and c["value"] != other_than]
        if found:
            return dict(found[0])
        if time.monotonic() > deadline:
            raise AssertionError(f"no grader_session cookie {timeout_s:.0f} s after the sign-in")
        page.wait_for_timeout(250)


def test_tab_then_click_sign_in_works(console_env, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    with console_process(console_env.db_url, console_env.annotators, tmp_path) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url, wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=60_000)
            settle(page)
            _sign_in_with_tab(page, "alice", console_env.tokens["alice"])
            expect(page.get_by_text("Signed in as")).to_be_visible(timeout=30_000)
            assert page.get_by_text("unknown annotator or wrong token").count() == 0
        finally:
            browser.close()


def test_a_reload_keeps_the_sign_in_until_sign_out_or_revocation(console_env, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from console import AnnotatorDirectory

    with console_process(console_env.db_url, console_env.annotators, tmp_path) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{url}/calibration?run={console_env.run_id}", wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name=re.compile("Calibration"))).to_be_visible(timeout=60_000)
            settle(page)
            _sign_in_with_tab(page, "alice", console_env.tokens["alice"])
            expect(page.get_by_text("Signed in as")).to_be_visible(timeout=30_000)
            settle(page)
            cookie = _session_cookie(page)
            assert console_env.tokens["alice"] not in cookie["value"] and len(cookie["value"]) >= 40
            page.reload(wait_until="domcontentloaded")
            expect(page.get_by_text("Signed in as")).to_be_visible(timeout=60_000)
            expect(page.get_by_role("button", name=re.compile(r"Submit grade of Item"))).to_be_visible()
            settle(page)
            page.get_by_role("button", name="Sign out").click()
            expect(page.get_by_label("Annotator")).to_be_visible(timeout=30_000)
            settle(page)
            page.reload(wait_until="domcontentloaded")
            expect(page.get_by_label("Annotator")).to_be_visible(timeout=60_000)
            settle(page)
            assert page.get_by_text("Signed in as").count() == 0

            _sign_in_with_tab(page, "alice", console_env.tokens["alice"])  # again, then revoked
            expect(page.get_by_text("Signed in as")).to_be_visible(timeout=30_000)
            settle(page)
            _session_cookie(page, other_than=cookie["value"])
            AnnotatorDirectory(console_env.annotators).remove("alice")
            page.reload(wait_until="domcontentloaded")
            expect(page.get_by_text("no longer configured")).to_be_visible(timeout=60_000)
            assert page.get_by_text("Signed in as").count() == 0
        finally:
            browser.close()


def test_links_keep_the_run_and_a_reload_keeps_the_page(console_env, tmp_path):
    from playwright.sync_api import expect, sync_playwright

    # a newer run: a page that loses the run would show this one
    build_synthetic_run(console_env.bundle, "newer-run", db_url=console_env.db_url, claims_per_grade=2, seed=4)
    run = console_env.run_id
    with console_process(console_env.db_url, console_env.annotators, tmp_path) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{url}/?run={run}", wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible(timeout=60_000)
            settle(page)
            expect(page.get_by_text(re.compile(rf"^Run {run} \(mock")).first).to_be_visible()

            # "Open contestant page" keeps the run and names the contestant in the URL
            page.get_by_label("Open a contestant").click()
            page.get_by_role("option", name=re.compile(r"Model Two")).click()
            page.get_by_role("button", name="Open contestant page").click()
            expect(page.get_by_role("heading", name="Contestant")).to_be_visible(timeout=30_000)
            settle(page)
            assert "/contestant" in page.url and _query(page) == {"run": run, "contestant": "m2"}
            expect(page.get_by_text("Model Two · anthropic").first).to_be_visible()

            # a reload keeps the page, the run and the contestant
            page.reload(wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Contestant")).to_be_visible(timeout=60_000)
            settle(page)
            expect(page.get_by_text("Model Two · anthropic").first).to_be_visible()
            assert _query(page) == {"run": run, "contestant": "m2"}
            assert f'combobox "Run": {run} · mock' in page.get_by_role("region", name="Sidebar").aria_snapshot()

            # a ledger filter survives a reload too, and a claim link opens that claim
            page.goto(f"{url}/ledger?run={run}&verifier=contradicted", wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Ledger review")).to_be_visible(timeout=60_000)
            settle(page)
            matching = page.get_by_text(re.compile(r"^\d+ claims match")).first.inner_text()
            page.reload(wait_until="domcontentloaded")
            settle(page)
            assert page.get_by_text(re.compile(r"^\d+ claims match")).first.inner_text() == matching
            assert _query(page)["verifier"] == "contradicted"
            link = page.get_by_role("link", name="link", exact=True).first.get_attribute("href")
            claim = parse_qs(urlparse(link).query)["claim"][0]
            page.goto(f"{url}/ledger?run={run}&claim={claim}", wait_until="domcontentloaded")
            settle(page)
            expect(page.get_by_text(f"Showing claim {claim} only")).to_be_visible(timeout=30_000)
            expect(page.get_by_text("1 claims match")).to_be_visible()
        finally:
            browser.close()


@pytest.mark.postgres
@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_two_annotators_regrading_one_item_at_once_each_land_on_that_item(db_url, tmp_path, annotators, monkeypatch):
    """Both annotators open item N, grade it, then re-grade it three times at the same moment (their grades
    change the item's label and queue under each other): every one of the 8 grades is stored on item N."""
    from playwright.sync_api import expect, sync_playwright

    env = make_env(db_url, tmp_path, annotators, monkeypatch)
    items = calibration_items(env.run_id, db_url)
    target = items[-1]  # not the first of anyone's queue
    with console_process(db_url, env.annotators, tmp_path) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            pages = {}
            for name in ("alice", "bob"):
                page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
                page.goto(f"{url}/calibration?run={env.run_id}&item={target.number}", wait_until="domcontentloaded")
                expect(page.get_by_role("heading", name=re.compile("Calibration"))).to_be_visible(timeout=60_000)
                settle(page)
                _sign_in_with_tab(page, name, env.tokens[name])
                expect(page.get_by_text("Signed in as")).to_be_visible(timeout=30_000)
                settle(page)
                pages[name] = page

            for round_no in range(4):
                for name, page in pages.items():
                    if round_no:
                        page.get_by_role("button", name=re.compile(f"Grade {target.alias} again")).click()
                        settle(page)
                    expect(page.get_by_text(f"Your grade of {target.alias}")).to_be_visible(timeout=30_000)
                    grade_in_browser(
                        page,
                        {"reasoning": 40 + round_no, "evidence": 50 + round_no, "data_reliability": 50},
                        f"{name} round {round_no}",
                    )
                # both submit without waiting for each other: the two script runs overlap on the server
                for page in pages.values():
                    page.get_by_role("button", name=f"Submit grade of {target.alias} and reveal the judges").click()
                for page in pages.values():
                    expect(page.get_by_text(f"Revealed: the judges' grades of {target.alias}")).to_be_visible(
                        timeout=60_000
                    )
                    settle(page)
                    assert _query(page)["item"] == str(target.number)
        finally:
            browser.close()
    with session_scope(db_url) as s:
        rows = s.scalars(select(HumanGradeRow).order_by(HumanGradeRow.id)).all()
    assert len(rows) == 8
    assert {r.contestant_id for r in rows} == {target.contestant_row_id}
    assert sorted((r.annotator, r.comment) for r in rows) == sorted(
        (name, f"{name} round {n}") for name in ("alice", "bob") for n in range(4)
    )


def test_the_leaderboard_fills_its_process_cells_without_closing_an_open_menu(tmp_path, annotators, monkeypatch):
    """The process and risk cells (computed in the background: seconds on a 40 x 250 season) arrive in the table's
    fragment alone: a menu opened meanwhile elsewhere on the page stays open, and the table stops rerunning once
    filled. (The menu is below the table, reached by scrolling the page to its bottom: a fragment that got shorter
    when filled scrolled the page up, and a scroll closes the menu.)"""
    import time

    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    from grader.demo import build_synthetic_season

    db_url = f"sqlite:///{tmp_path / 'big.db'}"
    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=40, n_days=250, seed=1)
    build_synthetic_run(season, "big-run", db_url=db_url, claims_per_grade=1)
    hold = tmp_path / "hold-warmup"  # the background warm-up waits until the menu is open (console._worker)
    hold.touch()
    monkeypatch.setenv("GRADER_CONSOLE_HOLD_WARMUP", str(hold))
    with console_process(db_url, annotators[0], tmp_path) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            sent: list[float] = []
            page.on("websocket", lambda ws: ws.on("framesent", lambda _: sent.append(time.monotonic())))
            page.goto(f"{url}/?run=big-run", wait_until="domcontentloaded")
            waiting = page.get_by_text("are being computed from the season bundle")
            waiting.wait_for(timeout=60_000)
            page.get_by_text("Process and risk", exact=True).click()  # the column group: reruns the table alone
            options = page.get_by_role("option")
            for _ in range(6):  # a click that lands while the table's fragment redraws is lost on a loaded machine
                page.get_by_role("combobox", name="Open a contestant").click()
                try:
                    options.first.wait_for(timeout=5_000)
                    break
                except PlaywrightTimeout:
                    page.keyboard.press("Escape")
            options.first.wait_for(timeout=5_000)
            assert waiting.count(), "the cells were filled before the menu was opened: nothing was tested"
            hold.unlink()  # now let the warm-up run
            waiting.wait_for(state="detached", timeout=180_000)
            page.wait_for_timeout(1500)
            assert options.count() > 0, "the menu closed when the process cells arrived"
            assert page.locator('[data-testid="stException"]').count() == 0
            page.wait_for_timeout(500)
            before = len(sent)
            page.wait_for_timeout(3500)
            assert len(sent) == before, "the filled table still reruns every second"
        finally:
            browser.close()
