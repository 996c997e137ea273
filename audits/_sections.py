"""The audit report as one document: :func:`report_document` puts the sections in order, so the HTML page and the
Markdown always say the same thing. The run's identity, the summary at a glance, the gaps and the method notes
are built here; each statistic's section sits in a ``_sections_*`` module by topic.
"""

from __future__ import annotations

from audits._charts import charts_left_undrawn
from audits._document import Block, Definitions, Document, Paragraph, Section, Table
from audits._format import fmt_p, fmt_stat
from audits._report import PENDING_NOTICE, AuditReport
from audits._sections_judges import (
    RANK_CONFIDENCE_METHOD,
    agreement_section,
    identity_probe_section,
    rank_confidence_section,
    self_consistency_section,
    self_preference_section,
)
from audits._sections_outcome import leaderboard_section, process_facts_section, risk_section, rounds_section
from audits._sections_reference import calibration_section, claims_section, grounding_section
from audits._sections_rounds import comparison_sets_section, run_notes_section


def _identity(report: AuditReport) -> list[tuple[str, str]]:
    meta = report.meta
    rows = [
        ("Run", f"{meta.run_id} ({meta.run_type})"),
        ("Season", f"{meta.season_id} ({meta.season_resolution or meta.season_status})"),
        ("Rubric", meta.rubric_id),
        *(
            [("Scored version", f"{meta.score_version} (every section uses its rubric, weights and bands)")]
            if meta.score_version is not None
            else []
        ),
        ("Rubric content hash", meta.rubric_hash),
        ("Rubric judge-facing hash", meta.rubric_judge_hash),
        ("Panel", meta.panel_name),
        (
            "Judges saw",
            "anonymized records (aliases, identities scrubbed)"
            if meta.anonymized
            else "the records with the contestants' own names: this run's rubric does not anonymize",
        ),
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
    untestable = [
        j.judge_id
        for j in report.self_preference.judges
        if not j.flagged and (j.p_value is None or j.note.startswith("Cannot be tested"))
    ]
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
        blocks.append(
            Paragraph(
                f"{len(report.gaps)} expected grade(s) have no valid grade after the run's retries. "
                "They are left empty: every median and audit above uses the judges that did grade."
            )
        )
        blocks.append(
            Table(
                ["judge", "contestant", "repeat", "attempts", "last attempt"],
                [
                    [
                        g["judge_id"],
                        g["contestant"],
                        str(g["repeat"]),
                        str(g["attempts"]),
                        g["last_error"] or "not attempted",
                    ]
                    for g in report.gaps
                ],
            )
        )
    if report.failed_calls:
        blocks.append(
            Table(
                ["call", "judge", "contestant", "repeat", "attempt", "status", "error"],
                [
                    [
                        str(c["call_id"]),
                        c["judge_id"],
                        c["contestant"],
                        str(c["repeat"]),
                        str(c["attempt"]),
                        c["status"],
                        c["error"],
                    ]
                    for c in report.failed_calls
                ],
                caption="Every attempt that gave no valid grade (retries are linked to the attempt they "
                "replace; none was paid for twice)",
            )
        )
    return Section("gaps", "Gaps and failed calls", blocks)


def report_document(report: AuditReport, *, draw_charts: bool = True) -> Document:
    """The report as a renderer-neutral document (``draw_charts`` False: every chart laid out but left undrawn, for a
    first version shown while they are drawn; see :func:`audits._charts.charts_left_undrawn`)."""
    if not draw_charts:
        with charts_left_undrawn():
            return report_document(report)
    sections = [
        _summary(report),
        *([n] if (n := run_notes_section(report)) is not None else []),
        leaderboard_section(report),
        *([p] if (p := process_facts_section(report)) is not None else []),
        rank_confidence_section(report),
        self_preference_section(report),
        agreement_section(report),
        self_consistency_section(report),
        calibration_section(report),
        grounding_section(report),
    ]
    for extra in (
        _gaps(report),
        identity_probe_section(report),
        comparison_sets_section(report),
        rounds_section(report),
        risk_section(report),
        claims_section(report),
    ):
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
