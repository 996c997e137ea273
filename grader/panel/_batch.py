"""Grading through the providers' batch APIs (``grader grade --batch``, ``grader batch status|collect RUN``).

The same tasks, content addresses, retry cap and audit trail as synchronous calls (``_runner``), another transport:

- Submission: per judge one batch of every task that needs a call. The batch row (``submitting``) and one
  ``queued`` call row per request (its ``custom_id`` is the call's own id) are committed before the request
  leaves; the provider's batch id is stored as soon as it answers.
- Collection: a batch the provider says has ended is read once; each result is stored on its call exactly as
  received (raw reply first, then parsed, as a synchronous reply is), priced at the panel's batch rate. A request
  without a result (expired, cancelled) is a failed attempt.
- Retries: a failed attempt that may be retried (transport, timeout, 429, 5xx, unparseable or off-schema) goes into
  the next batch as a new attempt linked to the one it replaces, up to the panel's attempt cap across processes.
  A request the provider refused for capacity (a result with 429 / RESOURCE_EXHAUSTED or Anthropic's
  ``rate_limit_error`` / ``overloaded_error``, or a submission refused with 429/529: each of its requests) is a
  stored, linked attempt
  that never counts toward that cap, as in the synchronous path: ``max_rate_limited`` refusals end its chain.
- Resuming: every step reads its state from the database, so ``collect`` can be run again at any time. A batch
  left ``submitting`` by a process that died before the provider answered is marked ``lost`` and its calls
  ``interrupted`` (sent again; never counted toward the cap: our crash is no failure of the judge). A batch the provider no longer knows is ``lost``.
- Completed calls are reused by content address, as synchronous ones are (a batch result serves a later
  synchronous run with the same inputs, and the other way round).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import defer

from grader.judges import BatchApiError, BatchItem, BatchJudge, BatchResult, CallOutcome, scrub_outcome
from grader.panel._pacing import is_capacity_refusal
from grader.panel._runner import CallRunner
from grader.panel._stored_rows import stored_row
from grader.panel._tasks import INTERRUPTED, SCHEMA_NAME, Task, TaskResult, is_refused_attempt, sha256_text
from grader.storage import JudgeBatchRow, JudgeCallRow, session_scope

DEFAULT_POLL_S = 30.0


@dataclass
class BatchProgress:
    """Where a batch run stands after one step."""

    submitted: int = 0
    """Requests submitted in this step."""
    collected: int = 0
    """Results stored in this step."""
    open_batches: list[str] = field(default_factory=list)
    """'judge: provider batch id (status, counts)' of every batch still awaiting results."""
    problems: list[str] = field(default_factory=list)

    @property
    def pending(self) -> bool:
        return bool(self.open_batches)


class BatchRunner(CallRunner):
    """Submits, polls and collects provider batches for a run's tasks, recording every attempt."""

    async def run(
        self, tasks: list[Task], on_result, *, wait: bool, poll_s: float = DEFAULT_POLL_S, on_poll=None
    ) -> BatchProgress:
        """One step (collect what has ended, submit what needs a call); with ``wait``, steps until no batch is
        open (``on_poll(progress)`` after each)."""
        self.preload_completed([t.key for t in tasks])
        total = BatchProgress()
        try:
            while True:
                progress = await self.step(tasks, on_result)
                total.submitted += progress.submitted
                total.collected += progress.collected
                total.problems += progress.problems
                total.open_batches = progress.open_batches
                if on_poll is not None:
                    on_poll(progress)
                if not wait or not progress.pending:
                    return total
                await self.sleep(poll_s)
        finally:
            self.shutdown()

    async def step(self, tasks: list[Task], on_result) -> BatchProgress:
        progress = BatchProgress()
        by_key = {(t.spec.judge_id, t.contestant_row_id, t.repeat): t for t in tasks}
        await self._in_db(self._abandon_unsubmitted)
        await self._collect(by_key, on_result, progress)
        await self._submit(tasks, on_result, progress)
        with session_scope(self.db_url) as s:
            for b in s.scalars(
                select(JudgeBatchRow).where(JudgeBatchRow.run_id == self.run_id, JudgeBatchRow.status == "submitted")
            ):
                progress.open_batches.append(
                    f"{b.judge_id}: {b.provider_batch_id} ({b.provider_status}, {b.request_count} requests)"
                )
        return progress

    # -- state of the run's calls ---------------------------------------------------------------------------------

    def _latest_calls(self) -> dict[tuple[str, int, int], list[JudgeCallRow]]:
        """Every attempt of this run per (judge, contestant, repeat), oldest first (reused and dry-run rows aside),
        without their stored replies (read again only for a reply stored and not yet parsed: :meth:`_reply_of`)."""
        out: dict[tuple[str, int, int], list[JudgeCallRow]] = defaultdict(list)
        with session_scope(self.db_url) as s:
            for row in s.scalars(
                select(JudgeCallRow)
                .where(JudgeCallRow.run_id == self.run_id, JudgeCallRow.status.notin_(("reused", "dry_run")))
                .options(defer(JudgeCallRow.raw_reply), defer(JudgeCallRow.parsed))
                .order_by(JudgeCallRow.id)
            ):
                s.expunge(row)
                out[(row.judge_id, row.contestant_id, row.repeat)].append(row)
        return out

    def _reply_of(self, call_id: int) -> tuple[dict | None, str]:
        with session_scope(self.db_url) as s:
            row = stored_row(s, JudgeCallRow, call_id)
            return row.parsed, row.raw_reply or ""

    def _abandon_unsubmitted(self) -> None:
        """A batch still ``submitting`` was left by a process that died before the provider answered: lost, its
        calls interrupted (sent again in a new batch, not counted toward the cap)."""
        with session_scope(self.db_url) as s:
            for b in s.scalars(
                select(JudgeBatchRow).where(JudgeBatchRow.run_id == self.run_id, JudgeBatchRow.status == "submitting")
            ):
                b.status = "lost"
                b.error_message = (
                    "the submitting process stopped before the provider answered; if the provider "
                    "received it, its results cannot be matched here (check the provider's console)"
                )
                for call in s.scalars(
                    select(JudgeCallRow).where(JudgeCallRow.batch_id == b.id, JudgeCallRow.status == "queued")
                ):
                    call.status, call.error_kind = "interrupted", "interrupted"
                    call.error_message = "the batch it was in was never confirmed by the provider"

    # -- collecting ---------------------------------------------------------------------------------------------

    async def _collect(self, by_key, on_result, progress: BatchProgress) -> None:
        with session_scope(self.db_url) as s:
            batches = [
                (b.id, b.judge_id, b.provider_batch_id)
                for b in s.scalars(
                    select(JudgeBatchRow)
                    .where(JudgeBatchRow.run_id == self.run_id, JudgeBatchRow.status == "submitted")
                    .order_by(JudgeBatchRow.id)
                )
            ]
        for batch_row_id, judge_id, provider_batch_id in batches:
            judge: BatchJudge | None = self.judges.get(judge_id)
            if judge is None:
                progress.problems.append(f"{judge_id}: batch {provider_batch_id} belongs to a judge this panel lacks")
                continue
            if provider_batch_id is None:  # (a batch is marked submitted with the provider's id)
                progress.problems.append(f"{judge_id}: batch {batch_row_id} is submitted without a provider batch id")
                continue
            try:
                state = await judge.batch_state(provider_batch_id)
            except BatchApiError as error:
                if error.lost:
                    await self._in_db(self._lose, batch_row_id, str(error))
                progress.problems.append(f"{judge_id}: {error}")
                continue
            await self._in_db(
                self._update_batch,
                batch_row_id,
                provider_status=state.status,
                counts=state.counts,
                raw_status=state.raw,
                checked_at=datetime.now(UTC),
            )
            if not state.ended:
                continue
            try:
                results = await judge.batch_results(provider_batch_id)
            except BatchApiError as error:
                progress.problems.append(f"{judge_id}: {error}")
                continue
            progress.collected += await self._store_results(batch_row_id, results, by_key, on_result)

    async def _store_results(self, batch_row_id: int, results: list[BatchResult], by_key, on_result) -> int:
        with session_scope(self.db_url) as s:
            queued = {
                c.custom_id: (c.id, (c.judge_id, c.contestant_id, c.repeat))
                for c in s.scalars(
                    select(JudgeCallRow).where(JudgeCallRow.batch_id == batch_row_id, JudgeCallRow.status == "queued")
                )
            }
        stored = 0
        for result in results:
            call = queued.pop(result.custom_id, None)
            if call is None:  # already stored by an earlier collect, or not ours
                continue
            call_id, key = call
            task = by_key.get(key)
            if task is None:
                continue
            grade = await self._store_outcome(
                task, call_id, scrub_outcome(self.judges[task.spec.judge_id], result.outcome)
            )
            stored += 1
            if grade is not None:
                await self.deliver(on_result, TaskResult(task, "ok", call_id, grade))
                if self.progress is not None:
                    self.progress()
        for custom_id, (call_id, key) in queued.items():  # no result for it in an ended batch
            task = by_key.get(key)
            if task is not None:
                await self._store_outcome(
                    task,
                    call_id,
                    CallOutcome(
                        False, "", error_kind="timeout", error_message=f"batch: no result for request {custom_id}"
                    ),
                )
        await self._in_db(self._update_batch, batch_row_id, status="collected", collected_at=datetime.now(UTC))
        return stored

    async def _store_outcome(self, task: Task, call_id: int, outcome: CallOutcome) -> dict | None:
        """Store a batch result on its call as a synchronous reply is stored (raw first), then parse it."""
        pricing = task.spec.pricing
        cost = (
            pricing.cost_usd(
                outcome.input_tokens,
                outcome.output_tokens,
                outcome.cached_input_tokens,
                outcome.cache_write_tokens,
                batch=True,
            )
            if pricing
            else None
        )
        self.stats.cost_usd += cost or 0.0
        self.stats.input_tokens += outcome.input_tokens or 0
        self.stats.output_tokens += outcome.output_tokens or 0
        await self._in_db(
            self._update,
            call_id,
            status="received" if outcome.ok else ("invalid" if outcome.error_kind in ("format", "schema") else "error"),
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
        if not outcome.ok:
            self.stats.attempts_failed += 1
            if is_capacity_refusal(outcome):  # stored and linked; not counted toward the cap (see _submit)
                self.stats.capacity_refusals += 1
            return None
        grade, _, _ = await self._settle(call_id, outcome.parsed, outcome.raw_reply)
        if grade is None:
            self.stats.attempts_failed += 1
        return grade

    def _lose(self, batch_row_id: int, why: str) -> None:
        with session_scope(self.db_url) as s:
            b = stored_row(s, JudgeBatchRow, batch_row_id)
            b.status, b.error_message = "lost", why
            for call in s.scalars(
                select(JudgeCallRow).where(JudgeCallRow.batch_id == batch_row_id, JudgeCallRow.status == "queued")
            ):
                call.status, call.error_kind, call.error_message = "error", "transport", f"batch lost: {why}"

    def _refuse(self, batch_row_id: int, why: str, http_status: int | None) -> None:
        """A submission the provider refused for capacity (429/529): the batch never existed there; each of its
        calls is a refused attempt (sent again in the next step, not counted toward the attempt cap)."""
        with session_scope(self.db_url) as s:
            b = stored_row(s, JudgeBatchRow, batch_row_id)
            b.status, b.error_message = "lost", f"submission refused for capacity: {why}"
            for call in s.scalars(
                select(JudgeCallRow).where(JudgeCallRow.batch_id == batch_row_id, JudgeCallRow.status == "queued")
            ):
                call.status, call.http_status = "error", http_status
                call.error_kind = "server" if http_status == 529 else "rate_limited"
                call.error_message = f"batch submission refused for capacity: {why}"

    def _update_batch(self, batch_row_id: int, **values) -> None:
        with session_scope(self.db_url) as s:
            b = s.get(JudgeBatchRow, batch_row_id)
            for k, v in values.items():
                setattr(b, k, v)

    # -- submitting ---------------------------------------------------------------------------------------------

    async def _submit(self, tasks: list[Task], on_result, progress: BatchProgress) -> None:
        calls = await self._in_db(self._latest_calls)
        policy = self.panel.retry
        wanted: dict[str, list[tuple[Task, int, int | None]]] = defaultdict(list)  # judge -> (task, attempt, prev)
        for task in tasks:
            attempts = calls.get((task.spec.judge_id, task.contestant_row_id, task.repeat), [])
            last = attempts[-1] if attempts else None
            if last is not None and last.status in ("ok", "queued"):
                continue
            last_kind = last.error_kind if last is not None else None
            if last is not None and last.status == "received":  # stored, not yet parsed (a process died between)
                grade, last_kind, _ = await self._settle(last.id, *await self._in_db(self._reply_of, last.id))
                if grade is not None:
                    await self.deliver(on_result, TaskResult(task, "ok", last.id, grade))
                    continue
            if task.key in self._completed:  # content-addressed: served by a stored reply, nothing sent
                await self.deliver(on_result, await self.run_task(task))
                continue
            made = max((c.attempt for c in attempts), default=0)
            # neither our own crashes nor the provider's refusals for capacity (429/529) count toward the cap
            refused = sum(1 for c in attempts if is_refused_attempt(c))
            counted = sum(1 for c in attempts if c.status not in INTERRUPTED) - refused
            if (
                last is not None
                and last_kind not in _RETRYABLE
                or counted >= policy.max_attempts
                or refused >= policy.max_rate_limited
            ):
                continue  # a gap: the attempts are on record
            wanted[task.spec.judge_id].append((task, made + 1, last.id if last is not None else None))
        for judge_id, items in wanted.items():
            progress.submitted += await self._submit_one(judge_id, items, progress)

    async def _submit_one(
        self, judge_id: str, items: list[tuple[Task, int, int | None]], progress: BatchProgress
    ) -> int:
        judge: BatchJudge = self.judges[judge_id]
        spec = items[0][0].spec
        batch_row_id, requests = await self._in_db(self._record_submission, judge_id, spec, items)
        try:
            state = await judge.batch_submit(requests, self.schema, SCHEMA_NAME)
        except BatchApiError as error:
            if error.refused:  # the provider's capacity: the attempts stay on record, never counted toward the cap
                await self._in_db(self._refuse, batch_row_id, str(error), error.http_status)
                self.stats.attempts_failed += len(requests)
                self.stats.capacity_refusals += len(requests)
            else:
                await self._in_db(self._lose, batch_row_id, f"submission failed: {error}")
            progress.problems.append(f"{judge_id}: {error}")
            return 0
        await self._in_db(
            self._update_batch,
            batch_row_id,
            provider_batch_id=state.batch_id,
            status="submitted",
            provider_status=state.status,
            counts=state.counts,
            raw_status=state.raw,
            checked_at=datetime.now(UTC),
        )
        return len(requests)

    def _record_submission(self, judge_id: str, spec, items) -> tuple[int, list[BatchItem]]:
        """The batch row and one queued call per request, committed before anything leaves."""
        with session_scope(self.db_url) as s:
            batch = JudgeBatchRow(
                run_id=self.run_id,
                judge_id=judge_id,
                provider=spec.provider,
                model=spec.model,
                status="submitting",
                request_count=len(items),
            )
            s.add(batch)
            s.flush()
            requests = []
            for task, attempt, previous in items:
                row = JudgeCallRow(
                    run_id=self.run_id,
                    judge_id=judge_id,
                    provider=spec.provider,
                    model=spec.model,
                    contestant_id=task.contestant_row_id,
                    repeat=task.repeat,
                    cache_key=task.key,
                    prompt_sha256=task.prompt.sha256,
                    attempt=attempt,
                    replaces_call_id=previous,
                    status="queued",
                    batch_id=batch.id,
                )
                s.add(row)
                s.flush()
                row.custom_id = f"call-{row.id}"
                requests.append(
                    BatchItem(row.custom_id, task.prompt.system, task.prompt.user, task.prompt.shared_chars)
                )
            self.stats.calls_sent += len(requests)
            return batch.id, requests


_RETRYABLE = frozenset({"transport", "timeout", "rate_limited", "server", "format", "schema", "interrupted"})


def open_batches(db_url: str | None, run_id: str) -> list[JudgeBatchRow]:
    """The run's batches, newest last (detached rows)."""
    with session_scope(db_url) as s:
        rows = list(s.scalars(select(JudgeBatchRow).where(JudgeBatchRow.run_id == run_id).order_by(JudgeBatchRow.id)))
        for r in rows:
            s.expunge(r)
        return rows


async def refresh_states(db_url: str | None, run_id: str, judges: dict) -> list[JudgeBatchRow]:
    """Ask each provider where the run's open batches stand and store the answers (nothing is collected)."""
    for b in open_batches(db_url, run_id):
        # (a batch is marked submitted with the provider's id)
        if b.status != "submitted" or b.judge_id not in judges or b.provider_batch_id is None:
            continue
        try:
            state = await judges[b.judge_id].batch_state(b.provider_batch_id)
        except BatchApiError as error:
            with session_scope(db_url) as s:
                stored_row(s, JudgeBatchRow, b.id).error_message = str(error)
            continue
        with session_scope(db_url) as s:
            row = stored_row(s, JudgeBatchRow, b.id)
            row.provider_status, row.counts, row.raw_status = state.status, state.counts, state.raw
            row.checked_at, row.error_message = datetime.now(UTC), None
    return open_batches(db_url, run_id)
