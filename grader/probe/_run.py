"""Run the identity-guess probe with a stored run's panel, on that run's season.

Every call is its own ``identity_probe_calls`` row, recorded as ``sent`` before the request leaves and filled in
with the raw reply as soon as it is in (a crash loses no paid-for call; a re-run resumes: an item a judge already
answered is never asked again, and the retry cap holds across processes). A mock panel's judges answer through
the local fakes (labelled mock, planted recognition rates in the panel file); a real panel needs
``--allow-real-api-calls`` and its keys in the environment. The reference judge is not an LLM and is not probed.
"""

from __future__ import annotations

import asyncio
import random
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select

from grader.judges import scrub_outcome
from grader.panel import retry_delay
from grader.probe._items import ProbeItem, probe_items
from grader.probe._prompt import PROBE_SCHEMA_NAME, PROBE_SYSTEM, parse_guess, probe_schema, probe_user
from grader.prompts import prompt_hash
from grader.storage import IdentityProbeCallRow, RunRow, SeasonRow, session_scope

RETRYABLE = ("transport", "timeout", "rate_limited", "server", "format", "schema")


class ProbeError(RuntimeError):
    """The probe cannot run (unknown run, reference panel, no flag for a real panel, missing keys)."""


@dataclass
class ProbeRunResult:
    run_id: str
    items: int
    candidates: list[str]
    calls_made: int = 0
    reused: int = 0
    answered: dict[str, int] = field(default_factory=dict)  # judge -> items with a valid guess
    failed: dict[str, int] = field(default_factory=dict)  # judge -> items without one


def _candidates_for(item: ProbeItem, families: list[str], seed: int) -> list[str]:
    order = list(families)
    random.Random(f"{seed}:{item.key}").shuffle(order)  # no family always first
    return order


def run_judge_probe(
    run_id: str, *, n: int = 60, seed: int = 0, allow_real_api_calls: bool = False, db_url: str | None = None
) -> ProbeRunResult:
    from grader.anonymizer import Anonymizer
    from grader.judges import make_judge, missing_api_keys
    from grader.panel import PanelConfig, anonymizer_seed, load_panel
    from grader.season import load_bundle
    from rubric import load_rubric

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise ProbeError(f"no run {run_id!r}")
        season = s.get_one(SeasonRow, run.season_id)
        source, rubric_ref = season.source_path, (run.manifest or {}).get("rubric", {}).get("path") or run.rubric_id
        panel = PanelConfig.model_validate(run.panel_doc) if run.panel_doc else load_panel(run.panel_name)
    if panel.kind == "reference":
        raise ProbeError(
            f"run {run_id} was graded by the reference judge, which is not an LLM: nothing to probe "
            "(probe a mock or real run)"
        )
    if panel.kind == "real":
        if not allow_real_api_calls:
            raise ProbeError("the probe would call real providers: pass --allow-real-api-calls")
        missing = missing_api_keys(list(panel.judges))
        if missing:
            raise ProbeError("missing API keys (set them in the environment): " + ", ".join(missing))
    bundle = load_bundle(source)
    rubric = load_rubric(rubric_ref)
    from grader.storage import alias_secret

    anon = Anonymizer.for_season(
        bundle.info, bundle.contestants, seed=anonymizer_seed(bundle, rubric, alias_secret(bundle.info.id, db_url))
    )
    items = probe_items(bundle, anon, n, seed)
    families = sorted({c.provider_family for c in bundle.contestants})
    result = ProbeRunResult(run_id=run_id, items=len(items), candidates=families)
    if not items:
        raise ProbeError("too little to probe: the season needs decisions with rationales from 2 families")
    asks = [(item, _candidates_for(item, families, seed)) for item in items]

    with ExitStack() as stack:
        specs = list(panel.judges)
        if panel.kind == "mock":
            from grader.panel import MockGrades, start_mock_servers

            table = MockGrades()
            for item, cands in asks:
                table.add_probe(PROBE_SYSTEM, probe_user(item.text, cands), item.family, cands)
            specs, _ = start_mock_servers(panel, table, stack)
        judges = {spec.judge_id: make_judge(spec, allow_real_api_calls=allow_real_api_calls) for spec in specs}
        asyncio.run(_ask_all(db_url, run_id, panel, judges, asks, result))
    return result


async def _ask_all(db_url, run_id, panel, judges: dict[str, Any], asks, result: ProbeRunResult) -> None:
    limits = {p: asyncio.Semaphore(panel.concurrency.get(p, 4)) for p in {j.spec.provider for j in judges.values()}}
    try:
        await asyncio.gather(
            *[
                _ask(db_url, run_id, panel, judge, limits[judge.spec.provider], item, cands, result)
                for judge in judges.values()
                for item, cands in asks
            ]
        )
    finally:
        for j in judges.values():
            close = getattr(j, "aclose", None)
            if close is not None:
                await close()


