"""Round semantics for ``format: rounds`` seasons, as CapitalBench defines them (seed 001).

A round is an independent experiment: every contestant submits one target allocation at the round's
decision deadline, held from the entry close to the exit close. Rounds overlap and are never compounded.

Per round and contestant (all returns are fractions over the round's close-to-close window):

- option return = exit close / entry close - 1; the cash option returns 0 unless it is priced;
- portfolio return = Σ weight × option return (any unallocated weight earns the cash return);
- S&P 500 (benchmark) return over the same window; alpha = portfolio return - benchmark return;
- oracle return = the highest return among the round's scored options (cash included), known only when
  every option of the round has both prices; regret = oracle return - portfolio return;
- oracle-normalised score = 100 × portfolio return / oracle return, unavailable when the oracle return is
  ≤ 0 and the portfolio lost money (a zero oracle matched by a zero return scores 100);
- HHI = Σ weight² of the submitted allocation (shown for pending rounds too: picks are public, outcomes not).

A round without an exit close (``exit_date: null``) is pending: its outcome fields are ``None`` (withheld).

Across rounds: a comparison set is a group of contestants scored only on the resolved rounds that every
member completed; its score is 100 × Σ returns / Σ oracle returns (equivalently, rounds weighted by the
size of their oracle opportunity). One set is formed per distinct roster of a resolved round (a model that
joins later starts a new set with the models present). All-available figures per contestant are context,
not a fair ranking surface.

This module reads a bundle validated by ``load_bundle`` (``season.yaml``, ``decisions.jsonl``, ``market/round_prices.csv`` or,
without it, ``market/prices.csv`` on the entry and exit dates, taking the season universe as every round's
options) or accepts plain :class:`RoundsData`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict

from grader.scoring import oracle_score
from grader.season import Decision, SeasonInfo

_TIE = 1e-15


class RoundsDataError(ValueError):
    """A rounds bundle could not be read; the message names the file, line and field."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RoundSpec(_Frozen):
    id: str
    decided_at: datetime
    entry_date: date
    exit_date: date | None = None  # None while pending
    cash_symbol: str | None = None
    cancelled: str | None = None  # why it never resolves (cancelled upstream): never "pending"


class RoundPick(_Frozen):
    """One contestant's allocation in one round: symbol -> weight (fractions, in submitted order)."""

    round_id: str
    contestant_id: str
    weights: dict[str, float]


class PricePair(_Frozen):
    entry: float
    exit: float | None = None


