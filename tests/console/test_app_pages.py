"""AppTest: every page of the console renders the run's data, labels non-LLM runs, and writes only when
signed in."""

from __future__ import annotations

import time

from sqlalchemy import select

from grader.storage import HumanGradeRow, LedgerAnnotationRow, RunRow, session_scope
from tests.console._helpers import (
    app_test,
    audit_sections,
    markdown_tables,
    open_audit_section,
    page_text,
    sign_in,
    write_forms,
)

PAGES = [
    "views/leaderboard.py",
    "views/contestant.py",
    "views/ledger.py",
    "views/calibration.py",
    "views/audits.py",
    "views/runs.py",
]


def test_every_page_renders_without_error_and_labels_the_mock_run(console_env):
    at = app_test().run()
    for page in PAGES:
        if page != PAGES[0]:
            at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        text = page_text(at)
        assert "MOCK PANEL" in text, page


def test_leaderboard_lists_every_contestant_with_scores(console_env):
    at = app_test().run()
    assert at.title[0].value == "Leaderboard"
    for _ in range(600):  # the process facts are computed in the background: the scores are drawn first
        if "computing…" not in set(at.dataframe[0].value["process"]):
            break
        time.sleep(0.1)
        at.run()
    frame = at.dataframe[0].value
    assert list(frame["contestant"]) and set(frame["contestant"]) == {"Model One", "Model Two"}
    for col in ("total", "reasoning_median", "efficiency", "outcome_axis", "return", "band", "judge_spread", "process"):
        assert col in frame.columns
    # m1 bought 10 AAA on 2022-01-03 and sold them on 2022-01-05: one thrash event
    assert frame.set_index("contestant")["process"]["Model One"].endswith("thrash 1")
    assert frame["total"].notna().all()
    # open a contestant from the leaderboard
    at.selectbox(key="leaderboard_open").set_value("m2")
    at.button(key="open_contestant").click().run()
    assert at.title[0].value == "Contestant"
    assert "Model Two" in page_text(at)


def test_contestant_page_shows_judges_sub_scores_nav_and_timeline(console_env):
    at = app_test().run()
    at.switch_page("views/contestant.py").run()
    assert not at.exception
    # the judges' few-row tables are markdown tables, one column per judge; the long ones (a row per decision) are
    # drawn when opened
    tables = markdown_tables(at)
    axes = next(t for t in tables if t.columns[0] == "judge axis")
    judges = list(axes.columns[1:])
    assert sorted(judges) == ["judge-anthropic", "judge-openai", "judge-xai"]
    rows = axes.set_index("judge axis")
    assert list(rows.index)[:3] == ["family", "composite", "reasoning"] and "lookahead check" in rows.index
    assert rows.loc["composite"].str.fullmatch(r"\d+\.\d|—").all()  # one decimal
    assert set(rows.loc["lookahead check"]) <= {"passed", "FAILED"}
    sub_reasoning, sub_evidence = (t for t in tables if t.columns[0].endswith("sub-score"))
    assert sub_reasoning.iloc[:, 1:].stack().str.fullmatch(r"\d+|—").all()  # whole numbers
    assert sorted(sub_reasoning.columns[1:]) == sorted(judges) and len(sub_reasoning) == 10
    assert sub_reasoning.columns[0] == "reasoning sub-score" and "Thesis quality" in list(sub_reasoning.iloc[:, 0])
    assert len(sub_evidence) == 7
    figures = [t for t in tables if t.columns[0] in ("Total", "Return", "Turnover")]
    assert [t.columns[0] for t in figures] == ["Total", "Return", "Turnover"]  # score, NAV replayed, process facts
    assert all(len(t) == 1 and t.iloc[0].str.fullmatch(r"\*\*.+\*\*").all() for t in figures)  # values in bold
    assert figures[1].iloc[0, 0].endswith("%**")
    assert "NAV unavailable" not in page_text(at)
    assert not at.dataframe and {e.label for e in at.expander} == {
        "Thrash events (1) with both rationales",
        "Risk figures, holdings and limits at each of the 2 decisions",
        "The 2 decisions: when, the trades, the rationale, seconds taken, confidence",
    }
    for key in ("contestant_thrash_open", "contestant_risk_open", "contestant_timeline_open"):
        at.session_state[key] = True  # a click on each expander
    at.run()
    assert not at.exception
    risk = next(d.value for d in at.dataframe if "VaR95 1d" in getattr(d.value, "columns", []))
    assert len(risk) == 2 and risk["classes"].iloc[0] == "cash 90%, equities 10%"  # 10 AAA at 101 of 10,000
    assert "fewer than 20 trailing daily returns" in risk["not computed"].iloc[0]  # a 12-session season
    assert "Risk evidence at each decision" in page_text(at)
    facts = next(t for t in markdown_tables(at) if t.columns[0] == "Turnover")
    assert {"Mean position HHI", "Thrash events"} <= set(facts.columns)
    thrash = next(d.value for d in at.dataframe if "first_rationale" in getattr(d.value, "columns", []))
    assert thrash["symbol"].tolist() == ["AAA"] and "momentum faded" in thrash["second_rationale"].iloc[0]
    timeline = next(d.value for d in at.dataframe if "what" in getattr(d.value, "columns", []))
    assert len(timeline) == 2 and "buy 10 AAA" in timeline["what"].iloc[0]
    assert "Synthetic / Not a judge grade" in page_text(at)


