"""CapitalBench rounds → season bundle v1 (``format: rounds``).

CapitalBench (Ishtiaq Rahman, CC BY 4.0) publishes independent rounds: every model gets the same frozen
briefing and option universe and submits one allocation (one option, or up to five holdings) scored
close-to-close over a fixed horizon. This adapter turns a slice of one track (weekly ``1W`` or monthly
``1M``) into a bundle the grader loads like any other season. The mapping is documented in
docs/capitalbench.md; the bundle extensions it relies on in docs/season-bundle.md ("Bundle extensions").

Nothing is written when any selected round is malformed: the bundle is built in a temporary sibling
directory and renamed into place only when complete.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

from grader.adapters._capitalbench_source import (
    BENCHMARK_OPTION,
    TRACKS,
    CapitalBenchError,
    CapitalBenchIssue,
    SourceRound,
    Submission,
    Track,
    _resolution,
    list_rounds,
    read_round,
    round_track,
)
from grader.season import (
    AllocationItem,
    Contestant,
    Decision,
    Round,
    SeasonInfo,
    UniverseEntry,
    csv_text,
    jsonl_text,
    write_bundle,
    yaml_text,
)

MARKET_TZ_NAME = "America/New_York"
SOURCE_REPOSITORY = "https://github.com/ishtiaqrahman/capitalbench"
LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"
ATTRIBUTION = (
    f"Round data from CapitalBench by Ishtiaq Rahman ({SOURCE_REPOSITORY}), licensed CC BY 4.0 ({LICENSE_URL}). "
    "Converted to season bundle v1: allocations, confidence, latency, prices and trailing returns are unchanged "
    "in value; each decision's rationale joins the submission's text fields. The licensor does not endorse "
    "this project."
)
STARTING_CASH = 100_000.0  # notional: rounds are scored as returns, never as a compounded NAV
_TRACK_WORD = {"1W": "weekly", "1M": "monthly"}
_ACRONYMS = {"gpt": "GPT", "ai": "AI", "llm": "LLM"}


@dataclass(frozen=True)
class RoundStatus:
    """One imported round's resolution: resolved, pending or never resolved, and why."""

    round_id: str
    decision_date: date
    status: str
    why: str
    decisions: int


def _status_why(r: SourceRound) -> str:
    if r.status == "resolved":
        return f"exit prices of {r.manifest.exit_date}; outcomes scored"
    if r.status == "never resolved":
        return f"scoring job cancelled upstream: {r.resolution_note}; graded with the outcome weight redistributed"
    job = (f"scoring job scheduled ({r.resolution_note.removeprefix('scoring job ')})" if r.resolution == "scheduled"
           else "no exit prices published yet")
    return f"{job}; outcome withheld, weight redistributed; import again when it resolves"


@dataclass
class ImportSummary:
    """What an import wrote (for the CLI to print)."""

    path: Path
    season_id: str
    round_ids: list[str]
    pending_round_ids: list[str]
    contestant_ids: list[str]
    decisions: int
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (round id, reason)
    notes: list[str] = field(default_factory=list)
    statuses: list[RoundStatus] = field(default_factory=list)

    def lines(self) -> list[str]:
        counts = {k: sum(s.status == k for s in self.statuses) for k in ("resolved", "pending", "never resolved")}
        out = [
            f"wrote {self.path} (season {self.season_id}): {len(self.round_ids)} rounds "
            f"({counts['resolved']} resolved, {counts['pending']} pending, {counts['never resolved']} never "
            f"resolved), {len(self.contestant_ids)} contestants, {self.decisions} decisions",
        ]
        out += self.status_table()
        out += [f"skipped {rid}: {why}" for rid, why in self.skipped]
        out += [f"note: {n}" for n in self.notes]
        return out

    def status_table(self) -> list[str]:
        """One line per imported round: status and why (CapitalBench's resolution job)."""
        if not self.statuses:
            return []
        width = max(len(s.round_id) for s in self.statuses)
        rows = [f"  {'round':<{width}}  decided     status          decisions  why"]
        for s in self.statuses:
            rows.append(f"  {s.round_id:<{width}}  {s.decision_date}  {s.status:<14}  {s.decisions:>9}  {s.why}")
        return rows


