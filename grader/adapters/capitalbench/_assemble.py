"""CapitalBench rounds → season bundle v1 (``format: rounds``): the pure assemble step.

CapitalBench (Ishtiaq Rahman, CC BY 4.0) publishes independent rounds: every model gets the same frozen
briefing and option universe and submits one allocation (one option, or up to five holdings) scored
close-to-close over a fixed horizon. :func:`assemble` turns rounds already read and validated
(``_select.read_selected_rounds``) into the bundle's files as text and the import's summary; it reads no file
and writes none (``_import`` writes them with :func:`grader.season.write_bundle`). The mapping is documented in
docs/capitalbench.md; the bundle extensions it relies on in docs/season-bundle.md ("Bundle extensions").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

from grader.adapters.capitalbench._rationale import allocation_of, compose_rationale, display_name_for
from grader.adapters.capitalbench._schema import BENCHMARK_OPTION, SourceRound
from grader.adapters.capitalbench._summary import (
    ATTRIBUTION,
    ImportSummary,
    RoundStatus,
    attribution_md,
    readme_md,
    status_why,
)
from grader.season import (
    Contestant,
    Decision,
    Round,
    SeasonInfo,
    UniverseEntry,
    csv_text,
    jsonl_text,
    yaml_text,
)

MARKET_TZ_NAME = "America/New_York"
STARTING_CASH = 100_000.0  # notional: rounds are scored as returns, never as a compounded NAV
_TRACK_WORD = {"1W": "weekly", "1M": "monthly"}


def _default_season_id(track: str, date_from: date | None, date_to: date | None, days: list[date]) -> str:
    lo, hi = date_from or min(days), date_to or max(days)
    month_end = (date(lo.year + (lo.month == 12), lo.month % 12 + 1, 1)).toordinal() - 1
    if lo.day == 1 and hi.toordinal() == month_end and (lo.year, lo.month) == (hi.year, hi.month):
        return f"cb-{lo:%Y-%m}-{track.lower()}"
    return f"cb-{lo:%Y%m%d}-{hi:%Y%m%d}-{track.lower()}"


def _season_name(track: str, date_from: date | None, date_to: date | None, days: list[date]) -> str:
    lo, hi = date_from or min(days), date_to or max(days)
    sid = _default_season_id(track, date_from, date_to, days)
    span = f"{lo:%B %Y}" if sid == f"cb-{lo:%Y-%m}-{track.lower()}" else f"{lo} to {hi}"
    return f"CapitalBench {_TRACK_WORD[track]} rounds, {span} (real LLM decisions)"


def _num(x: float) -> str:
    return repr(float(x))


@dataclass
class AssembledBundle:
    """A bundle's files (relative path -> text) and what the import wrote."""

    files: dict[str, str]
    summary: ImportSummary


