"""``grade_season``: one grading run end to end, resumable, with a manifest.

Steps: validate the bundle (an invalid bundle writes nothing) → replay → anonymize + build prompts →
import the season and open (or resume) the run → judge calls (reference, mock fakes or providers) →
grades + verified ledgers → a scored version of the run → manifest with hashes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import func, select, update

from grader._lazy import LazyMapping
from grader.panel._config import PanelConfig
from grader.panel._prompts import PromptStream, prompt_builder
from grader.panel._prompts import headroom as window_headroom
from grader.panel._prompts import too_long as find_too_long
from grader.panel._runner import CallRunner, Task, TaskResult, cache_key, store_grade, store_prompt
from grader.panel._windowed import windowed_task
from grader.panel._writer import Priority
from grader.scoring import store_score_version
from grader.storage import (
    ContestantRow,
    GradeRow,
    JudgeBatchRow,
    JudgeCallRow,
    RunRow,
    alias_secret,
    contestant_map,
    import_season,
    session_scope,
)

RUN_TYPES = ("official", "stability", "dry-run")


class RunError(RuntimeError):
    pass


@dataclass
class GradeReport:
    run_id: str
    run_type: str
    panel: str
    dry_run: bool
    calls_sent: int = 0
    calls_reused: int = 0
    attempts_failed: int = 0
    gaps: list[str] = field(default_factory=list)
    tokens_per_contestant: dict[str, dict[str, int]] = field(default_factory=dict)
    cost_usd: float = 0.0
    score_version: int | None = None
    leaks: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    status: str = "running"
    """complete | complete_with_gaps | failed (no valid grade) | dry-run | batch_pending (provider batches still
    running: ``grader batch collect``): see ``grader.panel._gaps.EXIT_CODES``."""
    headroom: list[dict] = field(default_factory=list)
    """Per judge with a context window: the largest prompt and the share of the window left for the reply
    (``grader.panel._prompts.headroom``; prompts built before any call only)."""
    batch: Any = None
    """A batch run's progress (``grader.panel._batch.BatchProgress``), else None."""


def effective_run_type(panel: PanelConfig, requested: str, allow_real: bool) -> str:
    if requested not in RUN_TYPES:
        raise RunError(f"run type must be one of {RUN_TYPES}, got {requested!r}")
    if panel.kind == "reference":
        return "baseline"
    if panel.kind == "mock":
        return "mock"
    if requested == "dry-run" or not allow_real:
        return "dry-run"
    return requested


def panel_rubric_for_ids(rubric, judge_ids: list[str], families: dict[str, str]):
    """The rubric with its panel slots replaced by the run's actual judges (a run's own panel defines how
    many judges a complete grade has; the rubric's aggregation and minimum still apply)."""
    from rubric import JudgeSlot

    slots = [JudgeSlot(id=j, provider_family=families.get(j, "unknown")) for j in judge_ids]
    new_panel = rubric.panel.model_copy(
        update={"judges": slots, "min_judges": min(rubric.panel.min_judges, len(slots))})
    return rubric.model_copy(update={"panel": new_panel})


def panel_fit(rubric, panel: PanelConfig) -> list[str]:
    """Whether the panel is the one the rubric defines (its judges' provider families). A real panel that does not
    fit is refused (RunError); a reference or mock panel may grade under any rubric, and the mismatch is returned
    as a note stored with the run and shown in its report."""
    want = sorted(j.provider_family for j in rubric.panel.judges)
    have = sorted(j.family for j in panel.judges)
    if want == have:
        return []
    what = (f"rubric {rubric.id} is graded by {len(want)} judge(s) of the families {', '.join(want)}; "
            f"panel {panel.name!r} has {len(have)} ({', '.join(have)})")
    if panel.kind == "real":
        raise RunError(f"{what}. Use a panel with those families (e.g. --panel openai for v0.3, --panel frontier for "
                       "v0.4 and v0.5) or a rubric file whose panel section names yours")
    return [f"{what}: the median of this run's own panel is reported ({panel.kind} panel, never official)"]


