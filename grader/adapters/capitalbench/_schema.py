"""The CapitalBench source schemas and what a validated round looks like (the source side of the adapter).

Only the fields the adapter relies on are declared; everything else in a source file is allowed and ignored.
Every problem found in the source is a :class:`CapitalBenchIssue` naming the file (relative to the rounds
directory), the row and the field; :class:`CapitalBenchError` carries them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from grader.adapters.capitalbench._tables import TableRow
from grader.season import BundleIssue

Track = Literal["1W", "1M"]
TRACKS: tuple[str, ...] = ("1W", "1M")


CapitalBenchIssue = BundleIssue
"""One problem in the source data: file (relative to the rounds directory), row, field, message."""


class CapitalBenchError(ValueError):
    """The selected rounds cannot be imported; ``issues`` lists every problem found. Nothing was written."""

    def __init__(self, issues: list[CapitalBenchIssue]):
        self.issues = issues
        lines = "\n".join(f"  {i}" for i in issues)
        super().__init__(f"CapitalBench import refused: {len(issues)} problem(s)\n{lines}")


# --- source schemas (only the fields the adapter relies on; everything else is allowed and ignored) ---


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class RoundManifest(_Loose):
    round_id: str
    decision_date: date
    decision_deadline: AwareDatetime
    entry_date: date
    exit_date: date
    horizon: str | None = None
    methodology_version: str | None = None
    submission_format: str | None = None
    publication_stream: str | None = None


class OptionSpec(_Loose):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    symbol: str | None = None
    asset_class: str = Field(min_length=1)
    category: str = Field(min_length=1)
    option_group: str = Field(min_length=1)
    is_cash: bool = False
    is_benchmark: bool = False
    include_in_universe: bool = True


class RunManifest(_Loose):
    run_id: str | None = None
    operator_selected_official: bool = False


class Holding(_Loose):
    option_id: str = Field(min_length=1)
    allocation_pct: float = Field(gt=0, le=100)
    rationale: str = Field(min_length=1)
    expected_return_pct: float | None = None
    time_window_catalyst: str | None = None
    invalidation_condition: str | None = None


class CandidateEntry(_Loose):
    """One option a portfolio-v2.2 model assessed (``candidate_ledger``), held or rejected: the model's words."""

    option_id: str = Field(min_length=1)
    decision: str | None = None
    evidence: list[str] = Field(default_factory=list)
    continuation_case: str | None = None
    reversal_case: str | None = None
    time_window_catalyst: str | None = None
    invalidation_condition: str | None = None
    forecast_low_pct: float | None = None
    forecast_base_pct: float | None = None
    forecast_high_pct: float | None = None


class Assessment(_Loose):
    """One candidate a portfolio-v3.0 model assessed (``metadata.portfolio_v3.candidate_assessments``)."""

    option_id: str = Field(min_length=1)
    rank: int | None = None
    mechanism: str | None = None
    evidence: list[str] = Field(default_factory=list)
    recent_return_interpretation: str | None = None
    p_beat_spy_pct: float | None = None
    p_top3_pct: float | None = None
    excess_return_p10_pct: float | None = None
    excess_return_p50_pct: float | None = None
    excess_return_p90_pct: float | None = None


class PortfolioV3(_Loose):
    """The model-written part of a portfolio-v3.0 submission; the allocation is computed from it upstream."""

    market_rationale: str | None = None
    dominant_pattern: str | None = None
    dispersion_state: str | None = None
    prefer_spy: bool | None = None
    top3_option_ids: list[str] = Field(default_factory=list)
    candidate_assessments: list[Assessment] = Field(default_factory=list)


class Usage(_Loose):
    latency_seconds: float = Field(ge=0)


class Submission(_Loose):
    round_id: str
    model_id: str = Field(min_length=1)
    provider: str = Field(min_length=1)
    is_official_score: bool
    rationale_summary: str = Field(min_length=1)
    key_risks: list[str]
    confidence: float = Field(ge=0, le=1)
    usage: Usage
    portfolio: list[Holding] | None = None
    portfolio_rationale: str | None = None
    selected_option_id: str | None = None
    portfolio_expected_return_pct: float | None = None
    benchmark_expected_return_pct: float | None = None
    expected_alpha_vs_sp500_pct: float | None = None
    candidate_ledger: list[CandidateEntry] | None = None
    metadata: dict[str, Any] | None = None

    @property
    def portfolio_v3(self) -> PortfolioV3 | None:
        """The portfolio-v3.0 model work (``metadata.portfolio_v3``), or None for earlier formats."""
        raw = (self.metadata or {}).get("portfolio_v3")
        return PortfolioV3.model_validate(raw) if isinstance(raw, dict) else None


# --- what a validated round looks like ---


@dataclass
class PricePoint:
    """One adjusted close of one option on one date, as a round's price file gives it."""

    date: date
    value: float


@dataclass
class SourceRound:
    """One validated round with its official run."""

    id: str
    dir: Path
    manifest: RoundManifest
    options: list[OptionSpec]
    briefing: str
    run_id: str
    submissions: list[tuple[str, Submission]]  # (relative file, submission), sorted by model_id
    entry: dict[str, PricePoint]
    exit: dict[str, PricePoint] | None  # None while the round is pending
    weekly: list[tuple[str, PricePoint]] = field(default_factory=list)  # (option_id, point)
    trailing: list[TableRow] = field(default_factory=list)  # rows of every table the round showed
    warnings: list[str] = field(default_factory=list)
    unused_columns: dict[str, list[str]] = field(default_factory=dict)  # table -> columns not used
    resolution: str | None = None  # automation/resolution_job.yaml status: scheduled | succeeded | cancelled
    resolution_note: str = ""  # its last_error (why a job was cancelled), or its due date

    @property
    def status(self) -> str:
        """resolved (exit prices published), pending (scoring still to come) or never resolved (cancelled)."""
        if self.exit is not None:
            return "resolved"
        return "never resolved" if self.resolution == "cancelled" else "pending"

    @property
    def track(self) -> str:
        return self.id.rsplit("-", 1)[-1]

    @property
    def cash_id(self) -> str | None:
        return next((o.id for o in self.options if o.is_cash), None)

    @property
    def option_by_id(self) -> dict[str, OptionSpec]:
        return {o.id: o for o in self.options}


@dataclass
class RoundListing:
    """A round directory found on disk, before validation."""

    id: str
    dir: Path
    decision_date: date | None
    publication_stream: str | None
    has_runs: bool


BENCHMARK_OPTION = "SP500"
