"""The audit report: every audit of one run, with the run's identity, ready to render.

``build_report`` runs the audits on :class:`AuditInputs` and applies the publication rules:

- a mock or baseline run carries a prominent label, so scripted or non-LLM grades are never read as real
  LLM grades;
- while the season is pending, outcome-dependent figures (return, benchmark return, alpha, oracle score,
  regret, Sharpe, Sortino, volatility, max drawdown, the equal-weight baseline and the outcome axis) are
  withheld from every table, chart and export, as CapitalBench does, and the report says so.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel

from audits._agreement import AgreementResult, agreement
from audits._calibration import CalibrationResult, calibration
from audits._grounding import GroundingResult, grounding
from audits._identity_probe import IdentityProbe, JudgeGuesses, judge_guess_stats
from audits._inputs import (
    OUTCOME_COLUMNS,
    SCORE_AXES,
    SCORES_COLUMNS,
    AuditInputs,
    Band,
    RunMeta,
    sorted_bands,
)
from audits._rank_confidence import RankConfidenceResult, rank_confidence
from audits._self_consistency import SelfConsistencyResult, self_consistency
from audits._self_preference import SelfPreferenceResult, self_preference

#: Prominent labels for runs whose grades are not real LLM grades (or not grades at all).
RUN_TYPE_LABELS: dict[str, str] = {
    "mock": "MOCK PANEL — scripted judges, not real LLM grades",
    "baseline": "REFERENCE BASELINE — deterministic non-LLM judge",
    "dry-run": "DRY RUN — no provider was called; no grades were produced",
    "stability": "STABILITY RUN — the same inputs graded repeatedly to measure self-consistency",
}

PENDING_NOTICE = (
    "Season pending: outcome-dependent figures (return, benchmark return, alpha, oracle score, regret, "
    "Sharpe, Sortino, volatility, max drawdown, equal-weight baseline and the outcome axis) are withheld "
    "until the season resolves."
)

TOTALS_BASE_COLUMNS: tuple[str, ...] = (
    "contestant_id",
    "contestant_label",
    "total",
    "band",
    "reasoning_median",
    "efficiency",
)


class RiskEvidence(BaseModel):
    """PortBench's risk evidence (seed 004): per contestant the mean point-in-time VaR, correlation score and
    profile alignment at its decisions; and, outcomes (withheld while pending), the classical baselines, the
    named stress windows the season overlaps and the profile's drawdown gate."""

    format: str
    horizon_sessions: int
    profile: dict[str, Any] | None = None
    contestants: list[dict[str, Any]]
    baselines: list[dict[str, Any]] = []
    stress: list[dict[str, Any]] = []
    notes: list[str] = []


class ClaimsInRationales(BaseModel):
    """Section filled by the ledgers work: numeric claims found in real rationales and checked against
    point-in-time data (counts such as checked / supported / contradicted / briefing_only), and a few real
    contradicted claims with the verifier's reason."""

    summary: dict[str, Any]
    examples: list[dict[str, Any]]


class RoundOutcomes(BaseModel):
    """Rounds seasons: each round's outcome per contestant (rounds are independent, never compounded)."""

    rows: list[dict[str, Any]]


class ReportSettings(BaseModel):
    """Random seeds and resampling sizes, so a report can be reproduced exactly."""

    seed: int
    n_boot_rank: int
    n_boot_alpha: int
    n_permutations: int
    significance_level: float


class AuditReport(BaseModel):
    """Everything the published judge-agreement report shows."""

    meta: RunMeta
    run_label: str | None
    outcome_withheld: bool
    withheld_columns: list[str]
    bands: list[Band]
    settings: ReportSettings
    score_columns: list[str]
    scores: list[dict[str, Any]]
    totals_columns: list[str]
    totals: list[dict[str, Any]]
    self_preference: SelfPreferenceResult
    agreement: AgreementResult
    self_consistency: SelfConsistencyResult
    calibration: CalibrationResult
    rank_confidence: RankConfidenceResult
    grounding: GroundingResult
    claims: ClaimsInRationales | None
    rounds: RoundOutcomes | None = None
    comparison_sets: list[dict[str, Any]] | None = None
    identity_probe: IdentityProbe | None = None
    judge_probe: list[JudgeGuesses] = []
    process_facts: dict[str, dict[str, Any]] = {}
    risk: RiskEvidence | None = None
    gaps: list[dict[str, Any]] = []
    failed_calls: list[dict[str, Any]] = []
    run_notes: list[str] = []
    calibration_set: dict[str, Any] | None = None
    caveats: list[str]