def test_ledger_review_filters_and_annotation_requires_sign_in(console_env):
    at = app_test().run()
    at.switch_page("views/ledger.py").run()
    assert not at.exception
    text = page_text(at)
    assert "Sign in (sidebar) to record" in text and not write_forms(at)  # no anonymous write path
    total = int(text.split("**")[1])
    assert total > 0
    assert "Verifier (read the claim's words):" in text
    assert "| market/prices.csv |" in text.replace("\\", "")  # the evidence table, its cells escaped plain text
    at.radio(key="ledger_disagree").set_value("disagreements").run()
    disagreements = int(page_text(at).split("**")[1])
    at.radio(key="ledger_disagree").set_value("agreements").run()
    agreements = int(page_text(at).split("**")[1])
    assert disagreements + agreements == total

    at.radio(key="ledger_disagree").set_value("any")
    at.selectbox(key="ledger_page_size").set_value(10).run()
    pages = -(-total // 10)
    assert pages >= 2
    at.number_input(key="ledger_page").set_value(2).run()
    assert f"page 2 of {pages}" in page_text(at)
    at.selectbox(key="ledger_judge").set_value("judge-xai").run()  # a new filter starts at page 1
    assert "· page 1 of" in page_text(at)
    at.selectbox(key="ledger_judge").set_value("(any)")
    at.selectbox(key="ledger_page_size").set_value(20).run()

    sign_in(at, "alice", console_env.tokens["alice"])
    status_boxes = [s for s in at.selectbox if s.key and s.key.startswith("ann_status_")]
    assert len(status_boxes) == min(total, 20)
    entry_id = int(status_boxes[0].key.removeprefix("ann_status_"))
    status_boxes[0].set_value("contradicted")
    at.text_input(key=f"ann_note_{entry_id}").input("the close was lower that day")
    write_forms(at)[0].click().run()
    assert not at.exception
    with session_scope(console_env.db_url) as s:
        rows = s.scalars(select(LedgerAnnotationRow)).all()
        assert [(r.ledger_entry_id, r.annotator, r.status, r.note) for r in rows] == [
            (entry_id, "alice", "contradicted", "the close was lower that day")
        ]
    assert "alice" in page_text(at) and "the close was lower that day" in page_text(at)


def test_calibration_needs_sign_in_and_wrong_tokens_are_refused(console_env):
    at = app_test().run()
    at.switch_page("views/calibration.py").run()
    assert "Sign in (sidebar) to grade" in page_text(at)
    assert not at.number_input and not write_forms(at)
    sign_in(at, "alice", console_env.tokens["bob"])
    assert "unknown annotator or wrong token" in page_text(at)
    assert "annotator" not in at.session_state
    assert not at.number_input
    assert console_env.tokens["bob"] not in page_text(at)


def _wait_for_report(at, seconds: float = 240):
    start = time.monotonic()
    while not audit_sections(at):
        assert time.monotonic() - start < seconds, "audit report not built in time"
        time.sleep(0.5)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
    return at


def test_audits_page_shows_the_report_sections_and_charts(console_env):
    at = app_test().run()
    at.switch_page("views/audits.py").run()
    assert not at.exception
    _wait_for_report(at)
    labels = audit_sections(at)
    assert "How much the judges agree" in labels and "Self-preference" in labels
    assert any("calibration" in label.lower() for label in labels)
    assert "No human grades yet." in page_text(at)  # the first section: at a glance
    assert "Krippendorff" not in "\n".join(str(t.value) for t in at.table)  # one section drawn at a time
    open_audit_section(at, "How much the judges agree")
    assert not at.exception
    assert len(at.get("image")) >= 1  # charts rendered from the report
    # the agreement table (12 columns) is drawn in parts that fit at 1280 px, each led by the axis and cut between
    # statistics, its repeated headers named after their statistic
    parts = [list(t.value.columns) for t in at.table if "Axis" in t.value.columns]
    assert [
        "Axis",
        "ICC(2,1)",
        "ICC(2,1) 95% CI",
        "ICC(2,1) reading",
        "ICC(2,k)",
        "ICC(2,k) 95% CI",
        "ICC(2,k) reading",
    ] in parts
    assert all(len(p) <= 7 and not any(c.endswith("(2)") for c in p) for p in parts)


def test_runs_page_compares_two_runs_and_two_rubrics(console_env):
    from console import build_synthetic_run

    build_synthetic_run(console_env.bundle, "syn-run-b", db_url=console_env.db_url, claims_per_grade=2, seed=9)
    at = app_test().run()
    at.switch_page("views/runs.py").run()
    assert not at.exception
    runs_table = at.table[0].value  # a static table: its cells wrap, no column cut
    assert set(runs_table["run"]) == {"syn-run", "syn-run-b"}
    at.selectbox(key="cmp_run_a").set_value("syn-run")
    at.selectbox(key="cmp_run_b").set_value("syn-run-b").run()
    compare = at.dataframe[0].value
    assert len(compare) == 2 and {"Δ total", "rank A", "rank B", "band"} <= set(compare.columns)
    summary = next(t for t in markdown_tables(at) if t.columns[0] == "Spearman ρ of totals")
    moves = int((compare["rank A"] != compare["rank B"]).sum())
    assert summary.iloc[0, 1] == f"**{moves}**"  # rank moves among the contestants in both runs
    at.radio(key="cmp_mode").set_value("Two rubric versions on one run").run()
    at.selectbox(key="cmp_rubric_a").set_value(at.selectbox(key="cmp_rubric_a").options[0])
    at.selectbox(key="cmp_rubric_b").set_value(at.selectbox(key="cmp_rubric_b").options[-1]).run()
    assert not at.exception
    rubrics = at.dataframe[0].value
    assert len(rubrics) == 2 and {"total A", "total B", "rank moved"} <= set(rubrics.columns)


def test_baseline_runs_are_labelled_and_empty_databases_say_so(console_env, tmp_path, monkeypatch):
    with session_scope(console_env.db_url) as s:
        s.get(RunRow, console_env.run_id).run_type = "baseline"
    at = app_test().run()
    assert "REFERENCE BASELINE" in page_text(at)
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{tmp_path / 'empty.db'}")
    empty = app_test().run()
    assert not empty.exception
    assert "No grading runs" in page_text(empty)


def test_no_human_grade_is_written_without_sign_in(console_env):
    at = app_test().run()
    for page in PAGES:
        at.switch_page(page).run()
        for button in at.form_submit_button:
            button.click().run()
    with session_scope(console_env.db_url) as s:
        assert s.scalars(select(HumanGradeRow)).all() == []
        assert s.scalars(select(LedgerAnnotationRow)).all() == []


def test_a_rounds_season_contestant_page_shows_outcome_per_round_not_nav_unavailable(tmp_path, monkeypatch):
    from grader.panel import grade_season
    from tests.console._helpers import REPO as ROOT

    url = f"sqlite:///{tmp_path / 'rounds.db'}"
    grade_season(
        ROOT / "seasons" / "cb-2026-06-1w",
        rubric_name="v0.4",
        panel_name="reference",
        run_id="cb",
        db_url=url,
        progress=False,
    )
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    at = app_test().run()
    at.switch_page("views/contestant.py").run()
    assert not at.exception, at.exception
    text = page_text(at)
    assert "NAV unavailable" not in text and "Outcome per round" in text
    rounds = next(d.value for d in at.dataframe if "allocation" in getattr(d.value, "columns", []))
    assert len(rounds) >= 1 and rounds["return"].notna().all() and rounds["allocation"].str.contains("%").all()
