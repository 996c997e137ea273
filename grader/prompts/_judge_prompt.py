"""A judge prompt as built (`JudgePrompt`, its `DecisionSection`s), its hash and token estimate, and how a value is
shown in it (`format_value`)."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from grader.pit import Observation
from grader.prompts._tokens import count_tokens
from ledgers import FIELDS

PERCENT_FIELDS = frozenset(spec.name for spec in FIELDS if spec.unit == "fraction")
"""Fields shown as percentages (the registry's fractions: returns, volatility, drawdown, margins, ...)."""


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def format_value(field_name: str, value: float | str) -> str:
    if isinstance(value, str):
        return value
    if field_name in PERCENT_FIELDS:
        return f"{value * 100:.2f}%"
    if field_name == "marketCapitalization" or abs(value) >= 1e6:
        return f"{value:.4g}"
    if field_name.startswith("analystRating"):
        return f"{value:g}"
    return f"{value:.2f}"


@dataclass
class DecisionSection:
    decision_key: str
    decided_at: datetime
    text: str
    observations: list[Observation]


@dataclass
class JudgePrompt:
    contestant_id: str
    alias: str
    system: str
    user: str
    sections: list[DecisionSection]
    token_estimate: int
    naive_token_estimate: int
    scrubbed: int
    leaks: list[str] = field(default_factory=list)
    shared_chars: int = 0
    """How many characters at the start of ``user`` are the same for every contestant of the same rounds (season
    header, round briefings): where a provider that needs explicit cache breakpoints (Anthropic) gets one."""

    @property
    def sha256(self) -> str:
        return prompt_hash(self.system, self.user)

    @cached_property
    def counted_tokens(self) -> int:
        """Tokens counted with the offline tokenizer (``grader.prompts.count_tokens``: exact for cl100k models, an
        estimate for the others), counted once."""
        return count_tokens(self.system) + count_tokens(self.user)


def prompt_hash(system: str, user: str) -> str:
    return hashlib.sha256(f"{system}\0{user}".encode()).hexdigest()