def _clean(value: Any) -> Any:
    """JSON-safe cell: NaN/inf -> None, numpy scalars -> Python, timestamps -> ISO text."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def _records(frame: pd.DataFrame, columns: list[str]) -> list[dict[str, Any]]:
    return [{c: _clean(v) for c, v in zip(columns, row, strict=True)} for row in frame[columns].itertuples(index=False)]


def build_report(
    inputs: AuditInputs,
    *,
    seed: int = 0,
    n_boot_rank: int = 2000,
    n_boot_alpha: int = 1000,
    n_permutations: int = 10_000,
    significance_level: float = 0.05,
) -> AuditReport:
    """Run every audit on the inputs and assemble the report (outcome figures withheld if pending)."""
    meta = inputs.meta
    pending = meta.season_status == "pending"
    axes = [a for a in SCORE_AXES if not (pending and a == "outcome")]
    scores = inputs.scores.copy()
    if pending:
        scores["outcome"] = np.nan

    score_columns = [c for c in SCORES_COLUMNS if c in axes or c not in SCORE_AXES]
    ordered_scores = scores.sort_values(["contestant_id", "judge_id", "repeat"], kind="stable")
    totals = inputs.totals.sort_values(["total", "contestant_id"], ascending=[False, True], kind="stable")
    outcome_present = [c for c in OUTCOME_COLUMNS if c in totals.columns]
    totals_columns = list(TOTALS_BASE_COLUMNS) + ([] if pending else outcome_present)
    withheld = (outcome_present + ["outcome"]) if pending else []

    caveats: list[str] = []
    if meta.run_type in RUN_TYPE_LABELS and meta.run_type in {"mock", "baseline"}:
        caveats.append(f"{RUN_TYPE_LABELS[meta.run_type]}: no figure in this report describes a real LLM judge.")
    if pending:
        caveats.append(PENDING_NOTICE)

    claims = None
    if inputs.claims_summary is not None or inputs.examples:
        claims = ClaimsInRationales(summary=dict(inputs.claims_summary or {}), examples=list(inputs.examples or []))

    rounds = RoundOutcomes(rows=list(inputs.round_outcomes)) if inputs.round_outcomes else None
    risk = None
    if inputs.risk is not None:
        evidence = dict(inputs.risk)
        if pending:  # outcomes: withheld like every other outcome figure
            evidence.update(
                baselines=[],
                stress=[],
                contestants=[
                    {k: v for k, v in row.items() if k not in ("max_drawdown", "drawdown_gate_passed")}
                    for row in evidence.get("contestants", [])
                ],
            )
        risk = RiskEvidence(**evidence)

    if inputs.gaps:
        caveats.append(
            f"{len(inputs.gaps)} expected grade(s) are missing (listed under 'Gaps and failed calls'); "
            "no score was invented for them, and the run is not official."
        )
    return AuditReport(
        gaps=list(inputs.gaps),
        failed_calls=list(inputs.failed_calls),
        run_notes=list(inputs.run_notes),
        calibration_set=inputs.calibration_set,
        rounds=rounds,
        comparison_sets=None if pending else (list(inputs.comparison_sets) if inputs.comparison_sets else None),
        identity_probe=inputs.identity_probe,
        risk=risk,
        process_facts=dict(inputs.process_facts or {}),
        judge_probe=judge_guess_stats(inputs.judge_probe or [], alpha=significance_level),
        meta=meta,
        run_label=RUN_TYPE_LABELS.get(meta.run_type),
        outcome_withheld=pending,
        withheld_columns=withheld,
        bands=sorted_bands(inputs.bands),
        settings=ReportSettings(
            seed=seed,
            n_boot_rank=n_boot_rank,
            n_boot_alpha=n_boot_alpha,
            n_permutations=n_permutations,
            significance_level=significance_level,
        ),
        score_columns=score_columns,
        scores=_records(ordered_scores, score_columns),
        totals_columns=totals_columns,
        totals=_records(totals, totals_columns),
        self_preference=self_preference(
            scores, n_permutations=n_permutations, seed=seed, significance_level=significance_level
        ),
        agreement=agreement(scores, axes=axes, n_boot=n_boot_alpha, seed=seed),
        self_consistency=self_consistency(scores, axes=axes),
        calibration=calibration(scores, inputs.human_grades, bands=inputs.bands, axes=axes),
        rank_confidence=rank_confidence(inputs.totals, scores, inputs.bands, n_boot_rank, seed),
        grounding=grounding(inputs.ledger, inputs.lookahead_checks, inputs.repeat_ledger),
        claims=claims,
        caveats=caveats,
    )
