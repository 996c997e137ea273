"""The "claims in real rationales" section: what the verifier found in the contestants' own claims.

Counted over the reference judge's ledger of a run (claims extracted from the rationales and re-checked by
the verifier): numeric claims checked against point-in-time fields, supported, contradicted, and numeric
claims that cite only the briefing (no point-in-time field exists for them, so they are not verifiable).
"""

from __future__ import annotations

from sqlalchemy import select

from grader.storage import ContestantRow, LedgerEntryRow, RunRow, session_scope


def real_claims_section(run_id: str, db_url: str | None = None, examples: int = 6):
    """(summary dict, example contradicted claims) or (None, None) when the run has no reference ledger."""
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            return None, None
        names = {
            c.id: c.display_name
            for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
        }
        rows = s.scalars(
            select(LedgerEntryRow)
            .where(LedgerEntryRow.run_id == run_id, LedgerEntryRow.judge_id == "reference")
            .order_by(LedgerEntryRow.id)
        ).all()
        if not rows:
            return None, None
        briefing = [r for r in rows if "briefing_only" in (r.flags or [])]
        checked = [r for r in rows if r.evidence and "briefing_only" not in (r.flags or [])]
        summary = {
            "claims_extracted": len(rows),
            "numeric_checked_against_fields": len(checked),
            "supported": sum(r.verifier_status == "supported" for r in rows),
            "contradicted": sum(r.verifier_status == "contradicted" for r in rows),
            "not_verifiable": sum(r.verifier_status == "not_verifiable" for r in rows),
            "briefing_only": len(briefing),
            "lookahead_flags": sum(bool(r.lookahead) for r in rows),
            "source": "reference judge ledger: claims extracted from the contestants' rationales, "
            "re-checked by the deterministic verifier",
            "caveat": "extraction is automatic: read each example's fragment against the rationale before "
            "citing it; annotators can correct any entry in the console's ledger review",
        }
        picked: list[LedgerEntryRow] = []
        for status, want in (("contradicted", examples), ("supported", examples // 2), ("briefing", 2)):
            if status == "briefing":
                pool = briefing
            else:
                pool = [r for r in rows if r.verifier_status == status and r.evidence]
            seen_contestants: set[int] = set()
            chosen = []
            for r in pool:  # spread the examples over contestants first
                if r.contestant_id not in seen_contestants:
                    chosen.append(r)
                    seen_contestants.add(r.contestant_id)
            chosen += [r for r in pool if r not in chosen]
            picked += chosen[: max(0, want if status != "contradicted" else examples)]
        shown = [
            {
                "contestant": names.get(r.contestant_id, "?"),
                "decision_date": str(r.decision_date),
                "symbol": r.symbol,
                "claim": r.claim,
                "in_the_rationale": r.clause or "—",
                "status": r.verifier_status,
                "reason": r.verifier_reason,
                "checked_against": "; ".join(
                    f"{e['symbol']}.{e['field']} = {e['value']:.4g} (observed {str(e['observed_at'])[:10]})"
                    for e in (r.evidence or [])
                    if isinstance(e.get("value"), int | float)
                )
                or "—",
                "flags": "; ".join(
                    f"{f}: {(r.flag_reasons or {}).get(f, 'no reason recorded')}"
                    for f in r.flags or []
                    if f != "briefing_only"
                )
                or "—",
            }
            for r in picked
        ]
        return summary, shown
