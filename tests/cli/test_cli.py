"""The command line a user types: exit codes and what it prints."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from grader.cli import app
from tests.panel.conftest import two_family_bundle

runner = CliRunner()


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("COLUMNS", "200")
    return tmp_path


def test_validate_ok_and_bad(env, tiny_bundle):
    ok = runner.invoke(app, ["validate", str(tiny_bundle)])
    assert ok.exit_code == 0 and "is valid" in ok.output
    (tiny_bundle / "decisions.jsonl").write_text('{"contestant_id": "m1", "decided_at": "2022-01-03T10:00:00"}\n')
    bad = runner.invoke(app, ["validate", str(tiny_bundle)])
    assert bad.exit_code == 1
    assert "decisions.jsonl:1: decided_at" in bad.output and "offset" in bad.output


def test_import_twice(env, tiny_bundle):
    first = runner.invoke(app, ["import", str(tiny_bundle)])
    second = runner.invoke(app, ["import", str(tiny_bundle)])
    assert first.exit_code == 0 and "imported" in first.output
    assert second.exit_code == 0 and "already imported" in second.output


def test_grade_leaderboard_rescore_verify(env):
    season = two_family_bundle(env / "season")
    graded = runner.invoke(app, ["grade", str(season), "--panel", "mock", "--run-id", "m", "--quiet"])
    assert graded.exit_code == 0, graded.output
    assert "MOCK PANEL" in graded.output and "judges low/median/high" in graded.output
    # a paid run states the spread of prompt sizes in one line (a dry run shows the table: below)
    sizes = next(line for line in graded.output.splitlines() if line.startswith("prompt tokens per contestant"))
    assert "2 prompt(s), smallest" in sizes and "median" in sizes and "largest" in sizes
    assert "Prompt size per contestant" not in graded.output
    board = runner.invoke(app, ["leaderboard", "--run", "m"])
    assert board.exit_code == 0 and "Model One" in board.output
    again = runner.invoke(app, ["rescore", "--run", "m", "--rubric", "rubric/examples/v0.4-evidence-heavy.yaml"])
    assert again.exit_code == 0 and "judge calls: 0" in again.output and "scored version 2" in again.output
    regrade = runner.invoke(app, ["rescore", "--run", "m", "--rubric", "v0.3"])
    assert regrade.exit_code == 2 and "re-grade" in regrade.output
    assert runner.invoke(app, ["verify", "--run", "m"]).exit_code == 0
    (season / "contestants.yaml").write_text((season / "contestants.yaml").read_text() + "\n")
    changed = runner.invoke(app, ["verify", "--run", "m"])
    assert changed.exit_code == 1 and "contestants.yaml" in changed.output
    diff = runner.invoke(app, ["rubric", "diff", "v0.4", "rubric/examples/v0.4-evidence-heavy.yaml", "--run", "m"])
    assert diff.exit_code == 0 and "composite.reasoning" in diff.output and "Model One" in diff.output


def test_grade_prints_the_top_of_the_leaderboard_and_says_how_to_see_the_rest(env):
    season = two_family_bundle(env / "season")
    graded = runner.invoke(app, ["grade", str(season), "--panel", "mock", "--run-id", "t1", "--quiet", "--top", "1"])
    assert graded.exit_code == 0, graded.output
    assert "1 more: `grader leaderboard --run t1` prints every row" in graded.output
    board = runner.invoke(app, ["leaderboard", "--run", "t1"])
    ranks = [
        line.split("│")[1].strip()
        for line in board.output.splitlines()
        if line.startswith("│") and line.split("│")[1].strip().isdigit()
    ]
    shown = [
        line.split("│")[1].strip()
        for line in graded.output.splitlines()
        if line.startswith("│") and line.split("│")[1].strip().isdigit()
    ]
    assert ranks == ["1", "2"] and shown == ["1"] and "more:" not in board.output


def test_dry_run_says_so(env, monkeypatch):
    for k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "XAI_API_KEY"):
        monkeypatch.delenv(k, raising=False)
    season = two_family_bundle(env / "season")
    out = runner.invoke(app, ["grade", str(season), "--panel", "frontier", "--run-id", "d", "--quiet"])
    assert out.exit_code == 0 and "dry run" in out.output.lower()
    assert "Prompt size per contestant" in out.output and "naive dump tokens" in out.output


def test_grading_an_invalid_bundle_writes_nothing(env, tiny_bundle):
    (tiny_bundle / "market" / "prices.csv").write_text("")
    out = runner.invoke(app, ["grade", str(tiny_bundle), "--run-id", "x", "--quiet"])
    assert out.exit_code == 1 and "market/prices.csv: file is empty" in out.output
    assert not (env / "cli.db").exists() or runner.invoke(app, ["leaderboard", "--run", "x"]).exit_code != 0


def test_claims_verify(env, tiny_bundle):
    claims = env / "claims.jsonl"
    claims.write_text(
        "\n".join(
            json.dumps(c)
            for c in [
                {
                    "id": "a",
                    "decided_at": "2022-01-05T15:00:00-05:00",
                    "symbol": "AAA",
                    "text": "AAA closed at 103.00",
                    "fields": ["close"],
                },
                {
                    "id": "b",
                    "decided_at": "2022-01-05T15:00:00-05:00",
                    "symbol": "AAA",
                    "text": "AAA closed at 150.00",
                    "fields": ["close"],
                },
            ]
        )
        + "\n"
    )
    out_path = env / "out.jsonl"
    out = runner.invoke(
        app, ["claims", "verify", "--season", str(tiny_bundle), "--claims", str(claims), "--out", str(out_path)]
    )
    assert out.exit_code == 0, out.output
    results = {r["id"]: r for r in map(json.loads, out_path.read_text().splitlines())}
    assert results["a"]["status"] == "supported" and results["b"]["status"] == "contradicted"
    assert results["b"]["evidence"][0]["field"] == "close"


def test_anonymize_writes_the_judges_view(env, tiny_bundle):
    out = env / "view"
    first = runner.invoke(app, ["anonymize", str(tiny_bundle), "--out", str(out)])
    assert first.exit_code == 0, first.output
    text = (out / "contestants.yaml").read_text() + (out / "decisions.jsonl").read_text()
    assert "Model One" not in text and "gpt-4.1" not in text and "Contestant" in text
    assert (env / "view.mapping.json").exists() and not (out / "view.mapping.json").exists()
    again = runner.invoke(app, ["anonymize", str(tiny_bundle), "--out", str(out)])
    assert again.exit_code == 1 and "exists" in again.output


def test_ledger_lists_verdicts_paths_and_flag_reasons(env):
    """`grader ledger`: a v0.5 mock run's ledgers, checked on the judges' structured assertions, with every
    flag's reason; filters by judge and status; table, CSV and JSON."""
    season = two_family_bundle(env / "season")
    graded = runner.invoke(
        app, ["grade", str(season), "--rubric", "v0.5", "--panel", "mock", "--run-id", "l5", "--quiet"]
    )
    assert graded.exit_code == 0, graded.output
    out = runner.invoke(app, ["ledger", "--run", "l5", "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert rows and {r["path"] for r in rows} <= {"structured", "text"}
    assert any(r["path"] == "structured" for r in rows if r["judge"].startswith("mock-"))
    flagged = [f for r in rows for f in r["flags"]]
    assert flagged and all(f["reason"] for f in flagged), flagged
    # "closed at 60.00" for BBB (49.x in the data): contradicted, and the mock judge's status agrees
    bbb = [r for r in rows if r["symbol"] == "BBB" and r["verifier_status"] == "contradicted"]
    assert bbb and "BBB close" in bbb[0]["reason"]
    only = json.loads(
        runner.invoke(
            app, ["ledger", "--run", "l5", "--format", "json", "--judge", "mock-xai", "--status", "contradicted"]
        ).output
    )
    assert only and all(r["judge"] == "mock-xai" and r["verifier_status"] == "contradicted" for r in only)
    csv_out = runner.invoke(app, ["ledger", "--run", "l5", "--format", "csv"]).output
    assert csv_out.splitlines()[0] == (
        "judge,contestant,decision_date,symbol,claim,clause,judge_status,verifier_status,path,reason,flags"
    )
    assert all("clause" in r for r in rows)
    table = runner.invoke(app, ["ledger", "--run", "l5", "--contestant", "m2"])
    assert table.exit_code == 0 and "claim ledger of run l5" in table.output
    assert runner.invoke(app, ["ledger", "--run", "nope"]).exit_code == 1
    assert runner.invoke(app, ["ledger", "--run", "l5", "--status", "maybe"]).exit_code == 1


def test_rubric_show_and_one_line_errors_for_bad_rubric_files(env, tmp_path):
    shown = runner.invoke(app, ["rubric", "show", "v0.5"])
    assert shown.exit_code == 0 and "grade-v2" in shown.output and "thesis_quality" in shown.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("bad: [\n")
    for args in (["rubric", "diff", "v0.4", str(bad)], ["rubric", "show", str(bad)]):
        out = runner.invoke(app, args)
        assert out.exit_code == 1 and "bad.yaml:2: not valid YAML" in out.output and "Traceback" not in out.output
