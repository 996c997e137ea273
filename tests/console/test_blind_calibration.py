"""Blind calibration, enforced in the console's read layer: on a calibration run an annotator sees neither an
item's author nor any judge's score, grade or ledger for it on any page until they have graded that item."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from grader.calibration import build_set, grade_set
from grader.panel import grade_season
from tests.console._helpers import app_test, markdown_tables, page_text, sign_in

ROOT = Path(__file__).resolve().parents[2]
RUN = "set6-reference"


@pytest.fixture(scope="module")
def calibration_db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("blind")
    url = f"sqlite:///{tmp / 'grader.db'}"
    grade_season(
        ROOT / "seasons" / "demo-2022q1",
        rubric_name="v0.4",
        panel_name="reference",
        run_id="src",
        db_url=url,
        progress=False,
    )
    made = build_set("src", 6, window=2, seed=2, set_id="set6", out=tmp / "set6", db_url=url)
    grade_set("set6", db_url=url, progress=False)
    return url, made


@pytest.fixture
def calibration_run(calibration_db, tmp_path, annotators, monkeypatch):
    import sqlite3

    url, made = calibration_db
    copy = tmp_path / "grader.db"  # each test grades its own copy (SQLite's backup: the WAL included)
    with sqlite3.connect(url.removeprefix("sqlite:///")) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{copy}")
    return f"sqlite:///{copy}", annotators, made


def _authors(made) -> dict[int, tuple[str, str]]:
    """Item number -> (source display name, model) of the contestant each item was drawn from."""
    from grader.season import load_bundle

    people = {c.id: c for c in load_bundle(ROOT / "seasons" / "demo-2022q1").contestants}
    return {
        int(i["item_id"].rsplit("-", 1)[1]): (people[i["contestant"]].display_name, people[i["contestant"]].model)
        for i in made["items"]
    }


def _grade(url, annotators, who: str, number: int) -> int:
    from console import AnnotatorDirectory, HumanGradeInput, record_human_grade
    from tests.console._helpers import item_row_id

    path, tokens = annotators
    row = item_row_id(RUN, number, url)
    record_human_grade(
        AnnotatorDirectory(path).sign_in(who, tokens[who]),
        RUN,
        row,
        HumanGradeInput(reasoning=60, evidence=55, data_reliability=50),
        url,
    )
    return row


def test_the_read_layer_hides_authors_and_judges_of_items_the_viewer_has_not_graded(calibration_run):
    from console import blinding, contestant_score, judge_grades, leaderboard, ledger_page, run_contestants

    url, annotators, made = calibration_run
    authors = _authors(made)
    models = {m for _, m in authors.values()}
    nobody = blinding(RUN, None, url)
    assert len(nobody.hidden_rows) == 6
    _, board = leaderboard(RUN, url)  # no Blind given: as for a reader who graded nothing
    assert board["total"].isna().all() and board["rank"].isna().all()
    assert set(board["model"]) <= {"hidden until you grade it"}
    assert not set(board["contestant"]) & {name for name, _ in authors.values()}
    assert all(not any(m in c for m in models) for c in board["contestant"])
    people = run_contestants(RUN, url)
    assert all(p.hidden and p.display_name.startswith("Item ") and p.model not in models for p in people)
    assert all(judge_grades(RUN, p.row_id, url) == [] and contestant_score(RUN, p.row_id, url) is None for p in people)
    assert ledger_page(RUN, page_size=200, db_url=url).total == 0

    row = _grade(url, annotators, "alice", 3)
    alice, bob = blinding(RUN, "alice", url), blinding(RUN, "bob", url)
    assert not alice.hides(row) and len(alice.hidden_rows) == 5 and bob.hides(row)
    _, board = leaderboard(RUN, url, blind=alice)
    shown = board[board["total"].notna()]
    assert len(shown) == 1 and authors[3][1] == shown["model"].iloc[0]
    assert authors[3][0] in shown["contestant"].iloc[0]
    assert judge_grades(RUN, row, url, blind=alice) and contestant_score(RUN, row, url, blind=alice) is not None
    assert judge_grades(RUN, row, url, blind=bob) == []
    page = ledger_page(RUN, page_size=200, db_url=url, blind=alice)
    assert page.total > 0 and {e.contestant_row_id for e in page.entries} == {row}
    assert page.hidden_items == 5
    with pytest.raises(ValueError, match="cannot be applied"):
        leaderboard("src", url, blind=alice)


def test_ordinary_runs_hide_nothing(calibration_run):
    from console import blinding, leaderboard

    url, _, _ = calibration_run
    assert not blinding("src", None, url).hides_any
    _, board = leaderboard("src", url)
    assert board["total"].notna().all()


PAGES = ("views/leaderboard.py", "views/contestant.py", "views/ledger.py", "views/runs.py", "views/audits.py")


def _page(name: str, tokens, item: int | None = None):
    at = app_test()
    at.query_params["run"] = RUN
    if item is not None:
        at.query_params["contestant"] = f"item-{item:02d}"
    at.query_params["a"] = at.query_params["b"] = RUN  # Runs: the calibration run on both sides (the source
    # run it was drawn from is an ordinary run, whose contestants are public and match no item)
    at.switch_page(name)
    for key in ("contestant_thrash_open", "contestant_risk_open", "contestant_timeline_open"):
        at.session_state[key] = True  # the contestant page's tables drawn on demand: opened, checked too
    sign_in(at.run(), "alice", tokens["alice"])
    for _ in range(600):  # the leaderboard's process and risk columns (computed in the background): checked filled
        if "computing…" not in _frames_text(at):
            break
        time.sleep(0.1)
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _frames_text(at) -> str:
    return "\n".join(d.value.to_string() for d in [*at.dataframe, *at.table])


def test_no_page_shows_an_ungraded_items_author_or_judge_scores(calibration_run):
    url, (_, tokens), made = calibration_run
    authors = _authors(made)
    words = {w for pair in authors.values() for w in pair}
    for name in PAGES:
        at = _page(name, tokens, item=3)
        text = page_text(at) + _frames_text(at)
        assert not [w for w in words if w in text], name
    at = _page("views/contestant.py", tokens, item=3)
    assert "hidden until you have graded it" in page_text(at)
    tables = [d.value for d in [*at.dataframe, *at.table]] + markdown_tables(at)
    assert not any("composite" in t.columns or t.columns[0] == "judge axis" for t in tables)  # no judge axes table
    at = _page("views/audits.py", tokens)
    assert "withheld until you have graded every item" in page_text(at)


def test_after_grading_an_item_its_author_and_judges_are_shown(calibration_run):
    url, annotators, made = calibration_run
    authors = _authors(made)
    _grade(url, annotators, "alice", 3)
    at = _page("views/contestant.py", annotators[1], item=3)
    assert authors[3][1] in page_text(at)
    assert any(t.columns[0] == "judge axis" and "composite" in list(t.iloc[:, 0]) for t in markdown_tables(at))
    assert any(t.columns[0] == "reasoning sub-score" for t in markdown_tables(at))
    assert any("rationale" in d.value.columns for d in at.dataframe)  # the timeline, opened
    at = _page("views/leaderboard.py", annotators[1])
    text = _frames_text(at)
    assert authors[3][1] in text
    assert not [m for n, (_, m) in authors.items() if n != 3 and m not in authors[3] and m in text]
