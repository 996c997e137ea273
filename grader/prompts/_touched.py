"""What each decision's own text and trades touch: the point-in-time fields a record shows, and the briefing lines.

A whole record grows with what the contestant wrote and did, not with the market tables (issue 32):

- **Fields.** The claims of a decision's rationale (and of its holdings' rationales) are extracted and checked by
  the deterministic verifier exactly as the reference judge does (``ledgers.extract_claims`` + ``verify_many``
  against the decision's own point-in-time store); every (symbol, field) the verifier read to check them is a field
  the text touches. A ranking claim reads the whole cross-section: only its subjects' values are kept (at most
  ``MAX_SYMBOLS_PER_CLAIM`` symbols a claim). The record shows those, plus the close of every symbol the decision
  trades, allocates to or holds.
- **Briefings.** A round's briefing is named by its reference; of its text only the lines whose figures the
  rationale quotes are shown (a number of three or more digits, or with a decimal point, written in both).

Nothing here reads a value: the values shown are taken from ``PointInTimeStore.snapshot(..., decided_at)`` by the
builder, so the lookahead guard is unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from grader.prompts._briefings import _blocks, _Table
from grader.season import Decision, SeasonBundle

__all__ = ["MAX_SYMBOLS_PER_CLAIM", "briefing_excerpt", "cited_numbers", "touched_fields"]

MAX_SYMBOLS_PER_CLAIM = 4
"""A claim over the cross-section ("strongest 30-day performer") reads every symbol; the record keeps the claim's
own subjects (the verifier has the rest)."""
_NUMBER = re.compile(r"(?<![\w.])[-+−]?\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")
_YEAR = re.compile(r"(?:19|20)\d\d")


def touched_fields(
    bundle: SeasonBundle, decisions: list[Decision], universe=None, available: Iterable[str] | None = None
) -> dict[str, dict[str, set[str]]]:
    """Per decision key: symbol -> the fields the verifier read to check the decision's claims (the claims and their
    checks are the reference judge's own, ``checked_claims_of``: read once per bundle)."""
    from grader.judges.reference import checked_claims_of, universe_index

    universe = universe or universe_index(bundle)
    available = list(available) if available is not None else bundle.store.field_names()
    out: dict[str, dict[str, set[str]]] = {d.key: {} for d in decisions}
    for d, checked in zip(decisions, checked_claims_of(bundle, decisions, universe, available), strict=True):
        for claim, ver in checked:
            subjects = {a.symbol for a in claim.assertions if a.symbol} | ({claim.symbol} if claim.symbol else set())
            seen: list[str] = []
            for ev in ver.evidence:
                if ev.symbol not in seen:
                    seen.append(ev.symbol)
            keep = [s for s in seen if s in subjects] or seen
            keep = (keep + [s for s in seen if s not in keep])[:MAX_SYMBOLS_PER_CLAIM]
            per = out[d.key]
            for ev in ver.evidence:
                if ev.symbol in keep:
                    per.setdefault(ev.symbol, set()).add(ev.field)
    return out


def _numbers(text: str) -> set[str]:
    found = set()
    for m in _NUMBER.finditer(text):
        whole, frac = m.group(1).replace(",", ""), (m.group(2) or "").rstrip("0").rstrip(".")
        if frac:
            found.add(whole + frac)
        elif len(whole) >= 3 and not _YEAR.fullmatch(whole):
            found.add(whole)
    return found


def cited_numbers(text: str) -> set[str]:
    """The distinctive numbers of ``text`` (three or more digits, or a decimal), commas and trailing zeros dropped:
    what ties a rationale's figure to the briefing line it came from."""
    return _numbers(text)


def briefing_excerpt(briefing: str, text: str) -> list[str]:
    """The briefing's lines (table rows under their table's header) that contain a distinctive number of ``text``."""
    wanted = _numbers(text)
    if not wanted:
        return []
    out: list[str] = []
    for block in _blocks(briefing):
        if isinstance(block, _Table):
            rows = [r for r in block.rows if wanted & _numbers(" | ".join(r))]
            if rows:
                out.append(" | ".join(block.header))
                out.extend(" | ".join(r) for r in rows)
        elif block.strip() and wanted & _numbers(block):
            out.append(block.strip())
    return out
