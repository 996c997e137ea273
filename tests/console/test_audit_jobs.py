"""The Audits page's report builds: a first version (every section, charts not drawn) before the whole report."""

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
    from console._audit_jobs import AuditWorker

    worker = AuditWorker()
    try:
        first = worker.build(console_env.run_id, console_env.db_url)
        pid = worker._proc.pid
        with pytest.raises(RuntimeError, match="no-such-run"):
            worker.build("no-such-run", console_env.db_url)
        again = worker.build(console_env.run_id, console_env.db_url)
        assert worker._proc.pid == pid  # the same process: its modules imported once
        assert [s.title for s in again.sections] == [s.title for s in first.sections]
    finally:
        worker.close()
    assert worker._proc is None
