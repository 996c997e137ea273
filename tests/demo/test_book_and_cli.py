"""The order planner keeps books feasible; the module entry point writes seasons and reports bad input."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, datetime
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.demo._book import Book, MarketView, Planner, PointInTimeValues
from grader.pit import MARKET_TZ, Observation
from grader.season import load_bundle

_WHEN = datetime(2022, 1, 3, 15, 30, tzinfo=MARKET_TZ)


def _market(prices: dict[str, float]) -> MarketView:
    snap = {s: {"close": Observation(s, "close", p, _WHEN)} for s, p in prices.items()}
    return MarketView(
        date(2022, 1, 3), _WHEN, 0, 1, PointInTimeValues.of(snap, tuple(prices)), tuple(prices), (), False
    )


orders = st.lists(
    st.tuples(st.sampled_from(["AAA", "BBB"]), st.sampled_from(["buy", "sell"]), st.floats(0, 5000)),
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(days=st.lists(orders, min_size=1, max_size=6), price_a=st.floats(0.5, 900), price_b=st.floats(0.5, 900))
def test_planned_orders_never_oversell_or_overspend(days, price_a, price_b) -> None:
    book = Book(cash=10000.0)
    market = _market({"AAA": price_a, "BBB": price_b})
    for day in days:
        planner = Planner(book, market)
        for symbol, side, amount in sorted(day, key=lambda o: o[1] != "sell"):
            if side == "sell":
                planner.sell(symbol, int(amount))
            else:
                planner.buy_value(symbol, amount)
        before = dict(book.shares)
        for order in planner.commit():
            assert order.quantity > 0
            if order.side == "sell":
                assert order.quantity <= before.get(order.symbol, 0)
        assert book.cash >= 0
        assert all(n > 0 for n in book.shares.values())


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader.demo", *args], capture_output=True, text=True, check=False)


def test_module_entry_point_writes_a_loadable_synthetic_season(tmp_path: Path) -> None:
    result = _run("synthetic", "--out", str(tmp_path / "s"), "--contestants", "3", "--days", "5", "--seed", "4")
    assert result.returncode == 0, result.stderr
    assert "3 contestants x 5 days, 15 decisions" in result.stdout
    bundle = load_bundle(tmp_path / "s")
    assert bundle.info.id == "synthetic-3x5-s4"


def test_build_with_a_missing_market_directory_names_it_and_writes_nothing(tmp_path: Path) -> None:
    result = _run("build", "--out", str(tmp_path / "demo"), "--market", str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert "nowhere" in result.stderr and "prices.csv" in result.stderr
    assert not (tmp_path / "demo").exists()
