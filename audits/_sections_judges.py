"""Report sections on how the panel's judges grade: rank confidence over the panel and repeats, self-preference,
whether a judge can tell who wrote a record, inter-judge agreement and self-consistency."""

from __future__ import annotations

from audits._charts import bland_altman_chart, consensus_chart, rank_interval_chart, spread_chart
from audits._document import Block, Caveats, ChartBlock, Paragraph, Section, Table
from audits._format import DASH, fmt_ci, fmt_interval, fmt_p, fmt_score, fmt_share, fmt_signed, fmt_stat
from audits._report import AuditReport
from audits._self_consistency import SIGNAL_FACTOR

RANK_CONFIDENCE_METHOD = (
    "Bootstrap over the run's judges (drawn with replacement, as many as the panel has) and, when the run has "
    "stability repeats, over each drawn judge's repeats of the record; each replicate's reasoning median rescales the "
    "Total Score and the ranks are recomputed. Judges grade whole records, so the sampling of decisions within a "
    "record is not covered; a run with one judge and no repeats has no measured uncertainty (not zero)."
)

ICC_NOTE = (
    "ICC 95% CI: McGraw & Wong's F-based interval, given only when its bounds are in order around the "
    "estimate (else —). A negative ICC means the judges disagree more than the items differ: no reliability "
    "at all, not a weak agreement; the F-based interval does not exist for it."
)


def rank_confidence_section(report: AuditReport) -> Section:
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
                "variation: "
                + ("; ".join(result.sources) if result.sources else "none (one judge, no repeats)")
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


def self_preference_section(report: AuditReport) -> Section:
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
        chart, placeholder = (
            None,
            (
                "No self-preference chart: this run has one judge, so the panel consensus it "
                "would be compared with is that judge itself."
            ),
        )
    else:
        chart, placeholder = consensus_chart(result.points, report.bands), "No grades to plot."
    blocks: list[Block] = [table, test, ChartBlock(chart, placeholder), Caveats(result.caveats)]
    leaking = [g.judge_id for g in report.judge_probe if g.flagged]
    if report.judge_probe:
        blocks.append(
            Paragraph(
                (
                    "Identity-guess probe: "
                    + ", ".join(leaking)
                    + " named the author's family above chance (see \"Can a "
                    'judge tell who wrote this?"): its grades could know whose record they grade, so anonymization does '
                    "not blind it and a self-preference gap of its own cannot be blamed on chance exposure to names."
                )
                if leaking
                else "Identity-guess probe: no judge named the author's family above chance (see \"Can a "
                'judge tell who wrote this?"); that supports, without proving, the blinding.',
                strong=bool(leaking),
            )
        )
    probe = report.identity_probe
    if probe is not None:
        blocks.append(
            Paragraph(
                "This run's judges saw the contestants' names (its rubric does not anonymize): a self-preference gap may "
                "come from the names themselves."
                if not report.meta.anonymized
                else f"Anonymization and style: a classifier tells the authors' families apart from the anonymized text "
                f'with {probe.accuracy:.0%} accuracy (chance: {probe.majority_rate:.0%}); see "Can a judge tell who '
                'wrote this?". '
                + (
                    "A judge could recognise its own family from style, so a self-preference gap "
                    "cannot be blamed on names alone, and the absence of a gap is not evidence of blinding."
                    if probe.p_value < 0.05
                    else "Style gave no measurable hint of the family."
                ),
                strong=probe.p_value < 0.05,
            )
        )
    return Section("self-preference", "Self-preference", blocks)


def identity_probe_section(report: AuditReport) -> Section | None:
    probe = report.identity_probe
    guesses = report.judge_probe
    if probe is None and not guesses:
        return None
    blocks: list[Block] = []
    if probe is not None:
        labels = sorted(probe.families)
        blocks += [
            Paragraph(
                "An offline stylometric probe: TF-IDF of words and characters with logistic regression, "
                "trained to predict the author's provider family from each decision's anonymized rationale "
                + (
                    "(exactly what the judges see)"
                    if report.meta.anonymized
                    else "(what an anonymizing rubric would show; this run's judges saw the names)"
                )
                + ", cross-validated with whole rounds held out."
            ),
            Paragraph(probe.summary(), strong=probe.p_value < 0.05),
            Table(
                ["True family \\ predicted", *labels, "Recall"],
                [[t, *[str(probe.confusion[t][p]) for p in labels], f"{probe.recall[t]:.0%}"] for t in labels],
            ),
        ]
    if guesses:
        mock = report.meta.run_type == "mock"
        blocks += [
            Paragraph(
                "The judges themselves: each judge of this run's panel was shown anonymized decisions (an even "
                "sample over the families), one per call and never inside a grading call, and asked which "
                "family wrote each. Leak rate = share named correctly; chance = the best a guess that ignores "
                "the text can do on these items; one-sided binomial test, Holm-adjusted over the judges."
                + (
                    " MOCK PANEL: these are scripted guesses with planted recognition rates, not what a real "
                    "LLM can do."
                    if mock
                    else ""
                ),
                strong=mock,
            ),
            Table(
                [
                    "Judge",
                    "Family",
                    "Items",
                    "Named correctly",
                    "Leak rate (95% CI)",
                    "Chance",
                    "p (Holm)",
                    "Own family named / own items",
                    "Own family claimed on others",
                    "Unanswered",
                ],
                [
                    [
                        g.judge_id,
                        g.judge_family or DASH,
                        str(g.items),
                        str(g.correct),
                        f"{g.leak_rate:.0%} ({g.leak_rate_ci[0]:.0%}-{g.leak_rate_ci[1]:.0%})",
                        f"{g.chance:.0%}",
                        f"{g.p_value_holm:.3g}" + (" FLAGGED" if g.flagged else ""),
                        f"{g.own_named} / {g.own_items}",
                        str(g.own_claimed_on_others),
                        str(g.unanswered),
                    ]
                    for g in guesses
                ],
            ),
        ]
    return Section("identity-probe", "Can a judge tell who wrote this?", blocks)


def agreement_section(report: AuditReport) -> Section:
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


def self_consistency_section(report: AuditReport) -> Section:
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
