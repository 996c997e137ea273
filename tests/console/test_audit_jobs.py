"""The console's background process (``console._worker``): the Audits page's report builds (a first version, every
section with its charts not drawn, before the whole report) and a run's warm-up, one job after another."""

from __future__ import annotations

import pytest

from audits import ChartBlock
from console._audit_jobs import build_audit_document


def _charts(document) -> list:  # noqa: ANN001
    return [b.chart for s in document.sections for b in s.blocks if isinstance(b, ChartBlock) and b.chart is not None]


def test_the_worker_gives_a_first_version_without_drawn_charts_then_the_whole_report(console_env):
    firsts = []
    whole = build_audit_document(console_env.run_id, console_env.db_url, on_first=firsts.append)
    assert len(firsts) == 1
    first = firsts[0]
    assert [s.title for s in first.sections] == [s.title for s in whole.sections]
    assert _charts(whole) and all(c.drawn for c in _charts(whole))
    assert [c.key for c in _charts(first)] == [c.key for c in _charts(whole)]
    assert not any(c.drawn for c in _charts(first))
    # the tables are the same in both: only the charts are left for later
    tables = [[b.rows for b in s.blocks if hasattr(b, "rows")] for s in first.sections]
    assert tables == [[b.rows for b in s.blocks if hasattr(b, "rows")] for s in whole.sections]


def test_without_a_first_version_asked_the_worker_writes_only_the_whole_report(console_env):
    whole = build_audit_document(console_env.run_id, console_env.db_url)
    assert all(c.drawn for c in _charts(whole))


def test_one_worker_builds_report_after_report_and_says_why_one_failed(console_env):
    from console._worker_client import Worker

    worker = Worker()
    try:
        first = worker.build(console_env.run_id, console_env.db_url)
        pid = worker.pid
        with pytest.raises(RuntimeError, match="no-such-run"):
            worker.build("no-such-run", console_env.db_url)
        again = worker.build(console_env.run_id, console_env.db_url)
        assert worker.pid == pid  # the same process: its modules imported once
        assert [s.title for s in again.sections] == [s.title for s in first.sections]
    finally:
        worker.close()
    assert worker.pid is None


def test_a_runs_warm_up_is_computed_in_the_worker_process_as_the_page_would_compute_it(console_env):
    """The warm-up the pages read (every contestant's process facts and risk table) is what this process computes
    itself, and it was computed in another process: a page view never shares the interpreter with it."""
    import os

    from console import run_contestants
    from console._worker_client import Worker
    from grader.reporting import contestant_risk_table, run_process_facts

    worker = Worker()
    try:
        warm = worker.warm(console_env.run_id, console_env.db_url)
        assert worker.pid is not None and worker.pid != os.getpid()
        audit = worker.build(console_env.run_id, console_env.db_url)  # the same process does the audits after it
        assert audit.sections
        missing = worker.warm("no-such-run", console_env.db_url)
    finally:
        worker.close()
    assert warm.error is None
    assert warm.facts == run_process_facts(console_env.run_id, console_env.db_url)
    assert set(warm.facts) == {"m1", "m2"} and warm.facts["m1"]["thrash_events"] == 1
    people = run_contestants(console_env.run_id, console_env.db_url)
    assert set(warm.risk) == {p.row_id for p in people}
    for person in people:
        table, lines = contestant_risk_table(person.row_id, console_env.db_url)
        assert warm.risk[person.row_id][0].equals(table) and warm.risk[person.row_id][1] == lines
    assert missing.facts == {} and missing.risk == {}  # no such run: nothing to show, the pages say so themselves
