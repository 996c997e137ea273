"""Render an :class:`AuditReport` as one self-contained HTML page and as Markdown.

Both renderers walk the same document (sections of paragraphs, tables, charts and caveats) built by
``report_document``, so the two formats always say the same thing. All text is escaped; the HTML page has
inline CSS and charts as base64 PNG ``data:`` images, and refers to nothing outside itself.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from audits._calibration import AgreementWithReference
from audits._charts import (
    Chart,
    bland_altman_chart,
    calibration_chart,
    consensus_chart,
    rank_interval_chart,
    spread_chart,
)
from audits._render_rounds import comparison_sets_section, run_notes_section
from audits._report import PENDING_NOTICE, AuditReport
from audits._self_consistency import SIGNAL_FACTOR

DASH = "—"


# ---------------------------------------------------------------- formatting


def fmt_score(value: float | None) -> str:
    return DASH if value is None else f"{value:.1f}"


def fmt_signed(value: float | None) -> str:
    return DASH if value is None else f"{value:+.1f}"


def fmt_stat(value: float | None) -> str:
    return DASH if value is None else f"{value:.3f}"


def fmt_ci(value: float | None) -> str:
    """An ICC interval end: pingouin computes its F-based intervals rounded to 2 decimals, so 2 are shown."""
    return DASH if value is None else f"{value:.2f}"


def fmt_p(value: float | None) -> str:
    if value is None:
        return DASH
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def fmt_share(value: float | None) -> str:
    return DASH if value is None else f"{value:.0%}"


def fmt_percent(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.2f}%"


def fmt_ratio(value: float | None) -> str:
    return DASH if value is None else f"{value:.2f}"


def fmt_interval(low: float | None, high: float | None, fmt: Callable[[float | None], str] = fmt_stat) -> str:
    if low is None or high is None:
        return DASH
    return f"[{fmt(low)}, {fmt(high)}]"


def fmt_value(value: Any) -> str:
    if value is None:
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1 else f"{value:,.1f}"
    return str(value)


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


# ---------------------------------------------------------------- document model


@dataclass
class Paragraph:
    text: str
    strong: bool = False


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str | None = None


@dataclass
class ChartBlock:
    chart: Chart | None
    placeholder: str


@dataclass
class Caveats:
    items: list[str]


@dataclass
class Definitions:
    items: list[tuple[str, str]]


Block = Paragraph | Table | ChartBlock | Caveats | Definitions


@dataclass
class Section:
    anchor: str
    title: str
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Document:
    title: str
    banner: str | None
    run_type: str
    notice: str | None
    identity: list[tuple[str, str]]
    sections: list[Section]


# ---------------------------------------------------------------- building the document


def _identity(report: AuditReport) -> list[tuple[str, str]]:
    meta = report.meta
    rows = [
        ("Run", f"{meta.run_id} ({meta.run_type})"),
        ("Season", f"{meta.season_id} ({meta.season_resolution or meta.season_status})"),
        ("Rubric", meta.rubric_id),
        *([("Scored version", f"{meta.score_version} (every section uses its rubric, weights and bands)")]
          if meta.score_version is not None else []),
        ("Rubric content hash", meta.rubric_hash),
        ("Rubric judge-facing hash", meta.rubric_judge_hash),
        ("Panel", meta.panel_name),
        ("Judges saw", "anonymized records (aliases, identities scrubbed)" if meta.anonymized
         else "the records with the contestants' own names: this run's rubric does not anonymize"),
        ("Panel hash", meta.panel_hash),
        ("Manifest hash", meta.manifest_hash),
        ("Generated at", meta.generated_at.isoformat()),
        (
            "Resampling",
            f"seed {report.settings.seed}; {report.settings.n_boot_rank} rank bootstraps, "
            f"{report.settings.n_boot_alpha} alpha bootstraps, up to {report.settings.n_permutations} permutations",
        ),
    ]
    if meta.attribution:
        rows.append(("Attribution", meta.attribution))
    return rows


def _summary(report: AuditReport) -> Section:
    lines: list[str] = []
    composite = next((a for a in report.agreement.axes if a.axis == "composite"), None)
    if composite is not None:
        lines.append(
            f"Inter-judge agreement on the composite: Krippendorff's alpha {fmt_stat(composite.krippendorff_alpha)} "
            f"({composite.krippendorff_alpha_label}), ICC(2,k) {fmt_stat(composite.icc2_k)} ({composite.icc2_k_label})."
        )
    if report.agreement.kendall_w is not None and report.agreement.kendall_w.w is not None:
        kw = report.agreement.kendall_w
        lines.append(f"Rank concordance: Kendall's W {fmt_stat(kw.w)} (p {fmt_p(kw.p_value)}).")
    flagged = [j.judge_id for j in report.self_preference.judges if j.flagged]
    untestable = [j.judge_id for j in report.self_preference.judges if not j.flagged
                  and (j.p_value is None or j.note.startswith("Cannot be tested"))]
    if flagged:
        line = f"Self-preference flagged for: {', '.join(flagged)}."
    elif untestable and len(untestable) == len(report.self_preference.judges):
        line = "Self-preference could not be tested for any judge at this size (see the self-preference section)."
    else:
        line = "No judge is flagged for self-preference."
    if untestable and not (len(untestable) == len(report.self_preference.judges) and not flagged):
        line += f" Not testable at this size: {', '.join(untestable)}."
    lines.append(line)
    borderline = [c.contestant_label for c in report.rank_confidence.contestants if c.borderline]
    if report.rank_confidence.contestants:
        lines.append(
            f"Borderline band: {', '.join(borderline)}."
            if borderline
            else "No contestant's interval crosses a band edge."
        )
    if not report.calibration.has_human_grades:
        lines.append("No human grades yet.")
    if not report.self_consistency.has_stability_runs:
        lines.append("No stability runs.")
    return Section("summary", "At a glance", [Paragraph(line) for line in lines])


def _leaderboard(report: AuditReport) -> Section:
    ranks = {c.contestant_id: c.rank for c in report.rank_confidence.contestants}
    columns = [c for c in report.totals_columns if c in TOTALS_DISPLAY]
    headers = ["Rank"] + [TOTALS_DISPLAY[c][0] for c in columns]
    rows = [
        [str(ranks.get(str(row["contestant_id"]), DASH))]
        + [TOTALS_DISPLAY[c][1](row.get(c)) for c in columns]
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
        blocks.append(Paragraph(
            "A rounds season: return, benchmark, alpha and regret are means over each contestant's resolved rounds "
            "('Outcome over' says how many of its rounds, and which are pending or cancelled upstream); the oracle "
            "score is taken over the rounds shared by its comparison set (see 'Outcome ranking: comparison sets'), "
            "the all-rounds score is its own history, context only."))
    if report.outcome_withheld:
        blocks.append(Paragraph(PENDING_NOTICE, strong=True))
    return Section("leaderboard", "Leaderboard", blocks)


def _rank_confidence(report: AuditReport) -> Section:
    result = report.rank_confidence
    band_names = [b.name for b in result.bands]
    headers = ["Rank", "Contestant", "Total", f"{result.level:.0%} score interval", "Rank interval"]
    headers += [f"P({name})" for name in band_names] + ["Borderline", "Grades"]
    rows = [
        [
            str(c.rank),
            c.contestant_label,
            fmt_score(c.total),
            fmt_interval(c.score_low, c.score_high, fmt_score),
            f"{c.rank_low}–{c.rank_high}" if c.rank_low != c.rank_high else str(c.rank_low),
            *[fmt_share(c.p_band.get(name)) for name in band_names],
            "borderline" if c.borderline else DASH,
            str(c.n_grades),
        ]
        for c in result.contestants
    ]
    return Section(
        "rank-confidence",
        "Rank confidence",
        [
            Paragraph(
                f"Bootstrap ({result.n_boot} replicates, seed {result.seed}) over the run's own sources of "
                "variation: " + ("; ".join(result.sources) if result.sources else "none (one judge, no repeats)")
                + ". In each replicate a record's reasoning median is the median of the drawn judges' composites "
                "and its total scales with it (efficiency's normaliser held fixed); ranks and bands are recomputed. "
                "Not covered: " + "; ".join(result.not_covered) + ". Borderline = the score interval crosses a band "
                "edge; Grades = the judge x repeat composites behind the record."
            ),
            Table(headers, rows),
            ChartBlock(rank_interval_chart(result.contestants, result.bands), "No contestants to chart."),
            Caveats(result.caveats),
        ],
    )


def _self_preference(report: AuditReport) -> Section:
    result = report.self_preference
    table = Table(
        [
            "Judge",
            "Family",
            "Own-family contestants",
            "Own family vs consensus",
            "Others vs consensus",
            "Self-preference gap",
        ],
        [
            [
                j.judge_id,
                j.judge_family,
                str(j.n_own),
                fmt_signed(j.own_vs_consensus),
                fmt_signed(j.others_vs_consensus),
                fmt_signed(j.gap),
            ]
            for j in result.judges
        ],
        caption="Seed 002's table: mean (judge - panel median) over own-family and other contestants.",
    )
    test = Table(
        ["Judge", "LOO own", "LOO others", "LOO gap", "p (one-sided)", "p (Holm)", "Test", "Flag", "Reading"],
        [
            [
                j.judge_id,
                fmt_signed(j.loo_own),
                fmt_signed(j.loo_others),
                fmt_signed(j.loo_gap),
                fmt_p(j.p_value),
                fmt_p(j.p_value_holm),
                j.permutation_method or DASH,
                "FLAGGED" if j.flagged else DASH,
                j.note,
            ]
            for j in result.judges
        ],
        caption=(
            "Leave-one-out index (judge minus the mean of the other judges; judges of the contestant's own "
            "family are left out of that reference) and a permutation test over "
            f"contestants ({result.n_permutations} permutations or all label assignments, seed {result.seed}; "
            f"flag at Holm-adjusted p < {result.significance_level:g} with a positive gap)."
        ),
    )
    if len({j.judge_id for j in result.judges}) < 2:  # the consensus of a one-judge panel is that judge itself
        chart, placeholder = None, ("No self-preference chart: this run has one judge, so the panel consensus it "
                                    "would be compared with is that judge itself.")
    else:
        chart, placeholder = consensus_chart(result.points, report.bands), "No grades to plot."
    blocks: list[Block] = [table, test, ChartBlock(chart, placeholder), Caveats(result.caveats)]
    leaking = [g.judge_id for g in report.judge_probe if g.flagged]
    if report.judge_probe:
        blocks.append(Paragraph(
            ("Identity-guess probe: " + ", ".join(leaking) + " named the author's family above chance (see \"Can a "
             "judge tell who wrote this?\"): its grades could know whose record they grade, so anonymization does "
             "not blind it and a self-preference gap of its own cannot be blamed on chance exposure to names.")
            if leaking else "Identity-guess probe: no judge named the author's family above chance (see \"Can a "
                            "judge tell who wrote this?\"); that supports, without proving, the blinding.",
            strong=bool(leaking)))
    probe = report.identity_probe
    if probe is not None:
        blocks.append(Paragraph(
            "This run's judges saw the contestants' names (its rubric does not anonymize): a self-preference gap may "
            "come from the names themselves." if not report.meta.anonymized else
            f"Anonymization and style: a classifier tells the authors' families apart from the anonymized text "
            f"with {probe.accuracy:.0%} accuracy (chance: {probe.majority_rate:.0%}); see \"Can a judge tell who "
            "wrote this?\". " + ("A judge could recognise its own family from style, so a self-preference gap "
                                 "cannot be blamed on names alone, and the absence of a gap is not evidence of blinding."
                                 if probe.p_value < 0.05 else "Style gave no measurable hint of the family."),
            strong=probe.p_value < 0.05))
    return Section("self-preference", "Self-preference", blocks)


def _process_facts(report: AuditReport) -> Section | None:
    facts = report.process_facts
    if not facts:
        return None
    label = {t["contestant_id"]: t["contestant_label"] for t in report.totals}
    order = [c for c in (t["contestant_id"] for t in report.totals) if c in facts] + sorted(
        c for c in facts if c not in label)
    first = facts[order[0]] if order else {}
    if first.get("format") == "rounds":
        rows = [[label.get(c, c), str(facts[c]["rounds"]), f"{facts[c]['hhi']:.3f}", f"{facts[c]['holdings']:.1f}"]
                for c in order]
        return Section("process-facts", "Process facts", [
            Paragraph("Computed from the allocations, never by a judge; the judges see the same figures."),
            Table(["Contestant", "Rounds", "Mean HHI", "Mean holdings"], rows,
                  caption="HHI = sum of squared weights of an allocation (1 = one holding).")])
    rows = [[label.get(c, c), str(f["decisions"]), str(f["trades"]), str(f["holds"]), f"{f['turnover']:.2f}x",
             f"{f['hhi']:.3f}", f"{f['max_position_weight'] * 100:.1f}%",
             f"{f['top_sector']} {f['top_sector_weight'] * 100:.0f}%" if f.get("top_sector") else DASH,
             f"{f['cash_weight_mean'] * 100:.1f}%", str(f["thrash_events"])] for c in order for f in [facts[c]]]
    blocks: list[Block] = [
        Paragraph("Computed from the trades, never by a judge; the judges see the same figures in each record's "
                  "whole-record section."),
        Table(["Contestant", "Decisions", "Trades", "Holds", "Turnover", "Mean HHI", "Max weight", "Top sector",
               "Mean cash", "Thrash events"], rows,
              caption="Turnover = traded notional / mean NAV; HHI = sum of squared position weights, averaged over "
                      "days; thrash event = a buy and a sell of the same symbol within 10 trading days.")]
    thrash = [[label.get(c, c), e["symbol"], e["first"], e["second"], str(e["days"])]
              for c in order for e in facts[c].get("thrash", [])[:5]]
    if thrash:
        blocks.append(Table(["Contestant", "Symbol", "First", "Then", "Trading days apart"], thrash,
                            caption="Thrash events (up to 5 per contestant; the contestant page lists all, with "
                                    "both rationales)."))
    return Section("process-facts", "Process facts", blocks)


def _identity_probe(report: AuditReport) -> Section | None:
    probe = report.identity_probe
    guesses = report.judge_probe
    if probe is None and not guesses:
        return None
    blocks: list[Block] = []
    if probe is not None:
        labels = sorted(probe.families)
        blocks += [
            Paragraph("An offline stylometric probe: TF-IDF of words and characters with logistic regression, "
                      "trained to predict the author's provider family from each decision's anonymized rationale "
                      + ("(exactly what the judges see)" if report.meta.anonymized else
                         "(what an anonymizing rubric would show; this run's judges saw the names)")
                      + ", cross-validated with whole rounds held out."),
            Paragraph(probe.summary(), strong=probe.p_value < 0.05),
            Table(["True family \\ predicted", *labels, "Recall"],
                  [[t, *[str(probe.confusion[t][p]) for p in labels], f"{probe.recall[t]:.0%}"] for t in labels]),
        ]
    if guesses:
        mock = report.meta.run_type == "mock"
        blocks += [
            Paragraph("The judges themselves: each judge of this run's panel was shown anonymized decisions (an even "
                      "sample over the families), one per call and never inside a grading call, and asked which "
                      "family wrote each. Leak rate = share named correctly; chance = the best a guess that ignores "
                      "the text can do on these items; one-sided binomial test, Holm-adjusted over the judges."
                      + (" MOCK PANEL: these are scripted guesses with planted recognition rates, not what a real "
                         "LLM can do." if mock else ""), strong=mock),
            Table(["Judge", "Family", "Items", "Named correctly", "Leak rate (95% CI)", "Chance", "p (Holm)",
                   "Own family named / own items", "Own family claimed on others", "Unanswered"],
                  [[g.judge_id, g.judge_family or DASH, str(g.items), str(g.correct),
                    f"{g.leak_rate:.0%} ({g.leak_rate_ci[0]:.0%}-{g.leak_rate_ci[1]:.0%})", f"{g.chance:.0%}",
                    f"{g.p_value_holm:.3g}" + (" FLAGGED" if g.flagged else ""),
                    f"{g.own_named} / {g.own_items}", str(g.own_claimed_on_others), str(g.unanswered)]
                   for g in guesses]),
        ]
    return Section("identity-probe", "Can a judge tell who wrote this?", blocks)


def _agreement(report: AuditReport) -> Section:
    result = report.agreement
    blocks: list[Block] = [
        ChartBlock(spread_chart(result.contestants, report.bands), "No grades to plot."),
        Table(
            ["Contestant", "Low", "Median", "High", "Spread", "Judges"],
            [
                [
                    c.contestant_label,
                    fmt_score(c.low),
                    fmt_score(c.median),
                    fmt_score(c.high),
                    fmt_score(c.spread),
                    str(c.n_judges),
                ]
                for c in sorted(result.contestants, key=lambda c: -c.median)
            ],
            caption="Each row is a contestant being graded: the lowest, median and highest judge composite.",
        ),
        Table(
            [
                "Axis",
                "Items",
                "Judges",
                "Krippendorff's alpha",
                "95% CI",
                "Reading",
                "ICC(2,1)",
                "95% CI",
                "Reading",
                "ICC(2,k)",
                "95% CI",
                "Reading",
            ],
            [
                [
                    a.axis,
                    str(a.n_items),
                    str(a.n_judges),
                    fmt_stat(a.krippendorff_alpha),
                    fmt_interval(a.krippendorff_alpha_ci_low, a.krippendorff_alpha_ci_high),
                    a.krippendorff_alpha_label,
                    fmt_stat(a.icc2_1),
                    fmt_interval(a.icc2_1_ci_low, a.icc2_1_ci_high, fmt_ci),
                    a.icc2_1_label,
                    fmt_stat(a.icc2_k),
                    fmt_interval(a.icc2_k_ci_low, a.icc2_k_ci_high, fmt_ci),
                    a.icc2_k_label,
                ]
                for a in result.axes
            ],
            caption=(
                f"Alpha: interval metric, bootstrap over contestants ({result.n_boot} replicates); >= 0.800 reliable, "
                "0.667-0.800 tentative. ICC: two-way random, absolute agreement; Koo & Li (2016) < 0.5 poor, "
                "0.5-0.75 moderate, 0.75-0.9 good, > 0.9 excellent. " + ICC_NOTE
            ),
        ),
    ]
    kw = result.kendall_w
    if kw is not None:
        blocks.append(
            Paragraph(
                f"Kendall's W on the judges' ranks of the composite: {fmt_stat(kw.w)} over {kw.n_items} contestants "
                f"and {kw.n_judges} judges (tie-corrected; chi2 = {fmt_stat(kw.chi2)}, df = {kw.df}, "
                f"p {fmt_p(kw.p_value)})."
            )
        )
    blocks.append(
        Table(
            ["Judge A", "Judge B", "n", "Mean difference (A - B)", "SD", "95% limits of agreement"],
            [
                [
                    p.judge_a,
                    p.judge_b,
                    str(p.n),
                    fmt_signed(p.mean_difference),
                    fmt_score(p.sd_difference),
                    fmt_interval(p.loa_low, p.loa_high, fmt_signed),
                ]
                for p in result.bland_altman
            ],
            caption="Pairwise Bland-Altman on the composite.",
        )
    )
    blocks.append(ChartBlock(bland_altman_chart(result.bland_altman), "No judge pair graded the same contestants."))
    blocks.append(Caveats(result.caveats))
    return Section("agreement", "How much the judges agree", blocks)


def _self_consistency(report: AuditReport) -> Section:
    result = report.self_consistency
    if not result.has_stability_runs:
        return Section(
            "self-consistency",
            "Self-consistency",
            [Paragraph("No stability runs.", strong=True), Caveats(result.caveats)],
        )
    raters = [*result.judges, *([result.panel] if result.panel else [])]
    axis_names = sorted({a for r in raters for a in r.axis_within_sd})
    rows = [
        [
            r.rater,
            str(r.n_records),
            str(r.max_repeats),
            fmt_stat(r.within_sd),
            fmt_score(r.min_signal_difference),
        ]
        + [fmt_stat(r.axis_within_sd.get(a)) for a in axis_names]
        for r in raters
    ]
    return Section(
        "self-consistency",
        "Self-consistency",
        [
            Paragraph(
                f"Within-record SD of the composite over repeated grades of the same input (pooled per judge). "
                f"Smallest difference that is signal = {SIGNAL_FACTOR:.2f} x SD (1.96 x sqrt(2) x SD): a larger "
                "gap between two scores is unlikely to be re-grading noise."
            ),
            Table(
                ["Rater", "Records", "Repeats", "Within SD", "Smallest signal difference"]
                + [f"SD {a}" for a in axis_names],
                rows,
            ),
            Caveats(result.caveats),
        ],
    )


def _reference_rows(rows: Sequence[AgreementWithReference]) -> list[list[str]]:
    return [
        [
            r.rater,
            r.reference,
            r.axis,
            str(r.n_items),
            fmt_stat(r.icc2_1),
            fmt_interval(r.icc2_1_ci_low, r.icc2_1_ci_high, fmt_ci),
            r.icc2_1_label,
            fmt_signed(r.mean_bias),
            fmt_interval(r.loa_low, r.loa_high, fmt_signed),
            fmt_stat(r.weighted_kappa),
        ]
        for r in rows
    ]


RANK_CONFIDENCE_METHOD = (
    "Bootstrap over the run's judges (drawn with replacement, as many as the panel has) and, when the run has "
    "stability repeats, over each drawn judge's repeats of the record; each replicate's reasoning median rescales the "
    "Total Score and the ranks are recomputed. Judges grade whole records, so the sampling of decisions within a "
    "record is not covered; a run with one judge and no repeats has no measured uncertainty (not zero).")

ICC_NOTE = ("ICC 95% CI: McGraw & Wong's F-based interval, given only when its bounds are in order around the "
            "estimate (else —). A negative ICC means the judges disagree more than the items differ: no reliability "
            "at all, not a weak agreement; the F-based interval does not exist for it.")

_REFERENCE_HEADERS = [
    "Rater",
    "Against",
    "Axis",
    "Items",
    "ICC(2,1)",
    "95% CI",
    "Reading",
    "Mean bias",
    "95% limits of agreement",
    "Weighted kappa (bands)",
]


def _calibration_items(report: AuditReport) -> list[Block]:
    """What the items are: a calibration set's reference items (how they were chosen) or whole records."""
    cs = report.calibration_set
    counts = report.calibration.items_per_annotator
    graded = ("Items graded per annotator: " + ", ".join(f"{a} {n}" for a, n in sorted(counts.items())) + "."
              if counts else "")
    if cs is None:
        return [Paragraph("Items are whole contestant records (the prompt each judge saw). " + graded)]
    return [Paragraph(f"Items are the {cs.get('n_items')} reference items of calibration set {cs.get('set_id')} "
                      f"(each {cs.get('window')} consecutive decision(s) with the snapshot the judges saw; judges and "
                      f"humans graded the same items). How they were chosen: {cs.get('method')} {graded}")]


