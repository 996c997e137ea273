"""Typed inputs of the audits: run metadata, bands and the tables the lead builds from the database.

Every table is a pandas DataFrame with named columns. The ``normalize_*`` functions check the columns and
the values and return a clean copy; a bad value raises :class:`AuditInputError` naming the table, the row
and the column, so a broken export is found at once rather than as a strange statistic.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, model_validator

RunType = Literal["official", "stability", "dry-run", "mock", "baseline"]
SeasonStatus = Literal["resolved", "pending"]

#: Score columns of the ``scores`` table: the composite and the per-judge axes (0-100).
SCORE_AXES: tuple[str, ...] = ("composite", "reasoning", "evidence", "process", "outcome", "data_reliability")
#: Axes that may be missing (NaN) for a row: outcome is unresolvable while a season is pending.
NULLABLE_AXES: frozenset[str] = frozenset({"outcome"})
#: Columns of ``totals`` that depend on how the season played out; withheld for a pending season.
OUTCOME_COLUMNS: tuple[str, ...] = (
    "return",
    "benchmark_return",
    "alpha",
    "oracle_score",
    "regret",
    "sharpe",
    "sortino",
    "volatility",
    "max_drawdown",
    "equal_weight_return",
    "oracle_score_all_rounds",
    "outcome_over",
)
#: Outcome columns in words: how many of a contestant's rounds a rounds season's outcome is over.
TEXT_OUTCOME_COLUMNS: frozenset[str] = frozenset({"outcome_over"})

SCORES_COLUMNS: tuple[str, ...] = (
    "contestant_id",
    "contestant_label",
    "contestant_family",
    "judge_id",
    "judge_family",
    "repeat",
    *SCORE_AXES,
)
TOTALS_COLUMNS: tuple[str, ...] = ("contestant_id", "contestant_label", "total", "reasoning_median", "band")
HUMAN_GRADES_COLUMNS: tuple[str, ...] = ("item_id", "annotator", "axis", "score", "created_at")
LEDGER_COLUMNS: tuple[str, ...] = (
    "judge_id",
    "contestant_id",
    "claim",
    "cited_fields",
    "cited_field_exists",
    "judge_status",
    "verifier_status",
    "lookahead_flag",
)
LOOKAHEAD_COLUMNS: tuple[str, ...] = ("judge_id", "contestant_id", "passed")
CLAIM_STATUSES: tuple[str, ...] = ("supported", "not_verifiable", "contradicted")


class AuditInputError(Exception):
    """A table handed to the audits is malformed; the message names table, row and column.

    Not a ValueError on purpose: pydantic would wrap a ValueError raised while validating
    :class:`AuditInputs` into a ValidationError; this one reaches the caller as it is."""

    def __init__(self, table: str, problem: str, *, row: int | None = None, column: str | None = None):
        where = table
        if row is not None:
            where += f", row {row}"
        if column is not None:
            where += f", column {column!r}"
        super().__init__(f"{where}: {problem}")
        self.table = table
        self.row = row
        self.column = column


class Band(BaseModel):
    """A score band of the rubric, e.g. Strong 67-100. A score belongs to the highest band whose
    lower bound it reaches (so 66.6 is Mixed when Strong starts at 67)."""

    model_config = ConfigDict(frozen=True)

    name: str
    low: float
    high: float


DEFAULT_BANDS: tuple[Band, ...] = (
    Band(name="Strong", low=67, high=100),
    Band(name="Mixed", low=45, high=66),
    Band(name="Weak", low=0, high=44),
)


def sorted_bands(bands: Sequence[Band]) -> list[Band]:
    """Bands from the highest to the lowest lower bound."""
    if not bands:
        raise AuditInputError("bands", "at least one band is needed")
    return sorted(bands, key=lambda b: b.low, reverse=True)


def band_of(score: float | None, bands: Sequence[Band] = DEFAULT_BANDS) -> str | None:
    """Name of the band a score falls in (None for a missing score)."""
    if score is None or not np.isfinite(score):
        return None
    ordered = sorted_bands(bands)
    for band in ordered:
        if score >= band.low:
            return band.name
    return ordered[-1].name


def band_edges(bands: Sequence[Band] = DEFAULT_BANDS) -> list[float]:
    """The inner edges between bands (every lower bound but the lowest), ascending."""
    lows = sorted(b.low for b in bands)
    return lows[1:]


class RunMeta(BaseModel):
    """What the report must name: the run, the rubric, the panel, the season and the hashes."""

    run_id: str
    run_type: RunType
    rubric_id: str
    rubric_hash: str
    rubric_judge_hash: str = Field(description="hash of the judge-facing part of the rubric (what judges see)")
    panel_name: str
    panel_hash: str
    season_id: str
    season_status: SeasonStatus
    anonymized: bool = True
    """Whether the run's judges saw anonymized records (rubric ``panel.anonymize``; v0.3 shows names)."""
    season_resolution: str | None = None
    """How far the season resolved, in words, when "resolved" alone would say more than is true (a rounds season
    with pending or cancelled rounds: "partly resolved: 2 of 5 rounds resolved, 3 pending")."""
    manifest_hash: str
    attribution: str | None = None
    generated_at: datetime
    score_version: int | None = None
    """The run's scored version (1, 2, ... within the run) every figure of the report uses."""


