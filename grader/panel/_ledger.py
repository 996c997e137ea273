"""Re-check a judge's claim ledger with our deterministic verifier; one row per ledger entry."""

from __future__ import annotations

from datetime import date, datetime, time

from grader.pit import MARKET_TZ
from grader.season import SeasonBundle


def _decision_times(
    bundle: SeasonBundle, contestant_id: str, day: date | None, symbol: str | None
) -> list[tuple[datetime, str | None]]:
    """(time, round) of each decision that could have made a claim dated ``day``: the contestant's decisions
    that day (those touching ``symbol`` when any do), else the end of that day; without a date, its last."""
    if day is None:
        decisions = bundle.decisions_of(contestant_id)
        return [
            (decisions[-1].decided_at, decisions[-1].round_id)
            if decisions
            else (datetime.combine(bundle.info.end, time(23, 59), tzinfo=MARKET_TZ), None)
        ]
    same_day = [d for d in bundle.decisions_of(contestant_id) if d.decided_at.astimezone(MARKET_TZ).date() == day]
    if symbol is not None:
        touching = [
            d
            for d in same_day
            if symbol in {t.symbol for t in d.trades} | {a.symbol for a in d.allocation or []} or symbol in d.rationale
        ]
        same_day = touching or same_day
    return sorted({(d.decided_at, d.round_id) for d in same_day}, key=lambda t: t[0]) or [
        (datetime.combine(day, time(23, 59), tzinfo=MARKET_TZ), None)
    ]


_RANK = {"supported": 0, "not_verifiable": 1, "contradicted": 2}


def verify_judge_ledger(
    entries: list[dict], bundle: SeasonBundle, contestant_id: str, checked: list[tuple] | None = None
) -> list[dict]:
    """Verifier status, evidence and cross-check flags for each of a judge's ledger entries."""
    from ledgers import Claim, VerifierConfig, cross_check, structured_assertions, verify

    rows = []
    config = VerifierConfig(benchmark=bundle.info.benchmark)
    for i, e in enumerate(entries):
        try:
            day = date.fromisoformat(str(e.get("decision_date"))[:10])
        except ValueError:
            day = None
        symbol = e.get("symbol") or None
        cited = [str(f) for f in e.get("cited_fields") or []]
        # A ledger entry carries a date, not a time. With several decisions that day (overlapping rounds) the
        # claim is checked at each: supported if any decision could see supporting data, contradicted only
        # when every one contradicts it.
        checks = []
        if checked is not None and i < len(checked):  # the reference judge's own verification, exact time
            claim, ver = checked[i]
            claim = claim.model_copy(update={"judge_status": e.get("status"), "judge_note": str(e.get("note", ""))})
            round_id = next(
                (d.round_id for d in bundle.decisions_of(contestant_id) if d.decided_at == claim.decided_at), None
            )
            checks.append((claim, ver, round_id))
        # grade-v2 (rubric v0.5): the judge's own structured assertions are checked exactly; the claim's words
        # are parsed only when it gave none
        given = [a for a in e.get("assertions") or [] if isinstance(a, dict)]
        parsed = structured_assertions(given, symbol, str(e.get("claim", ""))) if given else None
        for when, round_id in [] if checks else _decision_times(bundle, contestant_id, day, symbol):
            claim = Claim(
                id=str(i),
                text=str(e.get("claim", "")),
                decided_at=when,
                symbol=symbol,
                cited_fields=cited,
                judge_status=e.get("status"),
                judge_note=str(e.get("note", "")),
                assertions=parsed,
                structured=parsed is not None,
            )
            checks.append((claim, verify(claim, bundle.store_for(round_id), config), round_id))
        claim, ver, round_id = min(checks, key=lambda c: (_RANK.get(c[1].status, 1), -c[0].decided_at.timestamp()))
        when = claim.decided_at
        snapshot = bundle.store_for(round_id).snapshot([symbol], when) if symbol else {}
        cc = cross_check(claim, ver, None, snapshot, config)
        rows.append(
            {
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
                "flag_reasons": {
                    **cc.reasons,
                    **({"briefing_only": ver.reason} if getattr(ver, "briefing_only", False) else {}),
                },
                "disagrees": not cc.agrees,
                "lookahead": bool(ver.lookahead) or "lookahead" in cc.flags,
                "check_path": ver.path,
                "clause": claim.clause if claim.clause and claim.clause != claim.text else None,
            }
        )
    return rows
