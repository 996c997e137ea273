"""One decision's section of a judge prompt (``PromptBuilder.decision_section``): its time (day and part of the
session), trades or allocation, the fenced rationale, its round's briefing, the process facts at that moment (the
portfolio and its risk) and the point-in-time snapshot of what it touches, unchanged values not repeated."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from datetime import datetime, time
from typing import TYPE_CHECKING

from grader.pit import MARKET_TZ, Observation
from grader.prompts._fence import fence, one_line
from grader.prompts._judge_prompt import DecisionSection, format_value
from grader.prompts._tokens import count_tokens
from grader.prompts._touched import briefing_excerpt
from grader.season import Decision, SeasonBundle

if TYPE_CHECKING:
    from grader.replay import ContestantReplay
    from grader.risk import ContestantRisk, DecisionRisk


def _session_part(when: datetime) -> str:
    """ "before the open", "during the session" or "after the close" (New York time) of a decision time."""
    t = when.astimezone(MARKET_TZ).time()
    if t < time(9, 30):
        return "before the open"
    return "during the session" if t < time(16, 0) else "after the close"


class DecisionSections:
    """``PromptBuilder``'s decision sections; reads the builder's ``bundle``, ``replays``, ``risk``, ``_risk_at``,
    ``round_labels`` and ``round_briefing``."""

    bundle: SeasonBundle
    replays: Mapping[str, ContestantReplay]
    risk: Mapping[str, ContestantRisk]
    _risk_at: dict[str, dict[str, DecisionRisk]]
    round_labels: dict[str, str]
    round_briefing: Callable[[str | None], str | None]

    def _round_label(self, round_id: str | None, default: str) -> str:
        """A round's neutral label (``default`` when it has none)."""
        return default if round_id is None else self.round_labels.get(round_id, default)

    def _relevant_symbols(self, decision: Decision, held: set[str]) -> list[str]:
        """What a decision trades, allocates to or holds (before it)."""
        syms = set(held) | {t.symbol for t in decision.trades}
        syms |= {a.symbol for a in decision.allocation or []}
        return sorted(syms)

    def decision_section(
        self,
        decision: Decision,
        shown: Decision,
        symbols: list[str],
        last_sent: dict[tuple[str, str], str] | None,
        facts: list[str],
        seen_context: set[str] | None,
        fields: dict[str, set[str]] | None = None,
        name_briefing: bool = False,
    ) -> DecisionSection:
        """``fields``: per symbol, the fields to show (what the decision's text and trades touch, ``_touched.py``);
        None: every field of ``symbols`` (the naive dump). ``name_briefing`` (a whole record): its round's briefing is
        named by reference and only the lines its text cites are quoted; otherwise it is shown in full, once."""
        when = decision.decided_at
        # the day and the part of the session, no finer: the minute a model answered tells its latency, and latency
        # differs by family (issue 30)
        lines = [f"## Decision {when.astimezone(MARKET_TZ):%Y-%m-%d}, {_session_part(when)}"]
        if decision.round_id:
            lines.append(self._round_label(decision.round_id, "Round (unlabelled)"))
        if decision.trades:
            lines.append(
                "Trades: " + "; ".join(f"{t.side} {t.quantity:g} {t.symbol} @ {t.price:.2f}" for t in decision.trades)
            )
        elif decision.allocation:
            lines.append(
                "Target allocation: " + "; ".join(f"{a.symbol} {a.weight * 100:.0f}%" for a in decision.allocation)
            )
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
            cited = briefing_excerpt(
                briefing, shown.rationale + "\n" + "\n".join(a.rationale or "" for a in shown.allocation or [])
            )
            lines.append(
                f"What the model was shown: the briefing of "
                f"{self._round_label(decision.round_id, 'its round')} (ref {digest}; not reproduced, "
                f"{count_tokens(briefing):,} tokens)"
                + (
                    ". Its lines with figures this decision's text quotes:"
                    if cited
                    else "; this decision's text quotes none of its figures."
                )
            )
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
                lines.append(
                    f"What the model was shown (briefing ref {digest}):\n" + fence(context, "what the model was shown")
                )
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
            lines.append(
                f"Point-in-time snapshot as of {dates.pop()} (only values known at the decision; unchanged "
                "values omitted; the closes of what it trades or holds and the fields its text touches):"
            )
            lines.extend(f"  {sym}: {parts}" for sym, _, parts in snap_lines)
        else:
            lines.append(
                "Point-in-time snapshot (only values known at the decision; unchanged values omitted"
                + (
                    "; the closes of what it trades or holds and the fields its text touches):"
                    if fields is not None
                    else "):"
                )
            )
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
                hhi = sum(a.weight**2 for a in decision.allocation)
                return [f"holdings {len(decision.allocation)}", f"HHI {hhi:.3f}"]
            return []
        row = replay.row_before(decision.decided_at.astimezone(MARKET_TZ).date())
        if row < 0:
            return ["before the first close of the season: all cash"]
        navs = replay.nav.to_numpy(float)
        nav, cash, peak = float(navs[row]), float(replay.cash.iloc[row]), float(navs[: row + 1].max())
        parts = [
            f"NAV {nav:,.0f} at {replay.days[row]} close",
            f"cash {cash / nav * 100:.1f}%",
            f"drawdown from peak {(1 - nav / peak) * 100:.1f}%",
        ]
        held = replay.held_at(row)
        if held:
            parts.append("held: " + ", ".join(f"{s} {q:g}" for s, q in held))
        return parts