def assemble(
    rounds: Sequence[SourceRound],
    skipped: list[tuple[str, str]],
    with_prompt: Sequence[str],
    *,
    track: str,
    date_from: date | None,
    date_to: date | None,
    out: Path,
    round_ids: Sequence[str] | None,
    season_id: str | None,
    command: str,
) -> AssembledBundle:
    """The bundle of ``rounds`` (validated, in deadline order): season, contestants, decisions, market files,
    ATTRIBUTION.md and README.md, and the summary (``out`` is only named in it). Pure: no file is read or
    written."""
    notes: list[str] = []
    tz = ZoneInfo(MARKET_TZ_NAME)
    decided_days = [r.manifest.decision_deadline.astimezone(tz).date() for r in rounds]
    start = min([*decided_days, *(r.manifest.decision_date for r in rounds)])
    end = max([*decided_days, *(r.manifest.exit_date for r in rounds)])
    decision_days = [r.manifest.decision_date for r in rounds]
    sid = season_id or (
        _default_season_id(track, date_from, date_to, decision_days)
        if round_ids is None
        else "cb-" + "-".join(rid.lower().removeprefix("cb-") for rid in (r.id for r in rounds))
    )
    name = (
        _season_name(track, date_from, date_to, decision_days)
        if round_ids is None
        else (f"CapitalBench {_TRACK_WORD[track]} round(s) {', '.join(r.id for r in rounds)} (real LLM decisions)")
    )

    # universe: union of the rounds' options, first description wins (they agree across the data)
    universe: dict[str, UniverseEntry] = {}
    for r in rounds:
        for o in r.options:
            entry = UniverseEntry(
                symbol=o.id,
                name=o.name,
                asset_class=o.asset_class,
                sector=o.category,
                group=o.option_group,
                ticker=o.symbol,
            )
            prev = universe.setdefault(o.id, entry)
            if prev != entry:
                notes.append(f"{r.id}: option {o.id} is described differently than in an earlier round; first kept")

    season_rounds = [
        Round(
            id=r.id,
            decided_at=r.manifest.decision_deadline,
            entry_date=r.manifest.entry_date,
            exit_date=r.manifest.exit_date if r.exit is not None else None,
            cash_symbol=r.cash_id,
            briefing=r.briefing,
            cancelled=(r.resolution_note or "scoring job cancelled upstream") if r.status == "never resolved" else None,
        )
        for r in rounds
    ]
    info = SeasonInfo(
        id=sid,
        name=name,
        start=start,
        end=end,
        benchmark=BENCHMARK_OPTION,
        risk_free_rate=0.0,
        starting_cash=STARTING_CASH,
        currency="USD",
        universe=list(universe.values()),
        attribution=ATTRIBUTION,
        format="rounds",
        rounds=season_rounds,
    )

    providers: dict[str, str] = {}  # one provider per model (read_selected_rounds left out a round breaking it)
    for r in rounds:
        for _, sub in r.submissions:
            providers.setdefault(sub.model_id, sub.provider)
    contestants = [
        Contestant(id=mid, display_name=display_name_for(mid, prov), provider_family=prov.lower(), model=mid)
        for mid, prov in sorted(providers.items())
    ]

    decisions: list[Decision] = []
    for r in rounds:
        names = {o.id: o.name for o in r.options}
        for _rel, sub in r.submissions:
            decisions.append(
                Decision(
                    contestant_id=sub.model_id,
                    decided_at=r.manifest.decision_deadline,
                    trades=[],
                    allocation=allocation_of(sub, names),
                    rationale=compose_rationale(sub, names),
                    decision_seconds=sub.usage.latency_seconds,
                    confidence=sub.confidence,
                    round_id=r.id,
                )
            )

    # prices.csv: one close per (date, symbol), the first published (rounds in deadline order; within a round
    # the as-of close the models saw, then entry, interim and exit prices). Per-round scoring prices, which
    # can differ after retroactive adjustment, go to market/round_prices.csv.
    closes: dict[tuple[date, str], float] = {}
    conflicts = 0

    def put(day: date, sym: str, value: float) -> None:
        nonlocal conflicts
        prev = closes.setdefault((day, sym), value)
        if abs(prev - value) > 1e-9 * max(1.0, abs(prev)):
            conflicts += 1

    for r in rounds:
        valid = r.option_by_id
        for t in r.trailing:
            if t.close is not None and t.option_id in valid:
                put(t.as_of_price_date, t.option_id, t.close)
        for oid, p in r.entry.items():
            if oid in valid:
                put(p.date, oid, p.value)
        for oid, p in r.weekly:
            if oid in valid:
                put(p.date, oid, p.value)
        for oid, p in (r.exit or {}).items():
            if oid in valid:
                put(p.date, oid, p.value)
    if conflicts:
        notes.append(
            f"{conflicts} adjusted closes for the same symbol and date differ between round files (retroactive "
            "adjustment or float formatting); market/prices.csv keeps the first published, "
            "market/round_prices.csv keeps each round's own entry and exit prices"
        )
    price_rows = [[d.isoformat(), s, _num(v)] for (d, s), v in sorted(closes.items())]

    round_price_rows: list[list[str]] = []
    for r in rounds:
        valid = r.option_by_id
        for oid in (o.id for o in r.options):
            if oid not in r.entry:
                continue
            ex = (r.exit or {}).get(oid)
            round_price_rows.append([r.id, oid, _num(r.entry[oid].value), _num(ex.value) if ex else ""])
        missing = [o.id for o in r.options if o.id not in r.entry and not o.is_cash]
        if missing:
            notes.append(f"{r.id}: no entry price for {', '.join(missing)} (not scored in that round)")

    # every table value of every round, sourced "capitalbench:<round>": a round's decisions are checked
    # against what that round showed (SeasonBundle.store_for), so two rounds publishing the same field on the
    # same day each keep their own row
    field_rows: list[list[str]] = []
    for r in rounds:
        seen_fields: set[tuple[str, str, date]] = set()
        for t in r.trailing:
            values = ({"close": t.close} if t.close is not None else {}) | t.returns
            for fname, v in values.items():
                key = (t.option_id, fname, t.as_of_price_date)
                if key in seen_fields:  # two tables of one round give one field (e.g. distance52wHigh)
                    continue
                seen_fields.add(key)
                field_rows.append([t.option_id, fname, _num(v), t.as_of_price_date.isoformat(), f"capitalbench:{r.id}"])
        for table, columns in sorted(r.unused_columns.items()):
            notes.append(f"{r.id}: {table} columns not read as fields (no registry field): {', '.join(columns)}")
    if with_prompt:  # said, never dropped silently
        notes.append(
            f"not carried: prompt.md of {len(with_prompt)} round(s) (the task instructions every model got; "
            "the briefing, the tables and every text the models wrote are carried)"
        )
    no_fields = [r.id for r in rounds if not r.trailing]
    if no_fields:
        notes.append(f"no market-data table (no point-in-time fields) in: {', '.join(no_fields)}")
    for r in rounds:
        notes.extend(r.warnings)

    season_doc = info.model_dump(
        mode="json", exclude_none=True, exclude=set() if info.allow_margin else {"allow_margin"}
    )
    files: dict[str, str] = {
        "season.yaml": yaml_text(season_doc, width=110, literal_blocks=True),
        "contestants.yaml": yaml_text([c.model_dump(mode="json") for c in contestants], literal_blocks=True),
        "decisions.jsonl": jsonl_text(
            d.model_dump(mode="json", exclude_none=True, exclude={"line"})
            for d in sorted(decisions, key=lambda d: (d.decided_at, d.contestant_id))
        ),
        "market/prices.csv": csv_text(["date", "symbol", "close"], price_rows),
        "market/round_prices.csv": csv_text(["round_id", "symbol", "entry_close", "exit_close"], round_price_rows),
    }
    if field_rows:  # optional file; the loader refuses a header without rows
        files["market/fields.csv"] = csv_text(["symbol", "field", "value", "observed_at", "source"], field_rows)
    pending = [r.id for r in rounds if r.exit is None]
    statuses = [
        RoundStatus(r.id, r.manifest.decision_date, r.status, status_why(r), len(r.submissions)) for r in rounds
    ]
    summary = ImportSummary(
        path=out,
        season_id=sid,
        round_ids=[r.id for r in rounds],
        pending_round_ids=pending,
        contestant_ids=[c.id for c in contestants],
        decisions=len(decisions),
        skipped=skipped,
        notes=notes,
        statuses=statuses,
    )
    files["ATTRIBUTION.md"] = attribution_md(rounds)
    files["README.md"] = readme_md(info, rounds, summary, command)
    return AssembledBundle(files, summary)
