"""Portfolio replay: NAV, outcome metrics and process facts from a season's decisions."""

from grader.replay._cache import cached_replays
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
from grader.replay._standings import COMPARISON_NOTE, comparison_set_standings, rounds_scope, set_label
from grader.scoring import oracle_score

__all__ = [
    "COMPARISON_NOTE",
    "THRASH_WINDOW_DAYS",
    "ComparisonSet",
    "ContestantReplay",
    "OutcomeMetrics",
    "ProcessFacts",
    "RoundOutcome",
    "RoundPick",
    "RoundResults",
    "RoundSpec",
    "RoundSummary",
    "RoundsData",
    "RoundsDataError",
    "SeasonReplays",
    "ThrashEvent",
    "cached_replays",
    "comparison_set",
    "comparison_set_standings",
    "oracle_score",
    "replay_season",
    "rounds_outcomes",
    "rounds_scope",
    "score_rounds",
    "set_label",
]
