"""A judge task and the rules every attempt at it shares, synchronous or batch: its content address, the attempts
that count toward the cap, the claim limit of a reply, what a task's run leaves (``TaskResult``, ``RunStats``).
Re-exported by ``grader.panel._runner``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field

from grader.judges import JudgeSpec
from grader.prompts import JudgePrompt
from grader.storage import JudgeCallRow

SCHEMA_NAME = "judge_grade"
INTERRUPTED = ("sent", "interrupted")
"""Statuses of an attempt our own process cut off (never a failure of the judge: not counted toward the cap)."""


def is_refused_attempt(row: JudgeCallRow) -> bool:
    """A stored attempt the provider refused for capacity (429 / gRPC RESOURCE_EXHAUSTED, Anthropic's 529
    overloaded): on record and linked like any attempt, never counted toward the attempt cap (no failure of the
    judge; ``RetryPolicy.max_rate_limited`` bounds these instead). Synchronous and batch attempts alike."""
    return row.status not in INTERRUPTED and (row.error_kind == "rate_limited" or row.http_status == 529)


def cache_key(spec: JudgeSpec, prompt: JudgePrompt, schema: dict, repeat: int, mock: dict | None = None) -> str:
    """The content address of a call: what is sent and to whom; for a mock judge also its scripted settings (seed,
    noise, bias, failure script, latency), so a changed mock panel never reuses an old mock grade."""
    payload = {
        "provider": spec.provider,
        "model": spec.model,
        "max_output_tokens": spec.max_output_tokens,
        "temperature": spec.temperature,
        "system": prompt.system,
        "user": prompt.user,
        "schema": schema,
        "repeat": repeat,
        **({"mock": mock} if mock is not None else {}),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


MAX_CLAIMS = 1000
"""The most claims one judge reply may put in its ``claim_ledger`` (the reference judge's longest ledger on the
bundled seasons has 431). A reply with more is an invalid attempt (``schema``): kept as received, never scored, no
ledger row written. The reference judge, our own code, is not held to it."""


def claims_over_limit(parsed: dict | None) -> str | None:
    """Why a reply's claim ledger is over ``MAX_CLAIMS``, or None."""
    claims = parsed.get("claim_ledger") if isinstance(parsed, dict) else None
    if isinstance(claims, list) and len(claims) > MAX_CLAIMS:
        return f"claim_ledger has {len(claims):,} claims, over the limit of {MAX_CLAIMS:,}: not scored"
    return None


def sha256_text(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Task:
    spec: JudgeSpec
    contestant_key: str
    contestant_row_id: int
    prompt: JudgePrompt
    repeat: int
    key: str
    windowed: WindowedTasks | None = None
    """A record graded in windows (``grader.panel._windowed``): this task runs its windows' tasks, then the
    whole-horizon pass built from their grades; its result is the pass's."""


@dataclass
class WindowedTasks:
    windows: list[Task]
    final: Callable[[list[dict]], Task]
    """The windows' grades (in order) -> the whole-horizon pass's task."""


@dataclass
class TaskResult:
    task: Task
    status: str  # ok | reused | failed | dry_run
    call_id: int | None = None
    parsed: dict | None = None
    attempts: int = 0
    reason: str = ""


@dataclass
class RunStats:
    calls_sent: int = 0
    calls_reused: int = 0
    attempts_failed: int = 0
    gaps: list[str] = field(default_factory=list)
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    capacity_refusals: int = 0
    """Attempts refused for capacity (429, 529): stored and linked, never counted toward the attempt cap."""


GradeParser = Callable[[dict | None, str], tuple[dict | None, list[str]]]
"""(parsed JSON or None, raw text) -> (valid grade dict or None, problems)."""