class RoundsData(_Frozen):
    """Everything round scoring needs, independent of how it was loaded."""

    benchmark: str
    rounds: list[RoundSpec]
    picks: list[RoundPick]
    prices: dict[str, dict[str, PricePair]]  # round id -> symbol -> entry/exit close
    unpriced: dict[str, list[str]] = {}  # round id -> options of the round lacking a price (oracle undefined)

    @classmethod
    def from_models(
        cls,
        info: SeasonInfo,
        decisions: Iterable[Decision],
        round_prices: Iterable[Mapping[str, str]] | None = None,
        prices: Iterable[tuple[date, str, float]] | None = None,
    ) -> RoundsData:
        """From typed season models plus ``round_prices.csv`` rows (``round_id, symbol, entry_close,
        exit_close``) or, failing that, ``(date, symbol, close)`` rows of ``prices.csv``."""
        if not info.rounds:
            raise RoundsDataError("season.yaml: rounds: a rounds season needs a non-empty rounds list")
        specs = [
            RoundSpec(
                id=r.id,
                decided_at=r.decided_at,
                entry_date=r.entry_date,
                exit_date=r.exit_date,
                cash_symbol=r.cash_symbol,
                cancelled=r.cancelled,
            )
            for r in info.rounds
        ]
        known = {s.id for s in specs}
        picks: list[RoundPick] = []
        for d in decisions:
            if d.round_id is None or d.allocation is None:
                continue
            if d.round_id not in known:
                raise RoundsDataError(f"decisions.jsonl:{d.line}: round_id: unknown round {d.round_id!r}")
            weights: dict[str, float] = {}
            for a in d.allocation:
                weights[a.symbol] = weights.get(a.symbol, 0.0) + a.weight
            picks.append(RoundPick(round_id=d.round_id, contestant_id=d.contestant_id, weights=weights))
        table: dict[str, dict[str, PricePair]] = {s.id: {} for s in specs}
        unpriced: dict[str, list[str]] = {}
        if round_prices is not None:
            for i, row in enumerate(round_prices, start=2):
                rid, sym = row.get("round_id", ""), row.get("symbol", "")
                if rid not in table:
                    raise RoundsDataError(f"market/round_prices.csv:{i}: round_id: unknown round {rid!r}")
                entry = _float(row.get("entry_close"), f"market/round_prices.csv:{i}: entry_close")
                ex = _float(row.get("exit_close"), f"market/round_prices.csv:{i}: exit_close")
                if entry is None:
                    raise RoundsDataError(f"market/round_prices.csv:{i}: entry_close: missing")
                table[rid][sym] = PricePair(entry=entry, exit=ex)
        elif prices is not None:
            by_day: dict[date, dict[str, float]] = {}
            for day, sym, close in prices:
                by_day.setdefault(day, {})[sym] = close
            # without round_prices.csv a round's options are taken to be the season universe
            wanted = [u.symbol for u in info.universe]
            for s in specs:
                entry_px = by_day.get(s.entry_date, {})
                exit_px = by_day.get(s.exit_date, {}) if s.exit_date else {}
                table[s.id] = {
                    sym: PricePair(entry=entry_px[sym], exit=exit_px.get(sym))
                    for sym in [*wanted, info.benchmark]
                    if sym in entry_px
                }
                gaps = [sym for sym in wanted if sym != s.cash_symbol and sym not in table[s.id]]
                if gaps:
                    unpriced[s.id] = gaps
        return cls(benchmark=info.benchmark, rounds=specs, picks=picks, prices=table, unpriced=unpriced)

    @classmethod
    def from_bundle_dir(cls, path: str | Path) -> RoundsData:
        """A ``format: rounds`` bundle, validated first (``load_bundle``: every file, ``round_prices.csv``
        included), so no invalid value reaches a score; an invalid bundle raises :class:`RoundsDataError` naming
        every problem. A bundle already loaded in this process is reused while no file changed."""
        from grader.season import BundleError, cached_bundle

        try:
            bundle = cached_bundle(Path(path))
        except BundleError as exc:
            raise RoundsDataError(str(exc)) from exc
        round_prices = bundle.extras.get("round_prices")
        if round_prices is not None:
            return cls.from_models(bundle.info, bundle.decisions, round_prices=round_prices)
        frame = bundle.prices[["date", "symbol", "close"]]
        rows = [(d, str(sym), float(c)) for d, sym, c in frame.itertuples(index=False, name=None)]
        return cls.from_models(bundle.info, bundle.decisions, prices=rows)


def _float(raw: str | float | None, where: str) -> float | None:
    if raw is None or not str(raw).strip():
        return None
    try:
        value = float(raw)
    except ValueError as exc:
        raise RoundsDataError(f"{where}: not a number: {raw!r}") from exc
    if not math.isfinite(value) or value <= 0:
        raise RoundsDataError(f"{where}: not a positive finite number: {raw!r}")
    return value


# --- results ---


class RoundSummary(_Frozen):
    round_id: str
    decided_at: datetime
    entry_date: date
    exit_date: date | None
    status: Literal["resolved", "pending", "cancelled"]
    cancelled: str | None = None  # why a cancelled round never resolves
    benchmark_return: float | None = None
    oracle_return: float | None = None
    oracle_symbols: list[str] = []
    option_returns: dict[str, float] = {}
    complete_universe: bool = False  # every option of the round has both prices (oracle and regret defined)


