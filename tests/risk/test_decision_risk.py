"""Decision risk facts on real bundles: weights after the trades at the last close before the decision, what is
not computed and why, the profile check, the bundle setting, and the lookahead property (changing every price
after a decision's close changes none of its figures)."""

from __future__ import annotations

import dataclasses
from datetime import date

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.anonymizer import Anonymizer
from grader.demo import build_synthetic_season
from grader.prompts import PromptBuilder
from grader.replay import replay_season
from grader.risk import contestant_risk, decision_interval, season_risk_facts
from grader.season import BundleError, load_bundle
from tests.conftest import write_bundle


def _with_profile(root, profile):
    season = yaml.safe_load((root / "season.yaml").read_text())
    season["investor_profile"] = profile
    (root / "season.yaml").write_text(yaml.safe_dump(season, sort_keys=False))
    return root


def test_weights_after_the_trades_at_the_last_close_before_the_decision(tmp_path):
    bundle = load_bundle(_with_profile(write_bundle(tmp_path / "s"), "conservative"))
    risk = contestant_risk(bundle, "m1")
    first, second = risk.decisions
    # 2022-01-03 buy 10 AAA: valued at the 2021-12-31 close (101): 1010 of 10000, the rest cash
    assert first.as_of == date(2021, 12, 31)
    assert first.weights == {"AAA": pytest.approx(0.101), "cash": pytest.approx(0.899)}
    assert first.class_weights == {"equities": pytest.approx(0.101), "cash": pytest.approx(0.899)}
    # one trailing return only: VaR and the correlation score are not computed, and the reason is said
    assert first.var_1d is None and first.correlation is None
    assert any("VaR (fewer than 20 trailing daily returns for AAA)" in u for u in first.unavailable)
    assert any("correlation score" in u for u in first.unavailable)
    assert first.profile.pas == 1.0 and first.profile.var_met is None
    # 2022-01-05 sells everything: all cash, no loss in any scenario
    assert second.weights == {"cash": pytest.approx(1.0)}
    assert second.var_1d.var == 0.0 and second.var_1d.cvar == 0.0
    lines = first.lines()
    assert "asset classes after the decision: cash 90%, equities 10%" in lines
    assert any(line.startswith("not computed: VaR") for line in lines)


def test_investor_profile_is_validated_with_file_and_field(tmp_path):
    root = _with_profile(write_bundle(tmp_path / "s"), "reckless")
    with pytest.raises(BundleError) as err:
        load_bundle(root)
    text = str(err.value)
    assert "season.yaml" in text and "investor_profile" in text
    custom = {
        "name": "house",
        "equity_cap": 0.5,
        "bond_cash_floor": 0.3,
        "max_drawdown": 0.15,
        "daily_var_limit": -0.015,
    }
    bundle = load_bundle(_with_profile(write_bundle(tmp_path / "t"), custom))
    assert contestant_risk(bundle, "m1").decisions[0].profile.profile == "house"
    bad = {**custom, "equity_cap": 1.5}
    with pytest.raises(BundleError, match="equity_cap"):
        load_bundle(_with_profile(write_bundle(tmp_path / "u"), bad))


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    root = tmp_path_factory.mktemp("risk") / "season"
    build_synthetic_season(root, n_contestants=3, n_days=30, seed=4)
    return load_bundle(_with_profile(root, "balanced"))


def test_a_synthetic_season_has_every_figure(synthetic):
    facts = season_risk_facts(synthetic, replay_season(synthetic))
    assert decision_interval(synthetic) == 1  # one decision per session
    for risk in facts.values():
        computed = [d for d in risk.decisions if d.var_1d is not None]
        assert len(computed) >= len(risk.decisions) - 1  # a first hold with nothing held has no figures
        assert all(d.correlation is not None and d.profile is not None for d in computed)
        s = risk.summary()
        assert s["var_1d_mean"] < 0 and 0 <= s["correlation_score_mean"] <= 1
        assert risk.season is not None and {"equal weight", "60/40", "inverse volatility"} <= set(risk.season.baselines)


def _perturbed(bundle, cutoff: date, seed: int):
    rng = np.random.default_rng(seed)
    prices = bundle.prices.copy()
    later = prices["date"] > cutoff
    prices.loc[later, "close"] = prices.loc[later, "close"] * rng.uniform(0.5, 1.5, int(later.sum()))
    return dataclasses.replace(bundle, prices=prices)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=28), seed=st.integers(min_value=0, max_value=10_000))
def test_no_price_after_a_decisions_close_changes_its_risk_facts(synthetic, cut, seed):
    days = sorted(synthetic.prices["date"].unique())
    cutoff = days[-30 + cut]
    changed = _perturbed(synthetic, cutoff, seed)
    before = season_risk_facts(synthetic, replay_season(synthetic))
    after = season_risk_facts(changed, replay_season(changed))
    anon = Anonymizer.for_season(synthetic.info, synthetic.contestants, seed="t")
    pb = PromptBuilder(synthetic, "I", anon, replay_season(synthetic), risk=before)
    pa = PromptBuilder(changed, "I", anon, replay_season(changed), risk=after)
    checked = 0
    for cid in before:
        decisions = {d.key: d for d in synthetic.decisions_of(cid)}
        for b, a in zip(before[cid].decisions, after[cid].decisions, strict=True):
            if b.as_of is None or b.as_of > cutoff:
                continue
            checked += 1
            assert a.lines() == b.lines(), (b.decision_key, cutoff)
            assert (a.var_1d, a.var_h, a.correlation, a.profile) == (b.var_1d, b.var_h, b.correlation, b.profile)
            d = decisions[b.decision_key]
            assert pa.process_facts_at(cid, d) == pb.process_facts_at(cid, d)
    assert checked > 0


def test_risk_facts_are_computed_per_contestant_when_first_asked_and_equal_the_eager_ones(synthetic):
    """A streamed grading run's first prompt does not wait for every contestant's risk facts: the mapping
    computes a contestant's when asked, and gives exactly what ``season_risk_facts`` gives for the season."""
    from grader.risk import SeasonRiskFacts

    bundle = synthetic
    replays = replay_season(bundle)
    lazy = SeasonRiskFacts(bundle, replays)
    first = bundle.contestants[0].id
    assert lazy[first].decisions
    assert lazy.computed == [first]  # nobody else computed yet
    eager = season_risk_facts(bundle, replays)
    assert list(lazy) == list(eager) and len(lazy) == len(eager) == 3
    for cid, risk in eager.items():
        assert dataclasses.asdict(lazy[cid]) == dataclasses.asdict(risk), cid
    with pytest.raises(KeyError):
        lazy["nobody"]
