"""Pacing a judge's requests under its provider's rate limits: token buckets, adaptive concurrency, jittered retries.

One :class:`JudgePacer` per judge of a run:

- **Token buckets** (GCRA: a request leaves at once when the bucket has caught up, then owes its cost at the
  bucket's rate) for each limit known: requests, tokens, input tokens, output tokens per minute, from the panel
  file's ``rate_limits`` or, when it gives none, from the limits the provider's replies state in their headers.
  A bucket runs at ``HEADROOM`` of its limit, so limits are approached, not hit. A request's input cost is its
  prompt counted offline (``grader.prompts.count_tokens``) times what the provider's usage figures taught so far
  (its tokenizer is not ours); its output cost is ``max_output_tokens`` until replies show the judge's mean
  (OpenAI counts ``max_tokens`` against the limit the same way). Each reply settles the difference.
- **Headers**: a reply saying little is left of a limit holds that bucket until the deficit is made up; a limit
  lower than the panel file's is adopted.
- **Retry-After** pauses the whole judge (the key is limited, not one request), at most the panel's ``max_delay_s``.
  The requests the pause holds leave spread over ``RETRY_AFTER_SPREAD`` of it past its end, each at its own drawn
  moment, and the buckets restart empty after it: the waiting requests never leave in one wave, whether a limit is
  known or not (a wave of refusals arriving over 200 ms kept extending the pause, and every retry that had waited
  out its own came back together at the last one's end).
- **Adaptive concurrency** (AIMD): the judge's slots (at most the provider's ``concurrency``) halve on a 429 or a
  529 (once per wave: refusals of requests sent before the last cut do not cut again) and grow back by one per
  window of successes.
- :func:`retry_delay`: full jitter for backoff; Retry-After plus a jittered spread, so a burst of 429s carrying the
  same Retry-After never comes back in lockstep. Every wait is capped by the panel's ``max_delay_s``.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from grader.judges import LIMIT_KINDS, CallOutcome, JudgeSpec, RateLimitSnapshot
from grader.panel._config import RetryPolicy

__all__ = [
    "BURST_S",
    "HEADROOM",
    "AdaptiveConcurrency",
    "JudgePacer",
    "Ticket",
    "TokenBucket",
    "is_capacity_refusal",
    "retry_delay",
]

HEADROOM = 0.98
"""The share of a limit the buckets pace at: room for the provider's window edges and counting differences."""

BURST_S = 0.25
"""Seconds of its rate a bucket may bank while idle or behind (GCRA's burst tolerance): a process that fell behind
for a moment (a busy machine) catches up instead of losing the time; a sliver of a provider's 60 s window."""

RETRY_AFTER_SPREAD = 0.5
"""A wait after Retry-After is Retry-After plus up to this share of it (at least of ``base_delay_s``), drawn."""


def retry_delay(
    policy: RetryPolicy, attempt: int, retry_after_s: float | None, rng: random.Random | None = None
) -> float:
    """How long to wait before the next attempt, never more than the panel's ``max_delay_s``.

    Without Retry-After: full jitter, uniform in [0, ``base_delay_s`` x 2^(attempt-1)]. With it: Retry-After plus
    a uniform spread of up to ``RETRY_AFTER_SPREAD`` x max(Retry-After, ``base_delay_s``), so refusals answered at
    the same moment do not come back together. A Retry-After past ``max_delay_s`` (``86400`` from a hostile or
    broken endpoint) waits between three quarters of ``max_delay_s`` and all of it; the attempt caps end the
    chain."""
    draw = (rng or random).uniform
    cap = max(0.0, policy.max_delay_s)
    if retry_after_s is None:
        return draw(0.0, min(cap, policy.base_delay_s * 2 ** max(0, attempt - 1)))
    wanted = max(0.0, retry_after_s)
    if wanted >= cap:
        return draw(0.75 * cap, cap)
    spread = min(cap - wanted, RETRY_AFTER_SPREAD * max(wanted, policy.base_delay_s))
    return wanted + draw(0.0, spread)


def is_capacity_refusal(outcome: CallOutcome) -> bool:
    """A refusal for capacity: 429 (gRPC RESOURCE_EXHAUSTED) or Anthropic's 529 overloaded. No failure of the judge:
    it never counts toward the attempt cap (``RetryPolicy.max_rate_limited`` bounds these instead)."""
    return outcome.error_kind == "rate_limited" or outcome.http_status == 529


