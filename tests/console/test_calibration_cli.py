"""grader calibration import/export: grades collected elsewhere, all or nothing, same checks as the console,
and the audit uses them."""

from __future__ import annotations

import csv

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
    good = _write(tmp_path / "grades.csv",
                  ["annotator", "contestant", "reasoning", "evidence", "outcome", "comment",
                   "reasoning.thesis_quality"],
                  [["alice", "m1", "70", "60", "", "careful record", "75"], ["bob", "m1", "50", "40", "30", "", ""],
                   ["alice", "m2", "20", "25", "", "", ""]])
    out = RUNNER.invoke(app, ["calibration", "import", str(good), "--run", run])
    assert out.exit_code == 0, out.output
    assert "3 human grade(s) appended" in out.output and "2 annotator(s)" in out.output
    assert _count(url) == 3
    with session_scope(url) as s:
        row = s.scalars(select(HumanGradeRow).where(HumanGradeRow.annotator == "alice")
                        .order_by(HumanGradeRow.id)).first()
        assert row.sub_scores["sign_in"] == "import" and row.sub_scores["source"].startswith("grades.csv sha256:")
        assert row.sub_scores["reasoning"] == {"thesis_quality": 75.0} and row.outcome is None
    humans = collect_audit_inputs(run, url).human_grades
    assert set(humans["annotator"]) == {"alice", "bob"}

    exported = tmp_path / "out.csv"
    out = RUNNER.invoke(app, ["calibration", "export", "--run", run, "--out", str(exported)])
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(exported.open(encoding="utf-8")))
    assert [(r["annotator"], r["contestant"], r["reasoning"]) for r in rows] == [
        ("alice", "m1", "70.0"), ("bob", "m1", "50.0"), ("alice", "m2", "20.0")]
    assert rows[0]["reasoning.thesis_quality"] == "75.0" and rows[0]["composite"]
    # an export is a valid import (derived columns ignored): appended again, never overwriting
    assert RUNNER.invoke(app, ["calibration", "import", str(exported), "--run", run]).exit_code == 0
    assert _count(url) == 6


def test_a_bad_file_writes_nothing_and_names_every_problem(console_env, tmp_path):
    url, run = console_env.db_url, console_env.run_id
    bad = _write(tmp_path / "bad.csv", ["annotator", "contestant", "reasoning", "evidence", "reasoning.madeup"],
                 [["alice", "m1", "70", "60", ""], ["mallory", "m1", "50", "40", ""], ["bob", "zz", "50", "40", ""],
                  ["bob", "m2", "150", "40", ""], ["alice", "m2", "50", "40", "80"]])
    out = RUNNER.invoke(app, ["calibration", "import", str(bad), "--run", run])
    assert out.exit_code == 1
    text = " ".join(out.output.split())
    assert "nothing imported (4 problem(s))" in text
    assert "bad.csv: line 3, column 'annotator': 'mallory' is not a configured annotator" in text
    assert "bad.csv: line 4, column 'contestant': 'zz' is not a contestant of run" in text
    assert "bad.csv: line 5: reasoning: '150' is outside 0-100" in text
    assert "line 1, column 'reasoning.madeup': unknown sub-component id 'madeup'" in text
    assert _count(url) == 0
    unknown = _write(tmp_path / "cols.csv", ["annotator", "contestant", "reasoning", "evidnce"], [["alice", "m1", "1", "2"]])
    out = RUNNER.invoke(app, ["calibration", "import", str(unknown), "--run", run])
    assert out.exit_code == 1 and "column 'evidnce': unknown column" in out.output
    assert "missing column 'evidence'" in out.output and _count(url) == 0


def test_an_export_names_the_rubric_hash_and_a_grade_under_another_rubric_is_refused(console_env, tmp_path):
    url, run = console_env.db_url, console_env.run_id
    good = _write(tmp_path / "g.csv", ["annotator", "contestant", "reasoning", "evidence"], [["alice", "m1", "70", "60"]])
    assert RUNNER.invoke(app, ["calibration", "import", str(good), "--run", run]).exit_code == 0
    exported = tmp_path / "out.csv"
    assert RUNNER.invoke(app, ["calibration", "export", "--run", run, "--out", str(exported)]).exit_code == 0
    rows = list(csv.DictReader(exported.open(encoding="utf-8")))
    assert len(rows[0]["rubric_hash"]) == 64
    rows[0]["rubric_hash"] = "0" * 64
    other = _write(tmp_path / "other.csv", list(rows[0]), [list(rows[0].values())])
    out = RUNNER.invoke(app, ["calibration", "import", str(other), "--run", run])
    assert out.exit_code == 1 and "column 'rubric_hash': the grade was given under another rubric" in \
        " ".join(out.output.split())
    assert _count(url) == 1
