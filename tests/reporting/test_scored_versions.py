"""Scored versions: numbered within their run; report and audit of a chosen version use that version's rubric
(weights and bands) in every section, including rank confidence."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from audits import build_report
from grader.cli._app import app
from grader.demo import build_synthetic_season
from grader.panel import grade_season
from grader.panel.leaderboard import leaderboard_rows
from grader.panel.rescore import rescore_run
from grader.reporting import collect_audit_inputs

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def graded(tmp_path):
    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=6, n_days=6, seed=8)
    db = f"sqlite:///{tmp_path / 'v.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="a", db_url=db, progress=False)
    grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="b", db_url=db, progress=False)
    return season, db, tmp_path


def test_versions_are_numbered_per_run(graded):
    _, db, _ = graded
    assert leaderboard_rows("a", None, db)[0]["version"] == 1
    assert leaderboard_rows("b", None, db)[0]["version"] == 1  # a new run starts at 1, not at a global id
    result = rescore_run("b", str(REPO / "rubric" / "examples" / "v0.4-evidence-heavy.yaml"), db)
    assert result.version == 2
    with pytest.raises(KeyError, match="has no scored version 3 \\(it has 1, 2\\)"):
        leaderboard_rows("b", 3, db)


def test_each_version_is_reported_under_its_own_rubric(graded):
    _, db, tmp_path = graded
    doc = yaml.safe_load((REPO / "rubric" / "versions" / "v0.4.yaml").read_text())
    doc["id"] += "-strict-bands"
    doc["bands"] = {"strong": 95, "mixed": 90}  # nobody is strong under this version
    doc["composite"] = {**doc["composite"], "reasoning": 30, "evidence": 45}
    path = tmp_path / "strict.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    rescore_run("a", str(path), db)

    first, second = collect_audit_inputs("a", db, version=1), collect_audit_inputs("a", db, version=2)
    assert (first.meta.score_version, second.meta.score_version) == (1, 2)
    assert sorted(b.low for b in second.bands) == [0, 90, 95]
    # the per-judge composites of version 2 are the ones its leaderboard was computed from
    _, rows = leaderboard_rows("a", 2, db)
    stored = {(r["contestant_id"], j): v for r in rows for j, v in r["details"]["panel"]["judges"].items()}
    main = second.scores[second.scores["repeat"] == 0]
    for row in main.itertuples():
        assert row.composite == pytest.approx(stored[(row.contestant_id, row.judge_id)], abs=1e-6)
    assert not (first.scores["composite"].to_numpy() == second.scores["composite"].to_numpy()).all()
    report = build_report(second, n_boot_rank=200)
    assert all(c.p_band.get("strong", 0.0) == 0.0 for c in report.rank_confidence.contestants)
    assert all(c.band in ("weak", "mixed") for c in report.rank_confidence.contestants)


def test_cli_report_and_audit_take_a_version(graded, monkeypatch):
    _, db, tmp_path = graded
    monkeypatch.setenv("GRADER_DATABASE_URL", db)
    rescore_run("a", str(REPO / "rubric" / "examples" / "v0.4-evidence-heavy.yaml"), db)
    runner = CliRunner()
    out = runner.invoke(app, ["report", "--run", "a", "--out", str(tmp_path / "r1"), "--version", "1"])
    assert out.exit_code == 0, out.output
    assert "Scored version | 1 (every section" in (tmp_path / "r1" / "report.md").read_text()
    out = runner.invoke(app, ["audit", "--run", "a", "--version", "2"])
    assert out.exit_code == 0 and "evidence-heavy" in out.output
    out = runner.invoke(app, ["audit", "--run", "a", "--version", "7"])
    assert out.exit_code == 1 and "no scored version 7" in out.output
