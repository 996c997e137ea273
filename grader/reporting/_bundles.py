"""What reports derive from a cached season bundle (``grader.season.cached_bundle``): the risk market, the
decision interval and the decisions' risk means, each computed once per cached bundle
(``grader.season.cached_derived``); the replays are ``grader.replay.cached_replays``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grader._lazy import LazyMapping
from grader.replay import cached_replays
from grader.season import cached_bundle, cached_derived

__all__ = ["cached_bundle", "cached_interval", "cached_market", "cached_replays", "cached_risk_summaries"]


def cached_market(bundle: Any) -> Any:
    """The risk market of a cached trading season (trailing-window statistics per date, shared by every
    contestant), or None for a rounds season."""
    from grader.risk import season_market

    return cached_derived(bundle, "market", lambda: season_market(bundle) if bundle.info.format == "trading" else None)


def cached_interval(bundle: Any) -> int:
    """The season's decision interval in sessions (``grader.risk.decision_interval``)."""
    from grader.risk import decision_interval

    return cached_derived(bundle, "interval", lambda: decision_interval(bundle))


def cached_risk_summaries(bundle: Any) -> Mapping:
    """contestant key -> its decisions' risk means (``ContestantRisk.summary()``: VaR95 and CVaR95 over one session
    and over the decision interval) of a cached trading season, each computed when first read (a leaderboard of the
    top rows reads only theirs); {} for a rounds season (no daily prices)."""
    from grader.risk import contestant_risk

    def compute() -> Mapping[str, dict]:
        if bundle.info.format != "trading":
            return {}
        market, horizon, replays = cached_market(bundle), cached_interval(bundle), cached_replays(bundle)

        def summary(cid: str) -> dict:
            nav = replays[cid].nav if cid in replays else None
            return contestant_risk(bundle, cid, market=market, horizon=horizon, nav=nav).summary()

        return LazyMapping((c.id for c in bundle.contestants), summary)

    return cached_derived(bundle, "risk_summaries", compute)
