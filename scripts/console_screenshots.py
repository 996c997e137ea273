"""Screenshots of every console page at 1280 px, for docs/img/console/ (and for looking at the layout).

Builds a demo database in --workdir (the demo season graded by the reference baseline and by the mock panel, and a
6-item calibration set drawn from the mock run; nothing reaches a real provider: the mock judges talk to local
fakes), starts ``grader console`` on it, signs in as an annotator in Debian's chromium (Playwright) and saves one
PNG per page: the whole page, however long (the window is made as tall as the page).

Run: .venv/bin/python scripts/console_screenshots.py [--out docs/img/console] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WIDTH = 1280
MOCK, REFERENCE, CALIBRATION = "demo-mock", "demo-reference", "shots6-mock"
AUDIT_SECTIONS = ("How much the judges agree", "Self-preference", "Self-consistency")  # besides "At a glance"


def build(workdir: Path) -> tuple[str, Path, str]:
    """The demo database (built once in ``workdir``) and an annotator with a fresh token."""
    from console import AnnotatorDirectory
    from grader.calibration import build_set, grade_set
    from grader.panel import grade_season

    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "grader.db"
    url = f"sqlite:///{db}"
    if not db.exists():
        season = ROOT / "seasons" / "demo-2022q1"
        grade_season(season, rubric_name="v0.4", panel_name="reference", run_id=REFERENCE, db_url=url, progress=False)
        grade_season(season, rubric_name="v0.4", panel_name="mock", run_id=MOCK, db_url=url, progress=False)
        build_set(MOCK, 6, window=2, seed=0, set_id="shots6", out=workdir / "shots6", db_url=url)
        grade_set("shots6", db_url=url, progress=False)
    annotators = workdir / "annotators.yaml"
    token = AnnotatorDirectory(annotators).add("alice", replace=annotators.exists())
    return url, annotators, token


def _settle(page) -> None:  # noqa: ANN001
    from tests.console._browser import settle

    settle(page)
    # elements whose code the browser loads on first use show a grey placeholder until it has: wait them out
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=60_000)
    page.wait_for_timeout(700)  # charts and grids draw after the script run


def _shoot(page, out: Path, name: str) -> None:  # noqa: ANN001
    """The whole page: the window made as tall as the main area's content, then a screenshot."""
    height = 0
    for _ in range(4):  # a taller window can lay the page out again (grids, charts): until the height holds
        now = page.evaluate(
            "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
            " return Math.max(m ? m.scrollHeight : 0, document.body.scrollHeight); }"
        )
        if now <= height:
            break
        height = now
        page.set_viewport_size({"width": WIDTH, "height": min(max(int(height) + 60, 800), 12000)})
        _settle(page)
    path = out / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    from PIL import Image  # matplotlib's dependency: a 256-colour palette keeps the committed files small

    Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)
    page.set_viewport_size({"width": WIDTH, "height": 900})
    print(f"{path} ({height} px tall)")


def _open(page, base: str, path: str, heading: str) -> None:  # noqa: ANN001
    page.goto(f"{base}/{path}", wait_until="domcontentloaded")
    page.get_by_role("heading", name=re.compile(heading)).first.wait_for(timeout=120_000)
    _settle(page)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "console")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "grader-console-shots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    url, annotators, token = build(args.workdir)
    os.environ["GRADER_DATABASE_URL"] = url

    from playwright.sync_api import sync_playwright

    from tests.console._browser import console_process, launch

    with console_process(url, annotators, args.workdir) as base, sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": 900})
            _open(page, base, f"?run={MOCK}", "Leaderboard")
            page.get_by_label("Annotator").fill("alice")
            page.get_by_label("Token").fill(token)
            page.get_by_role("button", name="Sign in").click()
            page.get_by_text("Signed in as").wait_for(timeout=60_000)
            _settle(page)
            _shoot(page, args.out, "leaderboard")
            _open(page, base, f"contestant?run={MOCK}", "Contestant")
            _shoot(page, args.out, "contestant")
            _open(page, base, f"ledger?run={MOCK}&per=10", "Ledger review")
            _shoot(page, args.out, "ledger-review")
            _open(page, base, f"runs?run={MOCK}", "Runs")
            _shoot(page, args.out, "runs")
            _open(page, base, f"audits?run={MOCK}", "Audits")
            # the report is built in the background; then one section at a time
            page.get_by_role("radiogroup", name="Section").wait_for(timeout=600_000)
            # the whole report, not its first version (shown while its charts are drawn)
            page.wait_for_function("() => !document.body.innerText.includes('charts are being drawn')", timeout=600_000)
            _settle(page)
            _shoot(page, args.out, "audits")
            for section in AUDIT_SECTIONS:
                page.get_by_role("radiogroup", name="Section").get_by_text(section, exact=True).click()
                _settle(page)
                _shoot(page, args.out, "audits-" + section.lower().replace(" ", "-").strip("?"))
            # a calibration run, blind: the annotator has graded none of its items yet
            _open(page, base, f"?run={CALIBRATION}", "Leaderboard")
            _shoot(page, args.out, "leaderboard-calibration-blind")
            _open(page, base, f"calibration?run={CALIBRATION}&item=1", "Calibration")
            _shoot(page, args.out, "calibration")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
