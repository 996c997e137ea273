"""What is never checked as a fact: forecasts and opinions, the model's own probabilities, plans, briefing
figures, and text with no checkable assertion."""

from __future__ import annotations

from ledgers._models import Assertion
from ledgers.rules._base import NV, Ctx, RuleResult


def rule_forecast(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"forecast or opinion ('{a.raw}'): not checkable against point-in-time data")


def rule_probability(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"the model's own probability or confidence ({a.raw}): not a fact about the data")


def rule_plan(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"a plan, threshold, cap or weight ({a.raw}): a condition or an intention, not a fact")


def rule_briefing(ctx: Ctx, a: Assertion) -> RuleResult:
    return RuleResult(NV, f"{a.raw}: not a point-in-time field (briefing/context figure)", briefing=True)


def rule_unrecognised(ctx: Ctx, a: Assertion) -> RuleResult:
    if a.raw:  # a structured assertion that could not be used says why
        return RuleResult(NV, f"not checkable: {a.raw}")
    return RuleResult(NV, "no checkable assertion about a registry field")
