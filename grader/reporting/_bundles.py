"""What reports derive from a cached season bundle (``grader.season.cached_bundle``): the risk market, the
decision interval, each contestant's risk facts per decision and their means, and the basis of the risk outcomes,
each computed once per cached bundle (``grader.season.cached_derived``); the replays are
``grader.replay.cached_replays``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grader._lazy import LazyMapping
from grader.replay import cached_replays
from grader.season import cached_bundle, cached_derived

__all__ = [
    "cached_bundle",
    "cached_contestant_risks",
    "cached_interval",
    "cached_market",
    "cached_replays",
    "cached_risk_basis",
    "cached_risk_summaries",
]


def cached_market(bundle: Any) -> Any:
    """The risk market of a cached trading season (trailing-window statistics per date, shared by every
    contestant), or None for a rounds season."""
    from grader.risk import season_market

    return cached_derived(bundle, "market", lambda: season_market(bundle) if bundle.info.format == "trading" else None)


def cached_interval(bundle: Any) -> int:
    """The season's decision interval in sessions (``grader.risk.decision_interval``)."""
    from grader.risk import decision_interval

    return cached_derived(bundle, "interval", lambda: decision_interval(bundle))


def cached_contestant_risks(bundle: Any) -> Mapping:
    """contestant key -> its risk facts per decision (``grader.risk.contestant_risk``, on its cached replay's NAV) of
    a cached trading season, each computed when first read: the warm-up's process facts (their risk means) and the
    console's contestant page (its risk table) share them; {} for a rounds season (no daily prices)."""
    from grader.risk import contestant_risk

    def compute() -> Mapping[str, Any]:
        if bundle.info.format != "trading":
            return {}
        market, horizon, replays = cached_market(bundle), cached_interval(bundle), cached_replays(bundle)

        def risk(cid: str) -> Any:
            nav = replays[cid].nav if cid in replays else None
            return contestant_risk(bundle, cid, market=market, horizon=horizon, nav=nav)

        return LazyMapping((c.id for c in bundle.contestants), risk)

    return cached_derived(bundle, "contestant_risks", compute)


def cached_risk_summaries(bundle: Any) -> Mapping:
    """contestant key -> its decisions' risk means (``ContestantRisk.summary()``: VaR95 and CVaR95 over one session
    and over the decision interval) of a cached trading season, each computed when first read (a leaderboard of the
    top rows reads only theirs); {} for a rounds season (no daily prices)."""

    def compute() -> Mapping[str, dict]:
        if bundle.info.format != "trading":
            return {}
        risks = cached_contestant_risks(bundle)
        return LazyMapping(risks, lambda cid: risks[cid].summary())

    return cached_derived(bundle, "risk_summaries", compute)


def cached_risk_basis(bundle: Any, replay: Any) -> Any:
    """What a contestant's risk outcome is measured against (``grader.risk.SeasonRiskBasis``: the classical
    baselines, the benchmark path, the investor profile; None for a rounds season), which depends only on its
    replay's NAV dates: once per cached bundle and dates, so every contestant of a season shares it."""
    from grader.risk import SeasonRiskBasis

    days = tuple(replay.nav.index)
    name = f"risk_basis:{len(days)}:{days[0] if days else ''}:{days[-1] if days else ''}:{hash(days)}"
    return cached_derived(bundle, name, lambda: SeasonRiskBasis.of(bundle, {"": replay}, cached_market(bundle)))
