"""grader calibration import/export: grades collected elsewhere, all or nothing, same checks as the console,
and the audit uses them."""

from __future__ import annotations

import csv

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from grader.cli._app import app
from grader.reporting import collect_audit_inputs
from grader.storage import HumanGradeRow, session_scope

RUNNER = CliRunner()


def _count(url: str) -> int:
    with session_scope(url) as s:
        return int(s.scalar(select(func.count()).select_from(HumanGradeRow)))


def _write(path, header, rows):
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def test_import_appends_checked_grades_and_export_round_trips(console_env, tmp_path):
    url, run = console_env.db_url, console_env.run_id
    good = _write(
        tmp_path / "grades.csv",
        ["annotator", "contestant", "reasoning", "evidence", "outcome", "comment", "reasoning.thesis_quality"],
        [
            ["alice", "m1", "70", "60", "", "careful record", "75"],
            ["bob", "m1", "50", "40", "30", "", ""],
            ["alice", "m2", "20", "25", "", "", ""],
        ],
    )
    out = RUNNER.invoke(app, ["calibration", "import", str(good), "--run", run])
    assert out.exit_code == 0, out.output
    assert "3 human grade(s) appended" in out.output and "2 annotator(s)" in out.output
    assert _count(url) == 3
    with session_scope(url) as s:
        row = s.scalars(
            select(HumanGradeRow).where(HumanGradeRow.annotator == "alice").order_by(HumanGradeRow.id)
        ).first()
        assert row.sub_scores["sign_in"] == "import" and row.sub_scores["source"].startswith("grades.csv sha256:")
        assert row.sub_scores["reasoning"] == {"thesis_quality": 75.0} and row.outcome is None
    humans = collect_audit_inputs(run, url).human_grades
    assert set(humans["annotator"]) == {"alice", "bob"}

    exported = tmp_path / "out.csv"
    out = RUNNER.invoke(app, ["calibration", "export", "--run", run, "--out", str(exported)])
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(exported.open(encoding="utf-8")))
    assert [(r["annotator"], r["contestant"], r["reasoning"]) for r in rows] == [
        ("alice", "m1", "70.0"),
        ("bob", "m1", "50.0"),
        ("alice", "m2", "20.0"),
    ]
    assert rows[0]["reasoning.thesis_quality"] == "75.0" and rows[0]["composite"]
    # an export is a valid import (derived columns ignored) and re-importing it appends nothing: idempotent by content
    out = RUNNER.invoke(app, ["calibration", "import", str(exported), "--run", run])
    assert out.exit_code == 0, out.output
    assert "0 human grade(s) appended" in out.output and "3 already stored" in " ".join(out.output.split())
    assert _count(url) == 3
    # the plain file again (no times in it): the same grades, not appended either, and said so truly (no time to match)
    out = RUNNER.invoke(app, ["calibration", "import", str(good), "--run", run])
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    assert "3 already stored (same grade; the file gives no time)" in said and "same time" not in said
    assert _count(url) == 3


def test_a_bad_file_writes_nothing_and_names_every_problem(console_env, tmp_path):
    url, run = console_env.db_url, console_env.run_id
    bad = _write(
        tmp_path / "bad.csv",
        ["annotator", "contestant", "reasoning", "evidence", "reasoning.madeup"],
        [
            ["alice", "m1", "70", "60", ""],
            ["mallory", "m1", "50", "40", ""],
            ["bob", "zz", "50", "40", ""],
            ["bob", "m2", "150", "40", ""],
            ["alice", "m2", "50", "40", "80"],
        ],
    )
    out = RUNNER.invoke(app, ["calibration", "import", str(bad), "--run", run])
    assert out.exit_code == 1
    text = " ".join(out.output.split())
    assert "nothing imported (4 problem(s))" in text
    assert "bad.csv: line 3, column 'annotator': 'mallory' is not a configured annotator" in text
    assert "bad.csv: line 4, column 'contestant': 'zz' is not a contestant of run" in text
    assert "bad.csv: line 5: reasoning: '150' is outside 0-100" in text
    assert "line 1, column 'reasoning.madeup': unknown sub-component id 'madeup'" in text
    assert _count(url) == 0
    unknown = _write(
        tmp_path / "cols.csv", ["annotator", "contestant", "reasoning", "evidnce"], [["alice", "m1", "1", "2"]]
    )
    out = RUNNER.invoke(app, ["calibration", "import", str(unknown), "--run", run])
    assert out.exit_code == 1 and "column 'evidnce': unknown column" in out.output
    assert "missing column 'evidence'" in out.output and _count(url) == 0


