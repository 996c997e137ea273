"""Re-check a judge's claim ledger with our deterministic verifier; one row per ledger entry."""

from __future__ import annotations

from datetime import date, datetime, time

from grader.pit import MARKET_TZ
from grader.season import SeasonBundle


def _decided_at(bundle: SeasonBundle, contestant_id: str, day: date | None, symbol: str | None = None) -> datetime:
    """The contestant's decision time on ``day`` (the end of that day when it made none).

    A ledger entry carries only a date. When the contestant decided more than once that day (overlapping
    rounds), prefer decisions that touch ``symbol`` and take the latest of them: the lookahead flag is then
    raised only for values that no decision of that day could have seen.
    """
    if day is not None:
        same_day = [d for d in bundle.decisions_of(contestant_id)
                    if d.decided_at.astimezone(MARKET_TZ).date() == day]
        if symbol is not None:
            touching = [d for d in same_day if symbol in {t.symbol for t in d.trades}
                        | {a.symbol for a in d.allocation or []} or symbol in d.rationale]
            same_day = touching or same_day
        if same_day:
            return max(d.decided_at for d in same_day)
        return datetime.combine(day, time(23, 59), tzinfo=MARKET_TZ)
    decisions = bundle.decisions_of(contestant_id)
    return decisions[-1].decided_at if decisions else datetime.combine(bundle.info.end, time(23, 59),
                                                                           tzinfo=MARKET_TZ)


def verify_judge_ledger(entries: list[dict], bundle: SeasonBundle, contestant_id: str) -> list[dict]:
    """Verifier status, evidence and cross-check flags for each of a judge's ledger entries."""
    from ledgers import Claim, cross_check, verify

    rows = []
    store = bundle.store
    for i, e in enumerate(entries):
        try:
            day = date.fromisoformat(str(e.get("decision_date"))[:10])
        except ValueError:
            day = None
        symbol = e.get("symbol") or None
        when = _decided_at(bundle, contestant_id, day, symbol)
        cited = [str(f) for f in e.get("cited_fields") or []]
        claim = Claim(id=str(i), text=str(e.get("claim", "")), decided_at=when, symbol=symbol,
                      cited_fields=cited, judge_status=e.get("status"), judge_note=str(e.get("note", "")))
        ver = verify(claim, store)
        snapshot = store.snapshot([symbol], when) if symbol else {}
        cc = cross_check(claim, ver, None, snapshot)
        rows.append({
            "claim": claim.text,
            "decision_date": day,
            "symbol": symbol,
            "cited_fields": cited,
            "judge_status": str(e.get("status")),
            "judge_note": claim.judge_note or "",
            "verifier_status": ver.status,
            "verifier_reason": ver.reason,
            "evidence": [ev if isinstance(ev, dict) else ev.model_dump(mode="json") for ev in ver.evidence],
            "flags": list(cc.flags) + (["briefing_only"] if getattr(ver, "briefing_only", False) else []),
            "disagrees": not cc.agrees,
            "lookahead": bool(ver.lookahead) or "lookahead" in cc.flags,
        })
    return rows
