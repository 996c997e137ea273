"""Runs that mean what they say and survive what happens (issue 14): one process per run, attempts recorded before
they leave and counted across processes, exit codes and statuses, reports on runs with gaps, verification of what
was derived, refusals before anything is written (keys, context windows, a panel that does not fit the rubric),
mock settings in the content address, concurrent first imports."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from sqlalchemy import delete, func, select, update
from typer.testing import CliRunner

from grader.cli import app
from grader.panel import RunError, grade_season, verify_run
from grader.panel._gaps import run_gaps
from grader.panel._lease import RunBusy, acquire_lease
from grader.storage import (
    ContestantScoreRow,
    GradeRow,
    JudgeCallRow,
    LedgerEntryRow,
    RunLeaseRow,
    RunRow,
    SeasonRow,
    session_scope,
)
from tests.panel.conftest import write_panel

cli = CliRunner()


def _grade(season, url, panel, run_id, **kw):
    return grade_season(
        season,
        rubric_name=kw.pop("rubric", "v0.4"),
        panel_name=str(panel),
        run_id=run_id,
        db_url=url,
        progress=False,
        **kw,
    )


# -- one process per run ------------------------------------------------------------------------------


def test_a_second_process_on_the_same_run_is_refused_with_its_holder(db_url):
    lease = acquire_lease("r1", db_url)
    try:
        with pytest.raises(RunBusy) as err:
            acquire_lease("r1", db_url)
        assert f"process {os.getpid()} on {socket.gethostname()}" in str(err.value)
        assert "since" in str(err.value)
    finally:
        lease.release()
    acquire_lease("r1", db_url).release()  # free again once released


def test_a_lease_whose_holder_is_gone_is_taken_over(db_url):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with session_scope(db_url) as s:  # a holder on this host whose process no longer exists
        now = datetime.now(UTC)
        s.add(
            RunLeaseRow(
                run_id="r2",
                token="old",
                host=socket.gethostname(),
                pid=int(dead.stdout),
                acquired_at=now,
                heartbeat_at=now,
            )
        )
        s.add(
            RunLeaseRow(
                run_id="r3",
                token="old",
                host="elsewhere",
                pid=1,
                acquired_at=now,
                heartbeat_at=now - timedelta(minutes=10),
            )
        )  # another machine, silent for 10 minutes
        s.add(RunLeaseRow(run_id="r4", token="old", host="elsewhere", pid=1, acquired_at=now, heartbeat_at=now))
    for run_id in ("r2", "r3"):
        lease = acquire_lease(run_id, db_url)
        assert lease.taken_over is not None
        lease.release()
    with pytest.raises(RunBusy):  # alive elsewhere: never taken
        acquire_lease("r4", db_url)


def test_two_processes_on_one_run_pay_once(season, tmp_path):
    """A real second process: the CLI exits 5 naming the holder and writes nothing while the run is held."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from grader.panel._lease import acquire_lease; "
            f"l = acquire_lease('busy', {url!r}); print('held', flush=True); sys.stdin.read(); l.release()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"  # the lease is taken: no sleep, a handshake
        env = {**os.environ, "GRADER_DATABASE_URL": url}
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "grader",
                "grade",
                str(season),
                "--panel",
                "reference",
                "--run-id",
                "busy",
                "--quiet",
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        assert second.returncode == 5, second.stderr
        assert f"process {holder.pid} on {socket.gethostname()}" in second.stderr
        with session_scope(url) as s:
            assert s.get(RunRow, "busy") is None and not s.scalars(select(JudgeCallRow)).all()
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    env = {**os.environ, "GRADER_DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", str(season), "--panel", "reference", "--run-id", "busy", "--quiet"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_concurrent_first_imports_of_one_season_are_safe(season, db_url):
    from grader.panel._run_rows import import_season_row
    from grader.season import load_bundle

    bundle = load_bundle(season)
    barrier = threading.Barrier(4)
    ids, errors = [], []

    def one() -> None:
        barrier.wait()
        try:
            ids.append(import_season_row(db_url, bundle))
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(ids)) == 1
    with session_scope(db_url) as s:
        assert s.scalar(select(func.count()).select_from(SeasonRow)) == 1


# -- attempts recorded before they leave, counted across processes ------------------------------------


