"""Cost accounting: per judge, input read from the prompt cache and written to it apart from the rest, dollars
at the panel's list prices; a dry run's figures are an estimate, said so."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from grader.cli._app import app
from grader.panel import grade_season
from grader.panel._costs import run_costs
from grader.storage import JudgeCallRow, session_scope
from tests.conftest import write_bundle


def test_a_mock_run_counts_cached_instructions_and_the_cli_prints_them(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'g.db'}"
    bundle = write_bundle(tmp_path / "tiny")
    grade_season(bundle, rubric_name="v0.4", panel_name="mock", run_id="m", db_url=url, progress=False)
    costs = {c.judge_id: c for c in run_costs("m", url)}
    with session_scope(url) as s:
        rows = s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "m")).all()
    assert set(costs) == {r.judge_id for r in rows}
    for judge_id, c in costs.items():
        mine = [r for r in rows if r.judge_id == judge_id]
        assert c.calls == len(mine) == 2 and not c.estimate
        assert c.input_uncached + c.input_cached + c.cache_writes == sum(r.input_tokens for r in mine)
        assert c.input_cached > 0  # the second contestant's call read the shared instructions from the cache
        assert c.cache_writes == (c.input_cached if judge_id == "mock-anthropic" else 0)
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    out = CliRunner().invoke(app, ["cost", "--run", "m"])
    assert out.exit_code == 0 and "input cached" in out.output and "mock-anthropic" in out.output


def test_a_dry_run_prices_an_estimate_with_the_instructions_cached(tmp_path):
    url = f"sqlite:///{tmp_path / 'g.db'}"
    bundle = write_bundle(tmp_path / "tiny")
    grade_season(bundle, rubric_name="v0.4", panel_name="frontier", run_id="f", db_url=url, progress=False)
    costs = {c.judge_id: c for c in run_costs("f", url)}
    gpt = costs["gpt-5"]
    assert gpt.estimate and gpt.calls == 2 and gpt.output == 2 * 16000
    assert gpt.input_cached > 0 and gpt.dollars < gpt.dollars_without_cache
    claude = costs["claude-sonnet-4-6"]
    assert claude.cache_writes == claude.input_cached  # written by the first call, read by the second
    assert gpt.dollars_if_batched == pytest.approx(0.5 * gpt.dollars)  # frontier: batch_factor 0.5


def test_a_dry_run_counts_prompt_tokens_with_the_offline_tokenizer(tmp_path):
    from grader.prompts import count_tokens
    from grader.storage import PromptRow

    url = f"sqlite:///{tmp_path / 'g.db'}"
    bundle = write_bundle(tmp_path / "tiny")
    grade_season(bundle, rubric_name="v0.4", panel_name="frontier", run_id="f", db_url=url, progress=False)
    with session_scope(url) as s:
        for call in s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "f")):
            prompt = s.get(PromptRow, call.prompt_sha256)
            assert call.input_tokens == count_tokens(prompt.system) + count_tokens(prompt.user)
            assert prompt.shared_chars and prompt.user[prompt.shared_chars :].startswith("Contestant: ")