def grade_season(season_dir: Path, *, rubric_name: str, panel_name: str, run_id: str, run_type: str = "official",
                 repeats: int = 1, allow_real_api_calls: bool = False, db_url: str | None = None,
                 progress: bool = True, console=None, bundle=None, prepared=None,
                 extra_notes: list[str] | None = None, reference_bundle=None, batch: bool = False,
                 wait: bool = False, poll_s: float = 30.0, on_poll=None, on_calls_start=None) -> GradeReport:
    """Grade ``season_dir`` (or an already validated ``bundle`` of it) and store the run.

    Everything that can refuse the run does so before anything is written: the bundle, the rubric, the panel (and
    whether it fits the rubric), missing API keys (all named), prompts over a judge's context window, identity
    leaks, and another process holding the run (``RunBusy``).

    ``prepared`` = (replays, outcomes, pending, prompts by contestant id) replaces the season's own prompts (a
    calibration set's items: ``grader.calibration``), ``reference_bundle`` what the reference judge (and the mock
    judges scripted from it) grade; ``extra_notes`` are stored with the run.

    ``batch``: judge calls go through the providers' batch APIs (``grader.panel._batch``): submitted, then collected
    by this call when ``wait`` (polling every ``poll_s`` s; ``on_poll(progress)`` after each step) or later by
    calling again (``grader batch collect``); the run stays ``batch_pending`` until every task is settled. A mock
    panel always waits (its fake servers live in this process).

    ``on_calls_start()``: called once everything is set up, just before the first judge call (the CLI resumes
    garbage collection there: ``grader.cli._gc``)."""
    from grader.judges import MissingApiKey, missing_api_keys
    from grader.judges.reference import ReferenceJudge
    from grader.panel._config import load_panel
    from grader.panel._lease import acquire_lease
    from grader.season import load_bundle
    from rubric import grade_json_schema, load_rubric

    bundle = bundle or load_bundle(season_dir)  # BundleError: nothing written
    rubric = load_rubric(rubric_name)
    panel = panel_name if isinstance(panel_name, PanelConfig) else load_panel(panel_name)
    kind = effective_run_type(panel, run_type, allow_real_api_calls)
    if batch:
        _check_batch_panel(panel)
        if panel.kind == "mock":  # its fake servers live in this process, and end their batches at once
            wait, poll_s = True, min(poll_s, 0.2)
    dry = kind == "dry-run"
    if repeats < 1:
        raise RunError("--repeats must be at least 1")
    if repeats > 1 and kind not in ("stability", "mock", "baseline", "dry-run"):
        raise RunError("--repeats > 1 is for stability runs (--run-type stability)")
    notes = panel_fit(rubric, panel) + list(extra_notes or [])
    if panel.kind == "real" and not dry:
        missing = missing_api_keys(list(panel.judges))
        if missing:
            raise MissingApiKey("no API key in the environment for: " + "; ".join(missing)
                                + " (set each variable; keys are read from the environment only)")
    # Streaming: a contestant's calls leave as soon as its prompt is built. Not for a dry run (it shows every
    # prompt's size), batches (one submission), prepared items, the reference judge (no calls), or a panel with
    # context windows (every prompt is counted against them before anything is sent).
    stream = (not dry and not batch and prepared is None and panel.kind != "reference"
              and all(j.context_window is None for j in panel.judges))
    too_long: list[str] = []
    room: list[dict] = []
    windowed: dict = {}
    # the season's alias secret (grader-side, created once): aliases no one can recompute from public inputs
    secret = alias_secret(bundle.info.id, db_url) if rubric.panel.anonymize and prepared is None else ""
    if stream:
        replays, outcomes, pending, builder = prompt_builder(bundle, rubric, secret)
        prompts = PromptStream(builder, [c.id for c in bundle.contestants])
    else:
        # the naive-dump sizes are for a dry run's savings table: a paid run skips that second rendering
        if prepared:
            replays, outcomes, pending, prompts = prepared
            builder = None
        else:
            replays, outcomes, pending, builder = prompt_builder(bundle, rubric, secret)
            prompts = {c.id: builder.build(c.id, naive=dry) for c in bundle.contestants}
        leaks = {cid: p.leaks for cid, p in prompts.items() if p.leaks}
        if leaks:
            raise RunError("identity leak in a judge prompt (refusing to send): " + json.dumps(leaks)[:500])
        too_long = find_too_long(prompts, panel)
        if too_long and builder is not None:  # graded in windows, then a whole-horizon pass (labelled, never cut)
            from grader.panel._windowed import plan_windowed, windowed_note

            windowed, too_long = plan_windowed(builder, prompts, panel)
            if any(c.leaks for chain in windowed.values() for c in chain.prompts):
                raise RunError("identity leak in a window of a judge prompt (refusing to send)")
            notes = notes + [windowed_note(judge, cid, chain.plan) for (judge, cid), chain in sorted(windowed.items())]
            if windowed and batch:
                raise RunError("records graded in windows (" + "; ".join(f"{c} for {j}" for j, c in windowed)
                               + ") are graded synchronously: their whole-horizon pass is built from the windows' "
                               "replies; grade without --batch")
        room = window_headroom(prompts, panel, windowed)
        if too_long and not dry:
            raise RunError("prompt over a judge's context window (refusing before any call): "
                           + "; ".join(too_long))
    schema = grade_json_schema(rubric)
    reference = ReferenceJudge(reference_bundle or bundle, rubric, replays, outcomes, pending)
    report = GradeReport(run_id, kind, panel.name, dry, notes=notes + [f"would not fit: {t}" for t in too_long])
    report.headroom = room

    lease = acquire_lease(run_id, db_url)  # RunBusy: another process holds this run; nothing written
    with lease:  # released however the run ends (an interrupt included), after the run is marked
        if lease.taken_over:
            report.notes.append(f"resumed after its earlier process ({lease.taken_over}) stopped")
        try:
            _run(season_dir, bundle, rubric, panel, kind, run_id, repeats, allow_real_api_calls, db_url, progress,
                 console, schema, reference, prompts, outcomes, pending, report, notes, windowed,
                 batch={"wait": wait, "poll_s": poll_s, "on_poll": on_poll} if batch else None,
                 on_calls_start=on_calls_start)
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM in the CLI (grader.cli._signals)
            _mark(db_url, run_id, "interrupted")
            raise
    report.tokens_per_contestant = {  # both at four characters a token, so the saving compares like with like
        cid: {"prompt_tokens": p.token_estimate, "naive_tokens": p.naive_token_estimate}
        for cid, p in prompts.items()}
    return report


