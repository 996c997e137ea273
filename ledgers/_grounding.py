"""Grounding audit per judge: valid citations, agreement with the verifier, contradictions missed.

Cohen's kappa compares the judge's statuses with the verifier's over the claims the judge gave a status
(statsmodels ``cohens_kappa`` on the 3x3 table supported / not_verifiable / contradicted:
kappa = (p_o - p_e) / (1 - p_e)). It is None when undefined (fewer than two claims, or both raters put
every claim in the same single status so p_e = 1).
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

from ledgers._models import STATUSES, Claim, CrossCheck, Verification


class GroundingRow(BaseModel):
    """One ledger entry of one judge with its verification and cross-check."""

    model_config = ConfigDict(extra="forbid")

    judge: str | None = None
    claim: Claim
    verification: Verification
    cross_check: CrossCheck


def cohen_kappa(judge: Sequence[str], verifier: Sequence[str]) -> dict[str, float | None]:
    """Cohen's kappa with its 95% interval (statsmodels); values None when undefined."""
    from statsmodels.stats.inter_rater import cohens_kappa

    none: dict[str, float | None] = {"kappa": None, "kappa_low": None, "kappa_high": None}
    if len(judge) < 2:
        return none
    index: dict[str, int] = {s: i for i, s in enumerate(STATUSES)}
    table = np.zeros((3, 3))
    for j, v in zip(judge, verifier, strict=True):
        table[index[j], index[v]] += 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = cohens_kappa(table)
    if not math.isfinite(res.kappa):
        return none
    low, high = float(res.kappa_low), float(res.kappa_upp)
    return {
        "kappa": float(res.kappa),
        "kappa_low": low if math.isfinite(low) else None,
        "kappa_high": high if math.isfinite(high) else None,
    }


def grounding_summary(rows: Iterable[GroundingRow]) -> dict:
    """Grounding figures for a set of ledger entries (normally one judge's)."""
    rows = list(rows)
    judged = [r for r in rows if r.claim.judge_status is not None]
    statuses = [
        (j, r.verification.status) for r in judged if (j := r.claim.judge_status) is not None
    ]  # (judge, verifier)
    cited = sum(r.cross_check.cited for r in rows)
    valid = sum(r.cross_check.valid_citations for r in rows)
    flags: Counter[str] = Counter(f for r in rows for f in r.cross_check.flags)
    contradicted = [r for r in rows if r.verification.status == "contradicted"]
    missed = [r for r in contradicted if r.claim.judge_status != "contradicted"]
    false_alarms = [
        r for r in judged if r.claim.judge_status == "contradicted" and r.verification.status == "supported"
    ]
    confusion = {j: {v: 0 for v in STATUSES} for j in STATUSES}
    for judge_status, verifier_status in statuses:
        confusion[judge_status][verifier_status] += 1
    kappa = cohen_kappa([j for j, _ in statuses], [v for _, v in statuses])
    agree = sum(1 for r in judged if r.claim.judge_status == r.verification.status)
    return {
        "claims": len(rows),
        "judged": len(judged),
        "citations": cited,
        "valid_citations": valid,
        "valid_citation_share": valid / cited if cited else None,
        "agreement": agree / len(judged) if judged else None,
        **kappa,
        "confusion": confusion,
        "verifier_status_counts": dict(Counter(r.verification.status for r in rows)),
        "verifier_contradicted": len(contradicted),
        "contradicted_missed": len(missed),
        "missed_claim_ids": [r.claim.id for r in missed],
        "judge_contradicted_but_supported": len(false_alarms),
        "lookahead": flags.get("lookahead", 0),
        "flags": dict(flags),
    }


def grounding_by_judge(rows: Iterable[GroundingRow]) -> dict[str, dict]:
    """``grounding_summary`` per judge name."""
    groups: dict[str, list[GroundingRow]] = {}
    for r in rows:
        groups.setdefault(r.judge or "", []).append(r)
    return {judge: grounding_summary(group) for judge, group in sorted(groups.items())}