def test_an_attempt_in_flight_at_a_crash_does_not_count_and_the_chain_continues(season, db_url, tmp_path):
    """An attempt our own process cut off is on record as interrupted but is no failure of the judge: the chain
    goes on past it, and the cap counts only the judge's own failures (issue 37)."""
    panel = write_panel(tmp_path / "flaky.yaml", failures={"mock-openai": ["server-error", "server-error"]})
    panel_doc = yaml.safe_load(panel.read_text())
    panel_doc["retry"]["max_attempts"] = 3
    panel.write_text(yaml.safe_dump(panel_doc))
    _grade(season, db_url, panel, "chain")
    with session_scope(db_url) as s:  # simulate a crash: the openai judge's grade for m1 is lost, one attempt in flight
        run = s.get(RunRow, "chain")
        g = s.scalar(select(GradeRow).where(GradeRow.run_id == "chain", GradeRow.judge_id == "mock-openai"))
        s.execute(update(LedgerEntryRow).where(LedgerEntryRow.grade_id == g.id).values(grade_id=g.id))
        for e in s.scalars(select(LedgerEntryRow).where(LedgerEntryRow.grade_id == g.id)):
            s.delete(e)
        s.flush()
        s.delete(g)
        calls = s.scalars(
            select(JudgeCallRow)
            .where(
                JudgeCallRow.run_id == "chain",
                JudgeCallRow.judge_id == "mock-openai",
                JudgeCallRow.contestant_id == g.contestant_id,
            )
            .order_by(JudgeCallRow.id)
        ).all()
        assert [c.attempt for c in calls] == [1, 2, 3] and calls[-1].status == "ok"
        calls[-1].status = "sent"  # its process died with this attempt in flight
        calls[-1].raw_reply = calls[-1].parsed = calls[-1].raw_reply_sha256 = None
        run.status = "running"
    report = _grade(season, db_url, panel, "chain")
    with session_scope(db_url) as s:
        calls = s.scalars(
            select(JudgeCallRow)
            .where(
                JudgeCallRow.run_id == "chain",
                JudgeCallRow.judge_id == "mock-openai",
                JudgeCallRow.contestant_id == g.contestant_id,
            )
            .order_by(JudgeCallRow.id)
        ).all()
    assert calls[2].status == "interrupted"
    # the new process's fake fails its first request again: two server errors before the crash and this one make
    # the cap of 3 (the interrupted attempt not among them), so a fourth attempt and no fifth
    assert [c.attempt for c in calls] == [1, 2, 3, 4] and calls[3].replaces_call_id == calls[2].id
    assert [c.status for c in calls] == ["error", "error", "interrupted", "error"]
    assert report.status == "complete_with_gaps"
    assert any("after 3 attempt(s)" in gap or "4 attempt" in gap for gap in report.gaps), report.gaps