def _check_batch_panel(panel: PanelConfig) -> None:
    """A batch run needs every judge on a provider with a batch API (``Provider.batch_api``)."""
    if panel.kind == "reference":
        raise RunError("the reference panel makes no provider calls: --batch is for provider (or mock) panels")
    from grader.judges import provider_labels, providers_with

    without = [j.judge_id for j in panel.judges if not j.provider_class.batch_api]
    if without:
        raise RunError(f"no provider batch API for judge(s) {', '.join(without)} (batches exist for "
                       f"{provider_labels(providers_with(batch_api=True))}); grade without --batch")


def _import(db_url, bundle) -> int:
    """The season's row id: imported in its own transaction; a concurrent first import of the same season by
    another process wins the unique content hash and this one reads its row."""
    from sqlalchemy.exc import IntegrityError

    from grader.storage import season_by_hash

    try:
        with session_scope(db_url) as s:
            return import_season(s, bundle).season_id
    except IntegrityError:
        with session_scope(db_url) as s:
            row = season_by_hash(s, bundle.content_hash)
            if row is None:
                raise
            return row.id


def _mark(db_url, run_id: str, status: str) -> None:
    """The run's status; ``interrupted`` also marks its attempts still ``sent`` (in flight when this process was
    stopped; it holds the run's lease) as interrupted: never counted toward the retry cap, re-sent on resume."""
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is not None:
            run.status = status
            run.official_eligible = False
        if status == "interrupted":
            s.execute(update(JudgeCallRow).where(JudgeCallRow.run_id == run_id, JudgeCallRow.status == "sent")
                      .values(status="interrupted", error_kind="interrupted",
                              error_message="this process was stopped before the attempt's reply was stored"))