def _calibration(report: AuditReport) -> Section:
    result = report.calibration
    if not result.has_human_grades:
        return Section(
            "calibration",
            "Calibration against humans",
            [*_calibration_items(report), ChartBlock(None, "No human grades yet."), Caveats(result.caveats)],
        )
    return Section(
        "calibration",
        "Calibration against humans",
        [
            *_calibration_items(report),
            Paragraph(
                f"{result.n_items} item(s) graded by {result.n_annotators} annotator(s). Human reference = mean of "
                "the annotators' latest grades (a correction replaces the annotator's whole earlier grade of the "
                "item); bias = judge - human; kappa is quadratic-weighted over the bands. The human composite uses "
                "the judges' weights; its process part is the rubric's weighted mean of the annotator's reasoning "
                "sub-scores when all of them were given, otherwise the annotator's reasoning score stands in for "
                "it (each stored grade says which)."
            ),
            ChartBlock(calibration_chart(result.points), "No human grades yet."),
            Table(
                _REFERENCE_HEADERS,
                _reference_rows(result.judges),
                caption="Judges and the panel median vs humans. " + ICC_NOTE,
            ),
            Table(
                _REFERENCE_HEADERS,
                _reference_rows(result.human_baseline),
                caption="Human-human baseline (items graded by both annotators).",
            ),
            Caveats(result.caveats),
        ],
    )


