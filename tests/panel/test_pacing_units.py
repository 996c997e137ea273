"""The pacer's parts on a clock of their own (no servers): rate-limit headers read, token buckets, AIMD slots, and the
panel file's ``rate_limits`` validated with the file and field named."""

from __future__ import annotations

import asyncio
import random

import pytest

from grader.judges import CallOutcome, JudgeSpec, RateLimits, snapshot_from_headers
from grader.panel import HEADROOM, JudgePacer, PanelError, load_panel
from grader.panel._pacing import BURST_S, RETRY_AFTER_SPREAD, AdaptiveConcurrency


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_openai_and_anthropic_headers_are_read():
    openai = snapshot_from_headers(
        {
            "x-ratelimit-limit-requests": "500",
            "x-ratelimit-remaining-requests": "499",
            "x-ratelimit-reset-requests": "120ms",
            "x-ratelimit-limit-tokens": "30000",
            "x-ratelimit-remaining-tokens": "29000",
            "x-ratelimit-reset-tokens": "6m0s",
        }
    )
    assert openai.limits["requests"].remaining == 499 and openai.limits["requests"].reset_s == pytest.approx(0.12)
    assert openai.limits["tokens"].limit == 30000 and openai.limits["tokens"].reset_s == 360
    anthropic = snapshot_from_headers(
        {
            "anthropic-ratelimit-input-tokens-limit": "40000",
            "anthropic-ratelimit-input-tokens-remaining": "100",
            "anthropic-ratelimit-input-tokens-reset": "2026-01-01T00:00:30Z",
        },
        now=1767225600.0,
    )  # 2026-01-01T00:00:00Z
    state = anthropic.limits["input_tokens"]
    assert (state.limit, state.remaining, state.reset_s) == (40000, 100, 30.0)
    assert snapshot_from_headers({"content-type": "application/json"}) is None
    assert snapshot_from_headers({"x-ratelimit-remaining-tokens": "lots"}) is None


def _pacer(clock: Clock, **limits) -> JudgePacer:
    spec = JudgeSpec(
        judge_id="j",
        provider="openai",
        model="m",
        family="openai",
        max_output_tokens=100,
        rate_limits=RateLimits(**limits) if limits else None,
    )
    return JudgePacer(spec, 8, sleep=clock.sleep, clock=clock)


def test_requests_leave_at_the_paced_rate_and_usage_settles_the_estimate():
    clock = Clock()
    pacer = _pacer(clock, input_tpm=60_000)  # 1,000 tokens a second, paced at HEADROOM of it

    async def go():
        starts = []
        for _ in range(6):
            ticket = await pacer.admit("p", lambda: 500)
            starts.append(clock.now)
            pacer.settle(ticket, CallOutcome(True, "{}", input_tokens=250, output_tokens=10))
        return starts

    starts = asyncio.run(go())
    # each owes 500 counted tokens; usage says the provider counts half (250 given back, and learned): once the
    # BURST_S banked at the start is spent, requests leave 250 tokens' worth apart at HEADROOM of the rate
    assert starts[0] == 1000.0 and pacer.input_factor() == pytest.approx(0.5)
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert gaps[-1] == pytest.approx(250 / (1000 * HEADROOM)) and gaps[-2] == pytest.approx(gaps[-1])
    assert starts[-1] - starts[0] == pytest.approx(5 * 250 / (1000 * HEADROOM) - BURST_S, abs=0.01)


def test_a_refusal_gives_back_its_charge_and_retry_after_pauses_the_judge():
    clock = Clock()
    pacer = _pacer(clock, rpm=600)

    async def go():
        ticket = await pacer.admit("p", lambda: 1)
        refused = CallOutcome(False, "", error_kind="rate_limited", http_status=429, retry_after_s=2.0)
        pause = pacer.settle(ticket, refused)
        assert pause == clock.now + 2.0
        before = clock.now
        await pacer.admit("q", lambda: 1)  # another request waits out the pause, and leaves within its spread
        assert before + 2.0 <= clock.now <= before + 2.0 * (1 + RETRY_AFTER_SPREAD)
        clock.now = before  # the refused request's own retry: its delay already waited the pause out
        await pacer.admit("p", lambda: 1, own_pause=pause)

    asyncio.run(go())


def test_the_requests_a_pause_held_leave_spread_over_its_release_not_at_its_end():
    """A wave of 24 refusals, each told Retry-After 1 s, arriving over 200 ms: each sets (or extends) the pause, so
    every retry that waited out its own refusal's pause is still held by the last one. Held there, they leave each
    at its own drawn moment within RETRY_AFTER_SPREAD of the pause past its end, never together at its end (they
    did, and came back to the provider in lockstep)."""
    clock = Clock()
    pacer = _pacer(clock)
    pacer.rng = random.Random(7)
    start = clock.now

    async def go():
        tickets = [await pacer.admit(f"p{k}", lambda: 1) for k in range(24)]  # all sent at once
        own = []
        for k, ticket in enumerate(tickets):  # refused one after another
            clock.now = start + k * 0.2 / 23
            refused = CallOutcome(False, "", error_kind="rate_limited", http_status=429, retry_after_s=1.0)
            own.append(pacer.settle(ticket, refused))
        end = pacer.paused_until
        leaves = []
        for k, pause in enumerate(own):
            clock.now = pause + 0.01  # its own retry delay is over; the wave's last refusal still holds it
            await pacer.admit(f"p{k}", lambda: 1, own_pause=pause)
            leaves.append(clock.now)
        return end, sorted(leaves)

    end, leaves = asyncio.run(go())
    assert end == pytest.approx(start + 1.2)
    assert all(end <= t <= end + RETRY_AFTER_SPREAD * 1.0 for t in leaves)
    assert leaves[-1] - leaves[0] >= 0.25  # spread over the release, not one moment
    busiest = max(sum(1 for u in leaves if t <= u < t + 0.02) for t in leaves)
    assert busiest <= 6, f"{busiest} of 24 left within 20 ms"