class TokenBucket:
    """A GCRA bucket: ``tat`` is when it has caught up with what was taken; a request leaves once ``tat`` is not
    in the future and pushes it on by its cost at ``rate`` (units a second), from no further back than ``BURST_S``
    before now."""

    def __init__(self, per_minute: float, *, clock: Callable[[], float]) -> None:
        self.per_minute = per_minute
        self.rate = per_minute / 60.0 * HEADROOM
        self.tat = clock() - BURST_S
        self._clock = clock

    def ready_at(self) -> float:
        return self.tat

    def take(self, at: float, amount: float) -> None:
        self.tat = max(self.tat, at - BURST_S) + amount / self.rate

    def settle(self, difference: float) -> None:
        """A cost turned out ``difference`` larger (or, negative, smaller) than taken: owe it, or get it back (never
        back past now: time not used is gone)."""
        now = self._clock()
        if difference >= 0:
            self.tat = max(self.tat, now - BURST_S) + difference / self.rate
        elif self.tat > now - BURST_S:
            self.tat = max(now - BURST_S, self.tat + difference / self.rate)

    def hold_until(self, when: float) -> None:
        self.tat = max(self.tat, when)


class AdaptiveConcurrency:
    """At most ``limit`` requests of a judge in flight; AIMD: halved on a capacity refusal (once per wave), plus
    1/limit on every success (so one more slot per window of successes), between 1 and ``maximum``. Waiters are
    served first come, first served, a freed slot handed to the next one directly."""

    def __init__(self, maximum: int, *, clock: Callable[[], float]) -> None:
        self.maximum = max(1, maximum)
        self.limit = float(self.maximum)
        self.in_use = 0
        self.cuts = 0
        self._cut_at = -math.inf
        self._clock = clock
        self._waiters: deque[asyncio.Future[None]] = deque()

    @property
    def slots(self) -> int:
        return max(1, int(self.limit))

    @property
    def full(self) -> bool:
        return self.in_use >= self.slots

    async def acquire(self) -> float:
        """Take a slot (waiting for one); returns when it was taken."""
        if self.in_use < self.slots and not self._waiters:
            self.in_use += 1
            return self._clock()
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed a slot as it was cancelled: pass it on
                self.in_use -= 1
                self._hand_over()
            elif waiter in self._waiters:
                self._waiters.remove(waiter)
            raise
        return self._clock()

    def release(self, *, refused: bool | None, taken_at: float) -> None:
        """Give the slot back; ``refused``: True on a capacity refusal, False on a success, None otherwise."""
        self.in_use -= 1
        if refused and taken_at >= self._cut_at:
            self.limit = max(1.0, self.limit / 2)
            self._cut_at = self._clock()
            self.cuts += 1
        elif refused is False and self.limit < self.maximum:
            self.limit = min(float(self.maximum), self.limit + 1.0 / self.limit)
        self._hand_over()

    def _hand_over(self) -> None:
        while self._waiters and self.in_use < self.slots:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self.in_use += 1
                waiter.set_result(None)


@dataclass
class Ticket:
    """What one request was charged, settled when its reply is in."""

    costs: dict[str, float]
    counted_input: int
    input_estimate: float
    output_estimate: float
    taken_at: float = 0.0


@dataclass
class _Usage:
    counted: int = 0
    reported: int = 0
    outputs: int = 0
    replies: int = 0


