"""A streaming run (issue 18): each contestant's calls leave as soon as its prompt is built, while later prompts
are still being built; a prompt that still names an identity is never sent and leaves a visible gap."""

from __future__ import annotations

import time
from datetime import UTC

import yaml
from sqlalchemy import select

from grader.panel import grade_season
from grader.prompts import PromptBuilder
from grader.storage import JudgeCallRow, PromptRow, RunRow, contestant_map, session_scope
from tests.panel.conftest import write_panel


def test_calls_leave_before_the_last_prompt_is_built(tmp_path, monkeypatch):
    from grader.demo import build_synthetic_season

    season = tmp_path / "season"
    build_synthetic_season(season, n_contestants=12, n_days=3, seed=3)
    panel = write_panel(tmp_path / "slow.yaml", latency_s=0.3)
    doc = yaml.safe_load(panel.read_text())
    doc["judges"] = doc["judges"][:1]
    panel.write_text(yaml.safe_dump(doc))
    built: list[float] = []
    original = PromptBuilder.build

    def timed(self, contestant_id, naive=True):  # noqa: ANN001, ANN202
        prompt = original(self, contestant_id, naive=naive)
        built.append(time.time())
        return prompt

    monkeypatch.setattr(PromptBuilder, "build", timed)
    url = f"sqlite:///{tmp_path / 's.db'}"
    report = grade_season(season, rubric_name="v0.4", panel_name=str(panel), run_id="s", db_url=url, progress=False)
    assert report.status == "complete" and len(built) == 12
    with session_scope(url) as s:
        first_call = min(c.created_at for c in s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "s")))
    first = (first_call if first_call.tzinfo else first_call.replace(tzinfo=UTC)).timestamp()  # stored in UTC
    assert first < built[-1]  # the first call was on its way before the twelfth prompt existed


def test_a_prompt_that_names_an_identity_is_never_sent_and_is_a_gap(season, tmp_path, monkeypatch):
    original = PromptBuilder.build

    def leaking(self, contestant_id, naive=True):  # noqa: ANN001, ANN202 - as if the scrubber missed a name
        prompt = original(self, contestant_id, naive=naive)
        if contestant_id == "m1":
            prompt.leaks = ["Model One"]
        return prompt

    monkeypatch.setattr(PromptBuilder, "build", leaking)
    url = f"sqlite:///{tmp_path / 'leak.db'}"
    report = grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="l", db_url=url, progress=False)
    assert report.status == "complete_with_gaps"
    assert any("identity leak in the prompt of m1" in n for n in report.notes)
    assert len(report.gaps) == 3 and all("m1" in g for g in report.gaps)
    with session_scope(url) as s:
        rows = contestant_map(s, s.get(RunRow, "l").season_id)
        calls = s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "l")).all()
        assert calls and all(c.contestant_id != rows["m1"].id for c in calls)  # nothing of m1 left
        assert all("Model One" not in p.user for p in s.scalars(select(PromptRow)))
        assert any("identity leak" in n for n in s.get(RunRow, "l").notes)


def test_on_calls_start_is_called_once_after_set_up_and_before_the_first_call(season, tmp_path):
    """The CLI resumes garbage collection there (``grader.cli._gc``): once, with the run's rows written and
    no judge call made yet."""
    url = f"sqlite:///{tmp_path / 'hook.db'}"
    seen: list[tuple[int, int]] = []

    def hook() -> None:
        with session_scope(url) as s:
            calls = len(s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "h")).all())
            runs = len(s.scalars(select(RunRow).where(RunRow.id == "h")).all())
        seen.append((runs, calls))

    report = grade_season(
        season, rubric_name="v0.4", panel_name="mock", run_id="h", db_url=url, progress=False, on_calls_start=hook
    )
    assert report.status == "complete" and report.calls_sent > 0
    assert seen == [(1, 0)]
