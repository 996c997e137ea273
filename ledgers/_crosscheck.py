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

from collections.abc import Collection

from grader.pit import Snapshot
from ledgers._models import Claim, CrossCheck, Flag, Verification, VerifierConfig
from ledgers._parse import find_numbers
from ledgers._registry import FIELD_SPECS, KNOWN_FIELDS, resolve_field
from ledgers._units import format_value

_DEFAULT = VerifierConfig()


def _snapshot_fields(snapshot: Snapshot, symbol: str | None) -> set[str]:
    if symbol is not None:
        return set(snapshot.get(symbol, {}))
    return {f for per in snapshot.values() for f in per}


def _quotes(claim: Claim) -> list[tuple[str, float | str, float, str | None, object]]:
    """(field, value, tolerance, symbol, observed_at) for every value the judge quoted."""
    out: list[tuple[str, float | str, float, str | None, object]] = []
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
        for hit in find_numbers(claim.judge_note):
            if hit.binding_rule == "exact_numeric" and hit.field and hit.op == "eq" and not hit.forecast:
                value, tol = hit.stated.in_unit(FIELD_SPECS[hit.field].unit)
                out.append((hit.field, value, tol, claim.symbol, None))
    return out


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
    valid = 0
    shown = _snapshot_fields(snapshot, claim.symbol) if snapshot is not None else None
    for name in claim.cited_fields:
        canonical = resolve_field(name)
        if canonical is None or canonical not in known:
            flags.append("unknown_field")
            details.append(f"cited field {name!r} does not exist")
        elif shown is not None and canonical not in shown:
            flags.append("field_not_in_snapshot")
            details.append(f"cited field {canonical} was not in the snapshot for {claim.symbol}")
        else:
            valid += 1
    lookahead = verification.lookahead
    if lookahead:
        details.append("the verifier found a value known only after the decision")
    for fld, value, tol, symbol, observed_at in _quotes(claim):
        if observed_at is not None and observed_at > claim.decided_at:  # type: ignore[operator]
            lookahead = True
            details.append(f"quoted {fld} observed at {observed_at} after the decision")
        if snapshot is None or symbol is None:
            continue
        obs = snapshot.get(symbol, {}).get(fld)
        if obs is None or isinstance(obs.value, str) or isinstance(value, str):
            continue
        actual = float(obs.value)
        if abs(actual - float(value)) > max(tol, config.relative_tolerance * abs(actual)) + 1e-12:
            flags.append("misquoted_value")
            unit = FIELD_SPECS[fld].unit if fld in FIELD_SPECS else "ratio"
            details.append(f"quoted {fld} = {format_value(float(value), unit)} but the snapshot has "
                           f"{format_value(actual, unit)}")
    if claim.judge_status is not None and claim.judge_status != verification.status:
        flags.append("status_disagreement")
        details.append(f"judge said {claim.judge_status}, verifier says {verification.status}")
    if lookahead:
        flags.append("lookahead")
    return CrossCheck(
        claim_id=claim.id,
        flags=list(dict.fromkeys(flags)),
        verifier_status=verification.status,
        judge_status=claim.judge_status,
        agrees=claim.judge_status is not None and claim.judge_status == verification.status,
        cited=len(claim.cited_fields),
        valid_citations=valid,
        details=details,
    )
