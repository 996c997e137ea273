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

``PromptBuilder`` lays out the whole prompt here; a decision's section is ``_decision_section``, the whole-record
facts and the outcome ``_record_sections``, the prompt as built ``_judge_prompt``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from grader.anonymizer import PUBLIC_ROUND_ID
from grader.pit import MARKET_TZ
from grader.prompts._decision_section import DecisionSections
from grader.prompts._fence import READING_RULE, one_line, unfence
from grader.prompts._judge_prompt import DecisionSection, JudgePrompt, estimate_tokens
from grader.prompts._record_sections import RecordSections
from grader.prompts._touched import touched_fields
from grader.season import SeasonBundle

if TYPE_CHECKING:
    from grader.replay import ContestantReplay
    from grader.risk import ContestantRisk

"""A CapitalBench-style public round id (with the allocation, it finds a model in the published results).
Also read by ``grader.anonymizer``, ``grader.probe`` and ``grader.reporting``."""


class _NoGuard:
    def find(self, text: str) -> list[str]:
        return []


class PromptBuilder(DecisionSections, RecordSections):
    """Builds one judge prompt per contestant for a season."""

    def __init__(
        self,
        bundle: SeasonBundle,
        instructions: str,
        anonymizer,
        replays: Mapping[str, ContestantReplay] | None = None,
        outcome: Mapping[str, dict] | None = None,
        pending: bool = False,
        risk: Mapping[str, ContestantRisk] | None = None,
    ):
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
        self._risk_at = {}
        self._touched: dict[str, dict] = {}
        self._universe = None  # the verifier's universe index and the store's fields: once for the season
        self._fields: list[str] | None = None
        self._briefings: dict[str, str | None] = {}
        # public round ids (with the allocation, enough to find a model in the round's published results)
        # become neutral labels with their dates in everything a judge sees
        rounds = sorted(bundle.info.rounds or [], key=lambda r: (r.decided_at, r.id))
        self.round_labels = {
            r.id: f"Round {i} (decided {r.decided_at.astimezone(MARKET_TZ):%Y-%m-%d})"
            for i, r in enumerate(rounds, start=1)
        }
        self._round_re = (
            re.compile("|".join(re.escape(rid) for rid in sorted(self.round_labels, key=len, reverse=True)))
            if self.round_labels
            else None
        )

    def _guard(self, contestant_id: str):
        """The leak guard for ``contestant_id``'s record (nothing is hidden without anonymization: no guard)."""
        from grader.anonymizer import Anonymizer, LeakGuard

        if not isinstance(self.anonymizer, Anonymizer):
            return _NoGuard()
        author = next((c for c in self.bundle.contestants if c.id == contestant_id), None)
        return LeakGuard.for_author(
            author.provider_family if author else None, author.model if author else None, self.bundle.info.symbols()
        )

    def neutral(self, text: str) -> str:
        """``text`` with every public round id replaced by its neutral label (a round of another track named
        in a briefing: "a parallel round")."""
        if not text:
            return text
        if self._round_re is not None:
            text = self._round_re.sub(lambda m: self.round_labels[m.group(0)], text)
        return PUBLIC_ROUND_ID.sub("a parallel round", text)

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
            "Universe: "
            + "; ".join(one_line(f"{u.symbol} ({u.name}{', ' + u.sector if u.sector else ''})") for u in info.universe),
        ]
        return "\n".join(lines)

    def left_out_section(self, briefings_named: bool = True) -> str:
        """What a whole record (or, ``briefings_named=False``, a calibration item, which keeps its briefing) leaves
        out, and how a judge treats a claim about what it cannot see (the same for every record of the season: part
        of the shared prefix)."""
        rounds = briefings_named and bool(self.bundle.info.rounds)
        lines = [
            "# Left out of this record",
            "Rationales, trades, allocations and confidences are verbatim. Market tables are not: each decision "
            "shows, as of its time, the closes of what it trades or holds and the fields its text claims about "
            "(a value unchanged since last shown is not repeated).",
        ]
        if rounds:
            lines.append(
                "Round briefings are named by reference; each decision quotes only the briefing lines whose "
                "figures its text quotes. A briefing applies only to its own round."
            )
        lines.append(
            "A claim about a value not shown here: status not_verifiable, neither wrong nor right; our "
            "verifier checks every claim against the full point-in-time store."
        )
        return "\n".join(lines) + "\n\n" + READING_RULE

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

    def _render(
        self,
        contestant_id: str,
        compact: bool,
        window: tuple[int, int] | None = None,
        item: tuple[str, str] | None = None,
        frame: list[str] | None = None,
    ) -> JudgePrompt:
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
            if self._universe is None:
                from grader.judges.reference import universe_index

                self._universe, self._fields = universe_index(self.bundle), self.bundle.store.field_names()
            self._touched[contestant_id] = touched_fields(self.bundle, decisions, self._universe, self._fields)
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
                sections.append(
                    self.decision_section(
                        d, shown, symbols, last_sent, facts, seen_context, fields=fields, name_briefing=whole
                    )
                )
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
            parts = [
                *shared_part,
                *frame,
                f"Contestant: {alias}",
                *(s.text for s in sections),
                "# OUTCOME — after the horizon\nGiven in the whole-horizon pass, not in a window: score the "
                "outcome axis null.",
            ]
        elif window is not None:
            parts = [
                self.header(),
                self.left_out_section(briefings_named=False),
                f"Reference item: {alias} — decisions {window[0] + 1} to {min(window[1], len(decisions) - 1) + 1}"
                f" of the {len(decisions)} of one contestant's record. Grade these decisions only; each shows "
                "the portfolio as it stood before it.",
                *(s.text for s in sections),
                "# OUTCOME — after the horizon\nA reference item is graded on its decisions: no outcome is "
                "given. Score the outcome axis null.",
            ]
        else:
            shared_part = [self.header(), *([shared_block] if shared_block else [])]
            parts = [*shared_part, f"Contestant: {alias}", *(s.text for s in sections)]
            record_facts = self.record_facts_section(contestant_id)
            if record_facts:
                parts.append(record_facts)
            parts.append(self.outcome_section(contestant_id))
        return self._prompt(
            item[0] if item else contestant_id,
            alias,
            parts,
            shared_part,
            sections,
            scrubbed,
            compact,
            author=contestant_id,
        )

    def _prompt(
        self,
        key: str,
        alias: str,
        parts: list[str],
        shared_part: list[str],
        sections,
        scrubbed: int,
        compact: bool,
        author: str | None = None,
    ) -> JudgePrompt:
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