def _grounding(report: AuditReport) -> Section:
    result = report.grounding
    blocks: list[Block] = [
        Table(
            [
                "Judge",
                "Claims",
                "Citing claims",
                "Valid citations",
                "Agreement with verifier",
                "Cohen's kappa",
                "Missed contradictions",
                "Lookahead checks failed",
                "Claims with lookahead flag",
            ],
            [
                [
                    j.judge_id,
                    str(j.n_claims),
                    str(j.n_citing_claims),
                    fmt_share(j.valid_citation_share),
                    fmt_share(j.status_agreement),
                    fmt_stat(j.status_kappa),
                    str(j.n_missed_contradictions),
                    f"{j.n_lookahead_failures} of {j.n_lookahead_checks}",
                    str(j.n_lookahead_flagged_claims),
                ]
                for j in result.judges
            ],
            caption="Valid citations: claims whose every cited field exists in the point-in-time snapshot. "
            "Missed contradiction: the verifier found the claim contradicted, the judge called it supported.",
        )
    ]
    if result.missed_contradictions:
        blocks.append(
            Table(
                ["Judge", "Contestant", "Claim", "Cited fields"],
                [
                    [m.judge_id, m.contestant_id, m.claim or DASH, ", ".join(m.cited_fields) or DASH]
                    for m in result.missed_contradictions
                ],
                caption="Contradicted claims the judge missed.",
            )
        )
    if result.repeats:
        blocks.append(Table(
            ["Judge", "Claims", "Citing claims", "Valid citations", "Agreement with verifier", "Cohen's kappa",
             "Missed contradictions", "Claims with lookahead flag"],
            [[j.judge_id, str(j.n_claims), str(j.n_citing_claims), fmt_share(j.valid_citation_share),
              fmt_share(j.status_agreement), fmt_stat(j.status_kappa), str(j.n_missed_contradictions),
              str(j.n_lookahead_flagged_claims)] for j in result.repeats],
            caption="Stability repeats, counted apart: the claim ledgers of every re-grading of the same input "
                    "(the table above counts the main grading only, like the lookahead checks)."))
    blocks.append(Caveats(result.caveats))
    return Section("grounding", "Grounding and lookahead", blocks)


