"""Orchestration of a grading run: prompts, judge calls with a full audit trail, grades, ledgers, scores.

Rules (PRODUCT.md "Audit trail"):

- Every attempt is its own ``judge_calls`` row, recorded as ``sent`` before its request leaves and filled in
  as soon as the reply is in: the provider's raw reply is stored before it is parsed, so a crash loses no
  paid-for call, and an attempt in flight when a process died is visible (``interrupted`` on resume).
- The retry cap holds across processes: a resumed run counts the attempts earlier processes made for a task
  and continues its chain (each attempt linked to the one it replaces). An attempt cut off by our own process
  (killed, interrupted: left ``sent``, then ``interrupted``) is on record but never counts toward the cap: it is
  no failure of the judge, and a run resumed after any number of crashes at the same point still completes.
- Retries only for infrastructure or format failures (transport, timeout, 429, 5xx, unparseable or
  schema-invalid output), capped by the panel's retry policy, each linked to the attempt it replaces;
  429s wait ``Retry-After`` when given, otherwise exponential backoff; either wait is capped by the panel's
  ``max_delay_s`` (a hostile or broken endpoint cannot stall a run).
- Invalid replies are kept and never scored. A judge that fails for a contestant leaves a visible gap.
- Completed calls are content-addressed (provider, model, endpoint kind, system, user, schema, output
  limits, repeat): a resumed run or a re-run with identical inputs reuses the stored reply and never pays twice.

The task and its shared rules are in ``_tasks``, the rows a graded task leaves in ``_stored_rows``; both are
re-exported here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from grader.judges import INVALID_OUTPUT_KINDS, CallOutcome, ErrorKind, is_retryable, scrub_outcome
from grader.panel._config import PanelConfig
from grader.panel._pacing import JudgePacer, is_capacity_refusal, retry_delay
from grader.panel._stored_rows import store_grade, store_prompt
from grader.panel._tasks import (
    INTERRUPTED,
    MAX_CLAIMS,
    SCHEMA_NAME,
    GradeParser,
    RunStats,
    Task,
    TaskResult,
    WindowedTasks,
    cache_key,
    claims_over_limit,
    is_refused_attempt,
    sha256_text,
)
from grader.panel._writer import Priority, PriorityWriter
from grader.storage import JudgeCallRow, database_url, session_scope

__all__ = [
    "INTERRUPTED",
    "MAX_CLAIMS",
    "SCHEMA_NAME",
    "CallRunner",
    "GradeParser",
    "RunStats",
    "Task",
    "TaskResult",
    "WindowedTasks",
    "cache_key",
    "is_refused_attempt",
    "retry_delay",
    "store_grade",
    "store_prompt",
]


PREPARE_REPLIES_AFTER_S = 0.01
"""How long after the first call that finds every slot taken the judges' reply reading is prepared: time for the
requests already given a slot to leave first (loopback connects and writes take well under this)."""


SEND_FIRST_S = 0.005
"""How long a prompt stream that is ahead of the judges waits, once a task took a freed slot, before building its next
prompt: time for that request to leave before the event loop is busy again (loopback writes take well under this)."""


LEAVE_WAIT_S = 0.05
"""How long a prompt stream waits for a task that would find a free slot to hand its request to its judge (its
"sent" row being written) before it builds its next prompt anyway (a task held back otherwise, by its judge's
pacing, does not hold the stream)."""


class CallRunner:
    """Runs judge tasks concurrently under per-provider limits and records every attempt."""

    def __init__(
        self,
        db_url: str | None,
        run_id: str,
        panel: PanelConfig,
        judges: dict[str, Any],
        schema: dict,
        parse: GradeParser,
        progress=None,
        sleep=asyncio.sleep,
    ):
        self.db_url = db_url
        self.run_id = run_id
        self.panel = panel
        self.judges = judges
        self.schema = schema
        self.parse = parse
        self.progress = progress
        self.sleep = sleep
        self.stats = RunStats()
        self._completed: dict[str, JudgeCallRow] = {}
        # task -> (attempts that count toward the cap, capacity refusals (429/529: not counted toward it), highest
        # attempt number on record, last id)
        self._prior: dict[tuple[str, int, int], tuple[int, int, int, int | None]] = {}
        # storage runs off the event loop, most urgent first (the row a request waits for before it leaves jumps
        # ahead of grades being stored); SQLite has one writer, so one storage thread there
        workers = 1 if database_url(db_url).startswith("sqlite") else 4
        self._db = PriorityWriter(workers, "grader-db")
        # a reply's ledger is verified (CPU, no database) on a thread of its own, then its rows are written
        self._verify = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grader-verify")
        self.semaphores = {p: asyncio.Semaphore(panel.limit(p)) for p in {j.provider for j in panel.judges}}
        # per judge: rate-limit pacing and adaptive concurrency (within its provider's semaphore)
        self.pacers = {
            j.judge_id: JudgePacer(
                j, panel.limit(j.provider), sleep=sleep, max_pause_s=max(0.0, panel.retry.max_delay_s)
            )
            for j in panel.judges
        }
        self._replies_prepared = False
        self._unsent: dict[
            int, Task
        ] = {}  # tasks expected by a stream whose first request was not handed to a judge yet
        self._handed_one = asyncio.Event()

    # -- storage (each write is its own short transaction: committed before anything else happens) ----
    def preload_attempts(self, tasks: list[Task]) -> None:
        """Attempts earlier processes made for these tasks in this run: the chain continued, counted toward the cap
        unless our own process cut them off (an attempt left ``sent``: its process died or was interrupted with it
        in flight, becomes ``interrupted`` and does not count)."""
        self.preload_attempt_keys({(t.spec.judge_id, t.contestant_row_id, t.repeat) for t in tasks})

    def preload_attempt_keys(self, wanted: set[tuple[str, int, int]]) -> None:
        """:meth:`preload_attempts` by (judge, contestant row, repeat): known before any prompt is built."""
        with session_scope(self.db_url) as s:
            rows = s.scalars(
                select(JudgeCallRow)
                .where(JudgeCallRow.run_id == self.run_id, JudgeCallRow.status.notin_(("reused", "dry_run")))
                .order_by(JudgeCallRow.id)
            ).all()
            for row in rows:
                key = (row.judge_id, row.contestant_id, row.repeat)
                if key not in wanted:
                    continue
                if row.status == "sent":
                    row.status, row.error_kind = "interrupted", "interrupted"
                    row.error_message = "the process making this attempt stopped before its reply was stored"
                counted, limited, number, _ = self._prior.get(key, (0, 0, 0, None))
                refused = is_refused_attempt(row)
                counts = row.status not in INTERRUPTED and not refused
                self._prior[key] = (counted + counts, limited + refused, max(number, row.attempt), row.id)

    def preload_completed(self, keys: list[str], session: Session | None = None) -> None:
        """One query for every completed call among ``keys`` (content-addressed reuse); in ``session`` when
        given (else a transaction of its own)."""
        if session is None:
            with session_scope(self.db_url) as s:
                self.preload_completed(keys, s)
            return
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            rows = session.scalars(
                select(JudgeCallRow)
                .where(JudgeCallRow.cache_key.in_(chunk), JudgeCallRow.status.in_(("ok", "received")))
                .order_by(JudgeCallRow.id)
            ).all()
            for row in rows:
                session.expunge(row)
                self._completed.setdefault(row.cache_key, row)

    def _record(self, task: Task, **values) -> int:
        with session_scope(self.db_url) as s:
            row = JudgeCallRow(
                run_id=self.run_id,
                judge_id=task.spec.judge_id,
                provider=task.spec.provider,
                model=task.spec.model,
                contestant_id=task.contestant_row_id,
                repeat=task.repeat,
                cache_key=task.key,
                prompt_sha256=task.prompt.sha256,
                **values,
            )
            s.add(row)
            s.flush()
            return row.id

    def _update(self, call_id: int, **values) -> None:
        """One UPDATE of the call's row, committed (not loading the row: its stored reply may be large)."""
        with session_scope(self.db_url) as s:
            s.execute(update(JudgeCallRow).where(JudgeCallRow.id == call_id).values(**values))

    async def _settle(
        self, call_id: int, parsed: dict | None, raw: str
    ) -> tuple[dict | None, ErrorKind | None, str | None]:
        """Parse a stored reply and record the verdict on that attempt: ok, or invalid (kept, never scored)."""
        over = claims_over_limit(parsed) if self.panel.kind != "reference" else None
        try:
            grade, problems = (None, [over]) if over else self.parse(parsed, raw)
        except Exception as exc:  # noqa: BLE001 - a parser bug must not lose the call
            grade, problems = None, [f"parser error: {exc!r}"]
        if grade is not None:
            await self._in_db(self._update, call_id, status="ok", parsed=grade)
            return grade, None, None
        message = "; ".join(problems)[:2000] or "reply does not fit the grade schema"
        await self._in_db(self._update, call_id, status="invalid", error_kind="schema", error_message=message)
        return None, "schema", message

    def prepare_replies(self) -> None:
        """Let every judge ready its SDK's reading of replies (``SdkJudge.prepare_replies``) while calls are in
        flight and the event loop would wait anyway, instead of when the first reply arrives and the freed slot's
        next call waits behind it. A failure here only means the first reply is read the slow way."""
        for judge in self.judges.values():
            prepare = getattr(judge, "prepare_replies", None)
            if prepare is not None:
                try:
                    prepare()
                except Exception:  # noqa: BLE001, S110 - an optimisation; the real reply is read regardless
                    pass

    # -- a stream of tasks ahead of the slots --------------------------------------------------------
    def expect(self, tasks: list[Task]) -> None:
        """``tasks`` are being handed to :meth:`run_and_deliver`: counted as unsent until each one's first request
        is handed to its judge (or the task ends without one: reused, refused, windowed)."""
        self._unsent.update((id(t), t) for t in tasks)

    def _handed(self, task: Task) -> None:
        if self._unsent.pop(id(task), None) is not None:
            self._handed_one.set()

    def _could_leave(self) -> bool:
        """Some expected task whose first request was not handed to its judge yet would find a free slot now."""
        return any(
            not self.semaphores[t.spec.provider].locked() and not self.pacers[t.spec.judge_id].concurrency.full
            for t in self._unsent.values()
        )

    async def room(self, ahead: int) -> None:
        """Return once fewer than ``ahead`` expected tasks wait for their first request to leave and none of them would
        find a free slot now; at once when so. A stream builds its next prompt after this: a task that can take a slot
        hands its request to its judge first (the first wave's requests leave one by one as their prompts are built,
        not after the prompts built behind them), and while enough tasks are ready for the slots that free up, the
        event loop stays free for the replies and the requests that take their slots, instead of holding each behind
        a prompt being built. A task that could take a slot but is held back (its judge's pacing) holds the stream
        ``LEAVE_WAIT_S`` at most. When it had to wait, it waits ``SEND_FIRST_S`` more: the request that made room
        leaves first."""
        if len(self._unsent) < ahead and not self._could_leave():
            return
        loop = asyncio.get_running_loop()
        patience = loop.time() + LEAVE_WAIT_S
        while len(self._unsent) >= ahead or (self._could_leave() and loop.time() < patience):
            self._handed_one.clear()
            if len(self._unsent) >= ahead:
                await self._handed_one.wait()
                continue
            try:
                await asyncio.wait_for(self._handed_one.wait(), max(0.0, patience - loop.time()))
            except TimeoutError:
                break
        await asyncio.sleep(SEND_FIRST_S)

    # -- one task ----------------------------------------------------------------------------------
    async def run_task(self, task: Task) -> TaskResult:
        if task.windowed is not None:
            self._handed(task)  # its windows go on as tasks of their own
            return await self._run_windowed(task, task.windowed)
        done = self._completed.get(task.key)
        if done is not None and done.status == "received":  # interrupted between storing and parsing
            grade, _, _ = await self._settle(done.id, done.parsed, done.raw_reply or "")
            if grade is not None:
                return TaskResult(task, "ok", done.id, grade, done.attempt)
            done = None
        if done is not None:
            call_id = await self._in_db(
                self._record,
                task,
                attempt=done.attempt,
                status="reused",
                reused_from_call_id=done.id,
                raw_reply_sha256=done.raw_reply_sha256,
                parsed=done.parsed,
                input_tokens=done.input_tokens,
                output_tokens=done.output_tokens,
                cost_usd=0.0,
                latency_s=0.0,
            )
            self.stats.calls_reused += 1
            return TaskResult(task, "reused", call_id, done.parsed, 0)
        policy = self.panel.retry
        judge = self.judges[task.spec.judge_id]
        pacer = self.pacers[task.spec.judge_id]
        counted, limited, attempt, previous = self._prior.get(
            (task.spec.judge_id, task.contestant_row_id, task.repeat), (0, 0, 0, None)
        )
        reason = (
            f"the retry cap ({policy.max_attempts} attempts) was reached by earlier processes of this run"
            if counted >= policy.max_attempts
            else ""
        )
        if limited >= policy.max_rate_limited:
            reason = (
                f"{limited} refusals for capacity (429/529) by earlier processes of this run: the cap of "
                f"{policy.max_rate_limited} was reached"
            )
        own_pause: float | None = None
        while not reason:
            attempt += 1  # numbers go on after interrupted attempts; the caps count the rest
            gate = self.semaphores[task.spec.provider]
            if (gate.locked() or pacer.concurrency.full) and not self._replies_prepared:
                self._replies_prepared = True  # every slot taken: the first wave is on its way
                asyncio.get_running_loop().call_later(PREPARE_REPLIES_AFTER_S, self.prepare_replies)
            async with pacer.slot() as seen:
                ticket = await pacer.admit(task.key, lambda: task.prompt.counted_tokens, own_pause=own_pause)
                async with gate:
                    # recorded before the request leaves: a process killed now leaves a visible, counted attempt
                    call_id = await self._in_db(
                        self._record,
                        task,
                        attempt=attempt,
                        replaces_call_id=previous,
                        status="sent",
                        priority=Priority.SEND,
                    )
                    self._handed(task)
                    outcome: CallOutcome = await judge.call(
                        task.prompt.system,
                        task.prompt.user,
                        self.schema,
                        SCHEMA_NAME,
                        cache_prefix_chars=task.prompt.shared_chars,
                    )
                seen.append(outcome)
                own_pause = pacer.settle(ticket, outcome)
            outcome = scrub_outcome(judge, outcome)  # the key out of every stored form of the reply
            self.stats.calls_sent += 1
            pricing = task.spec.pricing
            cost = (
                pricing.cost_usd(
                    outcome.input_tokens, outcome.output_tokens, outcome.cached_input_tokens, outcome.cache_write_tokens
                )
                if pricing
                else None
            )
            self.stats.cost_usd += cost or 0.0
            self.stats.input_tokens += outcome.input_tokens or 0
            self.stats.output_tokens += outcome.output_tokens or 0
            # the raw reply is committed first, exactly as received; parsing comes after
            previous = call_id
            await self._in_db(
                self._update,
                call_id,
                status="received"
                if outcome.ok
                else ("invalid" if outcome.error_kind in INVALID_OUTPUT_KINDS else "error"),
                error_kind=outcome.error_kind,
                error_message=outcome.error_message,
                http_status=outcome.http_status,
                raw_reply=outcome.raw_reply,
                raw_reply_sha256=sha256_text(outcome.raw_reply),
                parsed=outcome.parsed,
                input_tokens=outcome.input_tokens,
                output_tokens=outcome.output_tokens,
                cached_input_tokens=outcome.cached_input_tokens,
                cache_write_tokens=outcome.cache_write_tokens,
                cost_usd=cost,
                latency_s=outcome.latency_s,
            )
            grade, kind, message = None, outcome.error_kind, outcome.error_message
            if outcome.ok:
                grade, kind, message = await self._settle(previous, outcome.parsed, outcome.raw_reply)
            if grade is not None:
                return TaskResult(task, "ok", previous, grade, attempt)
            self.stats.attempts_failed += 1
            refused = is_capacity_refusal(outcome)
            if refused:  # the provider's capacity, no failure of the judge: not counted toward the attempt cap
                limited += 1
                self.stats.capacity_refusals += 1
            else:
                counted += 1
            reason = f"{kind}: {message or ''}".strip()
            if not is_retryable(kind) or counted >= policy.max_attempts:
                break
            if limited >= policy.max_rate_limited:
                reason = f"{reason} (the {limited}th refusal for capacity: the cap of {policy.max_rate_limited})"
                break
            reason = ""
            await self.sleep(retry_delay(policy, limited if refused else counted, outcome.retry_after_s))
        self.stats.gaps.append(f"{task.spec.judge_id} × {task.contestant_key} (repeat {task.repeat}): {reason}")
        return TaskResult(task, "failed", previous, None, attempt, reason)

    async def _run_windowed(self, task: Task, chain: WindowedTasks) -> TaskResult:
        """The windows (concurrently, each an ordinary task: stored, retried, reused), then the whole-horizon pass
        from their grades; a window without a grade leaves the record ungraded (a gap, said which window)."""
        results = await asyncio.gather(*(self.run_task(t) for t in chain.windows))
        failed = [(k, r) for k, r in enumerate(results, 1) if r.parsed is None]
        if failed:
            reason = "; ".join(f"window {k} of {len(results)}: {r.reason or r.status}" for k, r in failed)
            return TaskResult(task, "failed", failed[0][1].call_id, None, 0, reason)
        final = chain.final([r.parsed for r in results if r.parsed is not None])  # every one, past the check
        await self._in_db(_store_prompt_and_preload, self, final, priority=Priority.SEND)
        result = await self.run_task(final)
        return TaskResult(task, result.status, result.call_id, result.parsed, result.attempts, result.reason)

    async def run_all(self, tasks: list[Task], on_result: Callable[[TaskResult], None]) -> None:
        self.preload_completed([w.key for t in tasks for w in (t.windowed.windows if t.windowed else [t])])
        self.preload_attempts(tasks)

        try:
            await asyncio.gather(*(self.run_and_deliver(t, on_result) for t in tasks))
        finally:
            self.shutdown()

    async def run_and_deliver(self, task: Task, on_result) -> None:
        """Run one task and hand its result to ``on_result`` (the progress callback after)."""
        try:
            result = await self.run_task(task)
        finally:
            self._handed(task)
        await self.deliver(on_result, result)
        if self.progress is not None:
            self.progress()

    def shutdown(self) -> None:
        self._verify.shutdown(wait=True)
        self._db.shutdown(wait=True)

    async def deliver(self, on_result, result: TaskResult) -> None:
        """Hand a task's result to ``on_result`` on the verifier thread; what it returns (a function of no
        arguments: the grade's rows to write, or None) then runs on the storage threads after the urgent writes."""
        write = await asyncio.get_running_loop().run_in_executor(self._verify, partial(on_result, result))
        if write is not None:
            await self._in_db(write, priority=Priority.STORE)

    async def _in_db(self, fn, *args, priority: Priority = Priority.REPLY, **kwargs):
        return await asyncio.wrap_future(self._db.submit(priority, partial(fn, *args, **kwargs)))


def _store_prompt_and_preload(runner: CallRunner, task: Task) -> None:
    """A whole-horizon pass's prompt stored, and an earlier process's completed call of it found, before it is sent."""
    with session_scope(runner.db_url) as s:
        store_prompt(s, task.prompt)
        runner.preload_completed([task.key], s)
