"""Cross-check of a judge's ledger entry: its citations, quoted values and status against our verifier.

Flags:

- ``unknown_field``: a cited field that is not in the registry (or not in ``known_fields``);
- ``field_not_in_snapshot``: a known field the judge was not shown for that symbol;
- ``misquoted_value``: a value the judge quoted (``cited_values``, or "field = number" in its note) that
  differs from the snapshot at the stated precision and beyond 2% relative;
- ``status_disagreement``: the judge's status differs from the verifier's;
- ``lookahead``: the verifier flagged lookahead, or the judge quoted a value observed after the decision.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime
from functools import lru_cache

from grader.pit import Snapshot
from ledgers._models import Claim, CrossCheck, Flag, Verification, VerifierConfig
from ledgers._registry import FIELD_SPECS, KNOWN_FIELDS, resolve_field
from ledgers._units import format_value
from ledgers.reading import find_numbers

_DEFAULT = VerifierConfig()
_VERSUS_BEFORE = re.compile(r"\b(?:vs\.?|versus|minus|relative\s+to)\s+\w+\s*(?:=|:|of|at)?\s*[+\-\u2212]?$", re.I)


def _snapshot_fields(snapshot: Snapshot, symbol: str | None) -> set[str]:
    if symbol is not None:
        return set(snapshot.get(symbol, {}))
    return {f for per in snapshot.values() for f in per}


def _quotes(claim: Claim) -> list[tuple[str, float | str, float, str | None, datetime | None]]:
    """(field, value, tolerance, symbol, observed_at) for every value the judge quoted."""
    out: list[tuple[str, float | str, float, str | None, datetime | None]] = []
    for cv in claim.cited_values:
        fld = resolve_field(cv.field) or cv.field
        value = cv.value
        tol = 0.0
        if isinstance(value, str):
            try:
                from ledgers._units import parse_number

                stated = parse_number(value)
                unit = FIELD_SPECS[fld].unit if fld in FIELD_SPECS else "ratio"
                value, tol = stated.in_unit(unit)
            except ValueError:
                pass
        out.append((fld, value, tol, cv.symbol or claim.symbol, cv.observed_at))
    if not out and claim.judge_note:
        out = [(fld, value, tol, claim.symbol, None) for fld, value, tol in _note_quotes(claim.judge_note)]
    return out


@lru_cache(maxsize=20_000)
def _note_quotes(note: str) -> tuple[tuple[str, float, float], ...]:
    """(field, value, tolerance) of every "field = number" a judge's note quotes: read once per distinct note (a
    ledger repeats its notes across entries and grades; reading one is a pure function of its text)."""
    out: list[tuple[str, float, float]] = []
    for hit in find_numbers(note):
        if hit.binding_rule == "exact_numeric" and hit.field and hit.op == "eq" and not hit.forecast:
            unit = FIELD_SPECS[hit.field].unit
            if (hit.stated.percent or hit.stated.bps) and unit != "fraction":
                continue  # "close vs sma50 = +8.21%": a distance between two fields, not a quote of one
            if _VERSUS_BEFORE.search(note[max(0, hit.start - 40) : hit.start]):
                continue
            value, tol = hit.stated.in_unit(unit)
            out.append((hit.field, value, tol))
    return tuple(out)


def cross_check(
    claim: Claim,
    verification: Verification,
    known_fields: Collection[str] | None = None,
    snapshot: Snapshot | None = None,
    config: VerifierConfig = _DEFAULT,
) -> CrossCheck:
    """Compare a judge's ledger entry with the verifier and with the snapshot the judge was shown."""
    known = KNOWN_FIELDS if known_fields is None else set(known_fields)
    flags: list[Flag] = []
    details: list[str] = []
    reasons: dict[str, list[str]] = {}

    def flag(name: Flag, why: str) -> None:
        flags.append(name)
        details.append(why)
        reasons.setdefault(name, []).append(why)

    valid = 0
    shown = _snapshot_fields(snapshot, claim.symbol) if snapshot is not None else None
    for name in claim.cited_fields:
        canonical = resolve_field(name)
        if canonical is None or canonical not in known:
            flag("unknown_field", f"cited field {name!r} does not exist")
        elif shown is not None and canonical not in shown:
            flag("field_not_in_snapshot", f"cited field {canonical} was not in the snapshot for {claim.symbol}")
        else:
            valid += 1
    lookahead = verification.lookahead
    lookahead_why: list[str] = []
    if lookahead:
        lookahead_why.append(f"the verifier found a value known only after the decision: {verification.reason}")
    for fld, value, tol, symbol, observed_at in _quotes(claim):
        if observed_at is not None and observed_at > claim.decided_at:
            lookahead = True
            lookahead_why.append(f"quoted {fld} observed at {observed_at} after the decision")
        if snapshot is None or symbol is None:
            continue
        obs = snapshot.get(symbol, {}).get(fld)
        if obs is None or isinstance(obs.value, str) or isinstance(value, str):
            continue
        actual = float(obs.value)
        if abs(actual - float(value)) > max(tol, config.relative_tolerance * abs(actual)) + 1e-12:
            unit = FIELD_SPECS[fld].unit if fld in FIELD_SPECS else "ratio"
            flag(
                "misquoted_value",
                f"quoted {symbol} {fld} = {format_value(float(value), unit)} but the snapshot "
                f"has {format_value(actual, unit)} ({obs.observed_at:%Y-%m-%d})",
            )
    if claim.judge_status is not None and claim.judge_status != verification.status:
        flag(
            "status_disagreement",
            f"judge said {claim.judge_status}, verifier says {verification.status}: {verification.reason}",
        )
    if lookahead:
        for why in lookahead_why:
            flag("lookahead", why)
    return CrossCheck(
        claim_id=claim.id,
        flags=list(dict.fromkeys(flags)),
        verifier_status=verification.status,
        judge_status=claim.judge_status,
        agrees=claim.judge_status is not None and claim.judge_status == verification.status,
        cited=len(claim.cited_fields),
        valid_citations=valid,
        details=details,
        reasons={k: "; ".join(v) for k, v in reasons.items()},
    )
