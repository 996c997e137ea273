"""Portfolio replay: NAV, outcome metrics and process facts from a season's decisions."""

from grader.replay._portfolio import (
    THRASH_WINDOW_DAYS,
    ContestantReplay,
    OutcomeMetrics,
    ProcessFacts,
    SeasonReplays,
    ThrashEvent,
    replay_season,
)
from grader.replay._rounds import (
    ComparisonSet,
    RoundOutcome,
    RoundResults,
    RoundsData,
    RoundsDataError,
    RoundSummary,
    comparison_set,
    rounds_outcomes,
    score_rounds,
)
from grader.scoring import oracle_score

__all__ = [
    "ComparisonSet",
    "RoundOutcome",
    "RoundResults",
    "RoundSummary",
    "RoundsData",
    "RoundsDataError",
    "comparison_set",
    "rounds_outcomes",
    "score_rounds",
    "THRASH_WINDOW_DAYS",
    "ContestantReplay",
    "OutcomeMetrics",
    "ProcessFacts",
    "SeasonReplays",
    "ThrashEvent",
    "oracle_score",
    "replay_season",
]