class RoundOutcome(_Frozen):
    round_id: str
    contestant_id: str
    status: Literal["resolved", "pending", "cancelled"]
    weights: dict[str, float]
    hhi: float
    cash_weight: float
    portfolio_return: float | None = None
    benchmark_return: float | None = None
    alpha: float | None = None
    regret: float | None = None
    oracle_return: float | None = None
    oracle_score: float | None = None
    beats_benchmark: bool | None = None
    beats_cash: bool | None = None
    withheld: str | None = None  # why the outcome is not shown (pending round, missing price)


class ComparisonRow(_Frozen):
    contestant_id: str
    rounds: int
    sum_return: float
    sum_oracle_return: float
    score: float | None  # 100 × Σ returns / Σ oracle returns
    average_return: float
    average_alpha: float


class ComparisonSet(_Frozen):
    members: list[str]
    round_ids: list[str]
    rows: list[ComparisonRow]  # best score first


class ContestantRounds(_Frozen):
    """All-available history of one contestant (context; comparison sets are the ranking surface)."""

    contestant_id: str
    rounds_decided: int
    rounds_resolved: int
    rounds_pending: int
    rounds_cancelled: int = 0
    average_return: float | None
    average_alpha: float | None
    sum_return: float | None
    sum_oracle_return: float | None
    score_all_available: float | None


class RoundResults(_Frozen):
    benchmark: str
    rounds: list[RoundSummary]
    outcomes: list[RoundOutcome]
    contestants: list[ContestantRounds]
    comparison_sets: list[ComparisonSet]

    def outcome(self, round_id: str, contestant_id: str) -> RoundOutcome | None:
        return next((o for o in self.outcomes if o.round_id == round_id and o.contestant_id == contestant_id), None)

    def round(self, round_id: str) -> RoundSummary | None:
        return next((r for r in self.rounds if r.round_id == round_id), None)

    @property
    def resolved_round_ids(self) -> list[str]:
        return [r.round_id for r in self.rounds if r.status == "resolved"]


# --- scoring ---


class _RoundFields(TypedDict):
    """What a round's summary says whatever its status."""

    round_id: str
    decided_at: datetime
    entry_date: date
    exit_date: date | None


class _PickFields(TypedDict):
    """What a contestant's outcome in a round says whatever the round's status."""

    round_id: str
    contestant_id: str
    weights: dict[str, float]
    hhi: float
    cash_weight: float


def _summarise_round(
    spec: RoundSpec, prices: Mapping[str, PricePair], benchmark: str, unpriced: list[str]
) -> RoundSummary:
    bench = prices.get(benchmark)
    resolved = spec.exit_date is not None and bench is not None and bench.exit is not None
    base: _RoundFields = {
        "round_id": spec.id,
        "decided_at": spec.decided_at,
        "entry_date": spec.entry_date,
        "exit_date": spec.exit_date,
    }
    if spec.cancelled is not None and not resolved:
        return RoundSummary(**base, status="cancelled", cancelled=spec.cancelled)
    if not resolved:
        return RoundSummary(**base, status="pending")
    returns = {s: p.exit / p.entry - 1.0 for s, p in prices.items() if p.exit is not None}
    if spec.cash_symbol and spec.cash_symbol not in returns:
        returns[spec.cash_symbol] = 0.0
    complete = not unpriced and all(p.exit is not None for p in prices.values())
    oracle = max(returns.values()) if complete and returns else None
    tops = sorted(s for s, r in returns.items() if oracle is not None and abs(r - oracle) <= _TIE)
    assert bench is not None and bench.exit is not None
    return RoundSummary(
        **base,
        status="resolved",
        benchmark_return=bench.exit / bench.entry - 1.0,
        oracle_return=oracle,
        oracle_symbols=tops,
        option_returns=returns,
        complete_universe=complete,
    )


