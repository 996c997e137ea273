"""What the pages show at 1280 px: audit tables with headers that say what they are, Bland-Altman panels drawn near
their own size, no self-preference chart for a one-judge panel, and a leaderboard caption that names the rubric the
shown version was scored under."""

from __future__ import annotations

import base64
import io
from pathlib import Path

from tests.console._helpers import app_test, page_text

ROOT = Path(__file__).resolve().parents[2]


def test_repeated_audit_headers_are_named_after_their_statistic():
    from console._ui import unique_headers

    headers = unique_headers(["Axis", "Krippendorff's alpha", "95% CI", "Reading", "ICC(2,1)", "95% CI", "Reading"])
    assert headers == [
        "Axis",
        "Krippendorff's alpha",
        "Krippendorff's alpha 95% CI",
        "Krippendorff's alpha reading",
        "ICC(2,1)",
        "ICC(2,1) 95% CI",
        "ICC(2,1) reading",
    ]
    assert not any("(2)" == h[-3:] for h in headers)


def test_bland_altman_panels_are_drawn_near_page_width():
    from PIL import Image

    from audits._agreement import BlandAltmanPair
    from audits._charts import bland_altman_chart

    pairs = [
        BlandAltmanPair(
            axis="composite",
            judge_a=a,
            judge_b=b,
            n=3,
            mean_difference=1.0,
            sd_difference=2.0,
            loa_low=-3.0,
            loa_high=5.0,
            points=[(60.0, 1.0), (70.0, -2.0), (65.0, 4.0)],
        )
        for a, b in (("j1", "j2"), ("j1", "j3"), ("j2", "j3"))
    ]
    chart = bland_altman_chart(pairs)
    width, _ = Image.open(io.BytesIO(base64.b64decode(chart.png_base64))).size
    assert width <= 1000  # shown at 760 px: its 9-10 pt labels stay readable (a 1,300 px strip made them ~6 px)


def test_one_judge_runs_say_why_there_is_no_self_preference_chart(tmp_path):
    from console import audit_report
    from grader.panel import grade_season

    url = f"sqlite:///{tmp_path / 'grader.db'}"
    grade_season(
        ROOT / "seasons" / "demo-2022q1",
        rubric_name="v0.4",
        panel_name="reference",
        run_id="one-judge",
        db_url=url,
        progress=False,
    )
    from audits import ChartBlock, report_document

    doc = report_document(audit_report("one-judge", url, n_boot_rank=20, n_boot_alpha=20, n_permutations=50))
    section = next(s for s in doc.sections if s.anchor == "self-preference")
    charts = [b for b in section.blocks if isinstance(b, ChartBlock)]
    assert charts and all(b.chart is None for b in charts)
    assert "this run has one judge" in charts[0].placeholder


def test_the_leaderboard_names_the_rubric_its_version_was_scored_under(console_env):
    from grader.panel.rescore import rescore_run

    rescore_run(console_env.run_id, str(ROOT / "rubric" / "examples" / "v0.4-evidence-heavy.yaml"), console_env.db_url)
    at = app_test()
    at.query_params["run"] = console_env.run_id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    text = page_text(at)
    assert (
        "Scored version 2 under rubric grounded_financial_reasoning_judge_v0.4-evidence-heavy (re-scored: the judges graded "
        "under grounded_financial_reasoning_judge_v0.4)" in text
    )
