"""Choosing reference items from a graded run: stratified over contestants and bands, with the items where the
judges disagree most, seeded so a set can be drawn again exactly.

An item is one decision, or ``window`` consecutive decisions, of one contestant. The draw:

1. **Contestants.** Every contestant gets ``n // C`` items; the remaining ``n % C`` go to contestants taken in
   turn from each band (best band first), the widest judge spread first within a band. With fewer items than
   contestants, the contestants are taken the same way, so the set still covers the bands.
2. **Windows within a contestant.** Non-overlapping windows. A third of a contestant's items (rounded up) are its
   windows where the judges disagree most (judge-verifier disagreements on the window's claims, plus symbols on
   which the judges' statuses differ, on the window's days), when it has any; the rest are drawn at random.
3. **Order.** Items are shuffled (seeded) and named "Item 01", "Item 02", ...: neither order nor name tells who
   wrote the decision.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import date

from sqlalchemy import select

from grader.storage import ContestantRow, ContestantScoreRow, LedgerEntryRow, RunRow, SeasonRow, session_scope

BAND_ORDER = ("strong", "mixed", "weak")


class SampleError(ValueError):
    """The set cannot be drawn as asked (unknown run, no decisions, a bad size)."""


@dataclass
class ItemSpec:
    """One reference item: which decisions of which contestant, and why it was chosen."""

    item_id: str
    label: str
    contestant: str
    decision_keys: list[str]
    first: int
    last: int
    stratum: str
    reason: str
    band: str | None = None
    disagreement: int = 0
    snapshot: dict[str, list[dict]] = field(default_factory=dict)
    """Decision key -> the point-in-time values the judges were shown (filled in when the items are built)."""
    rationales: dict[str, str] = field(default_factory=dict)
    """Decision key -> the rationale as the judges were shown it (anonymized)."""
    allocations: dict[str, list[dict]] = field(default_factory=dict)
    """Decision key -> target weights with each holding's rationale as the judges were shown it (rounds)."""
    facts: dict[str, str] = field(default_factory=dict)
    """Decision key -> the process facts the judges were shown (the portfolio before the decision, risk)."""

    def as_json(self) -> dict:
        return asdict(self)


def _band_rank(band: str | None) -> int:
    return BAND_ORDER.index(band) if band in BAND_ORDER else len(BAND_ORDER)


def _disagreements(session, run_id: str, row_ids: dict[int, str]) -> dict[tuple[str, date], int]:
    """(contestant key, decision day) -> judge-verifier disagreements + symbols the judges read differently."""
    counts: dict[tuple[str, date], int] = defaultdict(int)
    statuses: dict[tuple[str, date, str], set[str]] = defaultdict(set)
    for cid, day, symbol, judge_status, disagrees in session.execute(
        select(
            LedgerEntryRow.contestant_id,
            LedgerEntryRow.decision_date,
            LedgerEntryRow.symbol,
            LedgerEntryRow.judge_status,
            LedgerEntryRow.disagrees,
        ).where(LedgerEntryRow.run_id == run_id)
    ):
        if day is None or cid not in row_ids:
            continue
        key = (row_ids[cid], day)
        counts[key] += int(bool(disagrees))
        if symbol:
            statuses[(*key, symbol)].add(judge_status)
    for (contestant, day, _), seen in statuses.items():
        if len(seen) > 1:
            counts[(contestant, day)] += 1
    return counts


def _quota(contestants: list[tuple[str, str | None, float]], n: int) -> dict[str, int]:
    """Items per contestant: an equal share, the rest in turn over the bands (widest judge spread first)."""
    by_band: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for key, band, spread in contestants:
        by_band[_band_rank(band)].append((key, spread))
    queues = [sorted(v, key=lambda kv: (-kv[1], kv[0])) for _, v in sorted(by_band.items())]
    turn: list[str] = []
    while any(queues):
        for q in queues:
            if q:
                turn.append(q.pop(0)[0])
    share, rest = divmod(n, len(contestants))
    quota = {key: share for key, _, _ in contestants}
    for key in turn[:rest]:
        quota[key] += 1
    return quota