def test_headers_teach_an_unknown_limit_and_hold_a_spent_one():
    clock = Clock()
    pacer = _pacer(clock)
    spent = snapshot_from_headers({"x-ratelimit-limit-requests": "60", "x-ratelimit-remaining-requests": "0"})
    pacer.settle(asyncio.run(pacer.admit("p", lambda: 1)), CallOutcome(True, "{}", rate_limits=spent))
    bucket = pacer.buckets["requests"]
    assert bucket.per_minute == 60
    assert bucket.ready_at() >= clock.now + 1 / HEADROOM - 1e-9  # one request's worth before the next


def test_concurrency_halves_once_per_wave_and_grows_back_slowly():
    clock = Clock()

    async def go():
        slots = AdaptiveConcurrency(8, clock=clock)
        taken = [await slots.acquire() for _ in range(8)]
        assert slots.full
        clock.now += 1
        for at in taken[:4]:  # four refusals of one wave: one cut
            slots.release(refused=True, taken_at=at)
        assert slots.limit == 4 and slots.cuts == 1
        for at in taken[4:7]:  # the rest of the wave ends (not refused, not ok: no change)
            slots.release(refused=None, taken_at=at)
        clock.now += 1
        again = await slots.acquire()
        slots.release(refused=True, taken_at=again)  # sent after the cut: cuts again
        assert slots.limit == 2 and slots.cuts == 2
        slots.release(refused=None, taken_at=taken[7])
        assert slots.in_use == 0
        for _ in range(4):  # four successes: 2 -> 2.5 -> 2.9 -> 3.24 -> 3.55 (one slot per window of them)
            slots.release(refused=False, taken_at=await slots.acquire())
        assert 3.5 < slots.limit < 3.6 and slots.slots == 3

    asyncio.run(go())


def test_a_waiter_is_handed_the_freed_slot_in_turn():
    clock = Clock()

    async def go():
        slots = AdaptiveConcurrency(1, clock=clock)
        first = await slots.acquire()
        order = []

        async def wait(name: str) -> None:
            await slots.acquire()
            order.append(name)

        waiters = [asyncio.create_task(wait(n)) for n in ("a", "b")]
        await asyncio.sleep(0)
        slots.release(refused=None, taken_at=first)
        await asyncio.sleep(0)
        assert order == ["a"] and slots.in_use == 1
        slots.release(refused=None, taken_at=first)
        await asyncio.gather(*waiters)
        assert order == ["a", "b"]

    asyncio.run(go())


PANEL = """name: limited
kind: mock
mock: {{seed: 1{provider_limits}}}
judges:
  - judge_id: j
    provider: openai
    model: m
    family: openai
{limits}"""


@pytest.mark.parametrize(
    ("limits", "provider_limits", "message"),
    [
        ("    rate_limits: {rpm: 0}\n", "", "line 9: judges.0.rate_limits.rpm: Input should be greater than 0"),
        ("    rate_limits: {}\n", "", "line 9: judges.0.rate_limits: Value error, rate_limits names no limit"),
        (
            "    rate_limits: {tpm: 1000, burst: 3}\n",
            "",
            "line 9: judges.0.rate_limits.burst: Extra inputs are not permitted",
        ),
        ("", ", provider_limits: {other: {rpm: 5}}", "provider_limits names judges not in the panel: ['other']"),
    ],
)
def test_bad_rate_limits_name_the_file_and_field(tmp_path, limits, provider_limits, message):
    path = tmp_path / "limited.yaml"
    path.write_text(PANEL.format(limits=limits, provider_limits=provider_limits))
    with pytest.raises(PanelError) as error:
        load_panel(path)
    assert str(path) in str(error.value) and message in str(error.value)


def test_rate_limits_load_and_change_the_panel_hash(tmp_path):
    path = tmp_path / "limited.yaml"
    path.write_text(PANEL.format(limits="", provider_limits=""))
    plain = load_panel(path)
    path.write_text(
        PANEL.format(
            limits="    rate_limits: {rpm: 500, input_tpm: 30000, output_tpm: 8000}\n",
            provider_limits=", provider_limits: {j: {rpm: 500, window_s: 10}}",
        )
    )
    limited = load_panel(path)
    assert limited.judges[0].rate_limits.per_minute() == {"requests": 500, "input_tokens": 30000, "output_tokens": 8000}
    assert limited.mock.provider_limits["j"].window_s == 10
    assert limited.content_hash != plain.content_hash


def test_a_panel_stored_with_its_run_hashes_as_loaded(tmp_path):
    """``runs.panel_doc`` is the panel's model_dump (defaults written out): validated again it hashes the same."""
    from grader.panel import PanelConfig

    for panel in (load_panel("mock"), load_panel("frontier")):
        assert PanelConfig.model_validate(panel.model_dump(mode="json")).content_hash == panel.content_hash
