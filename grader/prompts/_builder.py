"""Judge prompts: rubric instructions, the anonymized whole-horizon record, then a labelled outcome section.

Layout of the user message (one contestant per prompt — pointwise scoring), shared parts first so a provider's
prompt cache can serve them (the rubric instructions are the system prompt):

1. Season header (universe, benchmark, window) — no identities — and what the record leaves out and how a judge
   treats a claim about a value it cannot see (the same for every record of the season). Then the contestant's own
   record:
2. One section per decision, in time order: the decision time, trades or target allocation, the rationale
   (anonymized, verbatim), for a rounds season its round's briefing named by reference with only the lines whose
   figures the text quotes, process facts known at that moment (the portfolio), and the point-in-time snapshot
   **as of ``decided_at``** of what the decision touches (``_touched.py``): the close of every symbol it trades,
   allocates to or holds, and every field the verifier reads to check its text's claims. Every value in a
   decision's section comes from ``PointInTimeStore.snapshot(..., decided_at)``, so nothing observed later can
   appear there (the lookahead guard; a property test proves it).
3. "Whole-record process facts" (turnover, concentration, thrash events) — facts of the record, not market data.
4. "OUTCOME — after the horizon" — returns, benchmark, alpha, oracle, risk metrics; withheld when pending.

The record grows with what the contestant wrote and did, not with the market tables or the briefings (issue 32):
a value is not repeated while it is unchanged since the last time it was sent for that symbol, at display precision.
A calibration item (``build_item``) shows the same fields and keeps its round's briefing inline. ``token_estimate`` is ceil(characters / 4); ``counted_tokens`` uses the offline tokenizer.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, time
from functools import cached_property

from grader.pit import MARKET_TZ, Observation
from grader.prompts._fence import READING_RULE, fence, one_line, unfence
from grader.prompts._tokens import count_tokens
from grader.prompts._touched import briefing_excerpt, touched_fields
from grader.replay import rounds_scope
from grader.season import Decision, SeasonBundle
from ledgers import FIELDS

_PUBLIC_ROUND_ID = re.compile(r"\bCB-\d{4}-\d{2}-\d{2}(?:-[A-Z0-9]+)*\b")
"""A CapitalBench-style public round id (with the allocation, it finds a model in the published results)."""
PERCENT_FIELDS = frozenset(spec.name for spec in FIELDS if spec.unit == "fraction")
"""Fields shown as percentages (the registry's fractions: returns, volatility, drawdown, margins, ...)."""


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def format_value(field_name: str, value: float | str) -> str:
    if isinstance(value, str):
        return value
    if field_name in PERCENT_FIELDS:
        return f"{value * 100:.2f}%"
    if field_name == "marketCapitalization" or abs(value) >= 1e6:
        return f"{value:.4g}"
    if field_name.startswith("analystRating"):
        return f"{value:g}"
    return f"{value:.2f}"


def _score(v) -> str:  # noqa: ANN001
    return "unavailable" if v is None else f"{v:.1f}"


@dataclass
class DecisionSection:
    decision_key: str
    decided_at: datetime
    text: str
    observations: list[Observation]


@dataclass
class JudgePrompt:
    contestant_id: str
    alias: str
    system: str
    user: str
    sections: list[DecisionSection]
    token_estimate: int
    naive_token_estimate: int
    scrubbed: int
    leaks: list[str] = field(default_factory=list)
    shared_chars: int = 0
    """How many characters at the start of ``user`` are the same for every contestant of the same rounds (season
    header, round briefings): where a provider that needs explicit cache breakpoints (Anthropic) gets one."""

    @property
    def sha256(self) -> str:
        return prompt_hash(self.system, self.user)

    @cached_property
    def counted_tokens(self) -> int:
        """Tokens counted with the offline tokenizer (``grader.prompts.count_tokens``: exact for cl100k models, an
        estimate for the others), counted once."""
        return count_tokens(self.system) + count_tokens(self.user)


def prompt_hash(system: str, user: str) -> str:
    return hashlib.sha256(f"{system}\0{user}".encode()).hexdigest()


def _session_part(when: datetime) -> str:
    """"before the open", "during the session" or "after the close" (New York time) of a decision time."""
    t = when.astimezone(MARKET_TZ).time()
    if t < time(9, 30):
        return "before the open"
    return "during the session" if t < time(16, 0) else "after the close"


class _NoGuard:
    def find(self, text: str) -> list[str]:
        return []


class PromptBuilder:
    """Builds one judge prompt per contestant for a season."""

    def __init__(self, bundle: SeasonBundle, instructions: str, anonymizer, replays: dict | None = None,
                 outcome: dict[str, dict] | None = None, pending: bool = False, risk: dict | None = None):
        from grader.risk import SeasonRiskFacts

        self.bundle = bundle
        self.instructions = instructions
        self.anonymizer = anonymizer
        self.replays = replays or {}
        self.outcome = outcome or {}
        self.pending = pending
        self.store = bundle.store
        # PortBench's risk evidence: per decision (point-in-time) and, for trading seasons, after the horizon;
        # a contestant's computed when its prompt is first built
        self.risk = risk if risk is not None else SeasonRiskFacts(bundle, self.replays)
        self._risk_at: dict[str, dict] = {}
        self._touched: dict[str, dict] = {}
        self._briefings: dict[str, str | None] = {}
        # public round ids (with the allocation, enough to find a model in the round's published results)
        # become neutral labels with their dates in everything a judge sees
        rounds = sorted(bundle.info.rounds or [], key=lambda r: (r.decided_at, r.id))
        self.round_labels = {r.id: f"Round {i} (decided {r.decided_at.astimezone(MARKET_TZ):%Y-%m-%d})"
                             for i, r in enumerate(rounds, start=1)}
        self._round_re = (re.compile("|".join(re.escape(rid) for rid in sorted(self.round_labels, key=len,
                                                                              reverse=True)))
                          if self.round_labels else None)

    def _guard(self, contestant_id: str):
        """The leak guard for ``contestant_id``'s record (nothing is hidden without anonymization: no guard)."""
        from grader.anonymizer import Anonymizer, LeakGuard

        if not isinstance(self.anonymizer, Anonymizer):
            return _NoGuard()
        author = next((c for c in self.bundle.contestants if c.id == contestant_id), None)
        return LeakGuard.for_author(author.provider_family if author else None, author.model if author else None,
                                    self.bundle.info.symbols())

    def neutral(self, text: str) -> str:
        """``text`` with every public round id replaced by its neutral label (a round of another track named
        in a briefing: "a parallel round")."""
        if not text:
            return text
        if self._round_re is not None:
            text = self._round_re.sub(lambda m: self.round_labels[m.group(0)], text)
        return _PUBLIC_ROUND_ID.sub("a parallel round", text)

    def round_briefing(self, round_id: str | None) -> str | None:
        """A round's briefing (what every model was shown), scrubbed once per round."""
        if round_id is None:
            return None
        if round_id not in self._briefings:
            raw = next((r.briefing for r in self.bundle.info.rounds or [] if r.id == round_id), None)
            self._briefings[round_id] = self.neutral(self.anonymizer.scrub(raw).text) if raw else None
        return self._briefings[round_id]

    # -- sections ---------------------------------------------------------------------------------
    def header(self) -> str:
        info = self.bundle.info
        view = "anonymized" if getattr(self.anonymizer, "anonymizes", True) else "contestants named, not anonymized"
        lines = [
            f"# Season record ({view})\nWindow: {info.start} to {info.end}. Benchmark: {info.benchmark}. "
            f"Starting cash: {info.starting_cash:,.0f} {one_line(info.currency)}.",
            "Universe: " + "; ".join(
                one_line(f"{u.symbol} ({u.name}{', ' + u.sector if u.sector else ''})") for u in info.universe
            ),
        ]
        return "\n".join(lines)

    def left_out_section(self, briefings_named: bool = True) -> str:
        """What a whole record (or, ``briefings_named=False``, a calibration item, which keeps its briefing) leaves
        out, and how a judge treats a claim about what it cannot see (the same for every record of the season: part
        of the shared prefix)."""
        rounds = briefings_named and bool(self.bundle.info.rounds)
        lines = ["# Left out of this record",
                 "Rationales, trades, allocations and confidences are verbatim. Market tables are not: each decision "
                 "shows, as of its time, the closes of what it trades or holds and the fields its text claims about "
                 "(a value unchanged since last shown is not repeated)."]
        if rounds:
            lines.append("Round briefings are named by reference; each decision quotes only the briefing lines whose "
                         "figures its text quotes. A briefing applies only to its own round.")
        lines.append("A claim about a value not shown here: status not_verifiable, neither wrong nor right; our "
                     "verifier checks every claim against the full point-in-time store.")
        return "\n".join(lines) + "\n\n" + READING_RULE

    def _relevant_symbols(self, decision: Decision, held: set[str]) -> list[str]:
        """What a decision trades, allocates to or holds (before it)."""
        syms = set(held) | {t.symbol for t in decision.trades}
        syms |= {a.symbol for a in decision.allocation or []}
        return sorted(syms)

    def decision_section(self, decision: Decision, shown: Decision, symbols: list[str],
                         last_sent: dict[tuple[str, str], str] | None, facts: list[str],
                         seen_context: set[str] | None, fields: dict[str, set[str]] | None = None,
                         name_briefing: bool = False) -> DecisionSection:
        """``fields``: per symbol, the fields to show (what the decision's text and trades touch, ``_touched.py``);
        None: every field of ``symbols`` (the naive dump). ``name_briefing`` (a whole record): its round's briefing is
        named by reference and only the lines its text cites are quoted; otherwise it is shown in full, once."""
        when = decision.decided_at
        # the day and the part of the session, no finer: the minute a model answered tells its latency, and latency
        # differs by family (issue 30)
        lines = [f"## Decision {when.astimezone(MARKET_TZ):%Y-%m-%d}, {_session_part(when)}"]
        if decision.round_id:
            lines.append(self.round_labels.get(decision.round_id, "Round (unlabelled)"))
        if decision.trades:
            lines.append("Trades: " + "; ".join(
                f"{t.side} {t.quantity:g} {t.symbol} @ {t.price:.2f}" for t in decision.trades))
        elif decision.allocation:
            lines.append("Target allocation: " + "; ".join(
                f"{a.symbol} {a.weight * 100:.0f}%" for a in decision.allocation))
        else:
            lines.append("Trades: none (hold)")
        if decision.confidence is not None:
            lines.append(f"Stated confidence: {decision.confidence:.2f}")
        lines.append(fence(shown.rationale, "rationale"))  # the contestant's text: quoted, it forges nothing
        for a in shown.allocation or []:
            if a.rationale and a.rationale not in shown.rationale:  # not already quoted in the rationale
                lines.append(fence(a.rationale, f"reason for {a.symbol}"))
        briefing = None if shown.context else self.round_briefing(decision.round_id)
        if briefing and name_briefing:  # a whole record: the briefing named, the lines its text cites quoted
            digest = hashlib.sha256(briefing.encode()).hexdigest()[:12]
            cited = briefing_excerpt(briefing, shown.rationale + "\n" + "\n".join(
                a.rationale or "" for a in shown.allocation or []))
            lines.append(f"What the model was shown: the briefing of "
                         f"{self.round_labels.get(decision.round_id, 'its round')} (ref {digest}; not reproduced, "
                         f"{count_tokens(briefing):,} tokens)" + (
                             ". Its lines with figures this decision's text quotes:" if cited else
                             "; this decision's text quotes none of its figures."))
            lines.extend(f"  > {one_line(line)}" for line in cited)
            briefing = None
        context = shown.context or briefing
        if context:
            digest = hashlib.sha256(context.encode()).hexdigest()[:12]
            if seen_context is not None and digest in seen_context:
                lines.append(f"What the model was shown: same briefing as before (ref {digest}).")
            else:
                if seen_context is not None:
                    seen_context.add(digest)
                lines.append(f"What the model was shown (briefing ref {digest}):\n"
                             + fence(context, "what the model was shown"))
        if facts:
            lines.append("Process facts at decision time: " + "; ".join(facts))
        wanted = None if fields is None else {f for per in fields.values() for f in per}
        snap = self.bundle.store_for(decision.round_id).snapshot(symbols, when, fields=wanted)
        used: list[Observation] = []
        snap_lines = []
        for sym in symbols:
            per = snap.get(sym, {})
            if fields is not None:
                per = {f: o for f, o in per.items() if f in fields.get(sym, ())}
            parts = []
            for fname in sorted(per):
                obs = per[fname]
                shown_v = format_value(fname, obs.value)
                key = (sym, fname)
                if last_sent is not None:
                    if last_sent.get(key) == shown_v:
                        continue
                    last_sent[key] = shown_v
                parts.append(f"{fname}={shown_v}")
                used.append(obs)
            if parts:
                asof = max(per[f].observed_at for f in per).astimezone(MARKET_TZ).date()
                snap_lines.append((sym, asof, ", ".join(parts)))
        dates = {asof for _, asof, _ in snap_lines}
        if fields is not None and len(dates) == 1:  # one date, said once
            lines.append(f"Point-in-time snapshot as of {dates.pop()} (only values known at the decision; unchanged "
                         "values omitted; the closes of what it trades or holds and the fields its text touches):")
            lines.extend(f"  {sym}: {parts}" for sym, _, parts in snap_lines)
        else:
            lines.append("Point-in-time snapshot (only values known at the decision; unchanged values omitted"
                         + ("; the closes of what it trades or holds and the fields its text touches):"
                            if fields is not None else "):"))
            lines.extend(f"  {sym} (as of {asof}): {parts}" for sym, asof, parts in snap_lines)
        if not snap_lines:
            lines.append("  (no changed values)")
        return DecisionSection(decision.key, when, "\n".join(lines), used)

    def process_facts_at(self, contestant_id: str, decision: Decision) -> list[str]:
        return self._position_facts(contestant_id, decision) + self._risk_facts(contestant_id, decision)

    def _risk_facts(self, contestant_id: str, decision: Decision) -> list[str]:
        at = self._risk_at.get(contestant_id)
        if at is None:  # the contestant's decisions by key, once (its facts computed when first asked for)
            facts = self.risk.get(contestant_id)
            at = self._risk_at[contestant_id] = {d.decision_key: d for d in facts.decisions} if facts else {}
        risk = at.get(decision.key)
        if risk is None:
            return []
        # a rounds season's VaR and correlation score are never computable: not repeated at every decision
        return risk.lines(unavailable=self.bundle.info.format != "rounds")

    def _position_facts(self, contestant_id: str, decision: Decision) -> list[str]:
        replay = self.replays.get(contestant_id)
        if replay is None:
            if decision.allocation:
                hhi = sum(a.weight ** 2 for a in decision.allocation)
                return [f"holdings {len(decision.allocation)}", f"HHI {hhi:.3f}"]
            return []
        row = replay.row_before(decision.decided_at.astimezone(MARKET_TZ).date())
        if row < 0:
            return ["before the first close of the season: all cash"]
        navs = replay.nav.to_numpy(float)
        nav, cash, peak = float(navs[row]), float(replay.cash.iloc[row]), float(navs[: row + 1].max())
        parts = [f"NAV {nav:,.0f} at {replay.days[row]} close", f"cash {cash / nav * 100:.1f}%",
                 f"drawdown from peak {(1 - nav / peak) * 100:.1f}%"]
        held = replay.held_at(row)
        if held:
            parts.append("held: " + ", ".join(f"{s} {q:g}" for s, q in held))
        return parts

    def outcome_section(self, contestant_id: str) -> str:
        head = "# OUTCOME — after the horizon (use only for the outcome axis; never to grade earlier decisions)"
        if self.pending:
            o = self.outcome.get(contestant_id) or {}
            if o.get("rounds_cancelled"):  # a cancelled round never resolves: not "pending"
                return (head + f"\nNo round of this record has resolved: outcome {rounds_scope(o)}, so there is "
                        "none. Score the outcome axis null.")
            return head + "\nThe season is pending: no outcome is resolvable yet. Score the outcome axis null."
        o = self.outcome.get(contestant_id)
        if not o or not o.get("available", True):
            return head + "\nNo outcome is available for this record. Score the outcome axis null."
        def pct(v):
            return "n/a" if v is None else f"{v * 100:.2f}%"
        lines = [head,
                 f"Return {pct(o.get('portfolio_return'))}; benchmark over the same window "
                 f"{pct(o.get('benchmark_return'))}; alpha {pct(o.get('alpha'))}.",
                 f"Hindsight oracle {o.get('oracle_symbol') or ''} {pct(o.get('oracle_return'))}; "
                 f"regret {pct(o.get('regret'))}; oracle-normalised score "
                 f"{'unavailable' if o.get('oracle_score') is None else format(o['oracle_score'], '.1f')}."]
        scope = rounds_scope(o)
        if scope:  # a rounds season: means over the resolved rounds only, and the score's comparison set
            cs = o.get("comparison_set") or {}
            lines.append(f"These are means {scope}; rounds are independent, never compounded.")
            if cs:
                lines.append(f"The oracle-normalised score is over the {cs['rounds']} resolved round(s) shared by "
                             f"every model of its comparison set ({cs['members']} models); over all of this "
                             f"record's resolved rounds it is {_score(o.get('oracle_score_all_rounds'))}.")
        risk = [f"{k} {o[k]:.2f}" for k in ("sharpe", "sortino") if o.get(k) is not None]
        risk += [f"{k} {pct(o[k])}" for k in ("volatility", "max_drawdown") if o.get(k) is not None]
        if risk:
            lines.append("Risk: " + "; ".join(risk) + ".")
        if o.get("equal_weight_return") is not None:
            lines.append(f"Equal-weight baseline return {pct(o['equal_weight_return'])}.")
        risk = self.risk.get(contestant_id)
        if risk is not None and risk.season is not None:
            lines.append("Risk after the horizon (PortBench baselines, stress windows, drawdown gate):")
            lines += [f"- {line}." for line in risk.season.lines()]
        return "\n".join(lines)

    def record_facts_section(self, contestant_id: str) -> str:
        replay = self.replays.get(contestant_id)
        if replay is None:
            risk = self._risk_record_lines(contestant_id)
            return "\n".join(["# Whole-record process facts (computed from the allocations; not market data)",
                              *risk]) if risk else ""
        f = replay.facts
        lines = ["# Whole-record process facts (computed from the trades; not market data)",
                 f"Decisions {f.decisions}, trades {f.trades}, holds {f.hold_decisions}; turnover "
                 f"{f.turnover:.2f}× mean NAV; mean position HHI {f.hhi:.3f}; max position weight "
                 f"{f.max_position_weight * 100:.1f}%; sector HHI {f.sector_hhi:.3f}"
                 + (f" (top sector {f.top_sector} {f.top_sector_weight * 100:.1f}%)" if f.top_sector else "")
                 + f"; mean cash weight {f.cash_weight_mean * 100:.1f}%.",
                 f"Thrash events (buy and sell of the same symbol within 10 trading days): "
                 f"{len(f.thrash_events)}."]
        for e in f.thrash_events[:10]:
            lines.append(f"  - {e.symbol}: {e.first_side} {e.first_at[:10]} then {e.second_side} "
                         f"{e.second_at[:10]} ({e.trading_days_apart} trading days)")
        lines += self._risk_record_lines(contestant_id)
        return "\n".join(lines)

    def _risk_record_lines(self, contestant_id: str) -> list[str]:
        risk = self.risk.get(contestant_id)
        if risk is None:
            return []
        s = risk.summary()
        parts = []
        if s["var_1d_mean"] is not None:
            parts.append(f"mean one-day VaR95 at the decisions {s['var_1d_mean'] * 100:+.2f}% "
                         f"(CVaR95 {s['cvar_1d_mean'] * 100:+.2f}%)")
        if s["var_h_mean"] is not None:
            parts.append(f"mean VaR95 over the decision interval ({s['horizon']} sessions) "
                         f"{s['var_h_mean'] * 100:+.2f}% (CVaR95 {s['cvar_h_mean'] * 100:+.2f}%)")
        if s["correlation_score_mean"] is not None:
            parts.append(f"mean two-layer correlation score {s['correlation_score_mean']:.2f}")
        out = ["Risk at the decisions (point-in-time): " + "; ".join(parts) + "."] if parts else []
        if s["profile_alignment_mean"] is not None:
            profile = next(d.profile.profile for d in risk.decisions if d.profile is not None)
            breaches = risk.breaches()
            out.append(f"Investor profile {profile}: mean profile alignment {s['profile_alignment_mean']:.2f}; "
                       f"{len(breaches)} of {len(risk.decisions)} decisions breach a limit.")
            for key, what in breaches[:10]:
                out.append(f"  - {key.split('@', 1)[1][:16]}: {'; '.join(what)}")
        return out

    # -- whole prompt -------------------------------------------------------------------------------
    def build(self, contestant_id: str, naive: bool = True) -> JudgePrompt:
        """The compact prompt, with the token count of a naive dump for comparison (``naive=False``: not
        rendered, ``naive_token_estimate`` 0 — a grading run does not need it and it doubles the work)."""
        prompt = self._render(contestant_id, compact=True)
        if naive:
            prompt.naive_token_estimate = self._render(contestant_id, compact=False).token_estimate
        return prompt

    def build_item(self, contestant_id: str, first: int, last: int, item_id: str, label: str) -> JudgePrompt:
        """A reference item for calibration: the contestant's decisions ``first``..``last`` (0-based, inclusive),
        each with its point-in-time snapshot and the portfolio state before it (from the whole record's replay),
        and no outcome. Keyed ``item_id`` and shown as ``label`` (neither names the contestant)."""
        return self._render(contestant_id, compact=True, window=(first, last), item=(item_id, label))

    def build_window(self, contestant_id: str, first: int, last: int, intro: list[str]) -> JudgePrompt:
        """Decisions ``first``..``last`` of a windowed record (``grader.prompts._windows``), laid out as in the whole
        record (briefings named, the fields the text touches; values sent afresh at ``first``) after ``intro``."""
        return self._render(contestant_id, compact=True, window=(first, last), frame=intro)

    def build_synthesis(self, contestant_id: str, parts: list[str]) -> JudgePrompt:
        """A windowed record's whole-horizon pass: ``parts`` (thesis log, the windows' findings), then the
        whole-record process facts and the outcome."""
        alias = self.anonymizer.alias_of(contestant_id)
        shared_part = [self.header(), self.left_out_section()]
        body = [*shared_part, f"Contestant: {alias}", *parts]
        facts = self.record_facts_section(contestant_id)
        if facts:
            body.append(facts)
        body.append(self.outcome_section(contestant_id))
        return self._prompt(contestant_id, alias, body, shared_part, [], 0, compact=True)

    def _render(self, contestant_id: str, compact: bool, window: tuple[int, int] | None = None,
                item: tuple[str, str] | None = None, frame: list[str] | None = None) -> JudgePrompt:
        """``compact=False`` is the naive dump: every field of every universe symbol at every decision,
        repeated values and briefings included (used only to report what compaction saves). With ``window``,
        only those decisions are rendered (the earlier ones still set what is held), every
        value is sent afresh at the window's first decision, and there is no whole-record or outcome part."""
        decisions = self.bundle.decisions_of(contestant_id)
        alias = item[1] if item else self.anonymizer.alias_of(contestant_id)
        # a record and an item show the fields their decisions' text and trades touch; a whole record names each
        # round's briefing and quotes the lines its decisions cite (what it leaves out is said up front, shared by
        # every record); an item keeps its own round's briefing inline
        whole = compact and (window is None or frame is not None)  # a windowed record's window is laid out alike
        shared_block = self.left_out_section() if whole else ""
        if compact and contestant_id not in self._touched:
            self._touched[contestant_id] = touched_fields(self.bundle, decisions)
        touched = self._touched[contestant_id] if compact else None
        sections: list[DecisionSection] = []
        last_sent: dict[tuple[str, str], str] | None = {} if compact else None
        seen_context: set[str] | None = set() if compact else None
        universe = sorted(self.bundle.info.symbols())
        held: set[str] = set()
        scrubbed = 0
        for i, d in enumerate(decisions):
            if window is not None and i > window[1]:
                break
            shown, record = self.anonymizer.anonymize_decision(d)
            fields = None
            if touched is not None:
                fields = {sym: {"close"} for sym in self._relevant_symbols(d, held)}
                for sym, names in touched[d.key].items():
                    fields.setdefault(sym, set()).update(names)
                symbols = sorted(fields)
            else:  # the naive dump
                symbols = universe
            if window is None or i >= window[0]:
                if window is not None and i == window[0]:
                    last_sent, seen_context = {}, set()  # the item's first decision shows every value
                scrubbed += record.count
                facts = self.process_facts_at(contestant_id, d)
                sections.append(self.decision_section(d, shown, symbols, last_sent, facts, seen_context,
                                                      fields=fields, name_briefing=whole))
            for t in d.trades:
                if t.side == "buy":
                    held.add(t.symbol)
            replay = self.replays.get(contestant_id)
            if replay is not None:
                row = replay.row_through(d.decided_at.astimezone(MARKET_TZ).date())
                if row >= 0:
                    held = {symbol for symbol, _ in replay.held_at(row)}
        shared_part: list[str] = []
        if frame is not None:  # a window of a windowed record: no whole-record facts, the outcome in the last pass
            shared_part = [self.header(), shared_block]
            parts = [*shared_part, *frame, f"Contestant: {alias}", *(s.text for s in sections),
                     "# OUTCOME — after the horizon\nGiven in the whole-horizon pass, not in a window: score the "
                     "outcome axis null."]
        elif window is not None:
            parts = [self.header(), self.left_out_section(briefings_named=False),
                     f"Reference item: {alias} — decisions {window[0] + 1} to {min(window[1], len(decisions) - 1) + 1}"
                     f" of the {len(decisions)} of one contestant's record. Grade these decisions only; each shows "
                     "the portfolio as it stood before it.", *(s.text for s in sections),
                     "# OUTCOME — after the horizon\nA reference item is graded on its decisions: no outcome is "
                     "given. Score the outcome axis null."]
        else:
            shared_part = [self.header(), *([shared_block] if shared_block else [])]
            parts = [*shared_part, f"Contestant: {alias}", *(s.text for s in sections)]
            facts = self.record_facts_section(contestant_id)
            if facts:
                parts.append(facts)
            parts.append(self.outcome_section(contestant_id))
        return self._prompt(item[0] if item else contestant_id, alias, parts, shared_part, sections, scrubbed,
                            compact, author=contestant_id)

    def _prompt(self, key: str, alias: str, parts: list[str], shared_part: list[str], sections, scrubbed: int,
                compact: bool, author: str | None = None) -> JudgePrompt:
        """The prompt of ``parts`` (round ids made neutral, identities checked), its first ``shared_part`` marked
        for a cache breakpoint."""
        user = self.neutral("\n\n".join(parts))
        shared_chars = 0
        if compact and shared_part:
            prefix = self.neutral("\n\n".join(shared_part) + "\n\n")
            shared_chars = len(prefix) if user.startswith(prefix) else 0
        leaks = self.anonymizer.find_leaks(user) if compact else []
        if compact:  # the independent guard over the contestant's own record (grader/anonymizer/_guard.py)
            guard = self._guard(author or key)
            # on the record as the contestant wrote it (the guard reads lines: the fence's marks are taken off)
            leaks += [f"leak guard: {why}" for why in guard.find(unfence("\n\n".join(s.text for s in sections)))]
        return JudgePrompt(
            contestant_id=key,
            alias=alias,
            system=self.instructions,
            user=user,
            sections=sections,
            token_estimate=estimate_tokens(self.instructions) + estimate_tokens(user),
            naive_token_estimate=0,
            scrubbed=scrubbed,
            leaks=leaks,
            shared_chars=shared_chars,
        )
