"""The console's read side on SQLite and PostgreSQL: leaderboard, grades, ledgers, blind items, NAV, compare."""

from __future__ import annotations

import shutil

import pytest

from console import (
    LedgerFilters,
    build_synthetic_run,
    calibration_items,
    calibration_queue,
    compare_rubrics,
    compare_runs,
    contestant_nav,
    decision_timeline,
    judge_grades,
    leaderboard,
    ledger_page,
    list_runs,
    run_contestants,
    run_label,
)
from console._queries import blind_record
from grader.panel.leaderboard import leaderboard_rows


def test_leaderboard_matches_the_stored_scores(any_db_env):
    meta, frame = leaderboard(any_db_env.run_id, any_db_env.db_url)
    _, rows = leaderboard_rows(any_db_env.run_id, None, any_db_env.db_url)
    assert meta["run_type"] == "mock"
    assert list(frame["contestant_id"]) == [r["contestant_id"] for r in rows]
    assert list(frame["total"]) == [r["total"] for r in rows]
    for _, r in frame.iterrows():
        assert r["judge_spread"] == pytest.approx(r["judges_high"] - r["judges_low"])
        assert r["judges_low"] <= r["reasoning_median"] <= r["judges_high"]
    runs = list_runs(any_db_env.db_url)
    assert [r.run_id for r in runs] == [any_db_env.run_id]
    assert runs[0].latest_version == meta["version"]


def test_run_labels_are_prominent_for_non_llm_runs():
    from audits import RUN_TYPE_LABELS

    for run_type, label in RUN_TYPE_LABELS.items():  # the console says what the published report says
        assert run_label(run_type) == label
    assert "MOCK PANEL" in run_label("mock")
    assert "REFERENCE BASELINE" in run_label("baseline")
    assert "DRY RUN" in run_label("dry-run")
    assert run_label("official") is None


def test_judge_grades_and_timeline(any_db_env):
    people = run_contestants(any_db_env.run_id, any_db_env.db_url)
    m1 = next(c for c in people if c.key == "m1")
    grades = judge_grades(any_db_env.run_id, m1.row_id, any_db_env.db_url)
    assert sorted(g.judge_id for g in grades) == ["judge-anthropic", "judge-openai", "judge-xai"]
    for g in grades:
        assert len(g.reasoning_sub_scores) == 10 and len(g.evidence_sub_scores) == 7
        assert 0 <= g.composite <= 100 and g.verdict
    timeline = decision_timeline(m1.row_id, any_db_env.db_url)
    assert list(timeline["what"]) == ["buy 10 AAA @ 101.0", "sell 10 AAA @ 103.0"]
    assert timeline["decided_at"].is_monotonic_increasing


def test_ledger_filters_and_pagination(any_db_env):
    url, run = any_db_env.db_url, any_db_env.run_id
    everything = ledger_page(run, None, 1, 200, url)
    assert everything.total == len(everything.entries) > 0
    seen = []
    for page in range(1, ledger_page(run, None, 1, 2, url).pages + 1):
        seen += [e.id for e in ledger_page(run, None, page, 2, url).entries]
    assert seen == [e.id for e in everything.entries]  # pages cover all, no overlap, stable order
    for e in everything.entries:
        assert e.evidence and {"symbol", "field", "value", "observed_at", "source"} <= set(e.evidence[0])
        assert e.verifier_reason
    disagree = ledger_page(run, LedgerFilters(disagrees=True), 1, 200, url)
    agree = ledger_page(run, LedgerFilters(disagrees=False), 1, 200, url)
    assert disagree.total + agree.total == everything.total
    assert all(e.judge_status != e.verifier_status for e in disagree.entries)
    judge = ledger_page(run, LedgerFilters(judge_id="judge-xai", verifier_statuses=["supported"]), 1, 200, url)
    assert judge.total == sum(
        1 for e in everything.entries if e.judge_id == "judge-xai" and e.verifier_status == "supported"
    )
    beyond = ledger_page(run, None, 999, 2, url)
    assert beyond.page == beyond.pages  # clamped


def test_blind_items_hide_identity_and_queue_needs_a_second_annotator(any_db_env):
    url, run = any_db_env.db_url, any_db_env.run_id
    items = calibration_items(run, url)
    people = run_contestants(run, url)
    assert len(items) == len(people) and all(i.has_record for i in items)
    for item in items:
        assert item.alias.startswith("Item ")
        for c in people:
            assert c.key not in item.alias and c.display_name not in item.alias
        record = blind_record(run, item.contestant_row_id, url)
        for c in people:
            assert c.display_name not in record.user and c.model not in record.user
    first = items[0].model_copy(update={"annotators": ["alice"]})
    both = items[1].model_copy(update={"annotators": ["alice", "bob"]})
    queue = calibration_queue([first, both], "bob")
    assert [i.alias for i in queue["needs_second"]] == [first.alias]
    assert [i.alias for i in queue["mine"]] == [both.alias]
    assert calibration_queue([first, both], "alice")["needs_second"] == []


def test_nav_replays_the_stored_decisions_like_the_full_bundle(any_db_env):
    from grader.replay import replay_season
    from grader.season import load_bundle

    full = replay_season(load_bundle(any_db_env.bundle))
    for c in run_contestants(any_db_env.run_id, any_db_env.db_url):
        nav = contestant_nav(c.row_id, any_db_env.db_url)
        assert nav.available, nav.reason
        assert list(nav.frame["NAV"]) == pytest.approx(list(full[c.key].nav))
        assert list(nav.frame["benchmark (SP500)"]) == pytest.approx(list(full[c.key].benchmark_nav))
        assert nav.outcome["portfolio_return"] == pytest.approx(full[c.key].outcome.portfolio_return)


