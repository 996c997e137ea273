"""``grader verify`` has no blind spot (issue 31): every scored version (not only the first) and its contestant
scores, human calibration grades, ledger annotations and calibration sets are hashed when written; an edit or a
deletion of any of them, on a copy of the database, is named by the run's version number and the contestant (or
the annotator), never by a database id alone. Databases made before the hashes were kept still verify."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import delete, select, update

from grader.panel import grade_season, verify_run
from grader.panel.rescore import rescore_run
from grader.storage import (
    CalibrationSetRow,
    ContestantRow,
    ContestantScoreRow,
    HumanGradeRow,
    LedgerAnnotationRow,
    ScoreVersionRow,
    session_scope,
)
from tests.panel.conftest import two_family_bundle

RUN = "v"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A reference-panel run of the two-contestant season, re-scored (version 2), with a human grade, an
    annotation and a calibration set: one of every kind of row written after the manifest."""
    from console import (
        AnnotatorDirectory,
        HumanGradeInput,
        ledger_page,
        record_human_grade,
        record_ledger_annotation,
    )
    from grader.calibration import build_set

    tmp = tmp_path_factory.mktemp("verify-rows")
    season = two_family_bundle(tmp / "season")
    db = tmp / "base.db"
    url = f"sqlite:///{db}"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id=RUN, db_url=url, progress=False)
    assert rescore_run(RUN, "rubric/examples/v0.4-evidence-heavy.yaml", db_url=url).version == 2
    directory = AnnotatorDirectory(tmp / "annotators.yaml")
    token = directory.add("alice")
    who = directory.sign_in("alice", token)
    with session_scope(url) as s:
        m2 = s.scalar(select(ContestantRow.id).where(ContestantRow.contestant_key == "m2"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRADER_ANNOTATORS_FILE", str(directory.path))
        record_human_grade(who, RUN, m2, HumanGradeInput(reasoning=70, evidence=60), url)
        entry = ledger_page(RUN, None, 1, 1, url).entries[0]
        record_ledger_annotation(who, entry.id, "contradicted", "wrong close", url)
    build_set(RUN, 2, window=1, seed=1, set_id="cal", out=tmp / "cal", db_url=url)
    return db


@pytest.fixture
def copy(graded, tmp_path) -> str:
    path = tmp_path / "copy.db"
    src, dst = sqlite3.connect(graded), sqlite3.connect(path)  # the WAL's pages too, not only the main file
    src.backup(dst)
    src.close()
    dst.close()
    return f"sqlite:///{path}"


def _m(url: str, key: str) -> int:
    with session_scope(url) as s:
        return s.scalar(select(ContestantRow.id).where(ContestantRow.contestant_key == key))


def _version(url: str, number: int) -> int:
    with session_scope(url) as s:
        return s.scalar(
            select(ScoreVersionRow.id).where(ScoreVersionRow.run_id == RUN, ScoreVersionRow.number == number)
        )


def test_the_untouched_run_verifies_and_every_kind_is_checked(copy):
    result = verify_run(RUN, db_url=copy)
    assert result.ok, result.problems
    with session_scope(copy) as s:
        from grader.storage import RowHashRow

        kinds = {k for (k,) in s.execute(select(RowHashRow.kind).where(RowHashRow.run_id == RUN))}
    assert kinds == {"score_version", "contestant_score", "human_grade", "ledger_annotation", "calibration_set"}


def _edit(url: str, what: str) -> None:
    m1 = _m(url, "m1")
    with session_scope(url) as s:
        if what in ("score v2", "score v1"):
            v = _version(url, 2 if what == "score v2" else 1)
            s.execute(
                update(ContestantScoreRow)
                .where(ContestantScoreRow.version_id == v, ContestantScoreRow.contestant_id == m1)
                .values(total=ContestantScoreRow.total + 7, rank=1)
            )
        elif what == "outcome v2":
            v = _version(url, 2)
            row = s.scalar(
                select(ContestantScoreRow).where(
                    ContestantScoreRow.version_id == v, ContestantScoreRow.contestant_id == m1
                )
            )
            row.outcome = {**row.outcome, "return_pct": 99.0}
        elif what == "delete score v2":
            s.execute(
                delete(ContestantScoreRow).where(
                    ContestantScoreRow.version_id == _version(url, 2), ContestantScoreRow.contestant_id == m1
                )
            )
        elif what == "version v2":
            s.execute(update(ScoreVersionRow).where(ScoreVersionRow.id == _version(url, 2)).values(note="edited"))
        elif what == "human grade":
            s.execute(update(HumanGradeRow).values(reasoning=90))
        elif what == "delete human grade":
            s.execute(delete(HumanGradeRow))
        elif what == "human grade added raw":
            h = s.scalar(select(HumanGradeRow))
            s.add(
                HumanGradeRow(
                    run_id=RUN,
                    contestant_id=m1,
                    annotator="mallory",
                    rubric_id=h.rubric_id,
                    rubric_hash=h.rubric_hash,
                    reasoning=1,
                    evidence=1,
                    sub_scores={},
                    comment="",
                )
            )
        elif what == "annotation":
            s.execute(update(LedgerAnnotationRow).values(status="supported"))
        elif what == "delete annotation":
            s.execute(delete(LedgerAnnotationRow))
        elif what == "calibration set":
            s.execute(update(CalibrationSetRow).values(seed=99))
        elif what == "delete calibration set":
            s.execute(delete(CalibrationSetRow))


EXPECTED = {
    "score v2": "scored version 2, contestant m1: changed",
    "outcome v2": "scored version 2, contestant m1: changed",
    "delete score v2": "scored version 2, contestant m1: deleted",
    "score v1": "scored version 1, contestant m1: changed",
    "version v2": "scored version 2: changed",
    "human grade": "human grade of contestant m2 by alice",
    "delete human grade": "human grade of contestant m2 by alice",
    "human grade added raw": "human grade of contestant m1 by mallory",
    "annotation": "annotation by alice of claim 1",
    "delete annotation": "annotation by alice of claim 1",
    "calibration set": "calibration set cal: changed",
    "delete calibration set": "calibration set cal: deleted",
}


@pytest.mark.parametrize("what", list(EXPECTED))
def test_verify_names_each_edited_or_deleted_row(copy, what):
    _edit(copy, what)
    result = verify_run(RUN, db_url=copy)
    assert not result.ok
    assert any(EXPECTED[what] in p for p in result.problems), result.problems
    if what.startswith("delete"):
        assert any("deleted" in p for p in result.problems), result.problems
    if what == "human grade added raw":
        assert any("no hash was recorded" in p for p in result.problems), result.problems


def test_the_manifest_names_the_version_and_contestant_of_an_edited_grade(copy):
    from grader.storage import GradeRow

    with session_scope(copy) as s:
        s.execute(update(GradeRow).where(GradeRow.contestant_id == _m(copy, "m2")).values(composite=1.0))
    problems = verify_run(RUN, db_url=copy).problems
    assert any(p.startswith("grade of contestant m2 by ") for p in problems), problems
    _edit(copy, "score v1")
    problems = verify_run(RUN, db_url=copy).problems
    assert any(p.startswith("scored version 1 [row ") for p in problems), problems


def test_a_database_from_before_the_row_hashes_is_migrated_and_still_verifies(copy):
    """A database at 0009 (no row_hashes): opening it migrates and records every existing row as it stands, so
    its runs verify, and an edit after that is named."""
    path = copy.removeprefix("sqlite:///")
    con = sqlite3.connect(path)
    con.execute("DROP TABLE row_hashes")
    con.execute("UPDATE alembic_version SET version_num = '0009'")
    con.commit()
    con.close()
    result = verify_run(RUN, db_url=copy)
    assert result.ok, result.problems
    _edit(copy, "score v2")
    assert any("scored version 2, contestant m1: changed" in p for p in verify_run(RUN, db_url=copy).problems)


def test_row_hashes_hold_on_sqlite_and_postgresql(db_url, tmp_path, monkeypatch):
    """Datetimes and JSON come back from each database in its own form: the recorded hashes still match, and an
    edit of a re-scored version's score is named on both."""
    from console import AnnotatorDirectory, HumanGradeInput, record_human_grade

    season = two_family_bundle(tmp_path / "season")
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id=RUN, db_url=db_url, progress=False)
    rescore_run(RUN, "rubric/examples/v0.4-evidence-heavy.yaml", db_url=db_url)
    directory = AnnotatorDirectory(tmp_path / "annotators.yaml")
    who = directory.sign_in("alice", directory.add("alice"))
    monkeypatch.setenv("GRADER_ANNOTATORS_FILE", str(directory.path))
    record_human_grade(who, RUN, _m(db_url, "m1"), HumanGradeInput(reasoning=70, evidence=60, comment="ok"), db_url)
    assert verify_run(RUN, db_url=db_url).ok, verify_run(RUN, db_url=db_url).problems
    _edit(db_url, "score v2")
    assert any("scored version 2, contestant m1: changed" in p for p in verify_run(RUN, db_url=db_url).problems)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (
            {"run_type": "official", "official_eligible": True},
            [
                "run v: its run type 'official', the manifest says 'baseline' (the run's row edited)",
                "run v: marked official-eligible, but its latest scored version is not eligible throughout",
            ],
        ),
        (
            {"official_eligible": True},
            [
                "run v: marked official-eligible, but it is a baseline run; its latest scored "
                "version is not eligible throughout (the run's row edited)"
            ],
        ),
        ({"status": "complete_with_gaps"}, ["run v: its status 'complete_with_gaps', the manifest says 'complete'"]),
        ({"notes": ["graded by hand"]}, ["run v: its notes differs from the manifest's"]),
        ({"panel_hash": "0" * 64}, ["run v: its panel hash differs from the manifest's"]),
        (
            {"rubric_id": "grounded_financial_reasoning_judge_v0.3"},
            ["run v: its rubric 'grounded_financial_reasoning_judge_v0.3', the manifest says"],
        ),
    ],
)
def test_verify_names_an_edit_of_the_runs_own_row(copy, edit, said):
    """The run's row is what readers are told the run is: a baseline (or mock) run relabelled official passed
    verify, and so did edited notes or status. Each is checked against the manifest, and an official-eligible mark
    against the run's type, status and latest scored version."""
    from grader.storage import RunRow

    assert verify_run(RUN, db_url=copy).ok
    with session_scope(copy) as s:
        s.execute(update(RunRow).where(RunRow.id == RUN).values(**edit))
    problems = verify_run(RUN, db_url=copy).problems
    for text in said:
        assert any(text in p for p in problems), (text, problems)


def test_verify_names_an_edited_contestant_row(copy):
    """A contestant's family decides whom the self-preference audit counts as a judge's own; its name is what
    every reader sees. Both are checked against the season bundle they were imported from."""
    assert verify_run(RUN, db_url=copy).ok
    with session_scope(copy) as s:
        s.execute(update(ContestantRow).where(ContestantRow.contestant_key == "m2").values(provider_family="openai"))
        s.execute(
            update(ContestantRow)
            .where(ContestantRow.contestant_key == "m1")
            .values(display_name="Renamed", model="other")
        )
    problems = verify_run(RUN, db_url=copy).problems
    assert "contestant m2: its family differs from the season's (the contestant's row edited)" in problems
    assert "contestant m1: its name and model differ from the season's (the contestant's row edited)" in problems
