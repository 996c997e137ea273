"""Issue 36: a link anywhere in a bundle is refused and never read by every command that reads a bundle: `grader
calibration sample` (which copies the source season) and `grader anonymize` (which writes the judge's view) refuse
the season and copy nothing; the linked file's content appears nowhere."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from grader.calibration import build_set
from grader.cli import app
from grader.panel import grade_season
from grader.season import BundleError
from tests.panel.conftest import two_family_bundle

SECRET = "TOP-SECRET-OUTSIDE-THE-BUNDLE"
runner = CliRunner()


def _link_out(season, tmp_path, rel: str) -> None:
    outside = tmp_path / "outside.csv"
    outside.write_text(f"symbol,field,value,observed_at,source\nAAA,peRatio,1,2021-12-31,{SECRET}\n")
    os.symlink(outside, season / rel)


def test_calibration_sample_refuses_a_source_season_that_holds_a_link(tmp_path):
    season = two_family_bundle(tmp_path / "season")
    url = f"sqlite:///{tmp_path / 'g.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="src", db_url=url, progress=False)
    _link_out(season, tmp_path, "market/extra.csv")  # added after the run: the sample reads the season again
    out = tmp_path / "set"
    with pytest.raises(BundleError) as err:
        build_set("src", 2, out=out, db_url=url)
    assert any(i.file == "market/extra.csv" and "symbolic link" in i.message for i in err.value.issues)
    assert not out.exists() or not any(out.rglob("*"))
    assert SECRET not in str(err.value)
    from grader.panel import verify_run

    problems = verify_run("src", db_url=url).problems  # verify names the link it did not read
    assert any("market/extra.csv" in p and "link" in p for p in problems), problems


def test_anonymize_refuses_a_season_that_holds_a_link(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    season = two_family_bundle(tmp_path / "season")
    _link_out(season, tmp_path, "market/extra.csv")
    out = tmp_path / "view"
    result = runner.invoke(app, ["anonymize", str(season), "--out", str(out)])
    assert result.exit_code == 1 and "market/extra.csv" in result.output and "symbolic link" in result.output
    assert not out.exists() and SECRET not in result.output
