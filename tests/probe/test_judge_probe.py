"""The identity-guess probe: each judge of a run's panel asked, in calls of its own through the real SDK clients
and the local fakes, which family wrote anonymized decisions; every attempt stored; resumable; statistics by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from scipy.stats import binom
from sqlalchemy import select

from audits import build_report, judge_guess_stats, render_markdown
from grader.anonymizer import Anonymizer
from grader.demo import build_synthetic_season
from grader.panel import grade_season
from grader.probe import ProbeError, parse_guess, probe_items, probe_rows, run_judge_probe
from grader.reporting import collect_audit_inputs
from grader.season import load_bundle
from grader.storage import IdentityProbeCallRow, session_scope

MOCK_PANEL = Path(__file__).resolve().parents[2] / "grader" / "panel" / "panels" / "mock.yaml"


@pytest.fixture
def season(tmp_path):
    root = tmp_path / "season"
    build_synthetic_season(root, n_contestants=10, n_days=8, seed=3)
    return root


def test_items_are_anonymized_and_balanced_over_families(season):
    bundle = load_bundle(season)
    anon = Anonymizer.for_season(bundle.info, bundle.contestants, seed="x")
    items = probe_items(bundle, anon, n=30, seed=0)
    families = {c.provider_family for c in bundle.contestants}
    counts = {f: sum(i.family == f for i in items) for f in families}
    assert len(set(counts.values())) == 1 and sum(counts.values()) == 30  # 6 per family, 5 families
    names = [c.display_name for c in bundle.contestants] + [c.model for c in bundle.contestants]
    for item in items:
        assert not any(name in item.text for name in names), item.text
    assert [i.key for i in probe_items(bundle, anon, n=30, seed=0)] == [i.key for i in items]  # seeded


def test_mock_probe_end_to_end_finds_the_planted_recognition(season, tmp_path):
    db = f"sqlite:///{tmp_path / 'p.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="m", db_url=db, progress=False)
    first = run_judge_probe("m", n=40, db_url=db)
    assert first.items == 40 and first.calls_made == 120 and first.reused == 0
    assert first.answered == {"mock-anthropic": 40, "mock-openai": 40, "mock-xai": 40}
    stats = {g.judge_id: g for g in judge_guess_stats(probe_rows("m", db))}
    assert stats["mock-openai"].flagged and stats["mock-openai"].judge_family == "openai"
    assert 0.6 <= stats["mock-openai"].leak_rate <= 1.0  # planted 0.8 (+ a fifth of the rest by luck)
    for jid in ("mock-anthropic", "mock-xai"):
        assert stats[jid].leak_rate < 0.5 and stats[jid].chance == pytest.approx(0.2)
    with session_scope(db) as s:
        rows = s.scalars(select(IdentityProbeCallRow)).all()
        assert len(rows) == 120 and all(r.status == "ok" and r.raw_reply and r.completed_at for r in rows)
        assert all(r.guess in r.candidates and "MOCK" in r.raw_reply for r in rows)
    again = run_judge_probe("m", n=40, db_url=db)
    assert again.calls_made == 0 and again.reused == 120  # never paid twice

    inputs = collect_audit_inputs("m", db).model_copy(update={"judge_probe": probe_rows("m", db)})
    md = render_markdown(build_report(inputs))
    assert "Can a judge tell who wrote this?" in md and "| mock-openai | openai | 40 |" in md
    assert "Identity-guess probe: mock-openai named the author's family above chance" in md
    assert "MOCK PANEL: these are scripted guesses" in md


def test_failed_attempts_are_kept_and_retried_in_a_chain(season, tmp_path):
    panel = yaml.safe_load(MOCK_PANEL.read_text())
    panel["mock"]["failures"] = {"mock-xai": ["server-error"]}
    path = tmp_path / "mock-failing.yaml"
    path.write_text(yaml.safe_dump(panel))
    db = f"sqlite:///{tmp_path / 'f.db'}"
    grade_season(season, rubric_name="v0.4", panel_name=str(path), run_id="f", db_url=db, progress=False)
    result = run_judge_probe("f", n=10, db_url=db)
    assert result.answered["mock-xai"] == 10
    with session_scope(db) as s:
        xai = s.scalars(select(IdentityProbeCallRow).where(IdentityProbeCallRow.judge_id == "mock-xai")).all()
    assert sorted((r.attempt, r.status) for r in xai) == [(1, "failed")] * 10 + [(2, "ok")] * 10
    assert all(r.error for r in xai if r.status == "failed")
    assert len(probe_rows("f", db)) == 30  # the final answer per judge and item


def test_an_interrupted_probe_asks_only_what_is_missing(season, tmp_path):
    db = f"sqlite:///{tmp_path / 'i.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="m", db_url=db, progress=False)
    run_judge_probe("m", n=10, db_url=db)
    with session_scope(db) as s:  # as if the process died with three calls in flight
        for row in s.scalars(select(IdentityProbeCallRow).where(IdentityProbeCallRow.judge_id == "mock-xai").limit(3)):
            row.status, row.guess, row.raw_reply = "sent", None, None
    resumed = run_judge_probe("m", n=10, db_url=db)
    assert resumed.calls_made == 3 and resumed.reused == 27
    with session_scope(db) as s:
        assert s.query(IdentityProbeCallRow).filter_by(status="sent").count() == 3  # kept, visible
        assert s.query(IdentityProbeCallRow).count() == 33


def test_refusals_before_anything_is_sent(tmp_path, season):
    db = f"sqlite:///{tmp_path / 'r.db'}"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="ref", db_url=db, progress=False)
    with pytest.raises(ProbeError, match="not an LLM"):
        run_judge_probe("ref", db_url=db)
    with pytest.raises(ProbeError, match="no run"):
        run_judge_probe("nope", db_url=db)
    with session_scope(db) as s:
        assert s.query(IdentityProbeCallRow).count() == 0


def test_guess_parsing_normalises_case_and_refuses_off_list_answers():
    cands = ["openai", "anthropic", "xai"]
    assert parse_guess({"family": " OpenAI ", "confidence": 0.7, "reason": ""}, cands) == ("openai", 0.7, None)
    assert parse_guess({"family": "x-ai", "confidence": 3, "reason": ""}, cands) == ("xai", None, None)
    guess, _, error = parse_guess({"family": "google", "confidence": 0.5}, cands)
    assert guess is None and "not one of the candidates" in error
    assert parse_guess(None, cands)[2] == "the reply is not a JSON object"


def test_statistics_by_hand():
    def rows(judge, family, answers):
        return [
            {
                "judge_id": judge,
                "judge_family": family,
                "true_family": t,
                "guess": g,
                "status": "ok" if g else "invalid",
            }
            for t, g in answers
        ]

    # judge A (openai): 10 items, 5 openai + 5 anthropic, 9 named correctly; it names openai for all 5 openai
    # items and for 1 anthropic item. chance 0.5: P(X >= 9 | 10, 0.5) = 11/1024
    a = rows("A", "openai", [("openai", "openai")] * 5 + [("anthropic", "anthropic")] * 4 + [("anthropic", "openai")])
    # judge B (anthropic): 5 of 10 right, one reply invalid
    b = rows(
        "B",
        "anthropic",
        [("openai", "openai")] * 3
        + [("openai", "anthropic")] * 2
        + [("anthropic", "anthropic")] * 2
        + [("anthropic", "openai")] * 2
        + [("anthropic", None)],
    )
    stats = {g.judge_id: g for g in judge_guess_stats(a + b)}
    ga, gb = stats["A"], stats["B"]
    assert (ga.items, ga.correct, ga.chance) == (10, 9, 0.5)
    assert ga.p_value == pytest.approx(11 / 1024)
    assert (ga.own_items, ga.own_named, ga.own_claimed_on_others) == (5, 5, 1)
    assert (gb.items, gb.unanswered, gb.correct) == (9, 1, 5)
    assert gb.chance == pytest.approx(5 / 9)  # answered items: 5 openai, 4 anthropic
    assert gb.p_value == pytest.approx(binom.sf(4, 9, 5 / 9))
    # Holm over two judges: the smaller p doubled
    assert ga.p_value_holm == pytest.approx(2 * 11 / 1024) and ga.flagged and not gb.flagged
    lo, hi = ga.leak_rate_ci
    assert lo < 0.9 < hi


def test_a_smaller_probe_after_a_larger_one_says_what_its_table_merges(season, tmp_path, monkeypatch):
    """Issue 31: `probe-judges --n 10` after `--n 60` said "10 items" while its table merged every stored item."""
    from typer.testing import CliRunner

    from grader.cli import app

    db = f"sqlite:///{tmp_path / 'p.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", db)
    monkeypatch.setenv("COLUMNS", "250")
    grade_season(season, rubric_name="v0.4", panel_name="mock", run_id="m", db_url=db, progress=False)
    runner = CliRunner()
    first = runner.invoke(app, ["probe-judges", "--run", "m", "--n", "20"])
    assert first.exit_code == 0, first.output
    assert "the table covers this probe's 20 items" in first.output
    second = runner.invoke(app, ["probe-judges", "--run", "m", "--n", "10", "--seed", "5"])
    assert second.exit_code == 0, second.output
    merged = len({r["item_key"] for r in probe_rows("m", db)})
    assert merged > 20  # another seed draws other items: the stored answers are merged
    text = " ".join(second.output.split())
    assert "this probe: 10 items (--n 10, --seed 5)" in text
    assert (
        f"the table merges every item probed in this run so far: {merged} items (10 of this probe and "
        f"{merged - 10} more from earlier probes"
    ) in text
    assert f"Identity-guess probe of run m: {merged} items" in text
    assert all(g.items == merged for g in judge_guess_stats(probe_rows("m", db)))
