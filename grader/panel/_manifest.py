"""Run manifests (SHA-256 of season files, rubric, panel, every prompt, every raw reply) and verification."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select

from grader.storage import JudgeCallRow, PromptRow, RunRow, SeasonRow, session_scope


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode()).hexdigest()


def build_manifest(session, run: RunRow, bundle, rubric, panel) -> dict:
    calls = session.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == run.id)
                            .order_by(JudgeCallRow.id)).all()
    prompts = sorted({c.prompt_sha256 for c in calls})
    return {
        "run_id": run.id,
        "run_type": run.run_type,
        "season": {"id": bundle.info.id, "content_hash": bundle.content_hash, "files": bundle.file_hashes},
        "rubric": {"id": rubric.id, "content_hash": rubric.content_hash,
                   "judge_facing_hash": rubric.judge_facing_hash, "path": rubric.source_path},
        "panel": {"name": panel.name, "kind": panel.kind, "hash": panel.content_hash},
        "prompts": prompts,
        "calls": [
            {"id": c.id, "judge": c.judge_id, "contestant": c.contestant_id, "repeat": c.repeat,
             "attempt": c.attempt, "status": c.status, "replaces": c.replaces_call_id,
             "reused_from": c.reused_from_call_id, "prompt_sha256": c.prompt_sha256,
             "raw_reply_sha256": c.raw_reply_sha256}
            for c in calls
        ],
    }


@dataclass
class VerifyResult:
    run_id: str
    checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_run(run_id: str, db_url: str | None = None, season_dir: Path | None = None) -> VerifyResult:
    """Recompute every hash of the run's manifest and name anything that changed."""
    from grader.panel._config import load_panel
    from grader.season import hash_bundle_files
    from rubric import load_rubric

    result = VerifyResult(run_id)
    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            result.problems.append(f"no run {run_id!r} in this database")
            return result
        m = run.manifest or {}
        if run.manifest_hash != hashlib.sha256(json.dumps(m, sort_keys=True).encode()).hexdigest():
            result.problems.append("the stored manifest itself was altered (manifest hash differs)")
        season = s.get(SeasonRow, run.season_id)
        src = Path(season_dir) if season_dir else Path(season.source_path)
        if src.is_dir():
            files, _ = hash_bundle_files(src)
            want = m.get("season", {}).get("files", {})
            for rel in sorted(set(want) | set(files)):
                result.checked += 1
                if rel not in files:
                    result.problems.append(f"season file {rel}: missing from {src}")
                elif rel not in want:
                    result.problems.append(f"season file {rel}: not in the manifest (added after the run)")
                elif files[rel] != want[rel]:
                    result.problems.append(f"season file {rel}: content changed (sha256 {files[rel][:12]} ≠ "
                                           f"{want[rel][:12]})")
        else:
            result.problems.append(f"season directory {src} not found: season files not checked")
        rub = m.get("rubric", {})
        try:
            r = load_rubric(rub.get("path") or run.rubric_id)
            result.checked += 1
            if r.content_hash != rub.get("content_hash"):
                result.problems.append(f"rubric {run.rubric_id}: content changed since the run")
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            result.problems.append(f"rubric {run.rubric_id}: cannot be loaded ({exc})")
        try:
            p = load_panel(run.panel_name)
            result.checked += 1
            if p.content_hash != m.get("panel", {}).get("hash"):
                result.problems.append(f"panel {run.panel_name}: configuration changed since the run")
        except Exception as exc:  # noqa: BLE001
            result.problems.append(f"panel {run.panel_name}: cannot be loaded ({exc})")
        for sha in m.get("prompts", []):
            result.checked += 1
            row = s.get(PromptRow, sha)
            if row is None:
                result.problems.append(f"prompt {sha[:12]}: missing from the database")
            elif hashlib.sha256(f"{row.system}\0{row.user}".encode()).hexdigest() != sha:
                result.problems.append(f"prompt {sha[:12]}: stored text changed")
        by_id = {c.id: c for c in s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id == run_id))}
        for entry in m.get("calls", []):
            result.checked += 1
            c = by_id.get(entry["id"])
            if c is None:
                result.problems.append(f"call {entry['id']} ({entry['judge']}): missing from the database")
                continue
            raw = c.raw_reply
            if raw is None and c.reused_from_call_id is not None:
                orig = s.get(JudgeCallRow, c.reused_from_call_id)
                raw = orig.raw_reply if orig else None
            if entry["raw_reply_sha256"] is not None and _sha(raw) != entry["raw_reply_sha256"]:
                result.problems.append(f"call {c.id} ({c.judge_id}, attempt {c.attempt}): raw reply changed")
            if c.prompt_sha256 != entry["prompt_sha256"]:
                result.problems.append(f"call {c.id}: prompt reference changed")
    return result
