"""Report sections on what the contestants did and earned: the leaderboard (Total Score with the outcome columns
beside it), process facts, the outcome per round of a rounds season and PortBench's risk evidence."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from audits._document import Block, Paragraph, Section, Table
from audits._format import DASH, fmt_percent, fmt_ratio, fmt_score
from audits._report import PENDING_NOTICE, AuditReport

#: Display name and formatter of each totals column. Fraction columns are decimal fractions (0.087 = 8.7%).
TOTALS_DISPLAY: dict[str, tuple[str, Callable[[Any], str]]] = {
    "contestant_label": ("Contestant", lambda v: DASH if v is None else str(v)),
    "total": ("Total Score", fmt_score),
    "band": ("Band", lambda v: DASH if v is None else str(v)),
    "reasoning_median": ("Reasoning median", fmt_score),
    "efficiency": ("Efficiency", fmt_score),
    "return": ("Return", fmt_percent),
    "benchmark_return": ("Benchmark return", fmt_percent),
    "alpha": ("Alpha vs benchmark", fmt_percent),
    "oracle_score": ("Oracle score", fmt_score),
    "regret": ("Regret", fmt_percent),
    "sharpe": ("Sharpe", fmt_ratio),
    "sortino": ("Sortino", fmt_ratio),
    "volatility": ("Volatility", fmt_percent),
    "max_drawdown": ("Max drawdown", fmt_percent),
    "equal_weight_return": ("Equal-weight return", fmt_percent),
    "oracle_score_all_rounds": ("All-rounds oracle score (context)", fmt_score),
    "outcome_over": ("Outcome over", lambda v: DASH if v is None else str(v)),
}


def leaderboard_section(report: AuditReport) -> Section:
    ranks = {c.contestant_id: c.rank for c in report.rank_confidence.contestants}
    columns = [c for c in report.totals_columns if c in TOTALS_DISPLAY]
    headers = ["Rank"] + [TOTALS_DISPLAY[c][0] for c in columns]
    rows = [
        [str(ranks.get(str(row["contestant_id"]), DASH))] + [TOTALS_DISPLAY[c][1](row.get(c)) for c in columns]
        for row in report.totals
    ]
    blocks: list[Block] = [
        Paragraph(
            "Total Score as the rubric defines it; outcome columns sit beside the score, never inside it. "
            "Read bands, not decimals."
        ),
        Table(headers, rows),
    ]
    if "outcome_over" in columns:
        blocks.append(
            Paragraph(
                "A rounds season: return, benchmark, alpha and regret are means over each contestant's resolved rounds "
                "('Outcome over' says how many of its rounds, and which are pending or cancelled upstream); the oracle "
                "score is taken over the rounds shared by its comparison set (see 'Outcome ranking: comparison sets'), "
                "the all-rounds score is its own history, context only."
            )
        )
    if report.outcome_withheld:
        blocks.append(Paragraph(PENDING_NOTICE, strong=True))
    return Section("leaderboard", "Leaderboard", blocks)


def process_facts_section(report: AuditReport) -> Section | None:
    facts = report.process_facts
    if not facts:
        return None
    label = {t["contestant_id"]: t["contestant_label"] for t in report.totals}
    order = [c for c in (t["contestant_id"] for t in report.totals) if c in facts] + sorted(
        c for c in facts if c not in label
    )
    first = facts[order[0]] if order else {}
    if first.get("format") == "rounds":
        rows = [
            [label.get(c, c), str(facts[c]["rounds"]), f"{facts[c]['hhi']:.3f}", f"{facts[c]['holdings']:.1f}"]
            for c in order
        ]
        return Section(
            "process-facts",
            "Process facts",
            [
                Paragraph("Computed from the allocations, never by a judge; the judges see the same figures."),
                Table(
                    ["Contestant", "Rounds", "Mean HHI", "Mean holdings"],
                    rows,
                    caption="HHI = sum of squared weights of an allocation (1 = one holding).",
                ),
            ],
        )
    rows = [
        [
            label.get(c, c),
            str(f["decisions"]),
            str(f["trades"]),
            str(f["holds"]),
            f"{f['turnover']:.2f}x",
            f"{f['hhi']:.3f}",
            f"{f['max_position_weight'] * 100:.1f}%",
            f"{f['top_sector']} {f['top_sector_weight'] * 100:.0f}%" if f.get("top_sector") else DASH,
            f"{f['cash_weight_mean'] * 100:.1f}%",
            str(f["thrash_events"]),
        ]
        for c in order
        for f in [facts[c]]
    ]
    blocks: list[Block] = [
        Paragraph(
            "Computed from the trades, never by a judge; the judges see the same figures in each record's "
            "whole-record section."
        ),
        Table(
            [
                "Contestant",
                "Decisions",
                "Trades",
                "Holds",
                "Turnover",
                "Mean HHI",
                "Max weight",
                "Top sector",
                "Mean cash",
                "Thrash events",
            ],
            rows,
            caption="Turnover = traded notional / mean NAV; HHI = sum of squared position weights, averaged over "
            "days; thrash event = a buy and a sell of the same symbol within 10 trading days.",
        ),
    ]
    thrash = [
        [label.get(c, c), e["symbol"], e["first"], e["second"], str(e["days"])]
        for c in order
        for e in facts[c].get("thrash", [])[:5]
    ]
    if thrash:
        blocks.append(
            Table(
                ["Contestant", "Symbol", "First", "Then", "Trading days apart"],
                thrash,
                caption="Thrash events (up to 5 per contestant; the contestant page lists all, with both rationales).",
            )
        )
    return Section("process-facts", "Process facts", blocks)


def rounds_section(report: AuditReport) -> Section | None:
    if report.rounds is None or not report.rounds.rows:
        return None

    def pct(v: Any) -> str:
        return DASH if v is None else f"{100 * float(v):+.2f}%"

    rows = [
        [
            r["round"],
            r["contestant"],
            r["status"],
            r["allocation"],
            pct(r.get("return")),
            pct(r.get("S&P 500")),
            pct(r.get("alpha")),
            pct(r.get("regret")),
            DASH if r.get("oracle score") is None else f"{float(r['oracle score']):.1f}",
            r.get("note") or "",
        ]
        for r in report.rounds.rows
    ]
    return Section(
        "rounds",
        "Outcome per round",
        [
            Paragraph(
                "A rounds season: each round is an independent experiment (never compounded). Return and the "
                "S&P 500 over the round's close-to-close window; oracle score = 100 x return / the best option's "
                "return. Pending rounds withhold their outcome until they resolve."
            ),
            Table(
                [
                    "Round",
                    "Contestant",
                    "Status",
                    "Allocation",
                    "Return",
                    "S&P 500",
                    "Alpha",
                    "Regret",
                    "Oracle score",
                    "Note",
                ],
                rows,
            ),
        ],
    )


def risk_section(report: AuditReport) -> Section | None:
    risk = report.risk
    if risk is None or not risk.contestants:
        return None

    def pct(v: Any, sign: bool = True) -> str:
        return DASH if v is None else (f"{100 * float(v):+.2f}%" if sign else f"{100 * float(v):.2f}%")

    def num(v: Any) -> str:
        return DASH if v is None else f"{float(v):.2f}"

    blocks: list[Block] = [
        Paragraph(
            "The risk evidence of PortBench (seed 004), shown to the judges in each decision's process facts: at every "
            "decision, from the returns known at the last close before it, the portfolio's historical VaR95, the "
            "two-layer correlation score of its asset-class weights (0 to 1, higher is better diversified) and, with an "
            "investor profile, the share of the profile's limits it met. docs/scoring.md gives the definitions and "
            "where they differ from the paper's."
        )
    ]
    if risk.profile:
        p = risk.profile
        blocks.append(
            Paragraph(
                f"Investor profile {p['name']}: equity + crypto at most {p['equity_cap'] * 100:.0f}%, bond + cash at least "
                f"{p['bond_cash_floor'] * 100:.0f}%, one-day VaR95 no worse than {p['daily_var_limit'] * 100:+.1f}%, "
                f"drawdown at most {p['max_drawdown'] * 100:.0f}%."
            )
        )
    figures = ("var_1d_mean", "correlation_score_mean", "profile_alignment_mean")
    if not any(r.get(k) is not None for r in risk.contestants for k in figures) and not risk.baselines:
        return Section("risk", "Risk evidence (PortBench)", [*blocks, *[Paragraph(n) for n in risk.notes]])
    horizon = risk.horizon_sessions > 1
    over = f"{risk.horizon_sessions}d (decision interval)"
    headers = (
        ["Contestant", "Decisions", "Mean VaR95 1d", "Mean CVaR95 1d"]
        + ([f"Mean VaR95 {over}", f"Mean CVaR95 {over}"] if horizon else [])
        + ["Mean correlation score"]
    )
    if risk.profile:
        headers += ["Mean profile alignment", "Decisions breaching"]
    gate = any("drawdown_gate_passed" in r for r in risk.contestants) and risk.profile is not None
    if gate:
        headers += ["Max drawdown", "Drawdown gate"]
    rows = []
    for r in risk.contestants:
        row = [r["contestant"], str(r["decisions"]), pct(r.get("var_1d_mean")), pct(r.get("cvar_1d_mean"))]
        row += [pct(r.get("var_h_mean")), pct(r.get("cvar_h_mean"))] if horizon else []
        row += [num(r.get("correlation_score_mean"))]
        if risk.profile:
            row += [num(r.get("profile_alignment_mean")), str(r.get("decisions_with_breaches", 0))]
        if gate:
            passed = r.get("drawdown_gate_passed")
            row += [
                pct(r.get("max_drawdown"), sign=False),
                DASH if passed is None else ("passed" if passed else "FAILED"),
            ]
        rows.append(row)
    blocks.append(
        Table(
            headers,
            rows,
            caption="Means over the contestant's decisions (point-in-time); VaR95 = the "
            "5% quantile of the portfolio's historical returns, CVaR95 = the mean "
            "of the returns at or below it (a loss reads negative); "
            "a dash: not computable for this season (see the notes).",
        )
    )
    if risk.baselines:
        blocks.append(
            Table(
                ["Baseline", "Return", "Max drawdown", "Volatility", "Sharpe", "Note"],
                [
                    [
                        b["baseline"],
                        pct(b.get("return")),
                        pct(b.get("max_drawdown"), sign=False),
                        pct(b.get("volatility"), sign=False),
                        num(b.get("sharpe")),
                        b.get("note") or "",
                    ]
                    for b in risk.baselines
                ],
                caption="PortBench's classical baselines our data supports, bought at the season's entry close and "
                "held (an outcome).",
            )
        )
    if risk.stress:
        blocks.append(
            Table(
                [
                    "Stress window",
                    "Sessions",
                    "Contestant",
                    "Return",
                    "Drawdown",
                    "Equal weight",
                    "EW drawdown",
                    "Benchmark",
                    "Benchmark drawdown",
                ],
                [
                    [
                        f"{s['window']} ({s['first']} to {s['last']})",
                        str(s["sessions"]),
                        s["contestant"],
                        pct(s.get("return")),
                        pct(s.get("drawdown"), sign=False),
                        pct(s.get("equal_weight_return")),
                        pct(s.get("equal_weight_drawdown"), sign=False),
                        pct(s.get("benchmark_return")),
                        pct(s.get("benchmark_drawdown"), sign=False),
                    ]
                    for s in risk.stress
                ],
                caption="Named stress windows the season overlaps (an outcome), measured from the close before the "
                "window's first session in the season.",
            )
        )
    blocks += [Paragraph(n) for n in risk.notes]
    return Section("risk", "Risk evidence (PortBench)", blocks)
