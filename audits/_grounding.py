"""Grounding audit of the judges' claim ledgers against the deterministic verifier.

Per judge:

- valid citation share: among the claims that cite at least one field, the share whose every cited field is
  a known field present in the decision's point-in-time snapshot (``cited_field_exists``);
- agreement with the verifier: raw agreement and Cohen's kappa (statsmodels) between the judge's claim
  status and the verifier's, over supported / not_verifiable / contradicted;
- missed contradictions: claims the verifier found contradicted but the judge marked supported;
- lookahead: failed ``lookahead_check`` results, and claims the verifier flagged as using later data.

Every figure counts the main grading only (repeat 0), like the lookahead checks; the ledgers of stability
repeats (the same input graded again) are counted apart, in ``repeats``, so a run with repeats does not count
each claim several times.
"""

from __future__ import annotations

import pandas as pd
from pydantic import BaseModel

from audits._inputs import CLAIM_STATUSES, normalize_ledger, normalize_lookahead_checks
from audits._stats import cohen_kappa

MAX_EXAMPLES = 20


class JudgeGrounding(BaseModel):
    """Grounding figures of one judge's ledgers."""

    judge_id: str
    n_claims: int
    n_citing_claims: int
    n_uncited_claims: int
    valid_citation_share: float | None
    status_agreement: float | None
    status_kappa: float | None
    n_missed_contradictions: int
    n_lookahead_checks: int
    n_lookahead_failures: int
    n_lookahead_flagged_claims: int


class MissedContradiction(BaseModel):
    """A claim the verifier contradicted while the judge called it supported."""

    judge_id: str
    contestant_id: str
    claim: str | None
    cited_fields: list[str]


class GroundingResult(BaseModel):
    """Grounding per judge and examples of missed contradictions."""

    has_ledger: bool
    judges: list[JudgeGrounding]
    missed_contradictions: list[MissedContradiction]
    caveats: list[str]
    repeats: list[JudgeGrounding] = []
    """The same figures over the stability repeats' ledgers only (lookahead checks of repeats are not stored)."""


def grounding(
    ledger: pd.DataFrame | None, lookahead_checks: pd.DataFrame | None, repeat_ledger: pd.DataFrame | None = None
) -> GroundingResult:
    """Per-judge citation validity, verifier agreement, missed contradictions and lookahead failures of the main
    grading; ``repeat_ledger`` (stability repeats' claims) is summarised apart."""
    result = _grounding(ledger, lookahead_checks)
    extra = normalize_ledger(repeat_ledger)
    if not extra.empty:
        result.repeats = _grounding(extra, None).judges
        result.caveats.append(
            f"{len(extra)} claims from stability repeats are counted apart (table 'Stability "
            "repeats'), not in the figures above."
        )
    return result


def _grounding(ledger: pd.DataFrame | None, lookahead_checks: pd.DataFrame | None) -> GroundingResult:
    claims = normalize_ledger(ledger)
    checks = normalize_lookahead_checks(lookahead_checks)
    caveats: list[str] = []
    if claims.empty:
        caveats.append("No claim ledgers in this run: citation validity and verifier agreement are not measured.")
    if checks.empty:
        caveats.append("No lookahead checks recorded in this run.")
    judge_ids = sorted(set(claims["judge_id"]) | set(checks["judge_id"]))
    judges: list[JudgeGrounding] = []
    missed: list[MissedContradiction] = []
    for judge in judge_ids:
        own = claims[claims["judge_id"] == judge]
        citing = own[own["cited_fields"].map(len) > 0]
        statuses_j = own["judge_status"].tolist()
        statuses_v = own["verifier_status"].tolist()
        agreement = (
            float(sum(a == b for a, b in zip(statuses_j, statuses_v, strict=True)) / len(own)) if len(own) else None
        )
        kappa = cohen_kappa(statuses_j, statuses_v, CLAIM_STATUSES) if len(own) else None
        missed_rows = own[(own["verifier_status"] == "contradicted") & (own["judge_status"] == "supported")]
        for _, row in missed_rows.iterrows():
            if len(missed) < MAX_EXAMPLES:
                missed.append(
                    MissedContradiction(
                        judge_id=judge,
                        contestant_id=row["contestant_id"],
                        claim=row["claim"],
                        cited_fields=list(row["cited_fields"]),
                    )
                )
        own_checks = checks[checks["judge_id"] == judge]
        judges.append(
            JudgeGrounding(
                judge_id=judge,
                n_claims=int(len(own)),
                n_citing_claims=int(len(citing)),
                n_uncited_claims=int(len(own) - len(citing)),
                valid_citation_share=float(citing["cited_field_exists"].mean()) if len(citing) else None,
                status_agreement=agreement,
                status_kappa=kappa,
                n_missed_contradictions=int(len(missed_rows)),
                n_lookahead_checks=int(len(own_checks)),
                n_lookahead_failures=int((~own_checks["passed"].astype(bool)).sum()),
                n_lookahead_flagged_claims=int(own["lookahead_flag"].astype(bool).sum()),
            )
        )
        if len(own) and kappa is None:
            caveats.append(
                f"Judge {judge}: Cohen's kappa with the verifier is undefined (all statuses in one category); "
                f"raw agreement is {agreement:.0%}."
            )
    total_missed = sum(j.n_missed_contradictions for j in judges)
    if total_missed > len(missed):
        caveats.append(f"{len(missed)} of {total_missed} missed contradictions are listed.")
    return GroundingResult(has_ledger=not claims.empty, judges=judges, missed_contradictions=missed, caveats=caveats)