def test_every_attempt_is_recorded_before_its_reply(season, db_url, tmp_path):
    """While the fakes hold every request, the attempts are already in the database as sent."""
    from grader.panel._mock import STALL_AFTER_ENV

    url = f"sqlite:///{tmp_path / 'sent.db'}"
    env = {**os.environ, "GRADER_DATABASE_URL": url, STALL_AFTER_ENV: "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "grader", "grade", str(season), "--panel", "mock", "--run-id", "s", "--quiet"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        import time

        deadline = time.monotonic() + 120
        while True:  # wait for the known point: every first attempt recorded (the fakes answer none)
            try:
                with session_scope(url) as s:
                    sent = s.scalar(select(func.count()).select_from(JudgeCallRow).where(JudgeCallRow.status == "sent"))
            except Exception:  # noqa: BLE001 - the database may not exist yet
                sent = 0
            if sent == 6:
                break
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(2)  # Ctrl-C
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert "Resume with:" in err.decode() and "--run-id s" in err.decode()
    with session_scope(url) as s:
        assert s.get(RunRow, "s").status == "interrupted"
        assert s.scalar(select(func.count()).select_from(RunLeaseRow)) == 0  # released: resume needs no wait
    resumed = subprocess.run(
        [sys.executable, "-m", "grader", "grade", str(season), "--panel", "mock", "--run-id", "s", "--quiet"],
        env={**os.environ, "GRADER_DATABASE_URL": url},
        capture_output=True,
    )
    assert resumed.returncode == 0, resumed.stderr.decode()[-2000:]
    with session_scope(url) as s:
        statuses = sorted(c.status for c in s.scalars(select(JudgeCallRow)))
    assert statuses.count("interrupted") == 6 and statuses.count("ok") == 6


# -- statuses, exit codes, reports on runs with gaps --------------------------------------------------


def test_a_run_whose_every_call_failed_is_failed_never_official_and_exits_4(season, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'fail.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    broken = ["server-error"] * 4
    panel = write_panel(
        tmp_path / "broken.yaml", failures={"mock-openai": broken, "mock-anthropic": broken, "mock-xai": broken}
    )
    result = cli.invoke(app, ["grade", str(season), "--panel", str(panel), "--run-id", "f", "--quiet"])
    assert result.exit_code == 4, result.output
    with session_scope(url) as s:
        run = s.get(RunRow, "f")
        assert run.status == "failed" and not run.official_eligible
        assert len(run_gaps(s, "f")) == 6
    for verb in (["report", "--run", "f", "--out", str(tmp_path / "rep")], ["audit", "--run", "f"]):
        out = cli.invoke(app, verb)
        assert out.exit_code == 0, out.output
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "Gaps and failed calls" in text and "mock-openai" in text and "server" in text


def test_a_run_with_gaps_exits_3_and_its_report_lists_them(season, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'gaps.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    panel = write_panel(tmp_path / "half.yaml", failures={"mock-xai": ["server-error"] * 4})
    result = cli.invoke(app, ["grade", str(season), "--panel", str(panel), "--run-id", "g", "--quiet"])
    assert result.exit_code == 3, result.output
    assert "gap" in result.output and "complete with gaps" in result.output
    out = cli.invoke(app, ["report", "--run", "g", "--out", str(tmp_path / "rep")])
    assert out.exit_code == 0, out.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "| mock-xai | m1 | 0 | 4 |" in md and "| mock-xai | m2 | 0 | 4 |" in md
    assert json.loads((tmp_path / "rep" / "report.json").read_text())["gaps"]


# -- verify covers what was derived -------------------------------------------------------------------


@pytest.mark.parametrize("edit", ["grade", "parsed", "ledger", "score"])
def test_verify_names_an_edited_derived_row(season, db_url, tmp_path, edit):
    panel = write_panel(tmp_path / "my-panel.yaml")  # a custom panel file: verified from the run's own copy
    _grade(season, db_url, panel, "v")
    panel.unlink()
    assert verify_run("v", db_url=db_url).ok
    with session_scope(db_url) as s:
        if edit == "grade":
            g = s.scalar(select(GradeRow).where(GradeRow.run_id == "v").limit(1))
            g.composite = g.composite + 5
        elif edit == "parsed":
            c = s.scalar(
                select(JudgeCallRow).where(JudgeCallRow.run_id == "v", JudgeCallRow.parsed.isnot(None)).limit(1)
            )
            c.parsed = {**c.parsed, "verdict": "edited"}
        elif edit == "ledger":
            e = s.scalar(select(LedgerEntryRow).where(LedgerEntryRow.run_id == "v").limit(1))
            e.verifier_status = "supported" if e.verifier_status != "supported" else "contradicted"
        else:
            r = s.scalar(select(ContestantScoreRow).limit(1))
            r.total = (r.total or 0) + 1
    result = verify_run("v", db_url=db_url)
    assert not result.ok
    word = {
        "grade": "grade of contestant",
        "parsed": "parsed reply",
        "ledger": "ledger of the grade of contestant",
        "score": "scored version 1",
    }[edit]
    assert any(word in p for p in result.problems), result.problems


# -- refused before anything is written ---------------------------------------------------------------


def _real_panel(path: Path, **judge) -> Path:
    spec = {"judge_id": "j", "provider": "openai", "model": "m", "family": "openai", **judge}
    path.write_text(yaml.safe_dump({"name": path.stem, "kind": "real", "judges": [spec]}))
    return path


def test_missing_keys_are_all_named_before_anything_is_written(season, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "XAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    result = cli.invoke(
        app, ["grade", str(season), "--panel", "frontier", "--run-id", "k", "--quiet", "--allow-real-api-calls"]
    )
    assert result.exit_code == 1
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "XAI_API_KEY"):
        assert name in result.output
    assert not Path(tmp_path / "keys.db").exists() or _no_run(url, "k")


def _no_run(url, run_id) -> bool:
    with session_scope(url) as s:
        return s.get(RunRow, run_id) is None


@pytest.mark.parametrize("window", [500, 2_000])
def test_a_prompt_over_a_context_window_is_refused_naming_it(season, tmp_path, window):
    url = f"sqlite:///{tmp_path / 'ctx.db'}"
    panel = _real_panel(
        tmp_path / "small.yaml", base_url="http://127.0.0.1:9/v1", context_window=window, max_output_tokens=400
    )
    with pytest.raises(RunError) as err:
        grade_season(
            season,
            rubric_name="v0.3",
            panel_name=str(panel),
            run_id="c",
            db_url=url,
            progress=False,
            allow_real_api_calls=True,
        )
    assert "m1 for j" in str(err.value) and "window" in str(err.value)
    assert not Path(tmp_path / "ctx.db").exists() or _no_run(url, "c")


def test_a_real_panel_that_does_not_fit_the_rubric_is_refused(season, tmp_path):
    with pytest.raises(RunError) as err:
        grade_season(
            season,
            rubric_name="v0.3",
            panel_name="frontier",
            run_id="p",
            db_url=None,
            progress=False,
            allow_real_api_calls=True,
        )
    assert "openai" in str(err.value) and "--panel openai" in str(err.value)


def test_the_shipped_openai_panel_fits_v03_and_not_v04(season, tmp_path):
    url = f"sqlite:///{tmp_path / 'o.db'}"
    report = grade_season(season, rubric_name="v0.3", panel_name="openai", run_id="o3", db_url=url, progress=False)
    assert not report.notes  # the panel is the one the rubric defines: nothing to state
    with session_scope(url) as s:
        run = s.get(RunRow, "o3")
        assert run.panel_name == "openai" and run.panel_doc["judges"][0]["family"] == "openai"
        calls = s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "o3")).all()
        assert calls and {c.status for c in calls} == {"dry_run"}  # no flag: nothing was sent
    with pytest.raises(RunError) as err:
        grade_season(season, rubric_name="v0.4", panel_name="openai", run_id="o4", db_url=url, progress=False)
    assert "anthropic" in str(err.value) and "--panel frontier" in str(err.value)