def test_nav_says_why_when_the_bundle_moved_or_changed(console_env):
    c = run_contestants(console_env.run_id, console_env.db_url)[0]
    prices = console_env.bundle / "market" / "prices.csv"
    prices.write_text(prices.read_text() + "\n")
    changed = contestant_nav(c.row_id, console_env.db_url)
    assert not changed.available and "changed since the season was imported" in changed.reason
    shutil.rmtree(console_env.bundle)
    moved = contestant_nav(c.row_id, console_env.db_url)
    assert not moved.available and "not found" in moved.reason


def test_compare_two_runs_and_two_rubrics(any_db_env):
    url = any_db_env.db_url
    build_synthetic_run(any_db_env.bundle, "syn-run-2", db_url=url, claims_per_grade=2, seed=5)
    frame = compare_runs(any_db_env.run_id, "syn-run-2", url)
    _, a = leaderboard(any_db_env.run_id, url)
    _, b = leaderboard("syn-run-2", url)
    assert len(frame) == 2
    for _, row in frame.iterrows():
        ta = float(a.loc[a["contestant_id"] == row["contestant_id"], "total"].iloc[0])
        tb = float(b.loc[b["contestant_id"] == row["contestant_id"], "total"].iloc[0])
        assert row["Δ total"] == pytest.approx(tb - ta)
    rubrics = compare_rubrics(any_db_env.run_id, "v0.4", "v0.4", url)
    assert len(rubrics) == 2
    assert (rubrics["total A"] == rubrics["total B"]).all() and not rubrics["rank moved"].any()
    stored = dict(zip(a["contestant_id"], a["total"], strict=True))
    for _, row in rubrics.iterrows():  # re-scoring under the run's own rubric reproduces the stored totals
        assert row["total A"] == pytest.approx(stored[row["contestant_id"]])
    other = compare_rubrics(any_db_env.run_id, "v0.3", "v0.4", url)
    assert other.attrs["rubrics"]["A"] != other.attrs["rubrics"]["B"]
    # the same figures as the CLI's `grader rubric diff --run` (both score through grader.scoring.scores_under)
    from grader.panel.compare import scores_under
    from rubric import load_rubric

    reference = {
        r["contestant"]: (r["a"].total, r["b"].total, r["a"].rank, r["b"].rank, r["a"].band, r["b"].band)
        for r in scores_under(any_db_env.run_id, [load_rubric("v0.3"), load_rubric("v0.4")], url)
    }
    mine = {
        row["contestant_id"]: (
            row["total A"],
            row["total B"],
            row["rank A"],
            row["rank B"],
            row["band A"],
            row["band B"],
        )
        for _, row in other.iterrows()
    }
    assert mine == reference


def test_a_rounds_season_shows_each_rounds_outcome_and_allocation(tmp_path):
    """A rounds season has no daily NAV: the contestant page shows the outcome of every round (return, S&P 500,
    alpha, regret, oracle score) and the allocation weights, pending rounds with the reason."""
    from console._nav import round_outcomes
    from console._queries import decision_timeline
    from grader.panel import grade_season
    from grader.storage import ContestantRow, session_scope
    from tests.conftest import REPO

    url = f"sqlite:///{tmp_path / 'r.db'}"
    season = REPO / "seasons" / "cb-2026-06-1w"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="r", db_url=url, progress=False)
    with session_scope(url) as s:
        row = s.query(ContestantRow).filter(ContestantRow.contestant_key == "openai-gpt-5-5").one()
    frame = round_outcomes(row.id, url)
    assert len(frame) >= 15 and set(frame["status"]) == {"resolved"}
    first = frame.iloc[0]
    assert first["return"] is not None and first["S&P 500"] is not None
    assert abs(first["alpha"] - (first["return"] - first["S&P 500"])) < 1e-12
    assert "%" in first["allocation"]
    timeline = decision_timeline(row.id, url)
    assert timeline["what"].str.startswith("allocation: ").all()


def test_runs_of_different_seasons_count_only_matched_contestants_as_moves(console_env, tmp_path):
    """A contestant in one run only is 'only A' / 'only B', never a rank move or a band change."""
    other = tmp_path / "other"
    shutil.copytree(console_env.bundle, other)
    for name in ("season.yaml", "contestants.yaml", "decisions.jsonl"):
        path = other / name
        text = path.read_text().replace("id: tiny", "id: tiny-two") if name == "season.yaml" else path.read_text()
        path.write_text(text.replace('"m2"', '"m3"').replace("id: m2", "id: m3"))
    build_synthetic_run(other, "other-run", db_url=console_env.db_url, claims_per_grade=2, seed=3)
    frame = compare_runs(console_env.run_id, "other-run", console_env.db_url).set_index("contestant_id")
    assert frame.loc["m2", "in"] == "only A" and frame.loc["m3", "in"] == "only B" and frame.loc["m1", "in"] == "both"
    assert frame.loc["m2", "rank moved"] is None and frame.loc["m3", "band changed"] is None
    assert frame.loc["m1", "rank moved"] in (True, False)


def test_a_runs_latest_version_is_its_number_within_the_run(any_db_env):
    """Version ids are global; the run picker speaks of the run's own numbers (1, 2, ...)."""
    build_synthetic_run(any_db_env.bundle, "second-run", db_url=any_db_env.db_url, claims_per_grade=1, seed=2)
    runs = {r.run_id: r for r in list_runs(any_db_env.db_url)}
    assert runs["second-run"].latest_version == 1 and runs[any_db_env.run_id].latest_version == 1
