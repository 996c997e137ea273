"""Reproduce CapitalBench's own scored tables from bundles built by our adapter.

For every resolved round in the data (both tracks and the pilot round), the per-model portfolio return,
S&P 500 return, alpha, regret and HHI computed by ``score_rounds`` equal the values in that round's
official ``results/leaderboard.csv`` to 1e-9. Pending rounds withhold their outcome.
"""

from __future__ import annotations

from datetime import date

import pytest

from grader.adapters import import_capitalbench_with_summary
from grader.replay._rounds import RoundResults, score_rounds
from tests.adapters.cb_helpers import (
    ROUNDS,
    is_resolved,
    leaderboard,
    official_run,
    round_ids,
    rounds_dir,
    track_of,
)

RESOLVED = [rid for rid in round_ids() if is_resolved(ROUNDS / rid)]
PENDING = [rid for rid in round_ids() if not is_resolved(ROUNDS / rid) and official_run(ROUNDS / rid) is not None]


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, RoundResults]:
    """round id -> the results of the bundle that holds it (one bundle per track, pilot rounds alone)."""
    src = rounds_dir()
    base = tmp_path_factory.mktemp("cb")
    by_round: dict[str, RoundResults] = {}
    for track in ("1W", "1M"):
        summary = import_capitalbench_with_summary(src, track, None, None, base / track)
        results = score_rounds(base / track)
        by_round |= {r.round_id: results for r in results.rounds}
        for rid, why in summary.skipped:
            if why.startswith("publication_stream"):
                alone = import_capitalbench_with_summary(src, track, None, None, base / rid, round_ids=[rid])
                by_round[rid] = score_rounds(alone.path)
    return by_round


@pytest.mark.parametrize("round_id", RESOLVED)
def test_resolved_round_matches_official_leaderboard(scored: dict[str, RoundResults], round_id: str) -> None:
    results = scored[round_id]
    assert results.round(round_id).status == "resolved"
    rows = leaderboard(ROUNDS / round_id)
    assert rows, "an official leaderboard with rows"
    ours = sorted(o.contestant_id for o in results.outcomes if o.round_id == round_id)
    assert ours == sorted(r["model_id"] for r in rows)
    for row in rows:
        o = results.outcome(round_id, row["model_id"])
        assert o is not None and o.status == "resolved" and o.withheld is None
        # single-pick rounds report the selected asset's return; portfolio rounds the portfolio return
        expected_return = float(row["portfolio_return"] or row["selected_asset_return"])
        assert o.portfolio_return == pytest.approx(expected_return, abs=1e-9, rel=0)
        assert o.benchmark_return == pytest.approx(float(row["sp500_return"]), abs=1e-9, rel=0)
        assert o.alpha == pytest.approx(float(row["alpha_vs_sp500"]), abs=1e-9, rel=0)
        assert o.regret == pytest.approx(float(row["regret_vs_best_option"]), abs=1e-9, rel=0)
        assert o.hhi == pytest.approx(float(row["concentration_hhi"]), abs=1e-9, rel=0)
        assert o.beats_benchmark == (row["beats_sp500"] == "True")
        assert o.beats_cash == (row["beats_cash"] == "True")


@pytest.mark.parametrize("round_id", PENDING)
def test_pending_round_withholds_outcome(scored: dict[str, RoundResults], round_id: str) -> None:
    results = scored[round_id]
    summary = results.round(round_id)
    assert summary.status == "pending" and summary.exit_date is None
    assert summary.oracle_return is None and summary.benchmark_return is None
    outcomes = [o for o in results.outcomes if o.round_id == round_id]
    assert outcomes
    for o in outcomes:
        assert (o.portfolio_return, o.alpha, o.regret, o.oracle_score, o.benchmark_return) == (None,) * 5
        assert o.withheld and "pending" in o.withheld
        assert o.hhi > 0  # the pick itself is public


def test_every_round_with_a_run_is_covered(scored: dict[str, RoundResults]) -> None:
    with_runs = [rid for rid in round_ids() if (ROUNDS / rid / "runs").is_dir()]
    assert sorted(scored) == sorted(with_runs)
    assert sorted(RESOLVED + PENDING) == sorted(with_runs)


def test_comparison_sets_use_only_rounds_every_member_completed(scored: dict[str, RoundResults]) -> None:
    for track in ("1W", "1M"):
        results = next(r for rid, r in scored.items() if track_of(rid) == track and "-V2-" not in rid)
        assert results.comparison_sets
        for cs in results.comparison_sets:
            for rid in cs.round_ids:
                done = {
                    o.contestant_id for o in results.outcomes if o.round_id == rid and o.portfolio_return is not None
                }
                assert set(cs.members) <= done
            for row in cs.rows:
                outs = [results.outcome(rid, row.contestant_id) for rid in cs.round_ids]
                assert row.sum_return == pytest.approx(sum(o.portfolio_return for o in outs))
                assert row.score == pytest.approx(100 * row.sum_return / row.sum_oracle_return)


def test_without_round_prices_the_table_is_not_reproduced(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Why market/round_prices.csv exists: a round's own adjusted closes differ from the first-published ones."""
    src = rounds_dir()
    out = tmp_path_factory.mktemp("june") / "b"
    import_capitalbench_with_summary(src, "1W", date(2026, 6, 1), date(2026, 6, 30), out)
    (out / "market" / "round_prices.csv").unlink()
    results = score_rounds(out)
    off = 0
    for rid in results.resolved_round_ids:
        for row in leaderboard(ROUNDS / rid):
            o = results.outcome(rid, row["model_id"])
            if o.portfolio_return is None or abs(o.portfolio_return - float(row["portfolio_return"])) > 1e-9:
                off += 1
    assert off > 0


def test_comparison_set_standings_follow_from_the_published_round_results(scored: dict[str, RoundResults]) -> None:
    """The ranking surface the leaderboard, report and console show, recomputed from CapitalBench's own published
    per-round results (each official results/leaderboard.csv: return, and oracle = return + regret vs the best
    option) with seed 001's formula 100 × Σ returns / Σ oracle returns over each set's shared rounds: the same
    scores and the same ranks. (The data holds no published comparison-set table to compare with directly.)"""
    from grader.replay import comparison_set_standings

    checked = 0
    for track in ("1W", "1M"):
        results = next(r for rid, r in scored.items() if track_of(rid) == track and "-V2-" not in rid)
        for st in comparison_set_standings(results):
            published: dict[str, float] = {}
            for m in st["members"]:
                rets, orcs = [], []
                for rid in st["round_ids"]:
                    row = next(r for r in leaderboard(ROUNDS / rid) if r["model_id"] == m)
                    ret = float(row["portfolio_return"] or row["selected_asset_return"])
                    rets.append(ret)
                    orcs.append(ret + float(row["regret_vs_best_option"]))
                published[m] = 100 * sum(rets) / sum(orcs)
            assert st["scores"] == pytest.approx(published, abs=1e-9)
            order = sorted(published, key=lambda m: (-published[m], m))
            assert [m for m in sorted(st["ranks"], key=lambda m: st["ranks"][m])] == order
            checked += 1
    assert checked >= 2
