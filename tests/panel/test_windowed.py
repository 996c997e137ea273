"""Issue 32's fallback: a record over a judge's window is graded in consecutive windows with a carried thesis log,
then one whole-horizon pass over the windows' findings; labelled in the run, the report and the manifest, never cut."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from sqlalchemy import select

from grader.panel import RunError, grade_season
from grader.panel._prompts import prompt_builder
from grader.prompts._fence import unfence
from grader.season import load_bundle
from grader.storage import ContestantRow, GradeRow, JudgeCallRow, PromptRow, RunRow, session_scope
from rubric import load_rubric

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "seasons" / "cb-2026-06-1w"
DEMO = ROOT / "seasons" / "demo-2022q1"


def _fits(budget: int):
    return lambda prompt: prompt.counted_tokens <= budget


def test_windows_cover_every_decision_once_in_full_each_fitting_and_as_long_as_it_can():
    from grader.anonymizer import NamedView
    from grader.prompts import PromptBuilder
    from grader.prompts._windows import plan_windows, synthesis_prompt, window_prompt

    bundle = load_bundle(REAL)
    rubric = load_rubric("v0.4")
    replays, outcomes, pending, _ = prompt_builder(bundle, rubric)
    builder = PromptBuilder(bundle, rubric.judge_prompt(), NamedView(bundle.contestants), replays, outcomes, pending)
    cid = max(bundle.contestants, key=lambda c: len(bundle.decisions_of(c.id))).id
    decisions = bundle.decisions_of(cid)
    whole = builder.build(cid, naive=False).counted_tokens
    budget = whole // 3
    plan = plan_windows(builder, cid, _fits(budget))
    assert plan is not None and len(plan.windows) >= 3
    assert plan.windows[0][0] == 0 and plan.windows[-1][1] == len(decisions) - 1
    assert all(b + 1 == c for (_, b), (c, _) in zip(plan.windows, plan.windows[1:], strict=False))  # consecutive
    for k, (a, b) in enumerate(plan.windows):
        prompt = window_prompt(builder, plan, k)
        assert prompt.counted_tokens <= budget
        assert f"window {k + 1} of {len(plan.windows)}" in prompt.user
        for i, d in enumerate(decisions):
            inside = builder.neutral(d.rationale) in unfence(prompt.user)  # quoted verbatim (the fence taken off)
            assert inside == (a <= i <= b), (k, i)  # every rationale in full in its own window only
        log = prompt.user.split("## Carried thesis log", 1)[1].split("\nContestant: ", 1)[0]
        assert log.count("\n- ") == a  # one line for each earlier decision
        for section in prompt.sections:
            assert all(o.observed_at <= section.decided_at for o in section.observations)
        if b + 1 < len(decisions):  # as long as it can be: one more decision would not fit
            longer = type(plan)(cid, (*plan.windows[:k], (a, b + 1)), plan.decisions)
            assert window_prompt(builder, longer, k).counted_tokens > budget
    found = [{"verdict": f"window {k + 1} finding"} for k in range(len(plan.windows))]
    final = synthesis_prompt(builder, plan, found)
    assert all(f"window {k + 1} finding" in final.user for k in range(len(plan.windows)))
    assert final.user.count("\n- ") >= len(decisions) and "# OUTCOME" in final.user
    assert final.shared_chars > 0 and final.user[: final.shared_chars] == builder.build(cid).user[: final.shared_chars]


def _panel(path: Path, kind: str, window: int) -> Path:
    judges = [
        {
            "judge_id": "small",
            "provider": "openai",
            "model": "m-small",
            "family": "openai",
            "timeout_s": 20,
            "max_output_tokens": 500,
            "context_window": window,
        },
        {
            "judge_id": "large",
            "provider": "anthropic",
            "model": "m-large",
            "family": "anthropic",
            "timeout_s": 20,
            "max_output_tokens": 500,
        },
        {
            "judge_id": "other",
            "provider": "xai",
            "model": "m-other",
            "family": "xai",
            "timeout_s": 20,
            "max_output_tokens": 500,
        },
    ]
    doc = {
        "name": path.stem,
        "kind": kind,
        "judges": judges,
        "retry": {"max_attempts": 2, "base_delay_s": 0.01, "max_delay_s": 0.05},
    }
    if kind == "mock":
        doc["mock"] = {"seed": 1, "noise_sd": 0.0, "latency_s": 0.0}
    path.write_text(yaml.safe_dump(doc))
    return path


def _sizes(bundle) -> dict[str, int]:
    *_, builder = prompt_builder(bundle, load_rubric("v0.4"))
    return {c.id: builder.build(c.id, naive=False).counted_tokens for c in bundle.contestants}


def _largest(bundle) -> tuple[str, int]:
    sizes = _sizes(bundle)
    cid = max(sizes, key=sizes.get)
    return cid, sizes[cid]


def test_a_mock_run_grades_an_over_long_record_in_windows_then_a_whole_horizon_pass(tmp_path):
    from grader.panel import verify_run
    from grader.prompts._windows import WINDOWED_LABEL
    from grader.reporting._collect import collect_audit_inputs

    bundle = load_bundle(DEMO)
    sizes = _sizes(bundle)
    cid = max(sizes, key=sizes.get)
    window = int(sizes[cid] * 0.85 * 0.6)  # the largest record does not fit; half of it does
    whole = {c for c, n in sizes.items() if n + max(500, -(-window * 15 // 100)) <= window}  # fit: graded whole
    url = f"sqlite:///{tmp_path / 'w.db'}"
    report = grade_season(
        DEMO,
        rubric_name="v0.4",
        panel_name=str(_panel(tmp_path / "p.yaml", "mock", window)),
        run_id="w",
        db_url=url,
        progress=False,
    )
    assert report.status == "complete"
    assert any(n.startswith(f"{cid} for small: {WINDOWED_LABEL}") for n in report.notes)
    with session_scope(url) as s:
        run = s.get(RunRow, "w")
        assert any(WINDOWED_LABEL in n and cid in n for n in run.notes)
        assert run.manifest["notes"] == run.notes
        rows = {c.id: c.contestant_key for c in s.scalars(select(ContestantRow))}
        grades = s.scalars(select(GradeRow).where(GradeRow.run_id == "w")).all()
        assert len(grades) == 3 * len(bundle.contestants)  # every judge x contestant graded, none missing
        calls = s.scalars(
            select(JudgeCallRow).where(
                JudgeCallRow.run_id == "w", JudgeCallRow.judge_id == "small", JudgeCallRow.status == "ok"
            )
        ).all()
        mine = [c for c in calls if rows[c.contestant_id] == cid]
        users = {c.id: s.get(PromptRow, c.prompt_sha256).user for c in mine}
        windows = [c for c in mine if "This is window " in users[c.id]]
        passes = [c for c in mine if "This is the whole-horizon pass" in users[c.id]]
        assert len(windows) >= 2 and len(passes) == 1
        graded = next(g for g in grades if g.judge_id == "small" and rows[g.contestant_id] == cid)
        assert graded.call_id == passes[0].id  # the grade is the pass's
        for c in calls:  # a record that fits is graded whole; one that does not, in windows and a pass
            windowed = "Windowed record" in s.get(PromptRow, c.prompt_sha256).user
            assert windowed == (rows[c.contestant_id] not in whole)
        assert len(whole) < len(sizes) and (whole or len(calls) > len(sizes))
        assert sum(WINDOWED_LABEL in n for n in run.notes) == len(sizes) - len(whole)
        large = s.scalars(
            select(JudgeCallRow).where(
                JudgeCallRow.run_id == "w", JudgeCallRow.judge_id == "large", JudgeCallRow.status == "ok"
            )
        ).all()
        assert len(large) == len(bundle.contestants)  # a judge with room grades every record whole
    assert verify_run("w", url).ok
    assert any(WINDOWED_LABEL in n for n in collect_audit_inputs("w", url).run_notes)  # the report's notes


def test_a_dry_run_shows_the_windows_and_a_batch_run_refuses_them(tmp_path):
    from grader.prompts._windows import WINDOWED_LABEL

    bundle = load_bundle(DEMO)
    cid, size = _largest(bundle)
    panel = _panel(tmp_path / "r.yaml", "real", int(size * 0.85 * 0.6))
    url = f"sqlite:///{tmp_path / 'd.db'}"
    report = grade_season(DEMO, rubric_name="v0.4", panel_name=str(panel), run_id="d", db_url=url, progress=False)
    assert report.status == "dry-run" and not any(n.startswith("would not fit") for n in report.notes)
    assert any(WINDOWED_LABEL in n for n in report.notes)
    small = next(r for r in report.headroom if r["judge"] == "small")
    assert small["left"] >= 0.15
    with session_scope(url) as s:
        rows = s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "d", JudgeCallRow.judge_id == "small")).all()
        assert len(rows) > len(bundle.contestants)  # the windowed record's windows, one row each
    with pytest.raises(RunError, match="graded synchronously"):
        grade_season(
            DEMO,
            rubric_name="v0.4",
            panel_name=str(_panel(tmp_path / "b.yaml", "mock", int(size * 0.5))),
            run_id="b",
            db_url=f"sqlite:///{tmp_path / 'b.db'}",
            progress=False,
            batch=True,
        )