def _run(season_dir, bundle, rubric, panel, kind, run_id, repeats, allow_real_api_calls, db_url, progress, console,
         schema, reference, prompts, outcomes, pending, report: GradeReport, notes: list[str], windowed: dict,
         batch: dict | None = None, on_calls_start=None) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from grader.panel._gaps import run_gaps
    from grader.panel._mock import NOISE_DRAW, MockGrades, repeat_marker, start_mock_servers

    dry = kind == "dry-run"
    season_id = _import(db_url, bundle)
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            s.add(RunRow(id=run_id, season_id=season_id, run_type=kind, rubric_id=rubric.id,
                         rubric_hash=rubric.content_hash, judge_facing_hash=rubric.judge_facing_hash,
                         panel_name=panel.name, panel_hash=panel.content_hash, repeats=repeats,
                         status="running", official_eligible=False, panel_doc=panel.model_dump(mode="json"),
                         notes=notes or None))
        else:
            same = (run.season_id == season_id and run.rubric_hash == rubric.content_hash
                    and run.panel_hash == panel.content_hash and run.run_type == kind and run.repeats == repeats)
            if not same:
                raise RunError(f"run {run_id!r} exists with other inputs (season, rubric, panel, type or "
                               "repeats); choose another --run-id")
            in_flight = s.scalar(select(func.count()).select_from(JudgeBatchRow).where(
                JudgeBatchRow.run_id == run_id, JudgeBatchRow.status.in_(("submitted", "submitting"))))
            if in_flight and batch is None:  # a synchronous call now would pay again for a request in a batch
                raise RunError(f"run {run_id!r} has {in_flight} provider batch(es) in flight: collect them with "
                               f"`grader batch collect --run {run_id}` (it also retries what failed)")
            run.status = "running"
            if run.manifest is not None and batch is not None:
                run.completed_at = None
        if not isinstance(prompts, PromptStream):  # a streamed prompt is stored when it is built
            for p in prompts.values():
                store_prompt(s, p)
        crow = contestant_map(s, season_id)
        done = {(g.judge_id, g.contestant_id, g.repeat) for g in
                s.scalars(select(GradeRow).where(GradeRow.run_id == run_id))}
    family_of = {c.id: c.provider_family for c in bundle.contestants}
    mock_settings = ({**panel.mock.model_dump(mode="json", exclude={"provider_limits"}), "noise_draw": NOISE_DRAW}
                     if panel.kind == "mock" and panel.mock else None)  # a mock grade drawn otherwise is never reused

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
                    out.append(windowed_task(spec, cid, crow[cid].id, r, chain, marked, schema, mock_settings,
                                              on_pass=script_pass))
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
    tasks: list[Task] = [t for spec in panel.judges for c in bundle.contestants
                         for t in by_contestant.get(c.id, []) if t.spec.judge_id == spec.judge_id]

    with session_scope(db_url) as s:
        for t in tasks:
            for each in t.windowed.windows if t.windowed is not None else [t]:
                store_prompt(s, each.prompt)
    if dry:
        with session_scope(db_url) as s:
            for task in tasks:  # a windowed record: its windows (its pass is built from their replies)
                for t in task.windowed.windows if task.windowed is not None else [task]:
                    s.add(JudgeCallRow(run_id=run_id, judge_id=t.spec.judge_id, provider=t.spec.provider,
                                       model=t.spec.model, contestant_id=t.contestant_row_id, repeat=t.repeat,
                                       cache_key=t.key, prompt_sha256=t.prompt.sha256, status="dry_run",
                                       input_tokens=t.prompt.counted_tokens))
        _finish(db_url, run_id, bundle, rubric, panel, status="dry-run")
        report.status = "dry-run"
        return

    def parse(parsed: dict | None, raw: str):
        from grader.judges import strict_json_loads
        from rubric import normalise_grade

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
        return _grade_rows(db_url, run_id, res, rubric, outcomes, pending, bundle, checked)

    mock_table: list = []  # the mock fakes' script, once started (a windowed record's pass is added when built)
    reference_grades: Any = None
    with ExitStack() as stack:
        judges: dict[str, Any] = {}
        servers: list = []
        specs = list(panel.judges)
        if panel.kind == "reference":
            judges = {spec.judge_id: _ReferenceCaller(reference, prompts) for spec in specs}
        else:
            from grader.judges import make_judge

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

                runner = BatchRunner(db_url, run_id, panel, judges, schema, parse, progress=advance)
                try:
                    report.batch = await runner.run(tasks, on_result, wait=batch["wait"], poll_s=batch["poll_s"],
                                                    on_poll=batch["on_poll"])
                finally:
                    for j in judges.values():
                        await j.aclose()
                return runner
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
            runner.preload_attempt_keys({(spec.judge_id, crow[c.id].id, r) for spec in panel.judges
                                         for c in bundle.contestants for r in range(repeats)})
            running: list[asyncio.Future] = []
            try:
                await _stream(runner, running)
                await asyncio.gather(*running)
            finally:
                for pending_call in running:
                    pending_call.cancel()
                runner.shutdown()

        async def _stream(runner: CallRunner, running: list) -> None:
            for c in bundle.contestants:
                prompt = prompts.build(c.id)
                if prompt.leaks:
                    leaked[c.id] = prompt.leaks
                    continue
                mine = tasks_of(c.id, prompt)
                if not mine:
                    continue
                if panel.kind == "mock":
                    script_mock(c.id, prompt)
                await runner._in_db(_before_sending, runner, [t.prompt for t in mine], [t.key for t in mine],
                                    priority=Priority.SEND)
                running += [asyncio.ensure_future(runner.run_and_deliver(t, on_result)) for t in mine]
                await asyncio.sleep(0)  # let the calls already scheduled leave before the next prompt is built

        leaked: dict[str, list[str]] = {}
        expected = sum(1 for spec in panel.judges for c in bundle.contestants for r in range(repeats)
                       if (spec.judge_id, crow[c.id].id, r) not in done)  # the tasks, built or to be streamed
        bar = Progress(TextColumn("[bold]grading[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       console=console, disable=not progress or not expected, transient=False)
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
            note = ("identity leak in the prompt of " + "; ".join(f"{cid} ({', '.join(v)[:200]})" for cid, v in
                                                                sorted(leaked.items()))
                    + ": never sent, a gap (the run is never official)")
            report.notes.append(note)
            with session_scope(db_url) as s:
                run = s.get(RunRow, run_id)
                run.notes = [*(run.notes or []), note]
        st = runner.stats
        report.calls_sent, report.calls_reused = st.calls_sent, st.calls_reused
        report.attempts_failed, report.cost_usd = st.attempts_failed, st.cost_usd
        if report.batch is not None and report.batch.pending:
            report.status = "batch_pending"
            _mark(db_url, run_id, "batch_pending")
            return
        report.score_version = store_score_version(db_url, run_id, rubric, outcomes, pending,
                                                   [j.judge_id for j in panel.judges], judge_calls=st.calls_sent)
        with session_scope(db_url) as s:
            gaps = run_gaps(s, run_id, [j.judge_id for j in panel.judges])
            graded = s.scalar(select(func.count()).select_from(GradeRow).where(GradeRow.run_id == run_id)) or 0
        report.gaps = [g.line() for g in gaps]
        status = "complete" if not gaps else "complete_with_gaps" if graded else "failed"
        report.status = status
        _finish(db_url, run_id, bundle, rubric, panel, status=status)


def _before_sending(runner: CallRunner, prompts, keys: list[str]) -> None:
    """A streamed contestant's prompts stored and its earlier completed calls looked up (for reuse): one job on
    the storage thread before its calls leave."""
    with session_scope(runner.db_url) as s:
        for p in prompts:
            store_prompt(s, p)
        runner.preload_completed(keys, s)


class _ReferenceCaller:
    """The reference judge behind the same call interface (raw reply = the JSON it produced)."""

    def __init__(self, reference, prompts):
        self.reference = reference
        self.by_user = {p.user: cid for cid, p in prompts.items()}

    async def call(self, system: str, user: str, schema: dict, schema_name: str, *, cache_prefix_chars: int = 0):
        from grader.judges import CallOutcome

        cid = self.by_user[user]
        grade = self.reference.grade(cid)
        raw = json.dumps(grade, sort_keys=False)
        return CallOutcome(ok=True, raw_reply=raw, parsed=grade, input_tokens=math.ceil(len(user) / 4),
                           output_tokens=math.ceil(len(raw) / 4), latency_s=0.0)


def _grade_rows(db_url, run_id, res: TaskResult, rubric, outcomes, pending, bundle, checked=None):
    """A valid grade's composite and verified ledger (CPU only), and the function that stores them (one
    transaction; run by the caller on a storage thread). ``checked``: the reference judge's own (claim,
    verification) pairs, in ledger order — it extracted them from the full rationale, so they are not re-parsed
    from the shorter ledger text."""
    from grader.panel._ledger import verify_judge_ledger
    from grader.scoring import judge_composite

    t = res.task
    outcome_ok = (not pending) and bool(outcomes.get(t.contestant_key, {}).get("available", True))
    comp = judge_composite(res.parsed, rubric, outcome_ok)
    ledger_rows = verify_judge_ledger(res.parsed.get("claim_ledger", []), bundle, t.contestant_key, checked)

    def write() -> None:
        with session_scope(db_url) as s:
            exists = s.scalar(select(GradeRow.id).where(
                GradeRow.run_id == run_id, GradeRow.judge_id == t.spec.judge_id,
                GradeRow.contestant_id == t.contestant_row_id, GradeRow.repeat == t.repeat))
            if exists is not None:
                return
            contestant = s.get(ContestantRow, t.contestant_row_id)
            store_grade(s, run_id=run_id, spec=t.spec, contestant=contestant, repeat=t.repeat, call_id=res.call_id,
                        grade=res.parsed, composite=comp, ledger_rows=ledger_rows)

    return write


def _finish(db_url, run_id, bundle, rubric, panel, status: str) -> None:
    from grader.panel._manifest import build_manifest

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        run.status = status  # before the manifest, which records it
        manifest = build_manifest(s, run, bundle, rubric, panel)
        run.manifest = manifest
        run.manifest_hash = hashlib.sha256(json.dumps(manifest, sort_keys=True).encode()).hexdigest()
        run.completed_at = datetime.now(UTC)
        if status != "complete":  # a run with gaps, or with no valid grade, is never official
            run.official_eligible = False