def test_v03_is_one_openai_judge_without_anonymization(season, db_url, tmp_path):
    report = _grade(season, db_url, "mock", "m03", rubric="v0.3")
    assert report.notes and "median of this run's own panel" in report.notes[0]
    with session_scope(db_url) as s:
        run = s.get(RunRow, "m03")
        assert run.notes and "rubric grounded_financial_reasoning_judge_v0.3" in run.notes[0]
        prompt = s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "m03")).first()
        from grader.storage import PromptRow

        user = s.get(PromptRow, prompt.prompt_sha256).user
    assert "Model One" in user  # the judge sees the contestant's own name under v0.3
    assert "(anonymized)" not in user and "# Season record (contestants named, not anonymized)" in user
    report = _grade(season, db_url, "mock", "m04", rubric="v0.4")
    with session_scope(db_url) as s:
        from grader.storage import PromptRow

        calls = s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == "m04")).all()
        assert all("Model One" not in s.get(PromptRow, c.prompt_sha256).user for c in calls)
        assert all("# Season record (anonymized)" in s.get(PromptRow, c.prompt_sha256).user for c in calls)


def test_a_v03_report_says_the_judges_saw_names_and_the_mismatch_is_a_run_note_not_a_gap(season, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'v03.db'}"
    monkeypatch.setenv("GRADER_DATABASE_URL", url)
    _grade(season, url, "mock", "m03", rubric="v0.3")
    out = cli.invoke(app, ["report", "--run", "m03", "--out", str(tmp_path / "rep")])
    assert out.exit_code == 0, out.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "(anonymized)" not in md and "exactly what the judges see" not in md
    assert "the records with the contestants' own names: this run's rubric does not anonymize" in md
    notes = md.split("## Notes on this run", 1)[1].split("\n## ", 1)[0]
    assert "rubric grounded_financial_reasoning_judge_v0.3" in notes
    gaps = md.split("## Gaps and failed calls", 1)[1].split("\n## ", 1)[0] if "## Gaps and failed calls" in md else ""
    assert "rubric grounded_financial_reasoning_judge_v0.3" not in gaps


def test_a_changed_mock_panel_never_reuses_old_grades(season, db_url, tmp_path):
    first = _grade(season, db_url, write_panel(tmp_path / "a.yaml", seed=7), "ma")
    same = _grade(season, db_url, write_panel(tmp_path / "a.yaml", seed=7), "mb")
    other = _grade(season, db_url, write_panel(tmp_path / "a.yaml", seed=8), "mc")
    assert first.calls_sent == 6 and same.calls_reused == 6 and other.calls_reused == 0


def test_a_lease_released_while_being_taken_over_is_taken_afresh(db_url, monkeypatch):
    """The holder releases between the read of its lease and the take-over (which then matches no row): the lease is
    taken from the start (before the fix: AttributeError on the row that was gone)."""
    from grader.panel import _lease

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    now = datetime.now(UTC)
    with session_scope(db_url) as s:
        s.add(
            RunLeaseRow(
                run_id="r5",
                token="old",
                host=socket.gethostname(),
                pid=int(dead.stdout),
                acquired_at=now,
                heartbeat_at=now,
            )
        )

    def released_meanwhile(pid: int) -> bool:
        with session_scope(db_url) as other:
            other.execute(delete(RunLeaseRow).where(RunLeaseRow.run_id == "r5"))
        return False

    monkeypatch.setattr(_lease, "_alive", released_meanwhile)
    lease = acquire_lease("r5", db_url)
    assert lease.taken_over is None  # taken afresh, not over the released holder
    lease.release()
