"""A grading run once nothing can refuse it: the run's row opened or resumed, its tasks, a dry run's planned calls,
the judges (reference, mock fakes or providers) called at once, streamed or through batches, then the run scored
and finished with its manifest."""

from __future__ import annotations

import asyncio
import json
import math
from contextlib import ExitStack
from dataclasses import replace
from functools import partial
from typing import Any

from sqlalchemy import func, select

from grader._lazy import LazyMapping
from grader.judges import CallOutcome, make_judge, strict_json_loads
from grader.panel._prompts import PromptStream
from grader.panel._run_report import GradeReport, RunError
from grader.panel._run_rows import before_sending, finish_run, grade_rows, import_season_row, mark_run
from grader.panel._runner import CallRunner, Task, TaskResult, cache_key, store_prompt
from grader.panel._stored_rows import stored_row
from grader.panel._windowed import windowed_task
from grader.panel._writer import Priority
from grader.scoring import store_score_version
from grader.storage import GradeRow, JudgeBatchRow, JudgeCallRow, RunRow, contestant_map, session_scope
from rubric import normalise_grade


def run_calls(
    season_dir,
    bundle,
    rubric,
    panel,
    kind,
    run_id,
    repeats,
    allow_real_api_calls,
    db_url,
    progress,
    console,
    schema,
    reference,
    prompts,
    outcomes,
    pending,
    report: GradeReport,
    notes: list[str],
    windowed: dict,
    batch: dict | None = None,
    on_calls_start=None,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from grader.panel._gaps import run_gaps
    from grader.panel._mock import NOISE_DRAW, MockGrades, repeat_marker, start_mock_servers

    dry = kind == "dry-run"
    season_id = import_season_row(db_url, bundle)
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            s.add(
                RunRow(
                    id=run_id,
                    season_id=season_id,
                    run_type=kind,
                    rubric_id=rubric.id,
                    rubric_hash=rubric.content_hash,
                    judge_facing_hash=rubric.judge_facing_hash,
                    panel_name=panel.name,
                    panel_hash=panel.content_hash,
                    repeats=repeats,
                    status="running",
                    official_eligible=False,
                    panel_doc=panel.model_dump(mode="json"),
                    notes=notes or None,
                )
            )
        else:
            same = (
                run.season_id == season_id
                and run.rubric_hash == rubric.content_hash
                and run.panel_hash == panel.content_hash
                and run.run_type == kind
                and run.repeats == repeats
            )
            if not same:
                raise RunError(
                    f"run {run_id!r} exists with other inputs (season, rubric, panel, type or "
                    "repeats); choose another --run-id"
                )
            in_flight = s.scalar(
                select(func.count())
                .select_from(JudgeBatchRow)
                .where(JudgeBatchRow.run_id == run_id, JudgeBatchRow.status.in_(("submitted", "submitting")))
            )
            if in_flight and batch is None:  # a synchronous call now would pay again for a request in a batch
                raise RunError(
                    f"run {run_id!r} has {in_flight} provider batch(es) in flight: collect them with "
                    f"`grader batch collect --run {run_id}` (it also retries what failed)"
                )
            run.status = "running"
            if run.manifest is not None and batch is not None:
                run.completed_at = None
        if not isinstance(prompts, PromptStream):  # a streamed prompt is stored when it is built
            for p in prompts.values():
                store_prompt(s, p)
        crow = contestant_map(s, season_id)
        done = {
            (g.judge_id, g.contestant_id, g.repeat)
            for g in s.scalars(select(GradeRow).where(GradeRow.run_id == run_id))
        }
    family_of = {c.id: c.provider_family for c in bundle.contestants}
    mock_settings = (
        {**panel.mock.model_dump(mode="json", exclude={"provider_limits"}), "noise_draw": NOISE_DRAW}
        if panel.kind == "mock" and panel.mock
        else None
    )  # a mock grade drawn otherwise is never reused

    def marked(prompt, r: int):  # noqa: ANN001, ANN202 - a mock repeat's prompt carries its marker
        return replace(prompt, system=prompt.system + repeat_marker(r)) if panel.kind == "mock" and r else prompt

    def tasks_of(cid: str, prompt) -> list[Task]:  # noqa: ANN001
        out = []
        for spec in panel.judges:
            for r in range(repeats):
                if (spec.judge_id, crow[cid].id, r) in done:
                    continue
                chain = windowed.get((spec.judge_id, cid))
                if chain is not None:  # one task: its windows, then the whole-horizon pass built from their grades
                    out.append(
                        windowed_task(
                            spec, cid, crow[cid].id, r, chain, marked, schema, mock_settings, on_pass=script_pass
                        )
                    )
                    continue
                p = marked(prompt, r)
                out.append(Task(spec, cid, crow[cid].id, p, r, cache_key(spec, p, schema, r, mock_settings)))
        return out

    def script_pass(task: Task) -> None:  # a windowed record's pass is scripted for the mock fakes when built
        if panel.kind == "mock" and mock_table:
            g = partial(reference_grades.__getitem__, task.contestant_key)
            mock_table[0].add(task.prompt.system, task.prompt.user, family_of[task.contestant_key], g)

    streaming = isinstance(prompts, PromptStream)
    by_contestant = {} if streaming else {c.id: tasks_of(c.id, prompts[c.id]) for c in bundle.contestants}
    tasks: list[Task] = [
        t
        for spec in panel.judges
        for c in bundle.contestants
        for t in by_contestant.get(c.id, [])
        if t.spec.judge_id == spec.judge_id
    ]

    with session_scope(db_url) as s:
        for t in tasks:
            for each in t.windowed.windows if t.windowed is not None else [t]:
                store_prompt(s, each.prompt)
    if dry:
        with session_scope(db_url) as s:
            for task in tasks:  # a windowed record: its windows (its pass is built from their replies)
                for t in task.windowed.windows if task.windowed is not None else [task]:
                    s.add(
                        JudgeCallRow(
                            run_id=run_id,
                            judge_id=t.spec.judge_id,
                            provider=t.spec.provider,
                            model=t.spec.model,
                            contestant_id=t.contestant_row_id,
                            repeat=t.repeat,
                            cache_key=t.key,
                            prompt_sha256=t.prompt.sha256,
                            status="dry_run",
                            input_tokens=t.prompt.counted_tokens,
                        )
                    )
        finish_run(db_url, run_id, bundle, rubric, panel, status="dry-run")
        report.status = "dry-run"
        return

    def parse(parsed: dict | None, raw: str):
        data = parsed
        if data is None:
            try:
                data = strict_json_loads(raw)  # a key named twice is refused, never last-wins
            except (TypeError, ValueError):
                return None, ["reply is not JSON (or names a key twice)"]
        grade, problems = normalise_grade(data, rubric)
        if grade is None:
            return None, problems
        return grade.model_dump(mode="json"), problems

    def on_result(res: TaskResult):  # noqa: ANN202 - the write of the grade's rows (CallRunner.deliver)
        if res.parsed is None:
            return None
        checked = reference.checked_claims(res.task.contestant_key) if res.task.spec.provider == "reference" else None
        return grade_rows(db_url, run_id, res, rubric, outcomes, pending, bundle, checked)

    mock_table: list = []  # the mock fakes' script, once started (a windowed record's pass is added when built)
    reference_grades: Any = None
    with ExitStack() as stack:
        judges: dict[str, Any] = {}
        servers: list = []
        specs = list(panel.judges)
        if panel.kind == "reference":
            judges = {spec.judge_id: ReferenceCaller(reference, prompts) for spec in specs}
        else:
            if panel.kind == "mock":
                table = MockGrades()
                # each contestant's reference grade computed when its fake first asks for it, one at a time (the
                # reference judge's caches are filled one grade at a time), shared by the repeats
                reference_grades = LazyMapping((c.id for c in bundle.contestants), reference.grade)

                mock_table.append(table)

                def script_mock(cid: str, prompt) -> None:  # noqa: ANN001 - before the contestant's calls leave
                    g = partial(reference_grades.__getitem__, cid)
                    windows = [p for (_, c), chain in windowed.items() if c == cid for p in chain.prompts]
                    for r in range(repeats):
                        for p in [prompt, *windows]:
                            table.add(p.system + repeat_marker(r), p.user, family_of[cid], g, subject=cid)

                if not streaming:
                    for c in bundle.contestants:
                        script_mock(c.id, prompts[c.id])
                specs, servers = start_mock_servers(panel, table, stack)
            judges = {spec.judge_id: make_judge(spec, allow_real_api_calls=allow_real_api_calls) for spec in specs}

        async def go() -> CallRunner:
            if batch is not None:
                from grader.panel._batch import BatchRunner

                batch_runner = BatchRunner(db_url, run_id, panel, judges, schema, parse, progress=advance)
                try:
                    report.batch = await batch_runner.run(
                        tasks, on_result, wait=batch["wait"], poll_s=batch["poll_s"], on_poll=batch["on_poll"]
                    )
                finally:
                    for j in judges.values():
                        await j.aclose()
                return batch_runner
            runner = CallRunner(db_url, run_id, panel, judges, schema, parse, progress=advance)
            try:
                if streaming:
                    await stream_calls(runner)
                else:
                    await runner.run_all(tasks, on_result)
            finally:
                for j in judges.values():
                    close = getattr(j, "aclose", None)
                    if close is not None:
                        await close()
            return runner

        async def stream_calls(runner: CallRunner) -> None:
            """Build each contestant's prompt in turn and send its calls at once, while earlier ones are in
            flight. A prompt that still names an identity is never sent: that contestant is a gap, said why."""
            runner.preload_attempt_keys(
                {
                    (spec.judge_id, crow[c.id].id, r)
                    for spec in panel.judges
                    for c in bundle.contestants
                    for r in range(repeats)
                }
            )
            running: list[asyncio.Future] = []
            try:
                await _stream(runner, running)
                await asyncio.gather(*running)
            finally:
                for pending_call in running:
                    pending_call.cancel()
                runner.shutdown()

        async def _stream(runner: CallRunner, running: list) -> None:
            # built ahead of the slots by one panel's worth of calls: the rest is built as slots free up
            ahead = sum(panel.limit(p) for p in {spec.provider for spec in panel.judges})
            for c in bundle.contestants:
                await runner.room(ahead)
                prompt = prompts.build(c.id)
                if prompt.leaks:
                    leaked[c.id] = prompt.leaks
                    continue
                mine = tasks_of(c.id, prompt)
                if not mine:
                    continue
                if panel.kind == "mock":
                    script_mock(c.id, prompt)
                await runner._in_db(
                    before_sending, runner, [t.prompt for t in mine], [t.key for t in mine], priority=Priority.SEND
                )
                runner.expect(mine)
                running += [asyncio.ensure_future(runner.run_and_deliver(t, on_result)) for t in mine]
                await asyncio.sleep(0)  # let the calls already scheduled leave before the next prompt is built

        leaked: dict[str, list[str]] = {}
        expected = sum(
            1
            for spec in panel.judges
            for c in bundle.contestants
            for r in range(repeats)
            if (spec.judge_id, crow[c.id].id, r) not in done
        )  # the tasks, built or to be streamed
        bar = Progress(
            TextColumn("[bold]grading[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            disable=not progress or not expected,
            transient=False,
        )
        with bar:
            task_id = bar.add_task("calls", total=expected)

            def advance() -> None:
                bar.advance(task_id)

            if on_calls_start is not None:
                on_calls_start()
            runner = asyncio.run(go())
        for server in servers:  # the mock fakes shut down while the run is scored; joined on leaving the stack
            server.begin_stop()
        if leaked:
            note = (
                "identity leak in the prompt of "
                + "; ".join(f"{cid} ({', '.join(v)[:200]})" for cid, v in sorted(leaked.items()))
                + ": never sent, a gap (the run is never official)"
            )
            report.notes.append(note)
            with session_scope(db_url) as s:
                run = stored_row(s, RunRow, run_id)
                run.notes = [*(run.notes or []), note]
        st = runner.stats
        report.calls_sent, report.calls_reused = st.calls_sent, st.calls_reused
        report.attempts_failed, report.cost_usd = st.attempts_failed, st.cost_usd
        if report.batch is not None and report.batch.pending:
            report.status = "batch_pending"
            mark_run(db_url, run_id, "batch_pending")
            return
        report.score_version = store_score_version(
            db_url, run_id, rubric, outcomes, pending, [j.judge_id for j in panel.judges], judge_calls=st.calls_sent
        )
        with session_scope(db_url) as s:
            gaps = run_gaps(s, run_id, [j.judge_id for j in panel.judges])
            graded = s.scalar(select(func.count()).select_from(GradeRow).where(GradeRow.run_id == run_id)) or 0
        report.gaps = [g.line() for g in gaps]
        status = "complete" if not gaps else "complete_with_gaps" if graded else "failed"
        report.status = status
        finish_run(db_url, run_id, bundle, rubric, panel, status=status)


class ReferenceCaller:
    """The reference judge behind the same call interface (raw reply = the JSON it produced)."""

    def __init__(self, reference, prompts):
        self.reference = reference
        self.by_user = {p.user: cid for cid, p in prompts.items()}

    async def call(self, system: str, user: str, schema: dict, schema_name: str, *, cache_prefix_chars: int = 0):
        cid = self.by_user[user]
        grade = self.reference.grade(cid)
        raw = json.dumps(grade, sort_keys=False)
        return CallOutcome(
            ok=True,
            raw_reply=raw,
            parsed=grade,
            input_tokens=math.ceil(len(user) / 4),
            output_tokens=math.ceil(len(raw) / 4),
            latency_s=0.0,
        )
