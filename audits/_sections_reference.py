"""Report sections that hold the judges against a reference: calibration against human grades, grounding against
the claim verifier and the lookahead checks, and the numeric claims in the contestants' own rationales."""

from __future__ import annotations

from collections.abc import Sequence

from audits._calibration import AgreementWithReference
from audits._charts import calibration_chart
from audits._document import Block, Caveats, ChartBlock, Paragraph, Section, Table
from audits._format import DASH, fmt_ci, fmt_interval, fmt_share, fmt_signed, fmt_stat, fmt_value
from audits._report import AuditReport
from audits._sections_judges import ICC_NOTE


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
    graded = (
        "Items graded per annotator: " + ", ".join(f"{a} {n}" for a, n in sorted(counts.items())) + "."
        if counts
        else ""
    )
    if cs is None:
        return [Paragraph("Items are whole contestant records (the prompt each judge saw). " + graded)]
    return [
        Paragraph(
            f"Items are the {cs.get('n_items')} reference items of calibration set {cs.get('set_id')} "
            f"(each {cs.get('window')} consecutive decision(s) with the snapshot the judges saw; judges and "
            f"humans graded the same items). How they were chosen: {cs.get('method')} {graded}"
        )
    ]


def calibration_section(report: AuditReport) -> Section:
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


def grounding_section(report: AuditReport) -> Section:
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
        blocks.append(
            Table(
                [
                    "Judge",
                    "Claims",
                    "Citing claims",
                    "Valid citations",
                    "Agreement with verifier",
                    "Cohen's kappa",
                    "Missed contradictions",
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
                        str(j.n_lookahead_flagged_claims),
                    ]
                    for j in result.repeats
                ],
                caption="Stability repeats, counted apart: the claim ledgers of every re-grading of the same input "
                "(the table above counts the main grading only, like the lookahead checks).",
            )
        )
    blocks.append(Caveats(result.caveats))
    return Section("grounding", "Grounding and lookahead", blocks)


def claims_section(report: AuditReport) -> Section | None:
    claims = report.claims
    if claims is None:
        return None
    blocks: list[Block] = [
        Paragraph("Numeric claims found in the contestants' own rationales, checked against the point-in-time data."),
        Table(["Figure", "Value"], [[str(k).replace("_", " "), fmt_value(v)] for k, v in claims.summary.items()]),
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
