"""Portfolio replay: NAV, outcome metrics and process facts from a season's decisions."""

from grader.replay._portfolio import (
    THRASH_WINDOW_DAYS,
    ContestantReplay,
    OutcomeMetrics,
    ProcessFacts,
    ThrashEvent,
    oracle_score,
    replay_season,
)

__all__ = [
    "THRASH_WINDOW_DAYS",
    "ContestantReplay",
    "OutcomeMetrics",
    "ProcessFacts",
    "ThrashEvent",
    "oracle_score",
    "replay_season",
]
