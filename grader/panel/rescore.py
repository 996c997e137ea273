"""Re-score a stored run under another rubric. No judge call when the judge-facing hash is unchanged."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import select

from grader.scoring import latest_outcomes, read_stored_run, store_score_version
from grader.storage import session_scope


class RescoreNeedsRegrade(RuntimeError):
    def __init__(self, message: str, judges: list[str], contestants: list[str], panel: str):
        super().__init__(message)
        self.judges, self.contestants, self.panel = judges, contestants, panel


@dataclass
class RescoreResult:
    run_id: str
    rubric_id: str
    version: int
    seconds: float
    judge_calls: int = 0


def rescore_run(run_id: str, rubric_name: str, db_url: str | None = None) -> RescoreResult:
    from rubric import load_rubric

    rubric = load_rubric(rubric_name)
    with session_scope(db_url) as s:
        stored = read_stored_run(s, run_id)
        run, judge_ids = stored.run, stored.judges
        if rubric.judge_facing_hash != run.judge_facing_hash:
            raise RescoreNeedsRegrade(
                f"rubric {rubric.id} changes what judges see (judge-facing hash {rubric.judge_facing_hash[:12]} ≠ "
                f"{run.judge_facing_hash[:12]}): the stored grades cannot be re-scored under it",
                judge_ids,
                sorted(stored.grades),
                run.panel_name,
            )
        outcomes = latest_outcomes(s, stored)
        pending = any(bool(o.get("pending")) for o in outcomes.values())
    start = time.perf_counter()
    version = store_score_version(
        db_url, run_id, rubric, outcomes, pending, judge_ids, judge_calls=0, note=f"re-scored under {rubric.id}"
    )
    return RescoreResult(run_id, rubric.id, version, time.perf_counter() - start)


@dataclass
class RegradePlan:
    """Which contestants of a stored run see a different prompt in a season bundle (e.g. a pending round that
    has since resolved adds an outcome section): those need a judge call, the rest keep their grades."""

    run_id: str
    changed: dict[str, str]  # contestant -> why its prompt changed
    unchanged: list[str]

    def lines(self) -> list[str]:
        out = [
            f"{len(self.changed)} contestant(s) need a re-grade (their judges would see a different prompt), "
            f"{len(self.unchanged)} do not (their stored grades stand; a new grading run reuses them, 0 calls)"
        ]
        out += [f"  re-grade {cid}: {why}" for cid, why in sorted(self.changed.items())]
        if self.unchanged:
            out.append("  unchanged: " + ", ".join(sorted(self.unchanged)))
        return out


_OUTCOME_HEAD = "# OUTCOME"


def _outcome_part(user: str) -> str:
    i = user.find(_OUTCOME_HEAD)
    return user[i:] if i >= 0 else ""


def regrade_plan(run_id: str, season_dir, db_url: str | None = None) -> RegradePlan:
    """Compare the prompts a run's judges saw with those the bundle at ``season_dir`` gives now."""
    from grader.panel._prompts import judge_prompts
    from grader.season import load_bundle
    from grader.storage import ContestantRow, JudgeCallRow, PromptRow, RunRow
    from rubric import load_rubric

    bundle = load_bundle(season_dir)
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id!r}")
        rubric = load_rubric(run.rubric_id)
        keys = {
            c.id: c.contestant_key
            for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
        }
        seen: dict[str, set[str]] = {}
        for call in s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == run_id, JudgeCallRow.repeat == 0)):
            seen.setdefault(keys[call.contestant_id], set()).add(call.prompt_sha256)
        old_user: dict[str, str] = {}
        for cid, shas in seen.items():
            prompt = s.get(PromptRow, next(iter(shas))) if shas else None
            if prompt is not None:
                old_user[cid] = prompt.user
    from grader.storage import alias_secret

    *_, prompts = judge_prompts(
        bundle, rubric, secret=alias_secret(bundle.info.id, db_url, create=False) if rubric.panel.anonymize else ""
    )
    changed: dict[str, str] = {}
    unchanged: list[str] = []
    for cid, prompt in prompts.items():
        if cid not in seen:
            changed[cid] = "not graded in this run"
        elif prompt.sha256 in seen[cid]:
            unchanged.append(cid)
        elif _outcome_part(old_user.get(cid, "")) != _outcome_part(prompt.user):
            before = "pending" if "pending" in _outcome_part(old_user.get(cid, "")) else "shown"
            changed[cid] = (
                f"its outcome section changed (was {before}; a round it decided in has resolved)"
                if before == "pending"
                else "its outcome section changed"
            )
        else:
            changed[cid] = "its decision record or point-in-time data changed"
    return RegradePlan(run_id, changed, unchanged)