@dataclass
class JudgePacer:
    """One judge's pacing (see the module): buckets, slots, pauses, and what its replies taught."""

    spec: JudgeSpec
    max_concurrency: int
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, TokenBucket] = field(default_factory=dict)
    paused_until: float = 0.0
    pause_spread: float = 0.0
    """Past ``paused_until``, the span over which the requests the pause held leave, each at a drawn moment."""
    rng: random.Random = field(default_factory=random.Random)
    max_pause_s: float = math.inf
    """The longest a Retry-After pauses the judge: the panel's ``max_delay_s`` (a hostile ``Retry-After: 3600``
    held every other request of the judge for an hour)."""
    refusals: int = 0
    _usage: _Usage = field(default_factory=_Usage)
    _counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.concurrency = AdaptiveConcurrency(self.max_concurrency, clock=self.clock)
        if self.spec.rate_limits is not None:
            for kind, per_minute in self.spec.rate_limits.per_minute().items():
                self.buckets[kind] = TokenBucket(per_minute, clock=self.clock)

    # -- estimates ---------------------------------------------------------------------------------------
    async def _counted(self, key: str, count: Callable[[], int]) -> int:
        """The prompt's offline token count, counted once, on a worker thread (the tokenizer takes milliseconds
        a prompt, which the event loop does not wait for)."""
        if key not in self._counts:
            self._counts[key] = await asyncio.to_thread(count)
        return self._counts[key]

    def input_factor(self) -> float:
        """The provider's input tokens per token we count (1 until a reply said)."""
        u = self._usage
        return u.reported / u.counted if u.counted and u.reported else 1.0

    def output_estimate(self) -> float:
        u = self._usage
        return u.outputs / u.replies if u.replies else float(self.spec.max_output_tokens)

    # -- one request ---------------------------------------------------------------------------------------
    @asynccontextmanager
    async def slot(self):
        """A slot of the judge's adaptive concurrency for one attempt; yields a list the caller appends the
        attempt's outcome to (its kind decides the AIMD step)."""
        taken_at = await self.concurrency.acquire()
        seen: list[CallOutcome] = []
        try:
            yield seen
        finally:
            outcome = seen[-1] if seen else None
            refused = (
                None if outcome is None else (True if is_capacity_refusal(outcome) else (False if outcome.ok else None))
            )
            self.concurrency.release(refused=refused, taken_at=taken_at)

    async def admit(self, key: str, count: Callable[[], int], *, own_pause: float | None = None) -> Ticket:
        """Wait until the request (prompt ``key``; ``count``: its offline token count, asked only when a token
        limit is known) may leave; charge it.
        ``own_pause``: the pause this task's own refusal set, which its retry delay has already waited out."""
        counted: int | None = None
        share = self.rng.random()  # where in the pause's release spread this request leaves, if a pause holds it
        while True:
            if counted is None and self.buckets.keys() - {"requests"}:  # (a bucket may be learned while waiting)
                counted = await self._counted(key, count)
            now = self.clock()
            # this task's own refusal's pause (and the buckets held up to it) its retry delay has waited out
            waited = own_pause if own_pause is not None else -math.inf
            pause = self.paused_until + share * self.pause_spread if self.paused_until > waited else 0.0
            at = max([now, pause] + [b.ready_at() for b in self.buckets.values() if b.ready_at() > waited])
            if at <= now:
                break  # nothing awaited from here to the charge below: no other request sees the buckets between
            await self.sleep(at - now)
            if self.clock() >= at or self.sleep is asyncio.sleep:
                continue
            break  # an injected sleep that does not advance the clock (tests): what was waited is on record
        counted = counted or 0
        input_estimate = counted * self.input_factor()
        output_estimate = self.output_estimate() if counted else 0.0
        every = {
            "requests": 1.0,
            "tokens": input_estimate + output_estimate,
            "input_tokens": input_estimate,
            "output_tokens": output_estimate,
        }
        costs = {kind: every[kind] for kind in self.buckets}
        now = self.clock()
        for kind, bucket in self.buckets.items():
            bucket.take(now, costs[kind])
        return Ticket(costs, counted, input_estimate, output_estimate, now)

    def settle(self, ticket: Ticket, outcome: CallOutcome) -> float | None:
        """Learn from the reply: usage corrects the buckets and the estimates, headers update them, a refusal gives
        back what it was charged (the provider did not count it) and a Retry-After pauses the judge. Returns the
        pause this refusal set (for the retry's :meth:`admit`), or None."""
        refused = is_capacity_refusal(outcome)
        actual_in = outcome.input_tokens if outcome.input_tokens is not None else None
        actual_out = outcome.output_tokens if outcome.output_tokens is not None else None
        if refused:
            actual_in, actual_out = 0, 0
            self.refusals += 1
        if outcome.ok and actual_in is not None and ticket.counted_input:
            self._usage.counted += ticket.counted_input
            self._usage.reported += actual_in
        if outcome.ok and actual_out is not None:
            self._usage.outputs += actual_out
            self._usage.replies += 1
        if actual_in is not None or actual_out is not None:
            spent = {
                "requests": 0.0 if refused else 1.0,
                "input_tokens": float(actual_in or 0),
                "output_tokens": float(actual_out or 0),
            }
            spent["tokens"] = spent["input_tokens"] + spent["output_tokens"]
            for kind, charged in ticket.costs.items():
                if kind in self.buckets:
                    self.buckets[kind].settle(spent[kind] - charged)
        if outcome.rate_limits:
            self.observe(outcome.rate_limits)
        if refused and outcome.retry_after_s is not None:
            length = min(max(0.0, outcome.retry_after_s), self.max_pause_s)
            until = self.clock() + length
            if until > self.paused_until:
                self.paused_until = until
                self.pause_spread = RETRY_AFTER_SPREAD * length
            for bucket in self.buckets.values():
                bucket.hold_until(until)
            return self.paused_until
        return None

    def observe(self, snapshot: RateLimitSnapshot) -> None:
        """A reply's rate-limit headers: a limit not known (or lower than the panel file's) becomes a bucket's; a
        limit reported nearly spent holds its bucket until the deficit is made up at the paced rate."""
        for kind in LIMIT_KINDS:
            state = snapshot.limits.get(kind)
            if state is None:
                continue
            bucket = self.buckets.get(kind)
            if state.limit and (bucket is None or state.limit < bucket.per_minute):
                fresh = TokenBucket(state.limit, clock=self.clock)
                if bucket is not None:
                    fresh.tat = bucket.tat
                self.buckets[kind] = bucket = fresh
            if bucket is None or state.remaining is None:
                continue
            typical = {"requests": 1.0, "input_tokens": self._typical_input(), "output_tokens": self.output_estimate()}
            typical["tokens"] = typical["input_tokens"] + typical["output_tokens"]
            deficit = typical[kind] - state.remaining
            if deficit > 0:
                bucket.hold_until(self.clock() + deficit / bucket.rate)

    def _typical_input(self) -> float:
        if not self._counts:
            return 0.0
        return sum(self._counts.values()) / len(self._counts) * self.input_factor()