def _score_pick(pick: RoundPick, summary: RoundSummary, cash_symbol: str | None) -> RoundOutcome:
    weights = dict(pick.weights)
    hhi = sum(w * w for w in weights.values())
    cash_weight = weights.get(cash_symbol, 0.0) if cash_symbol else 0.0
    base: _PickFields = {
        "round_id": pick.round_id,
        "contestant_id": pick.contestant_id,
        "weights": weights,
        "hhi": hhi,
        "cash_weight": cash_weight,
    }
    if summary.status == "cancelled":
        return RoundOutcome(
            **base,
            status="cancelled",
            withheld=f"round cancelled upstream, it will never resolve ({summary.cancelled}): no outcome",
        )
    if summary.status == "pending":
        return RoundOutcome(**base, status="pending", withheld="round pending: outcome withheld until the exit close")
    returns = summary.option_returns
    missing = [s for s in weights if s not in returns]
    if missing:
        return RoundOutcome(**base, status="resolved", withheld=f"no entry/exit price for {', '.join(missing)}")
    cash_return = returns.get(cash_symbol, 0.0) if cash_symbol else 0.0
    portfolio = sum(w * returns[s] for s, w in weights.items())
    unallocated = 1.0 - sum(weights.values())
    if abs(unallocated) > 1e-12:
        portfolio += unallocated * cash_return
    bench = summary.benchmark_return
    assert bench is not None
    oracle = summary.oracle_return
    return RoundOutcome(
        **base,
        status="resolved",
        portfolio_return=portfolio,
        benchmark_return=bench,
        alpha=portfolio - bench,
        regret=(oracle - portfolio) if oracle is not None else None,
        oracle_return=oracle,
        oracle_score=oracle_score(portfolio, oracle) if oracle is not None else None,
        beats_benchmark=portfolio > bench,
        beats_cash=portfolio > cash_return,
    )


def _scoreable(o: RoundOutcome) -> bool:
    return o.status == "resolved" and o.portfolio_return is not None and o.oracle_return is not None


def comparison_set(
    results_outcomes: Iterable[RoundOutcome], members: Iterable[str], round_order: list[str]
) -> ComparisonSet:
    """Score ``members`` on the resolved rounds (in ``round_order``) that every one of them completed."""
    member_list = sorted(set(members))
    by_round: dict[str, dict[str, RoundOutcome]] = {}
    for o in results_outcomes:
        if _scoreable(o):
            by_round.setdefault(o.round_id, {})[o.contestant_id] = o
    rounds = [rid for rid in round_order if rid in by_round and all(m in by_round[rid] for m in member_list)]
    rows: list[ComparisonRow] = []
    if rounds:
        for m in member_list:
            outs = [by_round[rid][m] for rid in rounds]
            s_ret = sum(o.portfolio_return for o in outs)  # type: ignore[misc]
            s_orc = sum(o.oracle_return for o in outs)  # type: ignore[misc]
            rows.append(
                ComparisonRow(
                    contestant_id=m,
                    rounds=len(outs),
                    sum_return=s_ret,
                    sum_oracle_return=s_orc,
                    score=oracle_score(s_ret, s_orc),
                    average_return=s_ret / len(outs),
                    average_alpha=sum(o.alpha for o in outs) / len(outs),  # type: ignore[misc]
                )
            )
    rows.sort(key=lambda r: (r.score is None, -(r.score or 0.0), r.contestant_id))
    return ComparisonSet(members=member_list, round_ids=rounds, rows=rows)


