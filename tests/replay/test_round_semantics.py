"""Round semantics (seed 001): independent rounds, oracle-normalised score, pending rounds, comparison sets."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from grader.replay._rounds import PricePair, RoundPick, RoundsData, RoundSpec, comparison_set, score_rounds

T0 = datetime(2026, 6, 1, 22, 0, tzinfo=UTC)


def _spec(i: int, resolved: bool = True) -> RoundSpec:
    entry = date(2026, 6, 1) + timedelta(days=i)
    return RoundSpec(
        id=f"R{i}",
        decided_at=T0 + timedelta(days=i),
        entry_date=entry,
        exit_date=entry + timedelta(days=7) if resolved else None,
        cash_symbol="CASH",
    )


def _prices(returns: dict[str, float | None]) -> dict[str, PricePair]:
    """Entry 100 for every symbol; exit 100 × (1 + r), or no exit (pending)."""
    return {s: PricePair(entry=100.0, exit=None if r is None else 100.0 * (1 + r)) for s, r in returns.items()}


def _data(
    rounds: list[tuple[RoundSpec, dict[str, float | None]]], picks: list[tuple[str, str, dict[str, float]]]
) -> RoundsData:
    return RoundsData(
        benchmark="SPX",
        rounds=[s for s, _ in rounds],
        prices={s.id: _prices(r) for s, r in rounds},
        picks=[RoundPick(round_id=rid, contestant_id=cid, weights=w) for rid, cid, w in picks],
    )


def test_per_round_figures_follow_the_seed_definitions() -> None:
    data = _data(
        [(_spec(0), {"SPX": 0.01, "AAA": 0.0462, "BBB": 0.0324, "CCC": -0.03})],
        [("R0", "m1", {"AAA": 0.5, "BBB": 0.5}), ("R0", "m2", {"CCC": 0.6, "CASH": 0.4})],
    )
    res = score_rounds(data)
    m1, m2 = res.outcome("R0", "m1"), res.outcome("R0", "m2")
    assert m1.portfolio_return == pytest.approx(0.0393)
    assert m1.benchmark_return == pytest.approx(0.01) and m1.alpha == pytest.approx(0.0293)
    assert m1.oracle_return == pytest.approx(0.0462) and m1.regret == pytest.approx(0.0462 - 0.0393)
    assert m1.oracle_score == pytest.approx(85.06, abs=0.01)  # seed 001: 3.93% against 4.62% scores 85.1
    assert m1.hhi == pytest.approx(0.5)
    # cash is unpriced here: it returns 0
    assert m2.portfolio_return == pytest.approx(0.6 * -0.03)
    assert m2.cash_weight == pytest.approx(0.4) and m2.hhi == pytest.approx(0.36 + 0.16)
    assert m2.beats_cash is False and m2.beats_benchmark is False
    assert res.round("R0").oracle_symbols == ["AAA"]


def test_losses_score_below_zero_and_smaller_losses_rank_higher() -> None:
    data = _data(
        [(_spec(0), {"SPX": 0.0, "WIN": 0.04, "L1": -0.02, "L2": -0.01})],
        [("R0", "a", {"L1": 1.0}), ("R0", "b", {"L2": 1.0})],
    )
    res = score_rounds(data)
    assert res.outcome("R0", "a").oracle_score == pytest.approx(-50.0)
    assert res.outcome("R0", "b").oracle_score == pytest.approx(-25.0)


def test_zero_oracle_matching_cash_scores_100_and_a_loss_is_unavailable() -> None:
    data = _data(
        [(_spec(0), {"SPX": -0.02, "AAA": -0.01})],  # every asset lost: the oracle is cash at 0
        [("R0", "cash", {"CASH": 1.0}), ("R0", "loser", {"AAA": 1.0})],
    )
    res = score_rounds(data)
    assert res.round("R0").oracle_return == 0.0 and res.round("R0").oracle_symbols == ["CASH"]
    assert res.outcome("R0", "cash").oracle_score == 100.0
    loser = res.outcome("R0", "loser")
    assert loser.oracle_score is None and loser.regret == pytest.approx(0.01)


def test_priced_cash_uses_its_price() -> None:
    data = _data([(_spec(0), {"SPX": 0.0, "CASH": 0.001, "AAA": -0.01})], [("R0", "c", {"CASH": 1.0})])
    assert score_rounds(data).outcome("R0", "c").portfolio_return == pytest.approx(0.001)


def test_pending_round_withholds_outcome_but_shows_the_pick() -> None:
    data = _data(
        [(_spec(0), {"SPX": 0.01, "AAA": 0.02}), (_spec(1, resolved=False), {"SPX": None, "AAA": None})],
        [("R0", "m", {"AAA": 1.0}), ("R1", "m", {"AAA": 0.5, "SPX": 0.5})],
    )
    res = score_rounds(data)
    pending = res.outcome("R1", "m")
    assert pending.status == "pending" and "withheld" in pending.withheld
    assert (pending.portfolio_return, pending.alpha, pending.regret, pending.oracle_score) == (
        None,
        None,
        None,
        None,
    )
    assert pending.hhi == pytest.approx(0.5)
    assert res.round("R1").status == "pending" and res.round("R1").option_returns == {}
    (c,) = res.contestants
    assert (c.rounds_decided, c.rounds_resolved, c.rounds_pending) == (2, 1, 1)
    assert c.average_alpha == pytest.approx(0.01)


def test_rounds_are_summed_never_compounded() -> None:
    # seed 001: +4% and -1% against oracles of +8% and +2% give 100 × (4 - 1) / (8 + 2) = 30
    data = _data(
        [(_spec(0), {"SPX": 0.0, "O": 0.08, "X": 0.04}), (_spec(1), {"SPX": 0.0, "O": 0.02, "Y": -0.01})],
        [("R0", "m", {"X": 1.0}), ("R1", "m", {"Y": 1.0})],
    )
    res = score_rounds(data)
    (cs,) = res.comparison_sets
    (row,) = cs.rows
    assert row.score == pytest.approx(30.0)
    assert row.sum_return == pytest.approx(0.03)  # compounding would give 1.04 × 0.99 - 1 = 0.0296
    assert res.contestants[0].score_all_available == pytest.approx(30.0)


def test_comparison_sets_keep_only_rounds_every_member_completed() -> None:
    r = {"SPX": 0.0, "UP": 0.1, "FLAT": 0.0}
    data = _data(
        [(_spec(0), r), (_spec(1), r), (_spec(2), r)],
        [
            ("R0", "a", {"UP": 1.0}),
            ("R0", "b", {"FLAT": 1.0}),
            ("R1", "a", {"UP": 1.0}),
            ("R1", "b", {"UP": 1.0}),
            ("R1", "late", {"FLAT": 1.0}),
            ("R2", "a", {"FLAT": 1.0}),
            ("R2", "late", {"UP": 1.0}),  # b missed R2
        ],
    )
    res = score_rounds(data)
    sets = {tuple(cs.members): cs for cs in res.comparison_sets}
    assert list(sets) == [("a", "b"), ("a", "b", "late"), ("a", "late")]
    assert sets[("a", "b")].round_ids == ["R0", "R1"]
    assert sets[("a", "b", "late")].round_ids == ["R1"]  # a model added later starts a new set
    assert sets[("a", "late")].round_ids == ["R1", "R2"]
    rows = {row.contestant_id: row for row in sets[("a", "b")].rows}
    assert rows["a"].score == pytest.approx(100.0) and rows["b"].score == pytest.approx(50.0)
    assert [row.contestant_id for row in sets[("a", "b")].rows] == ["a", "b"]  # best first
    adhoc = comparison_set(res.outcomes, ["b", "late"], [s.round_id for s in res.rounds])
    assert adhoc.round_ids == ["R1"]


def test_missing_option_price_leaves_oracle_and_regret_undefined() -> None:
    data = _data([(_spec(0), {"SPX": 0.01, "AAA": 0.02, "BBB": None})], [("R0", "m", {"AAA": 1.0})])
    o = score_rounds(data).outcome("R0", "m")
    assert o.portfolio_return == pytest.approx(0.02) and o.alpha == pytest.approx(0.01)
    assert o.oracle_return is None and o.regret is None and o.oracle_score is None


def _write_bundle(root: Path, with_round_prices: bool) -> Path:
    (root / "market").mkdir(parents=True)
    season = {
        "id": "r",
        "name": "rounds",
        "start": "2026-06-01",
        "end": "2026-06-30",
        "benchmark": "SPX",
        "starting_cash": 1.0,
        "format": "rounds",
        "universe": [{"symbol": s, "name": s} for s in ("SPX", "AAA", "CASH")],
        "rounds": [
            {
                "id": "R0",
                "decided_at": "2026-06-01T22:00:00Z",
                "entry_date": "2026-06-01",
                "exit_date": "2026-06-08",
                "cash_symbol": "CASH",
                "briefing": "Facts.",
            },
            {
                "id": "R1",
                "decided_at": "2026-06-02T22:00:00Z",
                "entry_date": "2026-06-02",
                "exit_date": None,
                "cash_symbol": "CASH",
            },
        ],
    }
    (root / "season.yaml").write_text(yaml.safe_dump(season, sort_keys=False))
    (root / "contestants.yaml").write_text(  # a bundle is validated whole before it is scored
        yaml.safe_dump([{"id": "m1", "display_name": "M One", "provider_family": "openai", "model": "m-1"}])
    )
    decisions = [
        {
            "contestant_id": "m1",
            "decided_at": "2026-06-01T22:00:00Z",
            "round_id": "R0",
            "trades": [],
            "rationale": "x",
            "allocation": [{"symbol": "AAA", "weight": 0.75}, {"symbol": "CASH", "weight": 0.25}],
        },
        {
            "contestant_id": "m1",
            "decided_at": "2026-06-02T22:00:00Z",
            "round_id": "R1",
            "trades": [],
            "rationale": "y",
            "allocation": [{"symbol": "AAA", "weight": 1.0}],
        },
    ]
    (root / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in decisions))
    (root / "market" / "prices.csv").write_text(
        "date,symbol,close\n2026-06-01,SPX,100\n2026-06-01,AAA,50\n2026-06-02,SPX,101\n2026-06-02,AAA,51\n"
        "2026-06-08,SPX,103\n2026-06-08,AAA,55\n"
    )
    if with_round_prices:  # the round's own (retroactively adjusted) prices differ from prices.csv
        (root / "market" / "round_prices.csv").write_text(
            "round_id,symbol,entry_close,exit_close\nR0,SPX,100,102\nR0,AAA,50,52\nR0,CASH,1,1\nR1,SPX,101,\nR1,AAA,51,\n"
        )
    return root


@pytest.mark.parametrize(("with_round_prices", "aaa", "spx"), [(True, 0.04, 0.02), (False, 0.10, 0.03)])
def test_reads_a_bundle_directory(tmp_path: Path, with_round_prices: bool, aaa: float, spx: float) -> None:
    res = score_rounds(_write_bundle(tmp_path / "b", with_round_prices))
    o = res.outcome("R0", "m1")
    assert o.portfolio_return == pytest.approx(0.75 * aaa)
    assert o.benchmark_return == pytest.approx(spx)
    assert o.oracle_return == pytest.approx(aaa) and o.regret == pytest.approx(0.25 * aaa)
    assert res.outcome("R1", "m1").status == "pending"