def _rounds(report: AuditReport) -> Section | None:
    if report.rounds is None or not report.rounds.rows:
        return None

    def pct(v: Any) -> str:
        return DASH if v is None else f"{100 * float(v):+.2f}%"

    rows = [[r["round"], r["contestant"], r["status"], r["allocation"], pct(r.get("return")),
             pct(r.get("S&P 500")), pct(r.get("alpha")), pct(r.get("regret")),
             DASH if r.get("oracle score") is None else f"{float(r['oracle score']):.1f}", r.get("note") or ""]
            for r in report.rounds.rows]
    return Section("rounds", "Outcome per round", [
        Paragraph("A rounds season: each round is an independent experiment (never compounded). Return and the "
                  "S&P 500 over the round's close-to-close window; oracle score = 100 x return / the best option's "
                  "return. Pending rounds withhold their outcome until they resolve."),
        Table(["Round", "Contestant", "Status", "Allocation", "Return", "S&P 500", "Alpha", "Regret",
               "Oracle score", "Note"], rows),
    ])


def _risk(report: AuditReport) -> Section | None:
    risk = report.risk
    if risk is None or not risk.contestants:
        return None

    def pct(v: Any, sign: bool = True) -> str:
        return DASH if v is None else (f"{100 * float(v):+.2f}%" if sign else f"{100 * float(v):.2f}%")

    def num(v: Any) -> str:
        return DASH if v is None else f"{float(v):.2f}"

    blocks: list[Block] = [Paragraph(
        "The risk evidence of PortBench (seed 004), shown to the judges in each decision's process facts: at every "
        "decision, from the returns known at the last close before it, the portfolio's historical VaR95, the "
        "two-layer correlation score of its asset-class weights (0 to 1, higher is better diversified) and, with an "
        "investor profile, the share of the profile's limits it met. docs/scoring.md gives the definitions and "
        "where they differ from the paper's.")]
    if risk.profile:
        p = risk.profile
        blocks.append(Paragraph(
            f"Investor profile {p['name']}: equity + crypto at most {p['equity_cap'] * 100:.0f}%, bond + cash at least "
            f"{p['bond_cash_floor'] * 100:.0f}%, one-day VaR95 no worse than {p['daily_var_limit'] * 100:+.1f}%, "
            f"drawdown at most {p['max_drawdown'] * 100:.0f}%."))
    figures = ("var_1d_mean", "correlation_score_mean", "profile_alignment_mean")
    if not any(r.get(k) is not None for r in risk.contestants for k in figures) and not risk.baselines:
        return Section("risk", "Risk evidence (PortBench)", [*blocks, *[Paragraph(n) for n in risk.notes]])
    horizon = risk.horizon_sessions > 1
    over = f"{risk.horizon_sessions}d (decision interval)"
    headers = ["Contestant", "Decisions", "Mean VaR95 1d", "Mean CVaR95 1d"] + (
        [f"Mean VaR95 {over}", f"Mean CVaR95 {over}"] if horizon else []) + ["Mean correlation score"]
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
            row += [pct(r.get("max_drawdown"), sign=False),
                    DASH if passed is None else ("passed" if passed else "FAILED")]
        rows.append(row)
    blocks.append(Table(headers, rows, caption="Means over the contestant's decisions (point-in-time); VaR95 = the "
                                                "5% quantile of the portfolio's historical returns, CVaR95 = the mean "
                                                "of the returns at or below it (a loss reads negative); "
                                                "a dash: not computable for this season (see the notes)."))
    if risk.baselines:
        blocks.append(Table(
            ["Baseline", "Return", "Max drawdown", "Volatility", "Sharpe", "Note"],
            [[b["baseline"], pct(b.get("return")), pct(b.get("max_drawdown"), sign=False),
              pct(b.get("volatility"), sign=False), num(b.get("sharpe")), b.get("note") or ""]
             for b in risk.baselines],
            caption="PortBench's classical baselines our data supports, bought at the season's entry close and "
                    "held (an outcome)."))
    if risk.stress:
        blocks.append(Table(
            ["Stress window", "Sessions", "Contestant", "Return", "Drawdown", "Equal weight", "EW drawdown",
             "Benchmark", "Benchmark drawdown"],
            [[f"{s['window']} ({s['first']} to {s['last']})", str(s["sessions"]), s["contestant"],
              pct(s.get("return")), pct(s.get("drawdown"), sign=False), pct(s.get("equal_weight_return")),
              pct(s.get("equal_weight_drawdown"), sign=False), pct(s.get("benchmark_return")),
              pct(s.get("benchmark_drawdown"), sign=False)] for s in risk.stress],
            caption="Named stress windows the season overlaps (an outcome), measured from the close before the "
                    "window's first session in the season."))
    blocks += [Paragraph(n) for n in risk.notes]
    return Section("risk", "Risk evidence (PortBench)", blocks)


