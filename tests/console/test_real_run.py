"""The console on a run made by the real pipeline (``grade_season`` with the offline reference panel)."""

from __future__ import annotations

import pytest

from console import blind_record, calibration_items, ledger_page, run_contestants
from grader.reporting import collect_audit_inputs
from tests.conftest import write_bundle
from tests.console._helpers import app_test, fill_calibration, page_text, sign_in, write_forms

DECISIONS = [  # rationales with checkable numbers, so the reference judge's ledgers have claims
    {
        "contestant_id": "m1",
        "decided_at": "2022-01-03T15:30:00-05:00",
        "decision_seconds": 12.5,
        "trades": [{"symbol": "AAA", "side": "buy", "quantity": 10, "price": 101}],
        "rationale": "Buying AAA: its P/E of 25.5 is reasonable and it closed at 101.00 on Dec 31.",
    },
    {
        "contestant_id": "m1",
        "decided_at": "2022-01-05T15:30:00-05:00",
        "decision_seconds": 10.0,
        "trades": [{"symbol": "AAA", "side": "sell", "quantity": 10, "price": 103}],
        "rationale": "Selling AAA, its P/E of 40 is now too rich.",
    },
    {
        "contestant_id": "m2",
        "decided_at": "2022-01-03T15:30:00-05:00",
        "decision_seconds": 8.0,
        "trades": [{"symbol": "BBB", "side": "buy", "quantity": 20, "price": 49}],
        "rationale": "Buying BBB, which closed at 50.00 on Dec 31.",
    },
]


@pytest.fixture
def reference_run(tmp_path, annotators, monkeypatch):
    from grader.panel import grade_season

    url = f"sqlite:///{tmp_path / 'real.db'}"
    bundle = write_bundle(tmp_path / "tiny", decisions=DECISIONS)
    grade_season(bundle, rubric_name="v0.4", panel_name="reference", run_id="ref-run", db_url=url, progress=False)
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    return url, annotators[1]


def test_pages_on_a_reference_baseline_run(reference_run):
    url, tokens = reference_run
    at = app_test().run()
    assert "REFERENCE BASELINE" in page_text(at)
    for page in ("views/contestant.py", "views/ledger.py", "views/runs.py"):
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert page == "views/runs.py" or "REFERENCE BASELINE" in page_text(at)
    at.switch_page("views/contestant.py").run()
    assert "NAV unavailable" not in page_text(at)
    entries = ledger_page("ref-run", None, 1, 50, url).entries
    contradicted = [e for e in entries if e.verifier_status == "contradicted"]
    assert [e.claim for e in contradicted] == ["P/E of 40"]  # the deterministic verifier's verdict
    assert contradicted[0].evidence[0]["field"] == "peRatio" and contradicted[0].evidence[0]["value"] == 25.5
    at.switch_page("views/ledger.py").run()
    at.multiselect(key="ledger_verifier").set_value(["contradicted"]).run()
    assert "**1** claims match" in page_text(at) and "P/E of 40" in page_text(at)
    assert "| peRatio | 25\\.5 |" in page_text(at)  # the evidence table of the card


def test_blind_grading_of_a_real_anonymized_record(reference_run):
    url, tokens = reference_run
    people = run_contestants("ref-run", url)
    for item in calibration_items("ref-run", url):
        record = blind_record("ref-run", item.contestant_row_id, url)
        assert "anonymized" in record.user
        for c in people:
            assert c.display_name not in record.user and c.model not in record.user
    at = sign_in(app_test().run(), "bob", tokens["bob"])
    at.switch_page("views/calibration.py").run()
    assert "Contestant A" in page_text(at) or "Contestant B" in page_text(at)
    write_forms(at)[0].click().run()  # an untouched form is not a grade
    assert "reasoning: a score 0-100 is required" in page_text(at) and "Revealed" not in page_text(at)
    fill_calibration(at, reasoning=55, evidence=45, data_reliability=60, outcome=50)
    write_forms(at)[0].click().run()
    assert "Revealed: the judges' grades" in page_text(at)
    assert list(at.dataframe[-1].value["grader"]) == ["you (bob)", "reference"]
    humans = collect_audit_inputs("ref-run", url).human_grades
    assert set(humans["annotator"]) == {"bob"} and len(humans) == 5  # five axes, composite included
