"""Process facts reach readers: the report's section, the CLI leaderboard's compact column and its legend."""

from __future__ import annotations

from typer.testing import CliRunner

from audits import build_report, render_markdown
from grader.cli._app import app
from grader.panel import grade_season
from grader.reporting import collect_audit_inputs, compact_facts, run_process_facts
from tests.conftest import write_bundle


def test_process_facts_in_report_and_leaderboard(tmp_path, monkeypatch):
    season = write_bundle(tmp_path / "s")
    db = f"sqlite:///{tmp_path / 'p.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="p", db_url=db, progress=False)
    facts = run_process_facts("p", db)
    m1 = facts["m1"]
    assert (m1["decisions"], m1["trades"], m1["holds"], m1["thrash_events"]) == (2, 2, 0, 1)
    assert m1["thrash"][0]["symbol"] == "AAA" and m1["thrash"][0]["days"] == 2
    assert compact_facts(m1).endswith("thrash 1")
    md = render_markdown(
        build_report(collect_audit_inputs("p", db).model_copy(update={"process_facts": facts}), n_boot_rank=50)
    )
    section = md.split("## Process facts", 1)[1].split("\n## ", 1)[0]
    assert (
        "| Model One | 2 | 2 | 0 |" in section
        and "| Model One | AAA | buy 2022-01-03 | sell 2022-01-05 | 2 |" in section
    )

    monkeypatch.setenv("GRADER_DATABASE_URL", db)
    out = CliRunner().invoke(app, ["leaderboard", "--run", "p"], env={"COLUMNS": "250"})
    assert out.exit_code == 0, out.output
    assert "thrash 1" in out.output and "⚑ = fewer judges than the panel lists" in out.output


def test_process_facts_of_some_contestants_are_theirs_unchanged(tmp_path):
    """A reader that shows some contestants (`grader grade`'s top rows) asks for theirs only: the same facts as in
    the whole season's, risk means included, and no other contestant's risk is computed for them."""
    from grader.reporting._bundles import cached_bundle, cached_risk_summaries

    season = write_bundle(tmp_path / "s")
    db = f"sqlite:///{tmp_path / 'p.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="p", db_url=db, progress=False)
    some = run_process_facts("p", db, contestants={"m1"})
    assert set(some) == {"m1"}
    assert cached_risk_summaries(cached_bundle(season)).computed == ["m1"]
    every = run_process_facts("p", db)
    assert len(every) > 1 and some["m1"] == every["m1"] and some["m1"]["risk"]["var_1d_mean"] is not None
    assert run_process_facts("p", db, contestants=set()) == {}
