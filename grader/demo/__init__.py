"""Generated seasons: the committed demo (synthetic decisions on real closes) and synthetic benchmark seasons."""

from grader.demo._bundle import BuiltSeason
from grader.demo._demo import DEMO_DIR, DEMO_ENTRANTS, DEMO_SEED, build_demo_season, default_market_dir
from grader.demo._facts import Facts, MisquotedFacts
from grader.demo._simulate import LEAKS, TIMINGS, Entrant, Timing, decision_time
from grader.demo._strategies import STRATEGIES
from grader.demo._strategy import Strategy
from grader.demo._synthetic import build_synthetic_season
from grader.demo._universe import (
    DEMO_UNIVERSE,
    SKFOLIO_ATTRIBUTION,
    FieldValue,
    Listing,
    MarketDataError,
    illustrative_fields,
    read_market_closes,
)

__all__ = [
    "DEMO_DIR",
    "DEMO_ENTRANTS",
    "DEMO_SEED",
    "DEMO_UNIVERSE",
    "LEAKS",
    "SKFOLIO_ATTRIBUTION",
    "STRATEGIES",
    "TIMINGS",
    "BuiltSeason",
    "Entrant",
    "Facts",
    "FieldValue",
    "Listing",
    "MarketDataError",
    "MisquotedFacts",
    "Strategy",
    "Timing",
    "build_demo_season",
    "build_synthetic_season",
    "decision_time",
    "default_market_dir",
    "illustrative_fields",
    "read_market_closes",
]
