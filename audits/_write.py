"""Write an :class:`AuditReport` to a directory: HTML page, Markdown, JSON and CSV tables."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import BaseModel

from audits._render_html import render_html
from audits._render_markdown import render_markdown
from audits._report import AuditReport
from grader.hygiene import for_csv


def _frame(rows: Sequence[BaseModel], flatten: dict[str, str] | None = None) -> pd.DataFrame:
    """Rows of pydantic models as a table; dict fields named in ``flatten`` become prefixed columns."""
    records: list[dict[str, Any]] = []
    for row in rows:
        record = row.model_dump()
        for name, prefix in (flatten or {}).items():
            for key, value in (record.pop(name) or {}).items():
                record[f"{prefix}{key}"] = value
        records.append(record)
    return pd.DataFrame.from_records(records)


def _csv(frame: pd.DataFrame, path: Path, columns: list[str], report: AuditReport) -> Path:
    """Write one table; every row carries run_id and run_type so a mock or baseline table exported on its
    own is still labelled for what it is."""
    if frame.empty:
        frame = pd.DataFrame(columns=columns)
    frame = frame.copy()
    frame.insert(0, "run_type", report.meta.run_type)
    frame.insert(0, "run_id", report.meta.run_id)
    frame = frame.astype(object).map(for_csv)  # a display name "=HYPERLINK(...)" stays text in a spreadsheet
    frame.to_csv(path, index=False, lineterminator="\n")
    return path


def write_report(report: AuditReport, out_dir: str | Path) -> dict[str, Path]:
    """Write report.html, report.md, report.json and the CSV tables; returns name -> path.

    Names: html, markdown, json, scores, totals, agreement, agreement_contestants, bland_altman,
    self_preference, rank_confidence, self_consistency, calibration, grounding."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}

    paths["html"] = out / "report.html"
    paths["html"].write_text(render_html(report), encoding="utf-8")
    paths["markdown"] = out / "report.md"
    paths["markdown"].write_text(render_markdown(report), encoding="utf-8")
    paths["json"] = out / "report.json"
    paths["json"].write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")

    paths["scores"] = _csv(
        pd.DataFrame.from_records(report.scores, columns=report.score_columns),
        out / "scores.csv",
        report.score_columns,
        report,
    )
    paths["totals"] = _csv(
        pd.DataFrame.from_records(report.totals, columns=report.totals_columns),
        out / "totals.csv",
        report.totals_columns,
        report,
    )
    paths["agreement"] = _csv(_frame(report.agreement.axes), out / "agreement.csv", ["axis"], report)
    paths["agreement_contestants"] = _csv(
        _frame(report.agreement.contestants), out / "agreement_contestants.csv", ["contestant_id"], report
    )
    paths["bland_altman"] = _csv(_frame(report.agreement.bland_altman), out / "bland_altman.csv", ["judge_a"], report)
    paths["self_preference"] = _csv(
        _frame(report.self_preference.judges), out / "self_preference.csv", ["judge_id"], report
    )
    paths["rank_confidence"] = _csv(
        _frame(report.rank_confidence.contestants, {"p_band": "p_"}),
        out / "rank_confidence.csv",
        ["contestant_id"],
        report,
    )
    consistency = [*report.self_consistency.judges]
    if report.self_consistency.panel is not None:
        consistency.append(report.self_consistency.panel)
    paths["self_consistency"] = _csv(
        _frame(consistency, {"axis_within_sd": "within_sd_"}), out / "self_consistency.csv", ["rater"], report
    )
    paths["calibration"] = _csv(
        _frame([*report.calibration.judges, *report.calibration.human_baseline]),
        out / "calibration.csv",
        ["rater"],
        report,
    )
    paths["grounding"] = _csv(_frame(report.grounding.judges), out / "grounding.csv", ["judge_id"], report)
    return paths