def _empty(columns: Sequence[str]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=object) for c in columns})


def _require_frame(df: Any, table: str, columns: Sequence[str]) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise AuditInputError(table, f"expected a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise AuditInputError(table, f"missing column(s) {', '.join(repr(c) for c in missing)}")
    return df.reset_index(drop=True).copy()


def _numeric(
    df: pd.DataFrame,
    table: str,
    column: str,
    *,
    nullable: bool,
    low: float | None = None,
    high: float | None = None,
) -> pd.Series:
    raw = df[column]
    missing = raw.isna().to_numpy()
    values = pd.to_numeric(raw.where(~raw.isna(), np.nan), errors="coerce").astype(float)
    array = values.to_numpy()
    if not nullable and missing.any():
        pos = int(np.flatnonzero(missing)[0])
        raise AuditInputError(table, "value is missing", row=pos + 1, column=column)
    bad = ~missing & ~np.isfinite(array)
    if bad.any():
        pos = int(np.flatnonzero(bad)[0])
        raise AuditInputError(table, f"{raw.iloc[pos]!r} is not a finite number", row=pos + 1, column=column)
    with np.errstate(invalid="ignore"):
        out_of_range = np.zeros(len(array), dtype=bool)
        if low is not None:
            out_of_range |= array < low
        if high is not None:
            out_of_range |= array > high
    if out_of_range.any():
        pos = int(np.flatnonzero(out_of_range)[0])
        bounds = f"[{low if low is not None else '-inf'}, {high if high is not None else 'inf'}]"
        raise AuditInputError(table, f"{array[pos]:g} is outside {bounds}", row=pos + 1, column=column)
    return values


def _text(df: pd.DataFrame, table: str, column: str, *, nullable: bool = False) -> pd.Series:
    raw = df[column]
    out: list[str | None] = []
    for pos, value in enumerate(raw.tolist()):
        if value is None or (isinstance(value, float) and np.isnan(value)) or value is pd.NA:
            if not nullable:
                raise AuditInputError(table, "value is missing", row=pos + 1, column=column)
            out.append(None)
            continue
        text = str(value).strip()
        if not text and not nullable:
            raise AuditInputError(table, "value is empty", row=pos + 1, column=column)
        out.append(text or None)
    return pd.Series(out, index=df.index, dtype=object)


def _boolean(df: pd.DataFrame, table: str, column: str) -> pd.Series:
    out: list[bool] = []
    for pos, value in enumerate(df[column].tolist()):
        if isinstance(value, bool | np.bool_):
            out.append(bool(value))
        elif isinstance(value, int | np.integer) and value in (0, 1):
            out.append(bool(value))
        elif isinstance(value, str) and value.strip().lower() in {"true", "false"}:
            out.append(value.strip().lower() == "true")
        else:
            raise AuditInputError(table, f"{value!r} is not a boolean", row=pos + 1, column=column)
    return pd.Series(out, index=df.index, dtype=bool)


def _no_duplicates(df: pd.DataFrame, table: str, key: Sequence[str]) -> None:
    dup = df.duplicated(subset=list(key), keep="first")
    if dup.any():
        pos = int(np.flatnonzero(dup.to_numpy())[0])
        values = ", ".join(f"{k}={df[k].iloc[pos]!r}" for k in key)
        raise AuditInputError(table, f"duplicate row for ({values})", row=pos + 1)


def normalize_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """Check and clean the per-(contestant, judge, repeat) score table."""
    table = "scores"
    required = [c for c in SCORES_COLUMNS if c not in NULLABLE_AXES]
    df = _require_frame(scores, table, required)
    for column in ("contestant_id", "contestant_label", "contestant_family", "judge_id", "judge_family"):
        df[column] = _text(df, table, column)
    repeat = _numeric(df, table, "repeat", nullable=False, low=0)
    for pos, value in enumerate(repeat.tolist()):
        if value != int(value):
            raise AuditInputError(table, f"{value!r} is not a whole number", row=pos + 1, column="repeat")
    df["repeat"] = repeat.astype(int)
    for axis in SCORE_AXES:
        if axis not in df.columns:
            df[axis] = np.nan
        df[axis] = _numeric(df, table, axis, nullable=axis in NULLABLE_AXES, low=0, high=100)
    _no_duplicates(df, table, ("contestant_id", "judge_id", "repeat"))
    for key, attribute in (("contestant_id", "contestant_family"), ("judge_id", "judge_family")):
        per_key = df.groupby(key)[attribute].nunique()
        bad = per_key[per_key > 1]
        if not bad.empty:
            name = str(bad.index[0])
            pos = int(np.flatnonzero((df[key] == name).to_numpy())[-1])
            raise AuditInputError(table, f"{key} {name!r} has more than one {attribute}", row=pos + 1, column=attribute)
    return df


def normalize_totals(totals: pd.DataFrame) -> pd.DataFrame:
    """Check and clean the per-contestant totals table (outcome columns optional and nullable)."""
    table = "totals"
    df = _require_frame(totals, table, TOTALS_COLUMNS)
    df["contestant_id"] = _text(df, table, "contestant_id")
    df["contestant_label"] = _text(df, table, "contestant_label")
    df["band"] = _text(df, table, "band", nullable=True)
    df["total"] = _numeric(df, table, "total", nullable=False, low=0, high=100)
    df["reasoning_median"] = _numeric(df, table, "reasoning_median", nullable=True, low=0, high=100)
    if "efficiency" not in df.columns:
        df["efficiency"] = np.nan
    df["efficiency"] = _numeric(df, table, "efficiency", nullable=True, low=0, high=100)
    for column in OUTCOME_COLUMNS:
        if column in df.columns and column not in TEXT_OUTCOME_COLUMNS:
            df[column] = _numeric(df, table, column, nullable=True)
    if "outcome_over" in df.columns:
        df["outcome_over"] = _text(df, table, "outcome_over", nullable=True)
    _no_duplicates(df, table, ("contestant_id",))
    return df


def normalize_human_grades(human_grades: pd.DataFrame | None) -> pd.DataFrame:
    """Check and clean human calibration grades; keeps the latest grade per (item, annotator, axis),
    since human grades are append-only and a later grade replaces an earlier one."""
    table = "human_grades"
    if human_grades is None:
        return _empty(HUMAN_GRADES_COLUMNS)
    df = _require_frame(human_grades, table, HUMAN_GRADES_COLUMNS)
    if df.empty:
        return _empty(HUMAN_GRADES_COLUMNS)
    for column in ("item_id", "annotator", "axis"):
        df[column] = _text(df, table, column)
    df["score"] = _numeric(df, table, "score", nullable=False, low=0, high=100)
    created = pd.to_datetime(df["created_at"], errors="coerce", utc=True)
    for pos in range(len(df)):
        if pd.isna(created.iloc[pos]):
            raise AuditInputError(
                table, f"{df['created_at'].iloc[pos]!r} is not a timestamp", row=pos + 1, column="created_at"
            )
    df["created_at"] = created
    df = df.sort_values("created_at", kind="stable")
    return df.drop_duplicates(subset=["item_id", "annotator", "axis"], keep="last").reset_index(drop=True)


def normalize_ledger(ledger: pd.DataFrame | None) -> pd.DataFrame:
    """Check and clean the claim ledger rows (one row per claim a judge extracted)."""
    table = "ledger"
    if ledger is None:
        return _empty(LEDGER_COLUMNS)
    df = _require_frame(ledger, table, LEDGER_COLUMNS)
    if df.empty:
        return _empty(LEDGER_COLUMNS)
    df["judge_id"] = _text(df, table, "judge_id")
    df["contestant_id"] = _text(df, table, "contestant_id")
    df["claim"] = _text(df, table, "claim", nullable=True)
    cited: list[list[str]] = []
    for pos, value in enumerate(df["cited_fields"].tolist()):
        if value is None or (isinstance(value, float) and np.isnan(value)):
            cited.append([])
        elif isinstance(value, list | tuple | np.ndarray):
            cited.append([str(v) for v in value])
        else:
            raise AuditInputError(table, f"{value!r} is not a list of field names", row=pos + 1, column="cited_fields")
    df["cited_fields"] = pd.Series(cited, index=df.index, dtype=object)
    df["cited_field_exists"] = _boolean(df, table, "cited_field_exists")
    df["lookahead_flag"] = _boolean(df, table, "lookahead_flag")
    for column in ("judge_status", "verifier_status"):
        statuses = _text(df, table, column)
        for pos, status in enumerate(statuses.tolist()):
            if status not in CLAIM_STATUSES:
                raise AuditInputError(
                    table, f"{status!r} is not one of {', '.join(CLAIM_STATUSES)}", row=pos + 1, column=column
                )
        df[column] = statuses
    return df


def normalize_lookahead_checks(lookahead_checks: pd.DataFrame | None) -> pd.DataFrame:
    """Check and clean the per-(judge, contestant) lookahead_check results."""
    table = "lookahead_checks"
    if lookahead_checks is None:
        return _empty(LOOKAHEAD_COLUMNS)
    df = _require_frame(lookahead_checks, table, LOOKAHEAD_COLUMNS)
    if df.empty:
        return _empty(LOOKAHEAD_COLUMNS)
    df["judge_id"] = _text(df, table, "judge_id")
    df["contestant_id"] = _text(df, table, "contestant_id")
    df["passed"] = _boolean(df, table, "passed")
    return df


class AuditInputs(BaseModel):
    """Everything the audits and the report need, as plain typed data (built by the lead from storage).

    Tables (see the module constants for their columns):

    - ``scores``: one row per (contestant, judge, repeat); repeat 0 is the main run, higher repeats are
      stability re-grades of the same input.
    - ``totals``: one row per contestant: Total Score, reasoning median, efficiency, band and the
      outcome-dependent columns (withheld from the report while the season is pending).
    - ``human_grades``: calibration grades from the console (may be empty).
    - ``ledger`` and ``lookahead_checks``: claim ledgers with verifier statuses, lookahead checks.
    - ``claims_summary`` / ``examples``: optional "claims in real rationales" section filled elsewhere.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    meta: RunMeta
    scores: pd.DataFrame
    totals: pd.DataFrame
    human_grades: pd.DataFrame | None = Field(default_factory=lambda: _empty(HUMAN_GRADES_COLUMNS))
    ledger: pd.DataFrame | None = Field(default_factory=lambda: _empty(LEDGER_COLUMNS))
    lookahead_checks: pd.DataFrame | None = Field(default_factory=lambda: _empty(LOOKAHEAD_COLUMNS))
    claims_summary: dict[str, Any] | None = None
    examples: list[dict[str, Any]] | None = None
    identity_probe: Any = None
    """``audits.IdentityProbe`` of the season's anonymized rationales (filled elsewhere), or None."""
    round_outcomes: list[dict[str, Any]] | None = None
    """Rounds seasons: one row per (round, contestant) with status, allocation and outcome (filled elsewhere)."""
    comparison_sets: list[dict[str, Any]] | None = None
    """Rounds seasons: CapitalBench's comparison sets, one row per (set, member), best first (filled elsewhere)."""
    process_facts: dict[str, dict[str, Any]] | None = None
    """contestant id -> process facts from the trades or allocations (``grader.reporting.run_process_facts``)."""
    repeat_ledger: pd.DataFrame | None = Field(default_factory=lambda: _empty(LEDGER_COLUMNS))
    """Claim ledgers of stability repeats (repeat > 0), counted apart from ``ledger`` (the main grading)."""
    judge_probe: list[dict[str, Any]] | None = None
    """Identity-guess probe answers of the run's judges (``grader.probe.probe_rows``), or None if not run."""
    risk: dict[str, Any] | None = None
    """PortBench's risk evidence of the season (``grader.reporting.season_risk_evidence``), or None."""
    gaps: list[dict[str, Any]] = Field(default_factory=list)
    """Every (judge, contestant, repeat) the run has no valid grade for: judge_id, contestant, repeat, attempts,
    last_error (listed in the report, never filled in)."""
    failed_calls: list[dict[str, Any]] = Field(default_factory=list)
    """Every attempt that gave no valid grade: call_id, judge_id, contestant, repeat, attempt, status, error."""
    run_notes: list[str] = Field(default_factory=list)
    calibration_set: dict[str, Any] | None = None
    """A calibration run: the set it grades (set_id, method, window, n_items); its items are the "contestants"."""
    """What a reader must know about the run (a panel that does not fit its rubric, a resumed run, ...)."""
    bands: tuple[Band, ...] = DEFAULT_BANDS

    @model_validator(mode="after")
    def _check_tables(self) -> AuditInputs:
        self.scores = normalize_scores(self.scores)
        self.totals = normalize_totals(self.totals)
        self.human_grades = normalize_human_grades(self.human_grades)
        self.ledger = normalize_ledger(self.ledger)
        self.lookahead_checks = normalize_lookahead_checks(self.lookahead_checks)
        sorted_bands(self.bands)
        return self
