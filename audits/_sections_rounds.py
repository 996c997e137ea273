"""Report sections that say what a run is and how far its season resolved: the run's own notes (a rubric/panel
mismatch, a leaking prompt left ungraded: facts about the run, not gaps) and, for a rounds season, CapitalBench's
ranking surface (equal-run comparison sets), with each member's all-rounds figures as context."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from audits._document import Paragraph, Section, Table

if TYPE_CHECKING:
    from audits._report import AuditReport

DASH = "—"


def run_notes_section(report: AuditReport) -> Section | None:
    if not report.run_notes:
        return None
    return Section("run-notes", "Notes on this run", [Paragraph(note, strong=True) for note in report.run_notes])


def _pct(v: Any) -> str:
    return DASH if v is None else f"{100 * float(v):+.2f}%"


def _score(v: Any) -> str:
    return DASH if v is None else f"{float(v):.1f}"


def _scope(r: dict) -> str:
    text = f"{r['rounds resolved']} of {r['rounds decided']}"
    if r.get("rounds pending"):
        text += f", {r['rounds pending']} pending"
    if r.get("rounds cancelled"):
        text += f", {r['rounds cancelled']} cancelled upstream (never resolve)"
    return text


def comparison_sets_section(report: AuditReport) -> Section | None:
    rows = report.comparison_sets
    if not rows:
        return None
    from grader.replay import COMPARISON_NOTE

    table = [
        [
            f"{r['set']} ({r['members']} models)",
            str(r["shared rounds"]),
            str(r["rank"] or DASH),
            r["contestant"],
            _score(r["set score"]),
            _pct(r["set mean return"]),
            _pct(r["set mean alpha"]),
            _score(r["all-rounds score"]),
            _scope(r),
        ]
        for r in rows
    ]
    return Section(
        "comparison-sets",
        "Outcome ranking: comparison sets",
        [
            Paragraph(COMPARISON_NOTE),
            Table(
                [
                    "Set",
                    "Shared rounds",
                    "Rank",
                    "Contestant",
                    "Set score",
                    "Set mean return",
                    "Set mean alpha",
                    "All-rounds score (context)",
                    "Own rounds resolved",
                ],
                table,
            ),
        ],
    )