def display_name_for(model_id: str, provider: str | None = None) -> str:
    """A readable name from a CapitalBench model id: ``openai-gpt-5-5`` → ``GPT-5.5``,
    ``anthropic-claude-opus-4-7`` → ``Claude Opus 4.7``, ``google-gemini-3-1-pro`` → ``Gemini 3.1 Pro``."""
    tokens = model_id.split("-")
    if provider and tokens and tokens[0].lower() == provider.lower() and len(tokens) > 1:
        tokens = tokens[1:]
    words: list[str] = []
    numbers: list[str] = []

    def flush() -> None:
        if numbers:
            version = ".".join(numbers)
            if words and words[-1] in _ACRONYMS.values():
                words[-1] = f"{words[-1]}-{version}"
            else:
                words.append(version)
            numbers.clear()

    for tok in tokens:
        if tok.isdigit():
            numbers.append(tok)
            continue
        flush()
        words.append(_ACRONYMS.get(tok.lower(), tok[:1].upper() + tok[1:]))
    flush()
    return " ".join(words)


def _pct(x: float) -> str:
    return f"{x:g}%"


from ledgers import TEMPLATE_MARK  # noqa: E402  (platform text: shown, never graded or mined for claims)


def _pct_or_none(x: float | None) -> str | None:
    return None if x is None else f"{x:+g}%"


def _candidates_v2(sub: Submission, option_names: dict[str, str]) -> str | None:
    """portfolio-v2.2 ``candidate_ledger``: every option the model assessed, in its own words."""
    if not sub.candidate_ledger:
        return None
    lines = ["Candidates assessed:"]
    for c in sub.candidate_ledger:
        name = option_names.get(c.option_id)
        head = f"- {c.option_id} ({name})" if name else f"- {c.option_id}"
        bits = [f"{c.decision}" if c.decision else ""]
        if c.forecast_base_pct is not None:
            bits.append(f"forecast base case {c.forecast_base_pct:+g}%, low case {c.forecast_low_pct:+g}%, "
                        f"high case {c.forecast_high_pct:+g}%" if c.forecast_low_pct is not None and
                        c.forecast_high_pct is not None else f"forecast base case {c.forecast_base_pct:+g}%")
        line = head + ": " + "; ".join(b for b in bits if b) + "."
        if c.evidence:
            line += " Evidence: " + " ".join(e.strip().rstrip(".") + "." for e in c.evidence if e.strip())
        for label, text in (("Continuation", c.continuation_case), ("Reversal", c.reversal_case),
                            ("Catalyst", c.time_window_catalyst), ("Invalidation", c.invalidation_condition)):
            if text and text.strip():
                line += f" {label}: {text.strip().rstrip('.')}."
        lines.append(line)
    return "\n".join(lines)


def _assessments_v3(v3, option_names: dict[str, str]) -> list[str]:
    """portfolio-v3.0: the market rationale and every candidate assessment (the model's words and numbers)."""
    parts = []
    if v3.market_rationale and v3.market_rationale.strip():
        parts.append(v3.market_rationale.strip())
    state = [f"{k.replace('_', ' ')}: {v}" for k, v in (("dominant_pattern", v3.dominant_pattern),
                                                         ("dispersion_state", v3.dispersion_state),
                                                         ("prefer_spy", v3.prefer_spy)) if v is not None]
    if v3.top3_option_ids:
        state.append("top three: " + ", ".join(v3.top3_option_ids))
    if state:
        parts.append("Model's view: " + "; ".join(str(x) for x in state) + ".")
    if v3.candidate_assessments:
        lines = ["Candidate assessments:"]
        for a in sorted(v3.candidate_assessments, key=lambda a: (a.rank is None, a.rank or 0, a.option_id)):
            name = option_names.get(a.option_id)
            head = f"- {a.option_id} ({name})" if name else f"- {a.option_id}"
            line = head + (f", rank {a.rank}" if a.rank is not None else "") + ":"
            if a.mechanism:
                line += f" {a.mechanism.strip().rstrip('.')}."
            if a.evidence:
                line += " Evidence: " + " ".join(e.strip().rstrip(".") + "." for e in a.evidence if e.strip())
            if a.recent_return_interpretation:
                line += f" Recent returns: {a.recent_return_interpretation.strip().rstrip('.')}."
            probs = [f"probability of beating SPY {a.p_beat_spy_pct:g}%" if a.p_beat_spy_pct is not None else "",
                     f"probability of a top-three finish {a.p_top3_pct:g}%" if a.p_top3_pct is not None else ""]
            probs = [p for p in probs if p]
            if probs:
                line += " Model's " + ", ".join(probs) + "."
            if a.excess_return_p50_pct is not None:
                line += (f" Forecast excess return vs SPY: base case {a.excess_return_p50_pct:+g}%"
                         + (f", low case {a.excess_return_p10_pct:+g}%" if a.excess_return_p10_pct is not None else "")
                         + (f", high case {a.excess_return_p90_pct:+g}%" if a.excess_return_p90_pct is not None else "")
                         + ".")
            lines.append(line)
        parts.append("\n".join(lines))
    return parts


