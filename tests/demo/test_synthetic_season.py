"""Synthetic benchmark seasons: valid bundles, deterministic per seed, strategies cycled, claims grounded."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from grader.demo import STRATEGIES, build_synthetic_season
from grader.pit import MARKET_TZ
from grader.season import SeasonBundle, load_bundle
from tests.demo.demo_checks import decisions_with_claims, previous_close, replay_books, true_value

N_CONTESTANTS, N_DAYS = 12, 40


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> SeasonBundle:
    out = tmp_path_factory.mktemp("synthetic") / "season"
    built = build_synthetic_season(out, n_contestants=N_CONTESTANTS, n_days=N_DAYS, seed=7)
    assert (built.n_contestants, built.n_days, built.n_decisions) == (
        N_CONTESTANTS,
        N_DAYS,
        N_CONTESTANTS * N_DAYS,
    )
    return load_bundle(out)


def _bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_shape_of_the_synthetic_season(synthetic: SeasonBundle) -> None:
    info = synthetic.info
    assert len(info.universe) == 30 and info.benchmark == "INDEX"
    counts = synthetic.prices.groupby("symbol")["date"].count()
    assert set(counts.index) == info.symbols() | {"INDEX"}
    assert (counts == 260 + N_DAYS).all()
    assert len(synthetic.trading_days) == N_DAYS
    for c in synthetic.contestants:
        days = [d.decided_at.astimezone(MARKET_TZ).date() for d in synthetic.decisions_of(c.id)]
        assert days == synthetic.trading_days
    styles = Counter(c.id.split("-", 1)[1].rsplit("-", 1)[0].replace("-", "_") for c in synthetic.contestants)
    assert set(styles) == set(STRATEGIES)
    assert len({c.provider_family for c in synthetic.contestants}) == 5


def test_synthetic_trades_are_feasible(synthetic: SeasonBundle) -> None:
    replay_books(synthetic)
    trades = [(d, t) for d in synthetic.decisions for t in d.trades]
    assert len(trades) > N_DAYS
    for d, t in trades:
        assert t.price == previous_close(synthetic, t.symbol, d)


def test_synthetic_claims_are_grounded_except_the_misquoting_style(synthetic: SeasonBundle) -> None:
    agree = Counter()
    for c in synthetic.contestants:
        style = c.id.split("-", 1)[1].rsplit("-", 1)[0].replace("-", "_")
        for d, cited in decisions_with_claims(synthetic, c.id):
            for claim in cited:
                ok = abs(claim.value - true_value(synthetic.store, claim, d)) <= claim.tolerance + 1e-9
                assert ok == STRATEGIES[style].grounded, f"{c.id} {d.decided_at}: {claim.text!r}"
                agree[style] += 1
    assert set(agree) == set(STRATEGIES)


def test_same_seed_same_bytes_other_seed_other_prices(tmp_path: Path) -> None:
    build_synthetic_season(tmp_path / "a", n_contestants=3, n_days=5, seed=1)
    build_synthetic_season(tmp_path / "b", n_contestants=3, n_days=5, seed=1)
    build_synthetic_season(tmp_path / "c", n_contestants=3, n_days=5, seed=2)
    assert _bytes(tmp_path / "a") == _bytes(tmp_path / "b")
    assert (tmp_path / "a/market/prices.csv").read_bytes() != (tmp_path / "c/market/prices.csv").read_bytes()


def test_rejects_empty_sizes(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one contestant"):
        build_synthetic_season(tmp_path / "x", n_contestants=0)
    assert not (tmp_path / "x").exists()