def _claims(report: AuditReport) -> Section | None:
    claims = report.claims
    if claims is None:
        return None
    blocks: list[Block] = [
        Paragraph(
            "Numeric claims found in the contestants' own rationales, checked against the point-in-time data."
        ),
        Table(
            ["Figure", "Value"], [[str(k).replace("_", " "), fmt_value(v)] for k, v in claims.summary.items()]
        ),
    ]
    if claims.examples:
        keys: list[str] = []
        for example in claims.examples:
            keys += [k for k in example if k not in keys]
        blocks.append(
            Table(
                [k.replace("_", " ").capitalize() for k in keys],
                [[fmt_value(example.get(k)) for k in keys] for example in claims.examples],
                caption="Examples from real rationales: each claim, the verifier's status and reason, and the "
                "point-in-time values it was checked against (contradicted claims first).",
            )
        )
    return Section("claims", "Claims in real rationales", blocks)


def _method(report: AuditReport) -> Section:
    bands = ", ".join(f"{b.name} {b.low:g}-{b.high:g}" for b in report.bands)
    return Section(
        "method",
        "Method notes",
        [
            Definitions(
                [
                    ("Bands", bands + "; a score belongs to the highest band whose lower bound it reaches."),
                    ("Consensus", "The panel median of the judges' composites for a contestant."),
                    (
                        "Leave-one-out index",
                        "A judge's composite minus the mean of the other judges' composites.",
                    ),
                    (
                        "Permutation test",
                        "Family labels shuffled over contestants; one-sided p-value of the LOO gap; "
                        "exact enumeration when the number of label assignments allows, else seeded Monte Carlo.",
                    ),
                    ("Krippendorff's alpha", "Interval metric; judges are coders, contestants are units."),
                    (
                        "ICC(2,1) / ICC(2,k)",
                        "Two-way random effects, absolute agreement, single judge / panel mean "
                        "(Shrout & Fleiss 1979), computed by pingouin; 95% intervals McGraw & Wong (1996), "
                        "F-based, shown only when ordered around the estimate.",
                    ),
                    (
                        "Kendall's W",
                        "Concordance of the judges' rankings with tie correction; chi-square test.",
                    ),
                    ("Bland-Altman", "Mean difference of two raters and 95% limits (mean +/- 1.96 SD)."),
                    ("Rank confidence", RANK_CONFIDENCE_METHOD),
                    (
                        "Smallest signal difference",
                        "1.96 x sqrt(2) x pooled within-record SD from stability runs.",
                    ),
                ]
            )
        ],
    )