def compose_rationale(sub: Submission, option_names: dict[str, str]) -> str:
    """The decision rationale: summary, portfolio rationale, per-holding rationales, the candidates the model
    assessed (v2.2 candidate ledger; v3.0 market rationale and candidate assessments), its own forecast, key
    risks. Portfolio-v3.0 per-holding texts are the platform's template: kept, marked, never graded."""
    v3 = sub.portfolio_v3
    parts = [sub.rationale_summary.strip()]
    if v3 is not None and v3.market_rationale and v3.market_rationale.strip() == sub.rationale_summary.strip():
        parts = []  # rationale_summary repeats the market rationale, which comes below
    if sub.portfolio_rationale and sub.portfolio_rationale.strip():
        parts.append(sub.portfolio_rationale.strip())
    if sub.portfolio:
        lines = ["Holdings:"]
        for h in sub.portfolio:
            name = option_names.get(h.option_id)
            label = f"{h.option_id} ({name})" if name else h.option_id
            text = h.rationale.strip()
            if v3 is not None:  # "V3 selected model rank 1: ...": generated upstream, not the model's words
                text = f"{TEMPLATE_MARK} {text}"
            line = f"- {label}, {_pct(h.allocation_pct)}: {text}"
            extra = []
            if h.expected_return_pct is not None:
                extra.append(f"expected return {h.expected_return_pct:+g}%")
            if h.time_window_catalyst:
                extra.append(f"catalyst: {h.time_window_catalyst.strip()}")
            if h.invalidation_condition:
                extra.append(f"invalidation: {h.invalidation_condition.strip()}")
            if extra:
                line += " (" + "; ".join(extra) + ")"
            lines.append(line)
        parts.append("\n".join(lines))
    elif sub.selected_option_id:
        name = option_names.get(sub.selected_option_id)
        parts.append(f"Selected: {sub.selected_option_id}" + (f" ({name})" if name else "") + ", 100%.")
    ledger = _candidates_v2(sub, option_names)
    if ledger:
        parts.append(ledger)
    if v3 is not None:
        parts.extend(_assessments_v3(v3, option_names))
    if sub.portfolio_expected_return_pct is not None and sub.benchmark_expected_return_pct is not None:
        alpha = sub.expected_alpha_vs_sp500_pct
        parts.append(
            f"Model's own forecast: portfolio {sub.portfolio_expected_return_pct:+g}%, S&P 500 "
            f"{sub.benchmark_expected_return_pct:+g}%"
            + (f", expected alpha {alpha:+g} pp." if alpha is not None else ".")
        )
    if sub.key_risks:
        parts.append("Key risks:\n" + "\n".join(f"- {r.strip()}" for r in sub.key_risks))
    return "\n\n".join(p for p in parts if p)


def _allocation(sub: Submission, option_names: dict[str, str]) -> list[AllocationItem]:
    if sub.portfolio:
        return [
            AllocationItem(symbol=h.option_id, weight=h.allocation_pct / 100.0, rationale=h.rationale.strip())
            for h in sub.portfolio
        ]
    assert sub.selected_option_id is not None
    return [AllocationItem(symbol=sub.selected_option_id, weight=1.0)]


def _round_date(listing_id: str, decision_date: date | None) -> date | None:
    if decision_date is not None:
        return decision_date
    m = re.search(r"(\d{4}-\d{2}-\d{2})", listing_id)
    return date.fromisoformat(m.group(1)) if m else None


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
class _Built:
    files: dict[str, str]
    summary: ImportSummary