def sample_items(
    run_id: str, n: int, window: int = 1, seed: int = 0, db_url: str | None = None, bundle=None
) -> tuple[list[ItemSpec], str]:  # noqa: ANN001
    """The items of a calibration set drawn from ``run_id`` and a sentence saying how they were chosen."""
    from grader.season import cached_bundle

    if n < 1:
        raise SampleError("--n must be at least 1")
    if window < 1:
        raise SampleError("--window must be at least 1")
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise SampleError(f"no run {run_id!r} in this database")
        season = s.get_one(SeasonRow, run.season_id)
        row_ids = {
            c.id: c.contestant_key
            for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
        }
        from grader.scoring import latest_version

        version = latest_version(s, run_id)
        scores = (
            {}
            if version is None
            else {
                row_ids[r.contestant_id]: (r.band, (r.judges_high or 0.0) - (r.judges_low or 0.0))
                for r in s.scalars(select(ContestantScoreRow).where(ContestantScoreRow.version_id == version.id))
            }
        )
        disagree = _disagreements(s, run_id, row_ids)
        source = season.source_path
    bundle = bundle or cached_bundle(source)
    from grader.pit import MARKET_TZ

    eligible = [c.id for c in bundle.contestants if len(bundle.decisions_of(c.id)) >= window]
    if not eligible:
        raise SampleError(f"no contestant of run {run_id} has {window} decisions")
    slots = sum(len(bundle.decisions_of(c)) // window for c in eligible)
    if n > slots:
        raise SampleError(f"--n {n}: run {run_id} has room for {slots} non-overlapping windows of {window}")
    rng = random.Random(f"{seed}:{run_id}:{window}")
    people = [(c, scores.get(c, (None, 0.0))[0], scores.get(c, (None, 0.0))[1]) for c in eligible]
    quota = _quota(people, n)
    specs: list[ItemSpec] = []
    for key, band, _ in people:
        want = quota[key]
        if not want:
            continue
        decisions = bundle.decisions_of(key)
        starts = list(range(0, len(decisions) - window + 1, window))  # non-overlapping windows
        want = min(want, len(starts))

        def score(start: int, decisions=decisions, key=key) -> int:
            days = {d.decided_at.astimezone(MARKET_TZ).date() for d in decisions[start : start + window]}
            return sum(disagree.get((key, day), 0) for day in days)

        ranked = sorted(((score(st), st) for st in starts), key=lambda t: (-t[0], t[1]))
        top = [st for sc, st in ranked[: math.ceil(want / 3)] if sc > 0]
        rest = [st for st in starts if st not in top]
        chosen = [(st, "judges disagree most") for st in top]
        chosen += [(st, "random") for st in rng.sample(rest, want - len(top))]
        for st, stratum in chosen:
            window_decisions = decisions[st : st + window]
            sc = score(st)
            reason = f"band {band or 'unscored'}; " + (
                f"{sc} judge disagreement(s) on these days" if stratum != "random" else "drawn at random"
            )
            specs.append(
                ItemSpec(
                    item_id="",
                    label="",
                    contestant=key,
                    decision_keys=[d.key for d in window_decisions],
                    first=st,
                    last=st + len(window_decisions) - 1,
                    stratum=stratum,
                    reason=reason,
                    band=band,
                    disagreement=sc,
                )
            )
    rng.shuffle(specs)
    width = max(2, len(str(len(specs))))
    for i, spec in enumerate(specs, start=1):
        spec.item_id, spec.label = f"item-{i:0{width}d}", f"Item {i:0{width}d}"
    bands = sorted({b for _, b, _ in people if b}, key=_band_rank)
    method = (
        f"{len(specs)} item(s) of {window} consecutive decision(s) drawn from run {run_id} with seed {seed}: "
        f"{len(eligible)} contestant(s) covered ({', '.join(f'{k} {v}' for k, v in sorted(quota.items()) if v)}"
        f"), extra items in turn over the bands ({', '.join(bands) or 'none scored'}), widest judge spread "
        "first; within a contestant a third of its items (rounded up) are its windows where the judges "
        "disagree most (judge-verifier disagreements and symbols the judges read differently on those days), "
        "the rest drawn at random; non-overlapping windows; items shuffled and named without identity."
    )
    return specs, method
