"""Verifier rules: one function per claim type, each -> supported | not_verifiable | contradicted.

Thresholds (all in ``VerifierConfig``; defaults shown):

- exact numeric: the value matches at the stated precision, rounded or truncated ("8.7%" matches 0.0874
  and 0.0879; "23%" matches 0.2354), or within 2% relative; 5% relative for "about", "~", "roughly",
  "around", "nearly", "approximately". A price stated more than 5x away from the symbol's close (an index
  level quoted for its ETF) is not verifiable.
- threshold ("RSI above 70", "P/E under 20"): compared with the stated number; within 0.5% of it
  (relative) it is not verifiable.
- derived numeric: return over N trading days ("T") from closes, or from the close on or before N calendar
  days ("D", CapitalBench's 7d/30d), N months ("M") or years ("Y") earlier, when the field is not stored;
  distance to the 52-week high/low = close / week52High (Low) - 1; distance to a moving average =
  close / smaN - 1; upside to the analyst target = analystTargetPrice / close - 1; relative return =
  the symbol's return minus the benchmark's over the same horizon ("vs SPY", "alpha", "active"); for
  "relative strength (+2.4% 7d)" / "outperformance" either the plain or the relative return may match.
- comparative: close above/below sma50/sma200, sma50 vs sma200 (golden/death cross): within 0.5% of the
  average it is not verifiable; macd vs macdSignal: within 0.05% of the close not verifiable.
- directional: momentum = sign of the named horizon's return ("positive 7d momentum"); without a
  horizon, the first available of return20d, return30d (return5d, return7d first for "recent",
  "near-term", "short-term") decides, unless another available one of them points the other way (not
  verifiable: "horizons disagree"); |return| <= 0.5% is not verifiable.
  Relative strength / outperformance = the same on return minus the benchmark's return. Overbought =
  rsi14 >= 70, oversold = rsi14 <= 30. At the 52-week high/low = within 1% of it, near = within 5%,
  "within X%" = within X%; between the band and 1.5x the band not verifiable.
- qualitative fundamentals: strong profitability = profitMargin >= 0.15 or returnOnEquityTTM >= 0.15
  (contradicted when every available one is below); weak = profitMargin < 0.05 (contradicted at >= 0.15).
  Cheap = peRatio below the sector median (when at least 3 symbols of the sector have a positive P/E),
  else below 15; expensive = above the sector median, else above 30; within 2% of the reference not
  verifiable; a non-positive P/E is not verifiable. Strong growth = quarterly earnings (or revenue) growth
  >= 10%; weak growth <= 0%. High dividend yield >= 3%; low < 1%. Low beta < 0.8, high beta >= 1.2. Low
  volatility (volatility20d) < 15%, high >= 35%. Within 2% (relative) of these thresholds: not verifiable.
- analyst: upside direction = target vs close, |upside| <= 1% not verifiable; consensus = mean of the
  rating counts scored strong buy 5 .. strong sell 1: >= 4.5 strong buy, >= 3.5 buy, <= 1.5 strong
  sell, <= 2.5 sell, else hold. A "buy" claim is supported by buy or strong buy.
- categorical: the sector/industry label equals the stated one (case, "&"/"and", "sector" ignored, one
  containing the other accepted).
- forecasts and opinions are never verifiable; a briefing figure (no point-in-time field) is not
  verifiable; a missing field or symbol is not verifiable.
- lookahead: a numeric claim that does not match the value known at ``decided_at`` but matches, at the
  stated precision, a value observed within 10 calendar days after it is flagged ``lookahead``; only
  claims stated precisely enough to be distinctive (half a last digit <= 0.5% of the value: "31.6",
  "$139.87", "-6.08%", not "63" or "+8%") are checked, so a coincidence is not called lookahead.
"""

from ledgers.rules._base import CON, NV, SUP, Ctx, RuleResult
from ledgers.rules._distances import (
    rule_analyst_upside,
    rule_distance_52w_high,
    rule_distance_52w_low,
    rule_distance_sma,
    rule_near_52w_extreme,
)
from ledgers.rules._intents import (
    rule_briefing,
    rule_forecast,
    rule_plan,
    rule_probability,
    rule_unrecognised,
)
from ledgers.rules._levels import (
    consensus_label,
    rule_beta_level,
    rule_categorical,
    rule_consensus,
    rule_dividend_yield,
    rule_growth,
    rule_profitability,
    rule_sign,
    rule_standing,
    rule_upside_direction,
    rule_valuation,
    rule_volatility_level,
)
from ledgers.rules._ranking import rank_of_figure, rule_ranking
from ledgers.rules._relative import (
    rule_compare,
    rule_relative_momentum,
    rule_relative_return,
    rule_return_or_relative,
)
from ledgers.rules._technical import (
    rule_ma_cross,
    rule_macd_signal,
    rule_momentum,
    rule_rsi_state,
    rule_sma_position,
)
from ledgers.rules._values import (
    rule_any_field,
    rule_any_return,
    rule_derived_return,
    rule_exact_numeric,
    rule_threshold,
)

RULES = {
    "sign": rule_sign,
    "ranking": rule_ranking,
    "compare": rule_compare,
    "exact_numeric": rule_exact_numeric,
    "threshold": rule_threshold,
    "derived_return": rule_derived_return,
    "relative_return": rule_relative_return,
    "return_or_relative": rule_return_or_relative,
    "distance_52w_high": rule_distance_52w_high,
    "distance_52w_low": rule_distance_52w_low,
    "distance_sma": rule_distance_sma,
    "analyst_upside": rule_analyst_upside,
    "sma_position": rule_sma_position,
    "ma_cross": rule_ma_cross,
    "macd_signal": rule_macd_signal,
    "momentum": rule_momentum,
    "relative_momentum": rule_relative_momentum,
    "rsi_state": rule_rsi_state,
    "near_52w_extreme": rule_near_52w_extreme,
    "profitability": rule_profitability,
    "valuation": rule_valuation,
    "growth": rule_growth,
    "dividend_yield": rule_dividend_yield,
    "beta_level": rule_beta_level,
    "volatility_level": rule_volatility_level,
    "standing": rule_standing,
    "upside_direction": rule_upside_direction,
    "consensus": rule_consensus,
    "categorical": rule_categorical,
    "forecast": rule_forecast,
    "probability": rule_probability,
    "any_return": rule_any_return,
    "any_field": rule_any_field,
    "plan": rule_plan,
    "briefing": rule_briefing,
    "unrecognised": rule_unrecognised,
}
"""rule name (``Assertion.rule``) -> the function that checks it."""


__all__ = ["CON", "NV", "RULES", "SUP", "Ctx", "RuleResult", "consensus_label", "rank_of_figure"]