def _select(
    rounds_dir: Path,
    track: str,
    date_from: date | None,
    date_to: date | None,
    round_ids: Sequence[str] | None,
) -> tuple[list[Path], list[tuple[str, str]]]:
    listing = [r for r in list_rounds(rounds_dir) if round_track(r.id) == track]
    by_id = {r.id: r for r in listing}
    skipped: list[tuple[str, str]] = []
    if round_ids is not None:
        unknown = [rid for rid in round_ids if rid not in by_id]
        if unknown:
            raise CapitalBenchError(
                [
                    CapitalBenchIssue(
                        str(rounds_dir), None, "round_ids", f"no {track} round directory named {rid!r}"
                    )
                    for rid in unknown
                ]
            )
        chosen = [by_id[rid] for rid in dict.fromkeys(round_ids)]
    else:
        chosen = []
        for r in listing:
            day = _round_date(r.id, r.decision_date)
            if day is not None and ((date_from and day < date_from) or (date_to and day > date_to)):
                continue
            if (
                r.publication_stream
                and r.publication_stream != "official"
                and (rounds_dir / r.id / "manifest.yaml").is_file()
            ):
                skipped.append(
                    (
                        r.id,
                        f"publication_stream: {r.publication_stream} (a parallel experiment; "
                        "import it alone with --round)",
                    )
                )
                continue
            chosen.append(r)
    dirs: list[Path] = []
    for r in chosen:
        if not r.has_runs and (r.dir / "manifest.yaml").is_file():
            status, why = _resolution(r.dir)
            upstream = f" (scoring job {status}: {why})" if status == "cancelled" else ""
            skipped.append((r.id, f"never run: no runs/ directory, so no decisions exist{upstream}"))
            continue
        dirs.append(r.dir)
    if not dirs:
        what = (
            f"round(s) {list(round_ids)}"
            if round_ids is not None
            else (f"{track} rounds with a decision date in {date_from or '…'}..{date_to or '…'}")
        )
        reasons = "; ".join(f"{rid}: {why}" for rid, why in skipped)
        raise CapitalBenchError(
            [
                CapitalBenchIssue(
                    str(rounds_dir),
                    None,
                    None,
                    f"nothing to import: no {what} with decisions" + (f" ({reasons})" if reasons else ""),
                )
            ]
        )
    return dirs, skipped