def _done(s, run_id: str, judge_id: str, key: str) -> tuple[IdentityProbeCallRow | None, int]:
    rows = s.scalars(
        select(IdentityProbeCallRow).where(
            IdentityProbeCallRow.run_id == run_id,
            IdentityProbeCallRow.judge_id == judge_id,
            IdentityProbeCallRow.item_key == key,
        )
    ).all()
    final = next((r for r in rows if r.status in ("ok", "invalid")), None)
    return final, len(rows)


async def _ask(db_url, run_id, panel, judge, limit, item: ProbeItem, cands: list[str], result: ProbeRunResult) -> None:
    jid = judge.spec.judge_id
    user = probe_user(item.text, cands)
    schema = probe_schema(cands)
    with session_scope(db_url) as s:
        final, attempts = _done(s, run_id, jid, item.key)
    if final is not None:
        result.reused += 1
        key = "answered" if final.status == "ok" else "failed"
        getattr(result, key)[jid] = getattr(result, key).get(jid, 0) + 1
        return
    policy = panel.retry
    status = "failed"
    while attempts < policy.max_attempts:
        attempts += 1
        with session_scope(db_url) as s:
            row = IdentityProbeCallRow(
                run_id=run_id,
                judge_id=jid,
                item_key=item.key,
                true_family=item.family,
                candidates=cands,
                prompt_sha256=prompt_hash(PROBE_SYSTEM, user),
                attempt=attempts,
                status="sent",
            )
            s.add(row)
            s.flush()
            row_id = row.id
        async with limit:
            outcome = scrub_outcome(judge, await judge.call(PROBE_SYSTEM, user, schema, PROBE_SCHEMA_NAME))
        result.calls_made += 1
        guess = conf = error = None
        if outcome.ok:
            guess, conf, error = parse_guess(outcome.parsed, cands)
            status = "ok" if error is None else "invalid"
        else:
            status, error = "failed", f"{outcome.error_kind}: {outcome.error_message or ''}".strip()
        with session_scope(db_url) as s:
            row = s.get_one(IdentityProbeCallRow, row_id)
            row.status, row.guess, row.confidence, row.raw_reply, row.error = (
                status,
                guess,
                conf,
                outcome.raw_reply,
                error,
            )
            row.input_tokens, row.output_tokens, row.latency_s = (
                outcome.input_tokens,
                outcome.output_tokens,
                outcome.latency_s,
            )
            row.completed_at = datetime.now(UTC)
        if status != "failed" or outcome.error_kind not in RETRYABLE:
            break
        await asyncio.sleep(retry_delay(policy, attempts, outcome.retry_after_s))
    key = "answered" if status == "ok" else "failed"
    getattr(result, key)[jid] = getattr(result, key).get(jid, 0) + 1


def probe_rows(run_id: str, db_url: str | None = None) -> list[dict[str, Any]]:
    """Every item's final answer per judge (the last attempt) with the judge's family from the run's panel, for
    the statistics; [] when the run was never probed."""
    from grader.panel import PanelConfig, load_panel

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            return []
        try:
            panel = PanelConfig.model_validate(run.panel_doc) if run.panel_doc else load_panel(run.panel_name)
            families = {j.judge_id: j.family for j in panel.judges}
        except Exception:  # noqa: BLE001 - a panel file gone: families unknown, the leak rates still stand
            families = {}
        latest = (
            select(
                IdentityProbeCallRow.judge_id,
                IdentityProbeCallRow.item_key,
                func.max(IdentityProbeCallRow.attempt).label("attempt"),
            )
            .where(IdentityProbeCallRow.run_id == run_id)
            .group_by(IdentityProbeCallRow.judge_id, IdentityProbeCallRow.item_key)
            .subquery()
        )
        rows = (
            s.execute(
                select(IdentityProbeCallRow)
                .join(
                    latest,
                    (IdentityProbeCallRow.judge_id == latest.c.judge_id)
                    & (IdentityProbeCallRow.item_key == latest.c.item_key)
                    & (IdentityProbeCallRow.attempt == latest.c.attempt),
                )
                .where(IdentityProbeCallRow.run_id == run_id)
            )
            .scalars()
            .all()
        )
        return [
            {
                "judge_id": r.judge_id,
                "judge_family": families.get(r.judge_id),
                "item_key": r.item_key,
                "true_family": r.true_family,
                "candidates": list(r.candidates),
                "status": r.status,
                "guess": r.guess,
                "confidence": r.confidence,
            }
            for r in rows
        ]
