"""What a number in a rationale is for, when it is not a fact about the data: the model's own probability, a
plan (an exit or invalidation threshold, a stop, a position cap or weight), or a forecast (a base / low / high
case, an expected or target return). Such numbers are their own kinds of claim, never checked as facts and
never "briefing figures": a threshold written as "exit if XLE underperforms SPY by 2% over two sessions" is a
condition, not a statement that it did.

One small rule per kind, each a list of marker words read in the number's clause (before it, and the few words
after it for "60% probability", "20% of the book"); a label opening the sentence piece ("Invalidation: ...",
"Base case: ...") marks every number of that piece.
"""

from __future__ import annotations

import re
from typing import Literal

Intent = Literal["probability", "plan", "forecast"]


_PROBABILITY_BEFORE = re.compile(
    r"\b(?:probabilit(?:y|ies)|chance|odds|likelihood|confidence|p\s*\(|p_?beat|p_?top|conviction)\b[^.;]{0,25}$", re.I
)
_PROBABILITY_AFTER = re.compile(
    r"^\s*(?:%\s*)?(?:probability|chance|odds|likelihood|likely|confidence|conviction)\b", re.I
)
_PLAN_BEFORE = re.compile(  # a condition: the number is a threshold of what would happen
    r"\b(?:if|unless|should\s+it|exit(?:s|ing)?|stop(?:[\s-]?loss)?|trim|take[\s-]profit|invalidat\w*|"
    r"trigger\w*|rebalanc\w*)\b[^.;]{0,40}$",
    re.I,
)
_CAP_BEFORE = re.compile(  # a cap or a weight: right before the number
    r"(?<!market\s)\b(?:cap(?:ped|s)?|limit(?:ed|s)?|at\s+most|no\s+more\s+than|weight(?:ed|ing)?|allocat\w*|"
    r"position\s+size|sizing|overweight\s+by|underweight\s+by)\s*(?:at|of|to|:|=)?\s*[~\u2248]?\s*$",
    re.I,
)
_PLAN_AFTER = re.compile(
    r"^\s*(?:%\s*)?(?:of\s+(?:the\s+)?(?:book|portfolio|capital|nav|allocation)|weight|"
    r"allocation|position|cap\b|stop\b)",
    re.I,
)
_FORECAST_BEFORE = re.compile(
    r"\b(?:base[\s-]case|bull[\s-]case|bear[\s-]case|low[\s-]case|high[\s-]case|scenario|expected|expects?|"
    r"expecting|expectation|forecast\w*|target(?:ed|ing)?|projected|projection|estimate[sd]?|outlook|"
    r"implied\s+move|could\s+(?:add|reach|return)|would\s+(?:add|reach|return))\b[^.;]{0,40}$",
    re.I,
)
_FORECAST_LIST = re.compile(r"\b(?:low|base|high)\s*[:=]?\s*[+\-\u2212]?$", re.I)
_LABEL = re.compile(
    r"^\s*[(\[]?\s*(?P<label>invalidation(?:\s+condition)?|exit(?:\s+rule)?|stop(?:[\s-]loss)?|"
    r"catalyst|plan|risk\s+limit|base[\s-]case|expected\s+return|expected\s+alpha|forecast|target|"
    r"probabilit(?:y|ies)|confidence)\s*[:=]",
    re.I,
)
_LABEL_KIND: dict[str, Intent] = {
    "probabilit": "probability",
    "confidence": "probability",
    "base": "forecast",
    "expected": "forecast",
    "forecast": "forecast",
    "target": "forecast",
}


_FACT_FIELDS = frozenset({"analystTargetPrice", "marketCapitalization"})
"""Fields whose own names carry a marker word ("price target", "market cap"): a number bound to them is a fact."""


def number_intent(text: str, start: int, end: int, clause_from: int, field: str | None = None) -> Intent | None:
    """The kind of a number at ``text[start:end]`` that is not a fact, or None (read it as a claim)."""
    if field in _FACT_FIELDS:
        return None
    before = text[clause_from:start]
    after = text[end : end + 30]
    piece_start = max(text.rfind(";", 0, start), text.rfind("(", 0, start), -1) + 1
    label = _LABEL.match(text[piece_start:start]) or _LABEL.match(text[:start])
    if label is not None:
        word = label.group("label").lower()
        return next((kind for key, kind in _LABEL_KIND.items() if word.startswith(key)), "plan")
    if _PROBABILITY_AFTER.match(after) or _PROBABILITY_BEFORE.search(before):
        return "probability"
    if _FORECAST_LIST.search(before):  # "low -2%, base +1%, high +3%": a forecast range, not "low 14.9% vol"
        window = text[max(0, start - 80) : end + 40]
        if len(re.findall(r"\b(?:low|base|high)\s*[:=]?\s*[+\-\u2212]?\d", window, re.I)) >= 2 or re.search(
            r"\b(?:case|scenario|forecast)\b", window, re.I
        ):
            return "forecast"
    if _FORECAST_BEFORE.search(before):
        return "forecast"
    if _PLAN_AFTER.match(after) or _PLAN_BEFORE.search(before) or _CAP_BEFORE.search(before):
        return "plan"
    return None
