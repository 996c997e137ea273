"""The sections of a whole record after its decisions (``PromptBuilder``): the whole-record process facts (turnover,
concentration, thrash events, risk at the decisions) and the labelled outcome after the horizon."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from grader.replay import rounds_scope

if TYPE_CHECKING:
    from grader.replay import ContestantReplay
    from grader.risk import ContestantRisk


def _score(v) -> str:  # noqa: ANN001
    return "unavailable" if v is None else f"{v:.1f}"


class RecordSections:
    """``PromptBuilder``'s whole-record sections; reads the builder's ``replays``, ``risk``, ``outcome`` and
    ``pending``."""

    replays: Mapping[str, ContestantReplay]
    risk: Mapping[str, ContestantRisk]
    outcome: Mapping[str, dict]
    pending: bool

    def outcome_section(self, contestant_id: str) -> str:
        head = "# OUTCOME — after the horizon (use only for the outcome axis; never to grade earlier decisions)"
        if self.pending:
            o = self.outcome.get(contestant_id) or {}
            if o.get("rounds_cancelled"):  # a cancelled round never resolves: not "pending"
                return (
                    head + f"\nNo round of this record has resolved: outcome {rounds_scope(o)}, so there is "
                    "none. Score the outcome axis null."
                )
            return head + "\nThe season is pending: no outcome is resolvable yet. Score the outcome axis null."
        o = self.outcome.get(contestant_id) or {}
        if not o or not o.get("available", True):
            return head + "\nNo outcome is available for this record. Score the outcome axis null."

        def pct(v):
            return "n/a" if v is None else f"{v * 100:.2f}%"

        lines = [
            head,
            f"Return {pct(o.get('portfolio_return'))}; benchmark over the same window "
            f"{pct(o.get('benchmark_return'))}; alpha {pct(o.get('alpha'))}.",
            f"Hindsight oracle {o.get('oracle_symbol') or ''} {pct(o.get('oracle_return'))}; "
            f"regret {pct(o.get('regret'))}; oracle-normalised score "
            f"{'unavailable' if o.get('oracle_score') is None else format(o['oracle_score'], '.1f')}.",
        ]
        scope = rounds_scope(o)
        if scope:  # a rounds season: means over the resolved rounds only, and the score's comparison set
            cs = o.get("comparison_set") or {}
            lines.append(f"These are means {scope}; rounds are independent, never compounded.")
            if cs:
                lines.append(
                    f"The oracle-normalised score is over the {cs['rounds']} resolved round(s) shared by "
                    f"every model of its comparison set ({cs['members']} models); over all of this "
                    f"record's resolved rounds it is {_score(o.get('oracle_score_all_rounds'))}."
                )
        risk = [f"{k} {o[k]:.2f}" for k in ("sharpe", "sortino") if o.get(k) is not None]
        risk += [f"{k} {pct(o[k])}" for k in ("volatility", "max_drawdown") if o.get(k) is not None]
        if risk:
            lines.append("Risk: " + "; ".join(risk) + ".")
        if o.get("equal_weight_return") is not None:
            lines.append(f"Equal-weight baseline return {pct(o['equal_weight_return'])}.")
        facts = self.risk.get(contestant_id)
        if facts is not None and facts.season is not None:
            lines.append("Risk after the horizon (PortBench baselines, stress windows, drawdown gate):")
            lines += [f"- {line}." for line in facts.season.lines()]
        return "\n".join(lines)

    def record_facts_section(self, contestant_id: str) -> str:
        replay = self.replays.get(contestant_id)
        if replay is None:
            risk = self._risk_record_lines(contestant_id)
            return (
                "\n".join(["# Whole-record process facts (computed from the allocations; not market data)", *risk])
                if risk
                else ""
            )
        f = replay.facts
        lines = [
            "# Whole-record process facts (computed from the trades; not market data)",
            f"Decisions {f.decisions}, trades {f.trades}, holds {f.hold_decisions}; turnover "
            f"{f.turnover:.2f}× mean NAV; mean position HHI {f.hhi:.3f}; max position weight "
            f"{f.max_position_weight * 100:.1f}%; sector HHI {f.sector_hhi:.3f}"
            + (f" (top sector {f.top_sector} {f.top_sector_weight * 100:.1f}%)" if f.top_sector else "")
            + f"; mean cash weight {f.cash_weight_mean * 100:.1f}%.",
            f"Thrash events (buy and sell of the same symbol within 10 trading days): {len(f.thrash_events)}.",
        ]
        for e in f.thrash_events[:10]:
            lines.append(
                f"  - {e.symbol}: {e.first_side} {e.first_at[:10]} then {e.second_side} "
                f"{e.second_at[:10]} ({e.trading_days_apart} trading days)"
            )
        lines += self._risk_record_lines(contestant_id)
        return "\n".join(lines)

    def _risk_record_lines(self, contestant_id: str) -> list[str]:
        risk = self.risk.get(contestant_id)
        if risk is None:
            return []
        s = risk.summary()
        parts = []
        # a mean CVaR is over the same decisions as its VaR's: None together
        if (var_1d := s["var_1d_mean"]) is not None and (cvar_1d := s["cvar_1d_mean"]) is not None:
            parts.append(f"mean one-day VaR95 at the decisions {var_1d * 100:+.2f}% (CVaR95 {cvar_1d * 100:+.2f}%)")
        if (var_h := s["var_h_mean"]) is not None and (cvar_h := s["cvar_h_mean"]) is not None:
            parts.append(
                f"mean VaR95 over the decision interval ({s['horizon']} sessions) "
                f"{var_h * 100:+.2f}% (CVaR95 {cvar_h * 100:+.2f}%)"
            )
        if s["correlation_score_mean"] is not None:
            parts.append(f"mean two-layer correlation score {s['correlation_score_mean']:.2f}")
        out = ["Risk at the decisions (point-in-time): " + "; ".join(parts) + "."] if parts else []
        if s["profile_alignment_mean"] is not None:
            profile = next(d.profile.profile for d in risk.decisions if d.profile is not None)
            breaches = risk.breaches()
            out.append(
                f"Investor profile {profile}: mean profile alignment {s['profile_alignment_mean']:.2f}; "
                f"{len(breaches)} of {len(risk.decisions)} decisions breach a limit."
            )
            for key, what in breaches[:10]:
                out.append(f"  - {key.split('@', 1)[1][:16]}: {'; '.join(what)}")
        return out
