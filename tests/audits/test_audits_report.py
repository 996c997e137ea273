"""The published report: files, identity, labels, withheld outcome figures, self-containment, escaping."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest
from audits_synthetic import OUTCOME_VALUES, inputs, meta, panel_scores

from audits import OUTCOME_COLUMNS, AuditInputs, build_report, render_html, write_report

FAST = {"n_boot_rank": 200, "n_boot_alpha": 100, "n_permutations": 2000}

# How the planted outcome figures would appear if they leaked: raw, percent and rounded forms.
OUTCOME_STRINGS = [
    "0.137913",
    "13.79%",
    "-0.052771",
    "-5.28%",
    "0.190684",
    "19.07%",
    "41.9337",
    "1.73519",
    "-0.083117",
    "-8.31%",
]


def _human_grades(scores: pd.DataFrame) -> pd.DataFrame:
    main = scores[(scores["repeat"] == 0) & (scores["judge_id"] == "judge-openai")]
    rows = []
    for annotator, shift in (("alice", 2.0), ("bob", -3.0)):
        for _, r in main.iterrows():
            rows.append(
                {
                    "item_id": r["contestant_id"],
                    "annotator": annotator,
                    "axis": "composite",
                    "score": min(100.0, max(0.0, r["composite"] + shift)),
                    "created_at": datetime(2024, 4, 1, tzinfo=UTC),
                }
            )
    return pd.DataFrame(rows)


def _all_text(paths: dict[str, Path]) -> dict[str, str]:
    return {name: path.read_text(encoding="utf-8") for name, path in paths.items()}


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    scores = panel_scores(bias={"judge-xai": 10.0}, repeats=2)
    report = build_report(inputs(scores, human_grades=_human_grades(scores)), **FAST)
    return _all_text(write_report(report, tmp_path_factory.mktemp("resolved")))


@pytest.fixture(scope="module")
def pending(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    scores = panel_scores(bias={"judge-xai": 10.0}, repeats=2)
    report = build_report(inputs(scores, season_status="pending", human_grades=_human_grades(scores)), **FAST)
    return _all_text(write_report(report, tmp_path_factory.mktemp("pending")))


def test_write_report_writes_every_format(resolved: dict[str, str]) -> None:
    assert {
        "html",
        "markdown",
        "json",
        "scores",
        "totals",
        "agreement",
        "self_preference",
        "rank_confidence",
    } <= set(resolved)
    data = json.loads(resolved["json"])
    assert data["meta"]["run_id"] == "run-0042"
    assert [j["judge_id"] for j in data["self_preference"]["judges"] if j["flagged"]] == ["judge-xai"]
    scores_csv = resolved["scores"].splitlines()
    assert scores_csv[0].startswith("run_id,run_type,contestant_id,contestant_label,contestant_family,judge_id")
    assert scores_csv[1].startswith("run-0042,official,")
    assert len(scores_csv) == 1 + 12 * 3 * 2
    assert resolved["rank_confidence"].splitlines()[0].endswith("p_Strong,p_Mixed,p_Weak")
    assert "composite" in resolved["agreement"]


def test_report_names_rubric_panel_run_type_and_hashes(resolved: dict[str, str]) -> None:
    for text in (resolved["html"], resolved["markdown"]):
        assert "grounded_financial_reasoning_judge_v0.4" in text
        assert "three-provider-v1" in text
        assert "run-0042 (official)" in text
        for digit in "abcd":
            assert digit * 64 in text  # rubric, judge-facing, panel and manifest hashes


def test_html_is_one_self_contained_page(resolved: dict[str, str]) -> None:
    page = resolved["html"]
    assert not re.search(r"https?://", page, re.IGNORECASE)
    assert "<link" not in page and "<script" not in page and "@import" not in page and "url(" not in page
    sources = re.findall(r'src="([^"]*)"', page)
    assert len(sources) == 5  # rank intervals, judge vs consensus, spread, Bland-Altman, calibration
    assert all(s.startswith("data:image/png;base64,") for s in sources)
    assert page.count("<html") == 1 and "<style>" in page
    assert 'id="chart-calibration"' in page and "No human grades yet" not in page
    assert 'id="chart-bland_altman"' in page and 'id="chart-rank_intervals"' in page


def test_resolved_season_shows_outcome_figures(resolved: dict[str, str]) -> None:
    """Control for the pending test below: the same figures do appear once the season is resolved."""
    assert "13.79%" in resolved["html"] and "13.79%" in resolved["markdown"]
    assert "0.137913" in resolved["totals"] and "0.137913" in resolved["json"]
    assert ",outcome," in resolved["scores"].splitlines()[0] + ","
    assert "outcome" in resolved["agreement"]


def test_pending_season_withholds_every_outcome_figure(pending: dict[str, str]) -> None:
    for name, text in pending.items():
        for leaked in OUTCOME_STRINGS:
            assert leaked not in text, f"{leaked} leaked into {name}"
    for csv_name in ("scores", "totals", "agreement", "self_consistency", "calibration"):
        header = pending[csv_name].splitlines()[0].split(",")
        assert not set(header) & {*OUTCOME_COLUMNS, "outcome", "within_sd_outcome"}, csv_name
    assert "outcome" not in {row.split(",")[0] for row in pending["agreement"].splitlines()}
    data = json.loads(pending["json"])
    assert data["outcome_withheld"] is True
    assert all(not set(row) & set(OUTCOME_VALUES) for row in data["totals"])
    assert all("outcome" not in row for row in data["scores"])
    assert "Season pending" in pending["html"] and "withheld" in pending["html"]
    assert "Season pending" in pending["markdown"]


@pytest.mark.parametrize(
    ("run_type", "label"),
    [
        ("mock", "MOCK PANEL — scripted judges, not real LLM grades"),
        ("baseline", "REFERENCE BASELINE — deterministic non-LLM judge"),
    ],
)
def test_mock_and_baseline_runs_carry_a_prominent_label(run_type: str, label: str) -> None:
    report = build_report(inputs(run_type=run_type), **FAST)
    page = render_html(report)
    assert f'role="alert">{label}</div>' in page
    assert page.index(label) < page.index("<nav>")  # at the top, before any figure
    assert report.run_label == label


def test_official_run_has_no_label() -> None:
    report = build_report(inputs(), **FAST)
    assert report.run_label is None
    assert 'class="banner' not in render_html(report)


def test_all_text_is_escaped(tmp_path: Path) -> None:
    scores = panel_scores()
    scores.loc[scores["contestant_id"] == "openai-0", "contestant_label"] = "<script>alert('x')</script> & co"
    report = build_report(inputs(scores, examples=[{"claim": "<b>P/E 3</b>", "reason": "a | b"}]), **FAST)
    texts = _all_text(write_report(report, tmp_path))
    assert "<script>" not in texts["html"]
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; co" in texts["html"]
    assert "&lt;b&gt;P/E 3&lt;/b&gt;" in texts["html"]
    assert "<b>" not in texts["markdown"] and "a \\| b" in texts["markdown"]


def test_claims_in_real_rationales_section_is_rendered_when_filled() -> None:
    summary = {"numeric_claims_checked": 412, "supported": 300, "contradicted": 37, "briefing_only": 75}
    examples = [{"contestant": "Gemini 3.1 Pro", "claim": "P/E of 12 for NVDA", "reason": "peRatio was 58.3"}]
    page = render_html(build_report(inputs(claims_summary=summary, examples=examples), **FAST))
    assert "Claims in real rationales" in page
    assert "numeric claims checked" in page and "412" in page
    assert "P/E of 12 for NVDA" in page and "peRatio was 58.3" in page
    assert "Claims in real rationales" not in render_html(build_report(inputs(), **FAST))


def test_no_human_grades_and_no_stability_runs_are_said_plainly() -> None:
    report = build_report(inputs(), **FAST)
    page = render_html(report)
    assert "No human grades yet" in page and 'class="placeholder"' in page
    assert "No stability runs" in page
    assert page.count("data:image/png;base64,") == 4  # no calibration chart without human grades


def test_dry_run_without_grades_still_renders(tmp_path: Path) -> None:
    scores = panel_scores().iloc[0:0]
    totals = pd.DataFrame(columns=["contestant_id", "contestant_label", "total", "reasoning_median", "band"])
    report = build_report(AuditInputs(meta=meta("dry-run"), scores=scores, totals=totals), **FAST)
    paths = write_report(report, tmp_path)
    page = paths["html"].read_text()
    assert "DRY RUN" in page and "No grades to plot." in page
    assert pd.read_csv(paths["scores"]).empty