def _gaps(report: AuditReport) -> Section | None:
    if not report.gaps and not report.failed_calls:
        return None
    blocks: list[Block] = []
    if report.gaps:
        blocks.append(Paragraph(f"{len(report.gaps)} expected grade(s) have no valid grade after the run's retries. "
                                "They are left empty: every median and audit above uses the judges that did grade."))
        blocks.append(Table(["judge", "contestant", "repeat", "attempts", "last attempt"],
                            [[g["judge_id"], g["contestant"], str(g["repeat"]), str(g["attempts"]),
                              g["last_error"] or "not attempted"] for g in report.gaps]))
    if report.failed_calls:
        blocks.append(Table(["call", "judge", "contestant", "repeat", "attempt", "status", "error"],
                            [[str(c["call_id"]), c["judge_id"], c["contestant"], str(c["repeat"]), str(c["attempt"]),
                              c["status"], c["error"]] for c in report.failed_calls],
                            caption="Every attempt that gave no valid grade (retries are linked to the attempt they "
                                    "replace; none was paid for twice)"))
    return Section("gaps", "Gaps and failed calls", blocks)


def report_document(report: AuditReport) -> Document:
    """The report as a renderer-neutral document."""
    sections = [
        _summary(report),
        *([n] if (n := run_notes_section(report)) is not None else []),
        _leaderboard(report),
        *([p] if (p := _process_facts(report)) is not None else []),
        _rank_confidence(report),
        _self_preference(report),
        _agreement(report),
        _self_consistency(report),
        _calibration(report),
        _grounding(report),
    ]
    for extra in (_gaps(report), _identity_probe(report), comparison_sets_section(report), _rounds(report),
                  _risk(report), _claims(report)):
        if extra is not None:
            sections.append(extra)
    sections.append(_method(report))
    for caveat in report.caveats:
        if caveat != PENDING_NOTICE:
            sections[0].blocks.append(Paragraph(caveat, strong=True))
    return Document(
        title=f"Judge-agreement report: run {report.meta.run_id}",
        banner=report.run_label,
        run_type=report.meta.run_type,
        notice=PENDING_NOTICE if report.outcome_withheld else None,
        identity=_identity(report),
        sections=sections,
    )