def test_an_export_names_the_rubric_hash_and_a_grade_under_another_rubric_is_refused(console_env, tmp_path):
    url, run = console_env.db_url, console_env.run_id
    good = _write(
        tmp_path / "g.csv", ["annotator", "contestant", "reasoning", "evidence"], [["alice", "m1", "70", "60"]]
    )
    assert RUNNER.invoke(app, ["calibration", "import", str(good), "--run", run]).exit_code == 0
    exported = tmp_path / "out.csv"
    assert RUNNER.invoke(app, ["calibration", "export", "--run", run, "--out", str(exported)]).exit_code == 0
    rows = list(csv.DictReader(exported.open(encoding="utf-8")))
    assert len(rows[0]["rubric_hash"]) == 64
    rows[0]["rubric_hash"] = "0" * 64
    other = _write(tmp_path / "other.csv", list(rows[0]), [list(rows[0].values())])
    out = RUNNER.invoke(app, ["calibration", "import", str(other), "--run", run])
    assert out.exit_code == 1 and "column 'rubric_hash': the grade was given under another rubric" in " ".join(
        out.output.split()
    )
    assert _count(url) == 1


def _export(run: str, path) -> bytes:
    out = RUNNER.invoke(app, ["calibration", "export", "--run", run, "--out", str(path)])
    assert out.exit_code == 0, out.output
    return path.read_bytes()


def _latest(url: str, run: str, annotator: str, item: str) -> float:
    humans = collect_audit_inputs(run, url).human_grades
    mine = humans[(humans["annotator"] == annotator) & (humans["item_id"] == item) & (humans["axis"] == "reasoning")]
    assert len(mine) == 1
    return float(mine["score"].iloc[0])


def test_an_old_export_never_overrides_a_later_correction_and_times_and_annotators_are_kept(console_env, tmp_path):
    """alice grades m1 70 and exports; she corrects it to 90; the old export imported again appends nothing and 90
    stays her latest grade. In another database, the two exports imported newest first still make 90 the latest
    (latest is by the time the grade was given), with each grade's own time, annotator and sign-in."""
    from console import AnnotatorDirectory, HumanGradeInput, record_human_grade, run_contestants
    from tests.console._helpers import make_env

    url, run = console_env.db_url, console_env.run_id
    who = AnnotatorDirectory(console_env.annotators).sign_in("alice", console_env.tokens["alice"])
    m1 = next(c.row_id for c in run_contestants(run, url) if c.key == "m1")
    record_human_grade(who, run, m1, HumanGradeInput(reasoning=70, evidence=60), url)
    old = _export(run, tmp_path / "old.csv")
    record_human_grade(who, run, m1, HumanGradeInput(reasoning=90, evidence=60, comment="corrected"), url)
    assert _latest(url, run, "alice", "m1") == 90
    out = RUNNER.invoke(app, ["calibration", "import", str(tmp_path / "old.csv"), "--run", run])
    assert out.exit_code == 0 and "0 human grade(s) appended" in out.output, out.output
    assert _count(url) == 2 and _latest(url, run, "alice", "m1") == 90
    new = _export(run, tmp_path / "new.csv")
    assert b"corrected" in new and new.count(b"\n") == 3 and old.count(b"\n") == 2

    with pytest.MonkeyPatch.context() as mp:  # a second database with the same run and no human grade
        other = make_env(
            f"sqlite:///{tmp_path / 'other.db'}", tmp_path / "o", (console_env.annotators, console_env.tokens), mp
        )
    for name in ("new.csv", "old.csv"):  # the newer export first
        out = RUNNER.invoke(
            app,
            ["calibration", "import", str(tmp_path / name), "--run", run],
            env={"GRADER_DATABASE_URL": other.db_url},
        )
        assert out.exit_code == 0, out.output
    assert _count(other.db_url) == 2
    assert _latest(other.db_url, run, "alice", "m1") == 90
    with session_scope(url) as s:
        here = [
            (h.annotator, h.created_at, h.sub_scores["sign_in"])
            for h in s.scalars(select(HumanGradeRow).order_by(HumanGradeRow.created_at))
        ]
    with session_scope(other.db_url) as s:
        there = [
            (h.annotator, h.created_at, h.sub_scores["sign_in"])
            for h in s.scalars(select(HumanGradeRow).order_by(HumanGradeRow.created_at))
        ]
    assert there == here and {w for _, _, w in there} == {"token"}


