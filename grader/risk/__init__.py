"""PortBench's risk evidence (seed 004): historical VaR/CVaR, the two-layer correlation score, investor
profiles and their alignment, named stress windows and the classical baselines. Decision figures are
point-in-time; season figures are outcomes."""

from grader.risk._baselines import Baseline, classical_baselines
from grader.risk._classes import asset_class, classes_of
from grader.risk._correlation import (
    ClassCorrelations,
    CorrelationScore,
    CorrelationUnavailable,
    class_correlations,
    two_layer_score,
)
from grader.risk._facts import ContestantRisk, DecisionRisk, SeasonRiskFacts, contestant_risk, season_risk_facts
from grader.risk._market import decision_interval, season_market
from grader.risk._outcome import SeasonRisk, SeasonRiskBasis, StressResult, season_risk
from grader.risk._profiles import PRESETS, ProfileCheck, check_profile, season_profile
from grader.risk._stress import PathInWindow, StressWindow, max_drawdown, path_in_window, stress_windows
from grader.risk._var import (
    LOOKBACK_SESSIONS,
    MIN_RETURNS,
    VAR_LEVEL,
    VarEstimate,
    historical_var,
    horizon_returns,
)

__all__ = [
    "LOOKBACK_SESSIONS",
    "MIN_RETURNS",
    "PRESETS",
    "VAR_LEVEL",
    "Baseline",
    "ClassCorrelations",
    "ContestantRisk",
    "CorrelationScore",
    "CorrelationUnavailable",
    "DecisionRisk",
    "PathInWindow",
    "ProfileCheck",
    "SeasonRisk",
    "SeasonRiskBasis",
    "SeasonRiskFacts",
    "StressResult",
    "StressWindow",
    "VarEstimate",
    "asset_class",
    "check_profile",
    "class_correlations",
    "classes_of",
    "classical_baselines",
    "contestant_risk",
    "decision_interval",
    "historical_var",
    "horizon_returns",
    "max_drawdown",
    "path_in_window",
    "season_profile",
    "season_risk",
    "season_market",
    "season_risk_facts",
    "stress_windows",
    "two_layer_score",
]