# ---------------------------------------------------------------- HTML

_CSS = """
:root { --ink: #1f2d3d; --muted: #5b6b7b; --line: #d9e1e8; --bg: #ffffff; --soft: #f5f7fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--ink); background: var(--bg); }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 1.7rem; margin: 0 0 8px; }
h2 { font-size: 1.25rem; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
.banner { padding: 14px 18px; margin: 12px 0 18px; font-weight: 700; font-size: 1.15rem; letter-spacing: .02em;
  border-radius: 6px; border: 3px solid #b00020; background: #fde7ea; color: #7a0016; }
.banner.baseline { border-color: #8a6d00; background: #fff6d6; color: #5c4800; }
.banner.dry-run, .banner.stability { border-color: #2b5797; background: #e8f0fb; color: #1b3a66; }
.notice { padding: 10px 14px; margin: 12px 0; border-left: 5px solid #8a6d00; background: #fff6d6; }
table { border-collapse: collapse; margin: 10px 0 18px; font-size: .88rem; width: 100%; }
caption { caption-side: top; text-align: left; color: var(--muted); padding: 4px 0; font-size: .85rem; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td { overflow-wrap: break-word; }
table.wide { font-size: .76rem; }
table.wide th, table.wide td { padding: 4px 5px; }
table.wide th { hyphens: auto; }
tbody tr:nth-child(even) td { background: #fafbfc; }
table.identity { width: auto; }
table.identity th { white-space: nowrap; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .82rem; word-break: break-all; }
figure { margin: 12px 0 18px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: .85rem; }
.placeholder { padding: 28px; text-align: center; color: var(--muted); border: 2px dashed var(--line);
  border-radius: 6px; font-weight: 600; }
.caveats { color: var(--muted); font-size: .88rem; }
.caveats li { margin: 2px 0; }
nav { font-size: .9rem; margin: 8px 0 0; }
nav a { margin-right: 12px; color: #2b5797; }
footer { margin-top: 40px; color: var(--muted); font-size: .82rem; }
"""