def test_export_import_export_is_byte_identical(console_env, tmp_path):
    from console import AnnotatorDirectory, HumanGradeInput, record_human_grade, run_contestants
    from tests.console._helpers import make_env

    url, run = console_env.db_url, console_env.run_id
    people = AnnotatorDirectory(console_env.annotators)
    alice = people.sign_in("alice", console_env.tokens["alice"])
    bob = people.sign_in("bob", console_env.tokens["bob"])
    rows = {c.key: c.row_id for c in run_contestants(run, url)}
    record_human_grade(
        alice,
        run,
        rows["m1"],
        HumanGradeInput(
            reasoning=70.5,
            evidence=60,
            outcome=30,
            reasoning_sub_scores={"thesis_quality": 75},
            comment='a "quoted", comma',
        ),
        url,
    )
    record_human_grade(bob, run, rows["m2"], HumanGradeInput(reasoning=20, evidence=25, data_reliability=80), url)
    record_human_grade(alice, run, rows["m1"], HumanGradeInput(reasoning=72, evidence=61), url)
    first = _export(run, tmp_path / "first.csv")
    with pytest.MonkeyPatch.context() as mp:  # a second database with the same run and no human grade
        other = make_env(
            f"sqlite:///{tmp_path / 'other.db'}", tmp_path / "o", (console_env.annotators, console_env.tokens), mp
        )
    out = RUNNER.invoke(
        app,
        ["calibration", "import", str(tmp_path / "first.csv"), "--run", run],
        env={"GRADER_DATABASE_URL": other.db_url},
    )
    assert out.exit_code == 0 and "3 human grade(s) appended" in out.output, out.output
    out = RUNNER.invoke(
        app,
        ["calibration", "export", "--run", run, "--out", str(tmp_path / "second.csv")],
        env={"GRADER_DATABASE_URL": other.db_url},
    )
    assert out.exit_code == 0, out.output
    assert (tmp_path / "second.csv").read_bytes() == first
    assert first.count(b"\n") == 4  # header + 3 grades


def test_a_bad_time_is_named_and_nothing_is_written(console_env, tmp_path):
    bad = _write(
        tmp_path / "t.csv",
        ["annotator", "contestant", "reasoning", "evidence", "created_at"],
        [
            ["alice", "m1", "70", "60", "2026-01-02T03:04:05+00:00"],
            ["bob", "m1", "50", "40", "yesterday"],
            ["bob", "m2", "50", "40", "2999-01-01T00:00:00+00:00"],
        ],
    )
    out = RUNNER.invoke(app, ["calibration", "import", str(bad), "--run", console_env.run_id])
    text = " ".join(out.output.split())
    assert out.exit_code == 1
    assert "t.csv: line 3, column 'created_at': 'yesterday' is not an ISO 8601 time" in text
    assert "t.csv: line 4, column 'created_at': 2999-01-01T00:00:00+00:00 is in the future" in text
    assert _count(console_env.db_url) == 0
