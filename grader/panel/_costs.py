"""What a run cost, per judge: input tokens (uncached, read from the prompt cache, written to it), output tokens
and list-price dollars from the panel's prices; for a dry run, what it would cost (an estimate, said so).

Token counts are the providers' own (their usage figures); a dry run has only the grader's count of the prompt
(``grader.prompts.count_tokens``: cl100k_base offline, exact for GPT-4-family models, an estimate for the others)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import select

from grader.prompts import count_tokens
from grader.storage import JudgeCallRow, RunRow, session_scope

CACHE_MIN_TOKENS = 1024
"""The providers cache a prefix of at least this many tokens (OpenAI, Anthropic's larger models)."""


def _estimated_cache(spec, prefixes: list[tuple[str, int]], seen: set) -> tuple[int, int]:  # noqa: ANN001
    """(cached, written) tokens a call would have: ``prefixes`` are its cacheable prefixes (key, tokens), shortest
    first (the instructions; with them the part of the record shared with other records); the longest one this
    judge sent before is read, the rest up to the longest is written (billed as a write only where the provider
    caches at breakpoints, ``Provider.prompt_cache``)."""
    cache = spec.provider_class.prompt_cache
    if cache == "none":
        return 0, 0
    usable = [(key, tokens) for key, tokens in prefixes if tokens >= CACHE_MIN_TOKENS]
    if not usable:
        return 0, 0
    read = max((tokens for key, tokens in usable if (spec.judge_id, key) in seen), default=0)
    seen.update((spec.judge_id, key) for key, _ in usable)
    return read, (usable[-1][1] - read if cache == "breakpoints" else 0)


@dataclass
class JudgeCost:
    judge_id: str
    calls: int
    input_uncached: int
    input_cached: int
    cache_writes: int
    output: int
    dollars: float | None
    dollars_without_cache: float | None
    """The same calls synchronous and uncached, at full list price (what naive calls cost)."""
    estimate: bool
    batched: int = 0
    """Calls sent through the provider's batch API (priced at the panel's ``batch_factor``)."""
    dollars_if_batched: float | None = None
    """A dry run: the estimate had the calls gone through the provider's batch API."""
    """A dry run: prompt tokens estimated, output assumed at the judge's max_output_tokens, the instructions
    assumed cached after each judge's first call (as the providers do for a prefix of 1,024+ tokens); nothing paid."""


def run_costs(run_id: str, db_url: str | None = None) -> list[JudgeCost]:
    """Per judge of the run: every attempt that went out (reused calls cost nothing and are not counted)."""
    from grader.panel._config import PanelConfig

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id!r} in this database")
        panel = PanelConfig.model_validate(run.panel_doc) if run.panel_doc else None
        rows = s.execute(
            select(
                JudgeCallRow.judge_id,
                JudgeCallRow.status,
                JudgeCallRow.input_tokens,
                JudgeCallRow.cached_input_tokens,
                JudgeCallRow.cache_write_tokens,
                JudgeCallRow.output_tokens,
                JudgeCallRow.cost_usd,
                JudgeCallRow.batch_id,
                JudgeCallRow.prompt_sha256,
            )
            .where(JudgeCallRow.run_id == run_id)
            .order_by(JudgeCallRow.id)
        ).all()
        from grader.storage import PromptRow

        shas = {r[-1] for r in rows if r[1] == "dry_run"}
        # each prompt's cacheable prefix: the instructions and the part of the record shared with other records
        prefixes: dict[str, list[tuple[str, int]]] = {}
        counted: dict[str, int] = {}  # the same instructions and shared parts recur: counted once each

        def count(text: str) -> tuple[str, int]:
            digest = hashlib.sha256(text.encode()).hexdigest()
            if digest not in counted:
                counted[digest] = count_tokens(text)
            return digest, counted[digest]

        for sha, system, user, shared in (
            s.execute(
                select(PromptRow.sha256, PromptRow.system, PromptRow.user, PromptRow.shared_chars).where(
                    PromptRow.sha256.in_(shas)
                )
            )
            if shas
            else []
        ):
            prefixes[sha] = [count(system)]
            if shared:
                key, tokens = count(user[:shared])
                prefixes[sha].append((f"{prefixes[sha][0][0]}:{key}", prefixes[sha][0][1] + tokens))
    specs = {j.judge_id: j for j in panel.judges} if panel else {}
    out: dict[str, JudgeCost] = {}
    seen_prefix: set[tuple[str, str]] = set()
    for judge_id, status, inp, cached, written, output, cost, batch_id, sha in rows:
        if status in ("reused", "sent", "interrupted", "queued"):
            continue
        dry = status == "dry_run"
        spec = specs.get(judge_id)
        if dry and spec is not None:  # the estimate: a shared prefix cached after the first call that sends it
            cached, written = _estimated_cache(spec, prefixes.get(sha, []), seen_prefix)
        row = out.setdefault(judge_id, JudgeCost(judge_id, 0, 0, 0, 0, 0, 0.0, 0.0, dry))
        row.calls += 1
        row.batched += batch_id is not None
        cached, written = cached or 0, written or 0
        row.input_uncached += max(0, (inp or 0) - cached - written)
        row.input_cached += cached
        row.cache_writes += written
        out_tokens = (spec.max_output_tokens if dry and spec else None) or output or 0
        row.output += out_tokens
        pricing = spec.pricing if spec else None
        if pricing is None:
            row.dollars = row.dollars_without_cache = None
            continue
        if row.dollars is not None and row.dollars_without_cache is not None:  # (None together: no pricing)
            row.dollars += pricing.cost_usd(inp, out_tokens, cached, written) if dry else (cost or 0.0)
            row.dollars_without_cache += pricing.cost_usd(inp, out_tokens)
            if dry:
                row.dollars_if_batched = (row.dollars_if_batched or 0.0) + pricing.cost_usd(
                    inp, out_tokens, cached, written, batch=True
                )
    return sorted(out.values(), key=lambda r: r.judge_id)
