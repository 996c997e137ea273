"""A rounds season's outcome says only what is true (issue 31): it is ranked inside CapitalBench's equal-run
comparison sets (100 × Σ returns / Σ oracle returns over the rounds every member completed; a model added later
starts a new set) in the leaderboard, the report and the console, with all-rounds figures as context; an outcome over
part of a contestant's rounds says how many, a cancelled round is said to be cancelled (never "pending"), and the
report header of a partly resolved season does not say "(resolved)"."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from grader.adapters import import_capitalbench_with_summary
from grader.cli import app
from grader.replay import (
    RoundPick,
    RoundsData,
    RoundSpec,
    comparison_set_standings,
    rounds_scope,
    score_rounds,
)
from grader.replay._rounds import PricePair
from tests.adapters.cb_helpers import rounds_dir

RESOLVED, PENDING, CANCELLED = "CB-2026-06-02-1W", "CB-2026-06-05-1W", "CB-2026-06-12-1W"
ROOT = Path(__file__).resolve().parents[2]


def _job(rd: Path, status: str, last_error: str = "") -> None:
    job = yaml.safe_load((rd / "automation" / "resolution_job.yaml").read_text())
    job.update(status=status, last_error=last_error)
    (rd / "automation" / "resolution_job.yaml").write_text(yaml.safe_dump(job))


@pytest.fixture
def partly(tmp_path: Path) -> Path:
    """A season of three real rounds: one resolved, one pending (scoring scheduled), one cancelled upstream."""
    src = tmp_path / "rounds"
    for rid in (RESOLVED, PENDING, CANCELLED):
        shutil.copytree(rounds_dir() / rid, src / rid)
    (src / PENDING / "prices" / "exit_prices.csv").unlink()
    _job(src / PENDING, "scheduled")
    shutil.rmtree(src / CANCELLED / "prices")
    _job(src / CANCELLED, "cancelled", "excluded from scoring: only 4 of 8 production models")
    import_capitalbench_with_summary(src, "1W", None, None, tmp_path / "b")
    return tmp_path / "b"


def test_a_cancelled_round_is_cancelled_never_pending(partly: Path):
    results = score_rounds(partly)
    status = {r.round_id: r.status for r in results.rounds}
    assert status == {RESOLVED: "resolved", PENDING: "pending", CANCELLED: "cancelled"}
    cancelled = [o for o in results.outcomes if o.round_id == CANCELLED]
    assert cancelled and all(o.status == "cancelled" and "never resolve" in (o.withheld or "") for o in cancelled)
    assert all("only 4 of 8" in (o.withheld or "") for o in cancelled)
    every = [c for c in results.contestants if c.rounds_decided == 3]
    assert every and all((c.rounds_resolved, c.rounds_pending, c.rounds_cancelled) == (1, 1, 1) for c in every)


def test_partial_resolution_is_said_in_the_prompt_leaderboard_report_and_console(
    partly: Path, tmp_path: Path, monkeypatch
):
    url = f"sqlite:///{tmp_path / 'g.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    monkeypatch.setenv("COLUMNS", "250")
    runner = CliRunner()
    out = runner.invoke(app, ["grade", str(partly), "--panel", "reference", "--run-id", "p", "--quiet"])
    assert out.exit_code == 0, out.output
    scope = "over 1 of 3 rounds (1 pending; 1 cancelled upstream, never resolves)"
    assert scope in " ".join(out.output.split())  # the leaderboard printed after grading
    assert "Outcome ranking: CapitalBench comparison sets" in out.output

    from grader.panel.leaderboard import leaderboard_rows

    rows = leaderboard_rows("p", None, url)[1]
    assert rows and any(r["rounds_scope"] == scope for r in rows)
    assert all("of" in r["rounds_scope"] for r in rows)
    from sqlalchemy import select

    from grader.storage import PromptRow, session_scope

    with session_scope(url) as s:
        users = [p.user for p in s.scalars(select(PromptRow))]
    assert users and any(f"These are means {scope}" in u for u in users)  # the judges are told too

    out = runner.invoke(app, ["report", "--run", "p", "--out", str(tmp_path / "rep")])
    assert out.exit_code == 0, out.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "(resolved)" not in md
    assert "partly resolved: 1 of 3 rounds resolved, 1 pending, 1 cancelled upstream (never resolves)" in md
    assert "Outcome ranking: comparison sets" in md and scope in md
    cancelled_lines = [line for line in md.splitlines() if CANCELLED in line and "|" in line]
    assert cancelled_lines and all("| cancelled |" in line and "| pending |" not in line for line in cancelled_lines)

    from tests.console._helpers import app_test, page_text

    at = app_test().run()
    at.switch_page("views/leaderboard.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = page_text(at)
    assert "Outcome ranking: comparison sets" in text and "equal-run comparison sets" in text
    frames = [d.value for d in at.dataframe]
    assert any("outcome_over" in f.columns and scope in set(f["outcome_over"]) for f in frames)
    assert any("set score" in f.columns for f in frames)
    at.switch_page("views/contestant.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Leaderboard outcome figures: means over " in page_text(at)


def _synthetic() -> RoundsData:
    """Three rounds; model C joins in round 3 (a new set). Returns are chosen so the sums are easy by hand."""
    day = datetime(2026, 1, 5, 15, tzinfo=UTC)
    specs = [
        RoundSpec(
            id=f"R{i}",
            decided_at=day.replace(day=5 + i),
            entry_date=day.date().replace(day=5 + i),
            exit_date=day.date().replace(day=12 + i),
        )
        for i in (1, 2, 3)
    ]
    # options X, Y; the oracle is the best of them each round; SPX is the benchmark
    prices = {
        "R1": {"X": (100, 108), "Y": (100, 104), "SPX": (100, 101)},  # oracle +8%
        "R2": {"X": (100, 99), "Y": (100, 102), "SPX": (100, 100)},  # oracle +2%
        "R3": {"X": (100, 110), "Y": (100, 95), "SPX": (100, 100)},
    }  # oracle +10%
    picks = [
        ("R1", "A", "Y"),
        ("R2", "A", "X"),
        ("R3", "A", "Y"),  # A: +4%, -1%, -5%
        ("R1", "B", "X"),
        ("R2", "B", "X"),
        ("R3", "B", "X"),  # B: +8%, -1%, +10%
        ("R3", "C", "X"),
    ]  # C: +10% (joins late)
    return RoundsData(
        benchmark="SPX",
        rounds=specs,
        picks=[RoundPick(round_id=r, contestant_id=c, weights={s: 1.0}) for r, c, s in picks],
        prices={r: {s: PricePair(entry=a, exit=b) for s, (a, b) in p.items()} for r, p in prices.items()},
    )


def test_comparison_sets_are_ranked_as_capitalbench_defines_them():
    sets = comparison_set_standings(score_rounds(_synthetic()))
    assert [(s["members"], s["round_ids"]) for s in sets] == [
        (["A", "B"], ["R1", "R2", "R3"]),
        (["A", "B", "C"], ["R3"]),
    ]
    first, late = sets
    # seed 001: 100 x Σ returns / Σ oracle returns over the shared rounds
    assert first["scores"]["A"] == pytest.approx(100 * (0.04 - 0.01 - 0.05) / (0.08 + 0.02 + 0.10))
    assert first["scores"]["B"] == pytest.approx(100 * (0.08 - 0.01 + 0.10) / 0.20)
    assert first["ranks"] == {"B": 1, "A": 2}
    assert late["scores"] == pytest.approx({"A": -50.0, "B": 100.0, "C": 100.0})
    assert late["ranks"]["A"] == 3


def test_the_leaderboard_oracle_score_is_the_comparison_set_score_with_all_rounds_as_context(tmp_path):
    """On the bundled CapitalBench season, a contestant with 3 rounds is never ranked on its own 3 rounds beside
    others' 19: every leaderboard oracle score is its set's score over the rounds that set shares."""
    from grader.replay import rounds_outcomes
    from grader.season import load_bundle

    bundle = load_bundle(ROOT / "seasons" / "cb-2026-06-1w")
    out, _ = rounds_outcomes(bundle)
    results = score_rounds(bundle.path)
    by = {(o.round_id, o.contestant_id): o for o in results.outcomes}
    history = {c.contestant_id: c for c in results.contestants}
    few = [c for c, h in history.items() if h.rounds_resolved < max(x.rounds_resolved for x in history.values())]
    assert few, "the bundled season has a model that joined later"
    for cid, o in out.items():
        cs = o["comparison_set"]
        st = next(s for s in comparison_set_standings(results) if s["number"] == cs["number"])
        rets = [by[(r, cid)].portfolio_return for r in st["round_ids"]]
        orcs = [by[(r, cid)].oracle_return for r in st["round_ids"]]
        assert o["oracle_score"] == pytest.approx(100 * sum(rets) / sum(orcs))
        assert o["oracle_score_all_rounds"] == history[cid].score_all_available
        assert cs["rounds"] == len(st["round_ids"]) and set(few) <= set(st["members"])
    assert (
        rounds_scope(out[few[0]]) == f"over {history[few[0]].rounds_resolved} of "
        f"{history[few[0]].rounds_decided} rounds"
    )


def test_a_record_whose_only_round_was_cancelled_is_not_told_the_season_is_pending(tmp_path: Path):
    from grader.panel._prompts import judge_prompts
    from grader.season import load_bundle
    from rubric import load_rubric

    src = tmp_path / "rounds"
    shutil.copytree(rounds_dir() / CANCELLED, src / CANCELLED)
    shutil.rmtree(src / CANCELLED / "prices")
    _job(src / CANCELLED, "cancelled", "excluded from scoring: only 4 of 8 production models")
    import_capitalbench_with_summary(src, "1W", None, None, tmp_path / "b")
    bundle = load_bundle(tmp_path / "b")
    assert bundle.info.rounds[0].cancelled and "only 4 of 8" in bundle.info.rounds[0].cancelled
    *_, prompts = judge_prompts(bundle, load_rubric("v0.4"))
    assert prompts
    for p in prompts.values():
        outcome = p.user[p.user.index("# OUTCOME") :]
        assert "pending" not in outcome.replace("0 pending", "")
        assert "cancelled upstream, never resolves" in outcome and "Score the outcome axis null" in outcome


def test_an_outcome_stored_before_comparison_sets_is_never_shown_as_a_set_score(partly: Path, tmp_path: Path):
    from sqlalchemy import select

    from grader.panel import grade_season
    from grader.panel.leaderboard import leaderboard_rows
    from grader.storage import ContestantScoreRow, session_scope

    url = f"sqlite:///{tmp_path / 'old.db'}"
    grade_season(partly, rubric_name="v0.4", panel_name="reference", run_id="o", db_url=url, progress=False)
    with session_scope(url) as s:  # the outcome as runs stored it before: all-rounds score as "oracle_score"
        for row in s.scalars(select(ContestantScoreRow)):
            o = dict(row.outcome)
            for k in ("comparison_set", "comparison_sets", "oracle_score_all_rounds", "rounds_decided"):
                o.pop(k, None)
            o["oracle_score"] = 42.0
            row.outcome = o
    rows = leaderboard_rows("o", None, url)[1]
    assert all(r["oracle_score"] is None and r["oracle_score_all_rounds"] == 42.0 for r in rows)
    assert all(r["rounds_scope"].startswith("over ") for r in rows)
