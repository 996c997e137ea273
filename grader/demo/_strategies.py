"""Deterministic trading styles of the simulated contestants, each with its own rationale templates.

Every strategy reads only its ``MarketView`` (the point-in-time snapshot at its decision time) and its own
memory of earlier views; it returns orders through a ``Planner`` (so sells never exceed holdings and cash never
goes negative) and a rationale whose numbers come from ``Facts`` -- the snapshot values in the wording of
``grader.demo._wording``. One style, ``misquoting``, cites deliberately wrong numbers through
``MisquotedFacts``: the planted contradicted claims.

This module registers the styles (``STRATEGIES``); what a style is lives in ``_strategy``, its numbers in
``_facts``, the styles themselves in ``_price_styles`` and ``_allocation_styles``.
"""

from __future__ import annotations

from grader.demo._allocation_styles import BenchmarkHugger, RiskManager, ValueQuality
from grader.demo._price_styles import MeanReversion, Misquoting, Momentum, Thrasher
from grader.demo._strategy import Strategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.style: cls
    for cls in (Momentum, ValueQuality, Thrasher, RiskManager, Misquoting, BenchmarkHugger, MeanReversion)
}
"""Style name -> strategy class, in the order the synthetic generator cycles them."""