def _build(
    rounds_dir: Path,
    track: str,
    date_from: date | None,
    date_to: date | None,
    out: Path,
    round_ids: Sequence[str] | None,
    season_id: str | None,
    command: str,
) -> _Built:
    if track not in TRACKS:
        raise CapitalBenchError(
            [CapitalBenchIssue(str(rounds_dir), None, "track", f"{track!r} is not one of {TRACKS}")]
        )
    if date_from and date_to and date_from > date_to:
        raise CapitalBenchError(
            [CapitalBenchIssue(str(rounds_dir), None, "date_from", f"{date_from} is after {date_to}")]
        )
    dirs, skipped = _select(rounds_dir, track, date_from, date_to, round_ids)
    refused: list[tuple[str, list[CapitalBenchIssue]]] = []  # one bad round never refuses the rest
    rounds: list[SourceRound] = []
    for d in dirs:
        own: list[CapitalBenchIssue] = []
        r = read_round(d, rounds_dir, own)
        if r is None or own:
            refused.append((d.name, own))
        else:
            rounds.append(r)
    rounds.sort(key=lambda r: (r.manifest.decision_deadline, r.id))
    # a decision is identified by (contestant, decided_at): two rounds sharing a deadline cannot share a model,
    # and a model keeps one provider: the later round that breaks either is left out, with the reason
    seen: dict[tuple[str, object], str] = {}
    providers: dict[str, str] = {}
    kept: list[SourceRound] = []
    for r in rounds:
        clash: list[CapitalBenchIssue] = []
        for rel, sub in r.submissions:
            key = (sub.model_id, r.manifest.decision_deadline)
            if key in seen:
                clash.append(CapitalBenchIssue(
                    rel, None, "model_id", f"{sub.model_id} also decided in {seen[key]} at the same deadline "
                    f"{r.manifest.decision_deadline.isoformat()}; import this round alone with --round"))
            if providers.get(sub.model_id, sub.provider) != sub.provider:
                clash.append(CapitalBenchIssue(
                    rel, None, "provider", f"{sub.provider!r} differs from {providers[sub.model_id]!r} elsewhere"))
        if clash:
            refused.append((r.id, clash))
            continue
        for _, sub in r.submissions:
            seen[(sub.model_id, r.manifest.decision_deadline)] = r.id
            providers.setdefault(sub.model_id, sub.provider)
        kept.append(r)
    rounds = kept
    if not rounds:
        raise CapitalBenchError([i for _, own in refused for i in own] or [
            CapitalBenchIssue(str(rounds_dir), None, None, "no round could be imported")])
    for rid, own in refused:
        first = "; ".join(str(i) for i in own[:2]) or "unreadable"
        skipped.append((rid, f"refused ({len(own)} problem(s)): {first}" + (" ..." if len(own) > 2 else "")))

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
        else (
            f"CapitalBench {_TRACK_WORD[track]} round(s) {', '.join(r.id for r in rounds)} (real LLM decisions)"
        )
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
                notes.append(
                    f"{r.id}: option {o.id} is described differently than in an earlier round; first kept"
                )

    season_rounds = [
        Round(
            id=r.id,
            decided_at=r.manifest.decision_deadline,
            entry_date=r.manifest.entry_date,
            exit_date=r.manifest.exit_date if r.exit is not None else None,
            cash_symbol=r.cash_id,
            briefing=r.briefing,
            cancelled=(r.resolution_note or "scoring job cancelled upstream") if r.status == "never resolved"
            else None,
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
                    allocation=_allocation(sub, names),
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
                field_rows.append(
                    [t.option_id, fname, _num(v), t.as_of_price_date.isoformat(), f"capitalbench:{r.id}"]
                )
        for table, columns in sorted(r.unused_columns.items()):
            notes.append(f"{r.id}: {table} columns not read as fields (no registry field): {', '.join(columns)}")
    with_prompt = [r.id for r in rounds if (r.dir / "prompt.md").is_file()]
    if with_prompt:  # said, never dropped silently
        notes.append(f"not carried: prompt.md of {len(with_prompt)} round(s) (the task instructions every model got; "
                     "the briefing, the tables and every text the models wrote are carried)")
    no_fields = [r.id for r in rounds if not r.trailing]
    if no_fields:
        notes.append(f"no market-data table (no point-in-time fields) in: {', '.join(no_fields)}")
    for r in rounds:
        notes.extend(r.warnings)

    season_doc = info.model_dump(mode="json", exclude_none=True, exclude=set() if info.allow_margin else {"allow_margin"})
    files: dict[str, str] = {
        "season.yaml": yaml_text(season_doc, width=110, literal_blocks=True),
        "contestants.yaml": yaml_text([c.model_dump(mode="json") for c in contestants], literal_blocks=True),
        "decisions.jsonl": jsonl_text(
            d.model_dump(mode="json", exclude_none=True, exclude={"line"})
            for d in sorted(decisions, key=lambda d: (d.decided_at, d.contestant_id))
        ),
        "market/prices.csv": csv_text(["date", "symbol", "close"], price_rows),
        "market/round_prices.csv": csv_text(
            ["round_id", "symbol", "entry_close", "exit_close"], round_price_rows
        ),
    }
    if field_rows:  # optional file; the loader refuses a header without rows
        files["market/fields.csv"] = csv_text(
            ["symbol", "field", "value", "observed_at", "source"], field_rows
        )
    pending = [r.id for r in rounds if r.exit is None]
    statuses = [RoundStatus(r.id, r.manifest.decision_date, r.status, _status_why(r), len(r.submissions))
                for r in rounds]
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
    files["ATTRIBUTION.md"] = _attribution_md(rounds)
    files["README.md"] = _readme_md(info, rounds, summary, command)
    return _Built(files, summary)


def _attribution_md(rounds: list[SourceRound]) -> str:
    listed = "\n".join(f"- `{r.id}` (official run `{r.run_id}`)" for r in rounds)
    return f"""# Attribution

The data in this directory is derived from **CapitalBench** by **Ishtiaq Rahman**
({SOURCE_REPOSITORY}), whose round artifacts are licensed under the
Creative Commons Attribution 4.0 International licence (CC BY 4.0, {LICENSE_URL}).

Changes made: the rounds listed below were converted to this project's season bundle v1 format
(`format: rounds`). Allocations, confidence, latency, adjusted closes and trailing returns keep their
values; each decision's `rationale` joins the submission's `rationale_summary`, `portfolio_rationale`,
per-holding rationales and `key_risks`; briefings are copied verbatim into `season.yaml`. Only each
round's operator-selected official run is used. "CapitalBench" names the data source only: this project
is not CapitalBench and is not endorsed by its author.

Rounds included:

{listed}
"""


def _readme_md(info: SeasonInfo, rounds: list[SourceRound], summary: ImportSummary, command: str) -> str:
    rows = "\n".join(
        f"| `{r.id}` | {r.manifest.decision_deadline.isoformat()} | {r.manifest.entry_date} | "
        f"{r.manifest.exit_date} | {'resolved' if r.exit is not None else r.status} | `{r.run_id}` | "
        f"{len(r.submissions)} |"
        for r in rounds
    )
    skipped = "\n".join(f"- `{rid}`: {why}" for rid, why in summary.skipped) or "- none"
    notes = "\n".join(f"- {n}" for n in summary.notes) or "- none"
    return f"""# {info.name}

Season bundle v1 with `format: rounds`: real LLM decisions from CapitalBench public rounds
(see ATTRIBUTION.md; CC BY 4.0, Ishtiaq Rahman). Each round is an independent experiment: never
compounded. Mapping and bundle extensions: docs/capitalbench.md in the project repository.

Built with (from the project root; rebuild by running it again with `--overwrite`):

    {command}

`grader import-capitalbench` takes the same arguments.

| round | decided at (deadline) | entry close | exit close | status | official run | decisions |
|---|---|---|---|---|---|---|
{rows}

Contestants: {", ".join(f"`{c}`" for c in summary.contestant_ids)}.

Skipped rounds:

{skipped}

Data notes:

{notes}
"""


def _default_command(
    rounds_dir: Path,
    track: str,
    date_from: date | None,
    date_to: date | None,
    out: Path,
    round_ids: Sequence[str] | None,
    season_id: str | None,
) -> str:
    parts = ["python -m grader.adapters import-capitalbench", str(rounds_dir), "--track", track]
    if date_from:
        parts += ["--from", date_from.isoformat()]
    if date_to:
        parts += ["--to", date_to.isoformat()]
    for rid in round_ids or []:
        parts += ["--round", rid]
    if season_id:
        parts += ["--season-id", season_id]
    parts += ["--out", str(out)]
    return " ".join(parts)


def import_capitalbench_with_summary(
    rounds_dir: Path | str,
    track: Track | str,
    date_from: date | None,
    date_to: date | None,
    out: Path | str,
    *,
    round_ids: Sequence[str] | None = None,
    season_id: str | None = None,
    overwrite: bool = False,
    command: str | None = None,
) -> ImportSummary:
    """:func:`import_capitalbench`, returning what was written and skipped."""
    rounds_dir, out = Path(rounds_dir), Path(out)
    if not rounds_dir.is_dir():
        raise CapitalBenchError([CapitalBenchIssue(str(rounds_dir), None, None, "not a directory")])
    if (
        not any((p / "manifest.yaml").is_file() for p in rounds_dir.iterdir() if p.is_dir())
        and (rounds_dir / "rounds").is_dir()
    ):
        rounds_dir = rounds_dir / "rounds"  # accept the data directory that holds rounds/
    if out.exists() and not overwrite:
        raise CapitalBenchError(
            [CapitalBenchIssue(str(out), None, None, "already exists (pass overwrite=True / --overwrite)")]
        )
    cmd = command or _default_command(rounds_dir, str(track), date_from, date_to, out, round_ids, season_id)
    built = _build(rounds_dir, str(track), date_from, date_to, out, round_ids, season_id, cmd)

    write_bundle(out, built.files, overwrite=True)
    return built.summary


def import_capitalbench(
    rounds_dir: Path | str,
    track: Track | str,
    date_from: date | None,
    date_to: date | None,
    out: Path | str,
    *,
    round_ids: Sequence[str] | None = None,
    season_id: str | None = None,
    overwrite: bool = False,
    command: str | None = None,
) -> Path:
    """Write a season bundle (``format: rounds``) from the CapitalBench rounds of one track.

    Rounds are selected by track (``1W``/``1M``, the round id suffix) and decision date (inclusive), or
    explicitly by ``round_ids``. Rounds that were never run (no ``runs/``) and parallel experiments
    (``publication_stream`` other than official, e.g. pilots) are skipped unless named in ``round_ids``.
    Raises :class:`CapitalBenchError` naming file, row and field of every problem; then nothing is written.
    ``command`` is the command line recorded in the bundle's README (default: the equivalent
    ``python -m grader.adapters import-capitalbench`` call).
    """
    return import_capitalbench_with_summary(
        rounds_dir,
        track,
        date_from,
        date_to,
        out,
        round_ids=round_ids,
        season_id=season_id,
        overwrite=overwrite,
        command=command,
    ).path
