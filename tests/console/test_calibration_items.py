"""The console's Calibration page on a calibration run: an item read the way a person reads it, blind (no
contestant name), the outcome axis off by default, graded and revealed; the leaderboard of items works."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.calibration import build_set, grade_set
from grader.panel import grade_season
from tests.console._helpers import app_test, fill_calibration, page_text, sign_in, write_forms

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def calibration_run(tmp_path, annotators, monkeypatch):
    url = f"sqlite:///{tmp_path / 'grader.db'}"
    grade_season(
        ROOT / "seasons" / "demo-2022q1",
        rubric_name="v0.4",
        panel_name="reference",
        run_id="src",
        db_url=url,
        progress=False,
    )
    made = build_set("src", 6, window=2, seed=2, set_id="set6", out=tmp_path / "set6", db_url=url)
    grade_set("set6", db_url=url, progress=False)
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    return url, annotators[1], made


def test_an_item_is_shown_as_decisions_rationale_and_snapshot_blind_then_graded(calibration_run):
    from grader.season import load_bundle

    url, tokens, made = calibration_run
    item = made["items"][2]
    at = app_test()
    at.query_params["run"] = "set6-reference"
    at.query_params["item"] = "3"
    at.switch_page("views/calibration.py")
    sign_in(at.run(), "alice", tokens["alice"])
    assert not at.exception, [e.value for e in at.exception]
    text = page_text(at)
    assert "Item 03: 2 consecutive decisions of one anonymized contestant" in text
    assert "Rationale" in text and "Portfolio and risk before this decision" in text
    source = load_bundle(ROOT / "seasons" / "demo-2022q1")
    person = next(c for c in source.contestants if c.id == item["contestant"])
    assert person.display_name not in text and person.model not in text  # blind
    assert any("as of" in d.value.columns for d in at.dataframe)  # the snapshot as a table
    # the prompts (tens of kB each) are drawn when their expander is opened
    texts = [str(t.value) for t in at.text]
    assert not any("RUBRIC" in t.upper() and len(t) > 2000 for t in texts)
    at.session_state["calib_told_open"] = True
    at.session_state["calib_seen_open"] = True
    at.run()
    opened = [str(t.value) for t in at.text if len(str(t.value)) > 2000]
    assert len(opened) == 2, [t[:80] for t in opened]  # the system prompt and the record as the judges saw it
    assert person.display_name not in "".join(opened)  # the record as sent: anonymized
    prefix = next(w.key for w in at.checkbox if w.key and w.key.endswith("no_outcome"))
    assert at.checkbox(key=prefix).value is True  # an item has no outcome section
    fill_calibration(at, reasoning=61, evidence=57)
    write_forms(at)[0].click().run()
    assert "data_reliability: a score 0-100 is required" in page_text(at)  # every axis, as the form says
    fill_calibration(at, data_reliability=50)
    write_forms(at)[0].click().run()
    assert "Revealed: the judges' grades of Item 03" in page_text(at)
    assert list(at.dataframe[-1].value["grader"]) == ["you (alice)", "reference"]
