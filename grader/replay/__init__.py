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
    RoundPick,
    RoundResults,
    RoundsData,
    RoundsDataError,
    RoundSpec,
    RoundSummary,
    comparison_set,
    rounds_outcomes,
    score_rounds,
)
from grader.replay._standings import comparison_set_standings, rounds_scope, set_label
from grader.scoring import oracle_score

__all__ = [
    "ComparisonSet",
    "RoundOutcome",
    "RoundPick",
    "RoundResults",
    "RoundSummary",
    "RoundsData",
    "RoundsDataError",
    "RoundSpec",
    "comparison_set",
    "comparison_set_standings",
    "rounds_outcomes",
    "rounds_scope",
    "set_label",
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
