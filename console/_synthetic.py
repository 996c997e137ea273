"""A synthetic graded run for the console's tests and benchmark (never a judge's output).

It imports a season bundle and stores, through the real storage models and the real scoring engine,
what a grading run stores: prompts, judge calls, schema-valid grades (``rubric.synthetic_grade``: the
verdict says they are synthetic), claim ledgers with point-in-time evidence read from the season's
closes, and a scored version. The run type is ``mock`` so every page labels it as scripted.
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from grader.storage import (
    ContestantRow,
    GradeRow,
    JudgeCallRow,
    LedgerEntryRow,
    PromptRow,
    RunRow,
    contestant_map,
    import_season,
    session_scope,
)

if TYPE_CHECKING:
    from grader.season import Decision

DEFAULT_JUDGES: tuple[tuple[str, str], ...] = (
    ("judge-openai", "openai"),
    ("judge-anthropic", "anthropic"),
    ("judge-xai", "xai"),
)


@dataclass(frozen=True)
class SyntheticRun:
    run_id: str
    season_id: int
    contestants: int
    grades: int
    ledger_entries: int
    score_version: int


def _last_close_day(days: list[date], day: date) -> date | None:
    """The last day with a close strictly before ``day`` (what was known at the decision), else None."""
    i = bisect.bisect_left(days, day)
    return days[i - 1] if i > 0 else None


def _record_text(alias: str, decisions: Sequence[Decision]) -> str:
    lines = [f"# Decision record of {alias} (synthetic prompt for tests and benchmarks)", ""]
    for d in decisions:
        trades = "; ".join(f"{t.side} {t.quantity:g} {t.symbol} @ {t.price:g}" for t in d.trades) or "hold"
        lines.append(f"## {d.decided_at.isoformat()} — {trades}")
        lines.append(d.rationale)
        lines.append("")
    return "\n".join(lines)


def build_synthetic_run(
    season_dir: str | Path,
    run_id: str,
    *,
    db_url: str | None = None,
    judges: tuple[tuple[str, str], ...] = DEFAULT_JUDGES,
    claims_per_grade: int = 6,
    rubric_name: str = "v0.4",
    seed: int = 0,
) -> SyntheticRun:
    """Store a synthetic mock run of ``season_dir`` under ``run_id`` and score it."""
    from grader.panel import season_outcomes
    from grader.scoring import judge_composite, rubric_for_judges, store_score_version
    from grader.season import load_bundle
    from rubric import load_rubric, synthetic_grade

    bundle = load_bundle(Path(season_dir))
    rubric = load_rubric(rubric_name)
    _, outcomes, pending = season_outcomes(bundle)
    rng = np.random.default_rng(seed)
    prices = bundle.prices
    closes: dict[tuple[str, date], float] = {
        (symbol, day): float(close)
        for symbol, day, close in zip(prices["symbol"], prices["date"], prices["close"], strict=True)
    }
    days_of: dict[str, list[date]] = {}
    for sym, day in sorted(closes):
        days_of.setdefault(sym, []).append(day)
    universe = [u.symbol for u in bundle.info.universe if u.symbol in days_of]
    scoring_rubric = rubric_for_judges(rubric, [j for j, _ in judges], dict(judges))
    n_grades = n_entries = 0
    with session_scope(db_url) as s:
        imported = import_season(s, bundle)
        s.add(
            RunRow(
                id=run_id,
                season_id=imported.season_id,
                run_type="mock",
                rubric_id=rubric.id,
                rubric_hash=rubric.content_hash,
                judge_facing_hash=rubric.judge_facing_hash,
                panel_name="synthetic",
                panel_hash=hashlib.sha256(b"synthetic").hexdigest(),
                repeats=1,
                status="complete",
                official_eligible=False,
            )
        )
        s.flush()
        rows = contestant_map(s, imported.season_id)
        by_contestant: dict[str, list] = {c.id: [] for c in bundle.contestants}
        for d in bundle.decisions:
            by_contestant[d.contestant_id].append(d)
        for i, c in enumerate(bundle.contestants):
            row: ContestantRow = rows[c.id]
            decisions = by_contestant[c.id]
            user = _record_text(f"Contestant {i + 1:03d}", decisions)
            system = rubric.instructions
            sha = hashlib.sha256(json.dumps([system, user]).encode()).hexdigest()
            if s.get(PromptRow, sha) is None:
                s.add(PromptRow(sha256=sha, system=system, user=user, token_estimate=len(user) // 4))
                s.flush()
            quality = float(rng.uniform(35, 85))
            for judge_id, family in judges:
                bias = 6.0 if family == c.provider_family else 0.0
                reasoning = {
                    k: int(np.clip(round(quality + bias + rng.normal(0, 8)), 0, 100))
                    for k in rubric.axes.reasoning.ids()
                }
                evidence = {
                    k: int(np.clip(round(quality + bias + rng.normal(0, 8)), 0, 100))
                    for k in rubric.axes.evidence.ids()
                }
                claims, ledger = [], []
                picks: np.ndarray | list[int] = (
                    rng.choice(len(decisions), size=min(claims_per_grade, len(decisions)), replace=False)
                    if decisions
                    else []
                )
                for k in sorted(int(p) for p in picks):
                    d = decisions[k]
                    symbol = d.trades[0].symbol if d.trades else universe[int(rng.integers(len(universe)))]
                    day = d.decided_at.date()
                    observed = _last_close_day(days_of[symbol], day)
                    if observed is None:
                        continue
                    value = closes[(symbol, observed)]
                    wrong = rng.random() < 0.2
                    claimed = value * (1.25 if wrong else 1.0)
                    verifier = "contradicted" if wrong else ("supported" if rng.random() < 0.8 else "not_verifiable")
                    judge_status = (
                        verifier
                        if rng.random() < 0.8
                        else str(rng.choice(["supported", "not_verifiable", "contradicted"]))
                    )
                    text = f"{symbol} closed near {claimed:.2f} before the {day.isoformat()} decision"
                    claims.append(
                        {
                            "claim": text,
                            "decision_date": day.isoformat(),
                            "symbol": symbol,
                            "cited_fields": ["close"],
                            "status": judge_status,
                            "note": f"close {value:.2f} on {observed.isoformat()}",
                        }
                    )
                    ledger.append(
                        {
                            "claim": text,
                            "decision_date": day,
                            "symbol": symbol,
                            "cited_fields": ["close"],
                            "judge_status": judge_status,
                            "judge_note": f"close {value:.2f}",
                            "verifier_status": verifier,
                            "verifier_reason": (
                                f"close of {symbol} was {value:.2f} on {observed.isoformat()}, claim says {claimed:.2f}"
                                if wrong
                                else f"close of {symbol} on {observed.isoformat()} matches {value:.2f}"
                            ),
                            "evidence": [
                                {
                                    "symbol": symbol,
                                    "field": "close",
                                    "value": round(value, 4),
                                    "observed_at": observed.isoformat(),
                                    "source": "market/prices.csv",
                                }
                            ],
                            "flags": [] if judge_status == verifier else ["judge_disagrees"],
                            "disagrees": judge_status != verifier,
                            "lookahead": False,
                        }
                    )
                outcome_ok = (not pending) and bool(outcomes.get(c.id, {}).get("available", True))
                grade = synthetic_grade(
                    rubric,
                    reasoning=reasoning,
                    evidence=evidence,
                    outcome=int(np.clip(round(quality + rng.normal(0, 10)), 0, 100)) if outcome_ok else None,
                    data_reliability=int(np.clip(round(quality + rng.normal(0, 5)), 0, 100)),
                    claims=claims,
                )
                comp = judge_composite(grade, scoring_rubric, outcome_ok)
                call = JudgeCallRow(
                    run_id=run_id,
                    judge_id=judge_id,
                    provider="synthetic",
                    model=f"{family}-mock",
                    contestant_id=row.id,
                    repeat=0,
                    cache_key=hashlib.sha256(f"{run_id}{judge_id}{c.id}".encode()).hexdigest(),
                    prompt_sha256=sha,
                    status="ok",
                    parsed=grade,
                )
                s.add(call)
                s.flush()
                g = GradeRow(
                    run_id=run_id,
                    judge_id=judge_id,
                    judge_family=family,
                    contestant_id=row.id,
                    repeat=0,
                    call_id=call.id,
                    grade=grade,
                    reasoning=comp.reasoning,
                    evidence=comp.evidence,
                    process=comp.process,
                    outcome=comp.outcome,
                    data_reliability=grade["data_reliability"]["score"],
                    composite=comp.composite,
                    lookahead_passed=True,
                    verdict=grade["verdict"],
                    summary=grade["summary"],
                )
                s.add(g)
                s.flush()
                s.add_all(
                    LedgerEntryRow(
                        grade_id=g.id, run_id=run_id, judge_id=judge_id, contestant_id=row.id, position=p, **e
                    )
                    for p, e in enumerate(ledger)
                )
                n_grades += 1
                n_entries += len(ledger)
        season_id = imported.season_id
    version = store_score_version(
        db_url, run_id, rubric, outcomes, pending, [j for j, _ in judges], n_grades, note="synthetic"
    )
    return SyntheticRun(
        run_id=run_id,
        season_id=season_id,
        contestants=len(bundle.contestants),
        grades=n_grades,
        ledger_entries=n_entries,
        score_version=version,
    )
