"""Issue 36: text from a bundle acts on none of its readers. Display names that look like Rich markup print as
written (two names differing only inside brackets stay two names), an escape sequence reaches the terminal as its
visible escape, and a display name that a spreadsheet would run as a formula is neutralised in the report's CSVs."""

from __future__ import annotations

import csv

import pytest
import yaml
from typer.testing import CliRunner

from grader.cli import app
from grader.hygiene import for_csv, for_terminal, visible_controls
from tests.panel.conftest import two_family_bundle

runner = CliRunner()
BETA, PROD = "model-x [beta]", "model-x [prod]\x1b[2J"
FORMULA = '=HYPERLINK("http://evil.example","click")'


@pytest.fixture
def hostile_season(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("COLUMNS", "250")
    season = two_family_bundle(tmp_path / "season")
    people = yaml.safe_load((season / "contestants.yaml").read_text())
    people[0]["display_name"], people[1]["display_name"] = BETA, PROD
    (season / "contestants.yaml").write_text(yaml.safe_dump(people, allow_unicode=True))
    return season


def test_leaderboard_prints_names_as_written_and_sends_no_escape(hostile_season):
    graded = runner.invoke(app, ["grade", str(hostile_season), "--panel", "mock", "--run-id", "h", "--quiet"])
    assert graded.exit_code == 0, graded.output
    board = runner.invoke(app, ["leaderboard", "--run", "h"])
    assert board.exit_code == 0, board.output
    assert "model-x [beta]" in board.output and "model-x [prod]\\x1b[2J" in board.output
    assert "\x1b" not in board.output and "\x1b" not in graded.output


def test_report_csvs_neutralise_formula_names(hostile_season, tmp_path):
    people = yaml.safe_load((hostile_season / "contestants.yaml").read_text())
    people[0]["display_name"] = FORMULA
    (hostile_season / "contestants.yaml").write_text(yaml.safe_dump(people, allow_unicode=True))
    assert (
        runner.invoke(app, ["grade", str(hostile_season), "--panel", "mock", "--run-id", "f", "--quiet"]).exit_code == 0
    )
    out = tmp_path / "report"
    made = runner.invoke(app, ["report", "--run", "f", "--out", str(out)])
    assert made.exit_code == 0, made.output
    cells = [cell for p in out.glob("*.csv") for row in csv.reader(p.open(encoding="utf-8")) for cell in row]
    assert any(FORMULA in c for c in cells), "the display name is in a CSV"
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    assert all(c == "'" + FORMULA for c in cells if FORMULA in c)


def test_one_helper_per_medium():
    assert for_terminal("a [b] [/]") == "a \\[b] \\[/]"
    assert for_terminal("x\x1b]0;t\x07\r\u202ey") == "x\\x1b]0;t\\x07\\x0d\\u202ey"
    assert visible_controls("a\nb", multiline=True) == "a\nb" and visible_controls("a\nb") == "a\\x0ab"
    assert [for_csv(v) for v in ("=1+1", "+1", "-0.25", "@SUM(A1)", "\tx", "plain", 3.0, "-x")] == [
        "'=1+1",
        "+1",
        "-0.25",
        "'@SUM(A1)",
        "'\tx",
        "plain",
        3.0,
        "'-x",
    ]