def score_rounds(source: RoundsData | str | Path) -> RoundResults:
    """Score every round of a ``format: rounds`` season (a bundle directory or :class:`RoundsData`)."""
    data = source if isinstance(source, RoundsData) else RoundsData.from_bundle_dir(source)
    specs = sorted(data.rounds, key=lambda s: (s.decided_at, s.id))
    summaries = {
        s.id: _summarise_round(s, data.prices.get(s.id, {}), data.benchmark, data.unpriced.get(s.id, [])) for s in specs
    }
    cash = {s.id: s.cash_symbol for s in specs}
    order = {s.id: i for i, s in enumerate(specs)}
    outcomes = sorted(
        (_score_pick(p, summaries[p.round_id], cash[p.round_id]) for p in data.picks),
        key=lambda o: (order[o.round_id], o.contestant_id),
    )
    round_order = [s.id for s in specs]

    contestants: list[ContestantRounds] = []
    for cid in sorted({o.contestant_id for o in outcomes}):
        mine = [o for o in outcomes if o.contestant_id == cid]
        done = [o for o in mine if o.portfolio_return is not None]
        scored = [o for o in done if o.oracle_return is not None]
        s_ret = sum(o.portfolio_return for o in scored) if scored else None  # type: ignore[misc]
        s_orc = sum(o.oracle_return for o in scored) if scored else None  # type: ignore[misc]
        contestants.append(
            ContestantRounds(
                contestant_id=cid,
                rounds_decided=len(mine),
                rounds_resolved=len(done),
                rounds_pending=sum(o.status == "pending" for o in mine),
                rounds_cancelled=sum(o.status == "cancelled" for o in mine),
                average_return=sum(o.portfolio_return for o in done) / len(done) if done else None,  # type: ignore[misc]
                average_alpha=sum(o.alpha for o in done) / len(done) if done else None,  # type: ignore[misc]
                sum_return=s_ret,
                sum_oracle_return=s_orc,
                score_all_available=oracle_score(s_ret, s_orc) if s_ret is not None and s_orc is not None else None,
            )
        )

    rosters: list[frozenset[str]] = []
    for rid in round_order:
        roster = frozenset(o.contestant_id for o in outcomes if o.round_id == rid and _scoreable(o))
        if roster and roster not in rosters:
            rosters.append(roster)
    sets = [comparison_set(outcomes, roster, round_order) for roster in rosters]

    return RoundResults(
        benchmark=data.benchmark,
        rounds=[summaries[s.id] for s in specs],
        outcomes=outcomes,
        contestants=contestants,
        comparison_sets=sets,
    )


def rounds_outcomes(bundle) -> tuple[dict[str, dict], bool]:
    """Outcome columns per contestant for a rounds season: averages over its resolved rounds (never
    compounded), the all-available oracle-normalised score, and whether the whole season is pending."""
    results = score_rounds(Path(bundle.path))
    by_contestant: dict[str, list[RoundOutcome]] = {}
    for o in results.outcomes:
        if o.status == "resolved" and o.portfolio_return is not None:
            by_contestant.setdefault(o.contestant_id, []).append(o)
    from grader.replay._standings import _set_brief, comparison_set_standings

    sets = comparison_set_standings(results)
    out: dict[str, dict] = {}
    for c in results.contestants:
        rows = by_contestant.get(c.contestant_id, [])
        mine = [st for st in sets if c.contestant_id in st["ranks"]]
        # the contestant's ranking surface: the set with the most members (then rounds) it belongs to, so that
        # as many contestants as possible are compared on the same rounds
        primary = max(mine, key=lambda st: (len(st["members"]), len(st["round_ids"]), -st["number"]), default=None)

        def mean(values: list[float | None]) -> float | None:
            vals = [v for v in values if v is not None]
            return sum(vals) / len(vals) if vals else None

        out[c.contestant_id] = {
            "available": bool(rows),
            "portfolio_return": mean([o.portfolio_return for o in rows]),
            "benchmark_return": mean([o.benchmark_return for o in rows]),
            "alpha": mean([o.alpha for o in rows]),
            "regret": mean([o.regret for o in rows]),
            "oracle_return": mean([o.oracle_return for o in rows]),
            "oracle_score": primary["scores"][c.contestant_id] if primary else None,
            "oracle_score_all_rounds": c.score_all_available,
            "comparison_set": _set_brief(primary, c.contestant_id) if primary else None,
            "comparison_sets": [_set_brief(st, c.contestant_id) for st in mine],
            "rounds_decided": c.rounds_decided,
            "rounds_resolved": c.rounds_resolved,
            "rounds_pending": c.rounds_pending,
            "rounds_cancelled": c.rounds_cancelled,
            "aggregation": "mean over resolved rounds (rounds are independent; never compounded)",
        }
    pending = not results.resolved_round_ids
    return out, pending
