"""Typed models of season bundle v1 (see docs/season-bundle.md)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

MIN_PRICE, MAX_PRICE = 1e-6, 1e9
"""A close or fill outside this range is a data error (and a ratio of two of them would overflow a return)."""
MAX_AMOUNT = 1e15
"""Largest starting cash (a float still adds cents to it exactly enough; 1e308 would overflow a NAV)."""
MAX_QUANTITY = 1e12
"""Most units one trade may move."""
MAX_SECONDS = 1e7
"""Longest decision time (about 116 days)."""


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def _in_calendar(value: date) -> date:
    """A date or aware timestamp between 1900 and 2200 (arithmetic on year 1 or 9999 overflows; none is a trading
    day), whose offset does not move it out of the calendar."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        try:
            value.astimezone(UTC)
        except (OverflowError, ValueError):
            raise ValueError("its offset moves it out of the calendar") from None
    if not 1900 <= value.year <= 2200:
        raise ValueError(f"year {value.year} is outside 1900..2200")
    return value


Day = Annotated[date, AfterValidator(_in_calendar)]
Instant = Annotated[datetime, AfterValidator(_in_calendar)]

Name = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_not_blank)]
"""An id, symbol or display name: one line of at most 200 characters, not blank."""
LongName = Annotated[str, StringConstraints(min_length=1, max_length=10_000), AfterValidator(_not_blank)]
"""A season's id or name (an adapter's id can join many round ids), not blank."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class UniverseEntry(_Strict):
    symbol: Name
    name: str
    sector: str | None = None
    asset_class: str = "equity"
    industry: str | None = None
    group: str | None = None
    # Exchange ticker when `symbol` is not one (adapters: CapitalBench option ids such as SP500 -> SPY).
    ticker: str | None = None


MAX_TEXT_CHARS = 50_000
"""Longest rationale or context of one decision (about 12,500 tokens)."""


class InvestorProfile(_Strict):
    """An investor profile's limits (PortBench Table 7): equity + crypto weight at most ``equity_cap``, bond + cash
    weight at least ``bond_cash_floor``, drawdown at most ``max_drawdown`` and one-day VaR95 no worse than
    ``daily_var_limit`` (a negative return). Fractions."""

    name: Name
    equity_cap: float = Field(ge=0, le=1)
    bond_cash_floor: float = Field(ge=0, le=1)
    max_drawdown: float = Field(gt=0, le=1)
    daily_var_limit: float = Field(ge=-1, lt=0)


class SeasonInfo(_Strict):
    id: LongName
    name: LongName
    start: Day
    end: Day
    benchmark: Name
    risk_free_rate: float = Field(default=0.0, ge=-0.05, le=0.25)  # annual, a fraction: -5% .. 25% is plausible
    starting_cash: float = Field(gt=0, le=MAX_AMOUNT)
    currency: str = "USD"
    allow_margin: bool = False  # buying beyond the cash held is refused unless the season declares margin
    # Optional: the investor profile contestants were told to respect: a PortBench preset by name
    # (conservative | balanced | aggressive) or its limits spelt out; graded as profile alignment (grader.risk).
    investor_profile: Literal["conservative", "balanced", "aggressive"] | InvestorProfile | None = None
    universe: list[UniverseEntry]
    # Optional extension used by adapters (e.g. CapitalBench rounds): free-form provenance.
    attribution: str | None = None
    format: Literal["trading", "rounds"] = "trading"
    rounds: list[Round] | None = None

    def symbols(self) -> set[str]:
        return {u.symbol for u in self.universe}


class Round(_Strict):
    """A CapitalBench-style independent round (bundle extension, format: rounds)."""

    id: Name
    decided_at: Instant
    entry_date: Day
    exit_date: Day | None = None  # None while the round is pending
    cash_symbol: Name | None = None
    briefing: str | None = None
    cancelled: str | None = None
    """Why the round will never resolve (its scoring was cancelled upstream); None for a resolved or pending round."""

    @field_validator("decided_at")
    @classmethod
    def _aware(cls, v: datetime) -> datetime:
        if v.tzinfo is None:
            raise ValueError("timestamp has no UTC offset")
        return v

    @model_validator(mode="after")
    def _in_order(self):
        if self.exit_date is not None and self.exit_date < self.entry_date:
            raise ValueError(f"exit_date {self.exit_date} is before entry_date {self.entry_date}")
        return self


class Contestant(_Strict):
    id: Name
    display_name: Name
    provider_family: Name
    model: Name


class Trade(_Strict):
    symbol: Name
    side: Literal["buy", "sell"]
    quantity: float = Field(gt=0, le=MAX_QUANTITY)
    price: float = Field(ge=MIN_PRICE, le=MAX_PRICE)

    @field_validator("quantity", "price", mode="before")
    @classmethod
    def _no_bool(cls, v):
        if isinstance(v, bool):  # JSON true would silently be 1.0
            raise ValueError("expected a number, got a boolean")
        return v


class AllocationItem(_Strict):
    symbol: Name
    weight: float = Field(ge=0, le=1)
    rationale: str | None = None


class Decision(_Strict):
    contestant_id: Name
    decided_at: Instant
    trades: list[Trade] = Field(default_factory=list)
    allocation: list[AllocationItem] | None = None
    rationale: str
    decision_seconds: float | None = Field(default=None, le=MAX_SECONDS)
    confidence: float | None = Field(default=None, ge=0, le=1)
    context: str | None = None
    round_id: Name | None = None
    line: int = 0  # 1-based line in decisions.jsonl (for messages and ordering)

    @field_validator("decision_seconds", "confidence", mode="before")
    @classmethod
    def _no_bool(cls, v):
        if isinstance(v, bool):
            raise ValueError("expected a number, got a boolean")
        return v

    @field_validator("rationale", "context")
    @classmethod
    def _size(cls, v):
        if v is not None and len(v) > MAX_TEXT_CHARS:
            raise ValueError(f"{len(v):,} characters; at most {MAX_TEXT_CHARS:,} (a judge prompt must stay bounded)")
        return v

    @model_validator(mode="after")
    def _one_kind(self):
        if self.trades and self.allocation is not None:
            raise ValueError("a decision carries either trades or a target allocation, not both")
        return self

    @property
    def key(self) -> str:
        """Stable identity of a decision inside its season."""
        return f"{self.contestant_id}@{self.decided_at.isoformat()}"


SeasonInfo.model_rebuild()