_HASH_ROWS = {"Rubric content hash", "Rubric judge-facing hash", "Panel hash", "Manifest hash"}


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _html_table(table: Table) -> str:
    wide = len(table.headers) > 9  # many columns: smaller type and padding so the page fits 1280 px
    parts = ['<table class="wide">' if wide else "<table>"]
    if table.caption:
        parts.append(f"<caption>{_e(table.caption)}</caption>")
    parts.append(
        "<thead><tr>" + "".join(f'<th scope="col">{_e(h)}</th>' for h in table.headers) + "</tr></thead>"
    )
    if table.rows:
        body = "".join(
            "<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in table.rows
        )
    else:
        body = f'<tr><td colspan="{len(table.headers)}">No rows.</td></tr>'
    parts.append(f"<tbody>{body}</tbody></table>")
    return "".join(parts)


def _html_block(block: Block) -> str:
    if isinstance(block, Paragraph):
        text = _e(block.text)
        return f"<p><strong>{text}</strong></p>" if block.strong else f"<p>{text}</p>"
    if isinstance(block, Table):
        return _html_table(block)
    if isinstance(block, ChartBlock):
        if block.chart is None:
            return f'<div class="placeholder" role="note">{_e(block.placeholder)}</div>'
        chart = block.chart
        return (
            f'<figure id="chart-{_e(chart.key)}"><img alt="{_e(chart.alt)}" '
            f'src="data:image/png;base64,{chart.png_base64}"><figcaption>{_e(chart.title)}</figcaption></figure>'
        )
    if isinstance(block, Caveats):
        if not block.items:
            return ""
        return '<ul class="caveats">' + "".join(f"<li>{_e(c)}</li>" for c in block.items) + "</ul>"
    items = "".join(f"<dt>{_e(term)}</dt><dd>{_e(text)}</dd>" for term, text in block.items)
    return f"<dl>{items}</dl>"


def render_html(report: AuditReport) -> str:
    """One self-contained HTML page (inline CSS, base64 PNG charts, no external reference)."""
    doc = report_document(report)
    identity_rows = "".join(
        f'<tr><th scope="row">{_e(k)}</th><td>{f"<code>{_e(v)}</code>" if k in _HASH_ROWS else _e(v)}</td></tr>'
        for k, v in doc.identity
    )
    nav = "".join(f'<a href="#{_e(s.anchor)}">{_e(s.title)}</a>' for s in doc.sections)
    banner = (
        f'<div class="banner {_e(doc.run_type)}" role="alert">{_e(doc.banner)}</div>' if doc.banner else ""
    )
    notice = f'<div class="notice" role="note"><strong>{_e(doc.notice)}</strong></div>' if doc.notice else ""
    sections = "".join(
        f'<section id="{_e(s.anchor)}"><h2>{_e(s.title)}</h2>'
        + "".join(_html_block(b) for b in s.blocks)
        + "</section>"
        for s in doc.sections
    )
    meta = report.meta
    footer = (
        f"Rubric {_e(meta.rubric_id)} (<code>{_e(meta.rubric_hash)}</code>) · panel {_e(meta.panel_name)} "
        f"(<code>{_e(meta.panel_hash)}</code>) · run type {_e(meta.run_type)} · manifest "
        f"<code>{_e(meta.manifest_hash)}</code>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(doc.title)}</title><style>{_CSS}</style></head><body><main>"
        f"<h1>{_e(doc.title)}</h1>{banner}{notice}"
        f'<table class="identity"><tbody>{identity_rows}</tbody></table><nav>{nav}</nav>{sections}'
        f"<footer>{_e(doc.banner) + ' · ' if doc.banner else ''}{footer}</footer></main></body></html>\n"
    )


# ---------------------------------------------------------------- Markdown


def _md(text: str) -> str:
    """Escape text for a Markdown table cell or paragraph (no raw HTML, no table breaks)."""
    escaped = html.escape(text, quote=False)
    return escaped.replace("|", "\\|").replace("\n", " ")


def _md_table(table: Table) -> str:
    lines = []
    if table.caption:
        lines.append(f"_{_md(table.caption)}_\n")
    lines.append("| " + " | ".join(_md(h) for h in table.headers) + " |")
    lines.append("|" + "|".join("---" for _ in table.headers) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(_md(cell) for cell in row) + " |")
    if not table.rows:
        lines.append("| " + " | ".join(["No rows."] + [""] * (len(table.headers) - 1)) + " |")
    return "\n".join(lines)


def _md_block(block: Block) -> str:
    if isinstance(block, Paragraph):
        return f"**{_md(block.text)}**" if block.strong else _md(block.text)
    if isinstance(block, Table):
        return _md_table(block)
    if isinstance(block, ChartBlock):
        if block.chart is None:
            return f"> {_md(block.placeholder)}"
        return f"_Chart (in report.html): {_md(block.chart.title)}. {_md(block.chart.alt)}_"
    if isinstance(block, Caveats):
        return "\n".join(f"- {_md(c)}" for c in block.items)
    return "\n".join(f"- **{_md(term)}**: {_md(text)}" for term, text in block.items)


def render_markdown(report: AuditReport) -> str:
    """The report as Markdown (charts are described; the HTML page carries them)."""
    doc = report_document(report)
    parts = [f"# {_md(doc.title)}"]
    if doc.banner:
        parts.append(f"> **{_md(doc.banner)}**")
    if doc.notice:
        parts.append(f"> **{_md(doc.notice)}**")
    parts.append(
        _md_table(Table(["", ""], [[k, f"`{v}`" if k in _HASH_ROWS else v] for k, v in doc.identity]))
    )
    for section in doc.sections:
        parts.append(f"## {_md(section.title)}")
        parts.extend(text for text in (_md_block(b) for b in section.blocks) if text)
    return "\n\n".join(parts) + "\n"
