"""``grader verify``: a run's manifest recomputed and compared, the run's row, its season's files and contestants, its
rubric, panel, prompts and raw replies, and everything derived from them (``_manifest`` builds the hashes)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select

from grader.panel._manifest import derived_hashes
from grader.storage import (
    ContestantRow,
    ContestantScoreRow,
    GradeRow,
    JudgeCallRow,
    PromptRow,
    RunRow,
    ScoreVersionRow,
    SeasonRow,
    check_row_hashes,
    session_scope,
)


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode()).hexdigest()


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
    from grader.panel._config import PanelConfig, load_panel
    from grader.season import hash_bundle_files, refused_entries
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
        _verify_run_row(s, run, season, m, result)
        src = Path(season_dir) if season_dir else Path(season.source_path) if season is not None else None
        if src is None:
            result.problems.append(f"season {run.season_id} not in this database: season files not checked")
        elif src.is_dir():
            files, _ = hash_bundle_files(src)
            want = m.get("season", {}).get("files", {})
            for rel in refused_entries(src):  # never read: named, so a link added after the run is seen
                result.problems.append(f"season entry {rel}: a link or special file (refused, never read)")
            for rel in sorted(set(want) | set(files)):
                result.checked += 1
                if rel not in files:
                    result.problems.append(f"season file {rel}: missing from {src}")
                elif rel not in want:
                    result.problems.append(f"season file {rel}: not in the manifest (added after the run)")
                elif files[rel] != want[rel]:
                    result.problems.append(
                        f"season file {rel}: content changed (sha256 {files[rel][:12]} ≠ {want[rel][:12]})"
                    )
            if not result.problems:
                _verify_contestants(s, run, src, result)
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
        result.checked += 1
        if run.panel_doc is not None:  # the panel as the run used it, stored with the run (a file may be gone)
            try:
                stored = PanelConfig.model_validate(run.panel_doc).content_hash
            except Exception as exc:  # noqa: BLE001 - reported, not raised
                stored = f"unreadable ({exc})"
            if stored != m.get("panel", {}).get("hash"):
                result.problems.append(f"panel {run.panel_name}: the panel stored with the run was altered")
        else:  # runs made before 0003 stored only the name of a bundled panel
            try:
                if load_panel(run.panel_name).content_hash != m.get("panel", {}).get("hash"):
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
        _verify_derived(s, run_id, m.get("derived"), by_id, result)
    return result


def _verify_contestants(s, run: RunRow, src: Path, result: VerifyResult) -> None:
    """The season's contestant rows (names, families and models readers and the self-preference audit use) against
    the unchanged bundle they were imported from."""
    from grader.season import BundleError, load_bundle

    try:
        bundle = load_bundle(src)
    except (BundleError, OSError, ValueError) as exc:
        result.problems.append(f"season {src}: cannot be loaded ({exc}): contestants not checked")
        return
    want = {c.id: (c.display_name, c.provider_family, c.model) for c in bundle.contestants}
    have = {
        c.contestant_key: (c.display_name, c.provider_family, c.model)
        for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
    }
    for key in sorted(set(want) | set(have)):
        result.checked += 1
        if key not in have:
            result.problems.append(f"contestant {key}: missing from the database")
        elif key not in want:
            result.problems.append(f"contestant {key}: not in the season (added to the database)")
        elif have[key] != want[key]:
            fields = [f for f, a, b in zip(("name", "family", "model"), have[key], want[key], strict=True) if a != b]
            result.problems.append(
                f"contestant {key}: its {' and '.join(fields)} "
                f"{'differs' if len(fields) == 1 else 'differ'} from the season's "
                "(the contestant's row edited)"
            )


def _verify_run_row(s, run: RunRow, season: SeasonRow | None, m: dict, result: VerifyResult) -> None:
    """The run's own row against its manifest: its type (a mock run relabelled official), season, rubric, panel,
    notes and (manifests written since issue 31) how it ended; and an official-eligible mark only on an official,
    complete run whose latest scored version is eligible throughout."""
    if not m:
        return
    rubric, panel = m.get("rubric", {}), m.get("panel", {})
    fields: list[tuple[str, object, object]] = [
        ("run type", run.run_type, m.get("run_type")),
        ("season", season.content_hash if season else None, m.get("season", {}).get("content_hash")),
        ("rubric", run.rubric_id, rubric.get("id")),
        ("rubric hash", run.rubric_hash, rubric.get("content_hash")),
        ("judge-facing hash", run.judge_facing_hash, rubric.get("judge_facing_hash")),
        ("panel", run.panel_name, panel.get("name")),
        ("panel hash", run.panel_hash, panel.get("hash")),
    ]
    if "notes" in m:
        fields.append(("notes", list(run.notes or []), m["notes"]))
    if "status" in m:
        fields.append(("status", run.status, m["status"]))
    for what, have, want in fields:
        result.checked += 1
        if have != want:
            said = (
                f"{have!r}, the manifest says {want!r}"
                if what in ("run type", "status", "rubric", "panel")
                else "differs from the manifest's"
            )
            result.problems.append(f"run {run.id}: its {what} {said} (the run's row edited)")
    if run.official_eligible:
        result.checked += 1
        from grader.scoring import latest_version

        latest = latest_version(s, run.id)
        rows = (
            []
            if latest is None
            else s.scalars(
                select(ContestantScoreRow.official_eligible).where(ContestantScoreRow.version_id == latest.id)
            ).all()
        )
        why = (
            ([f"it is a {run.run_type} run"] if run.run_type != "official" else [])
            + ([f"its status is {run.status!r}"] if run.status != "complete" else [])
            + (["its latest scored version is not eligible throughout"] if not rows or not all(rows) else [])
        )
        if why:
            result.problems.append(
                f"run {run.id}: marked official-eligible, but {'; '.join(why)} (the run's row edited)"
            )


def _verify_derived(s, run_id: str, want: dict | None, calls: dict, result: VerifyResult) -> None:
    """Every hash of what the run derived, and each grade re-derived from the reply it came from."""
    if want is None:
        result.problems.append(
            "the manifest has no hashes of grades, ledgers or scores (a run from before they "
            "were recorded): derived data not checked"
        )
        return
    have = derived_hashes(s, run_id)
    names = _row_names(s, run_id, want)
    labels = {
        "parsed": "parsed reply of call",
        "grades": "grade",
        "ledgers": "ledger of grade",
        "score_versions": "scored version",
    }
    for part in labels:
        for key, sha in want.get(part, {}).items():
            result.checked += 1
            if key not in have.get(part, {}):
                result.problems.append(f"{names(part, key)}: missing from the database")
            elif have[part][key] != sha:
                result.problems.append(f"{names(part, key)}: changed since the run (stored rows edited)")
        for key in set(have.get(part, {})) - set(want.get(part, {})):
            if part != "score_versions":  # a rescore adds versions after the run: checked by their row hashes
                result.problems.append(f"{names(part, key)}: not in the manifest (added after the run)")
    rows = check_row_hashes(s, run_id)  # every scored version, contestant score, human grade, annotation, set
    result.checked += rows.checked
    result.problems.extend(rows.problems)
    for g in s.scalars(select(GradeRow).where(GradeRow.run_id == run_id)):
        call = calls.get(g.call_id) if g.call_id is not None else None
        if call is None:
            continue
        source = call if call.reused_from_call_id is None else s.get(JudgeCallRow, call.reused_from_call_id)
        result.checked += 1
        if source is None or source.parsed != g.grade:
            result.problems.append(
                f"{names('grades', str(g.id))}: differs from the parsed reply of call "
                f"{getattr(source, 'id', g.call_id)} it was stored from"
            )


def _row_names(s, run_id: str, want: dict):  # noqa: ANN202
    """name(part, key): a manifest entry as a reader knows it (the run's version number, the judge and the
    contestant), not a database id alone; entries whose rows are gone keep the id (and the version's number
    when its rows still say it)."""
    keys = {
        c.id: c.contestant_key
        for c in s.scalars(
            select(ContestantRow).join(RunRow, RunRow.season_id == ContestantRow.season_id).where(RunRow.id == run_id)
        )
    }
    grades = {
        str(g.id): (g.judge_id, keys.get(g.contestant_id, g.contestant_id), g.repeat)
        for g in s.execute(
            select(GradeRow.id, GradeRow.judge_id, GradeRow.contestant_id, GradeRow.repeat).where(
                GradeRow.run_id == run_id
            )
        )
    }
    calls = {
        str(c.id): (c.judge_id, keys.get(c.contestant_id, c.contestant_id), c.attempt)
        for c in s.execute(
            select(JudgeCallRow.id, JudgeCallRow.judge_id, JudgeCallRow.contestant_id, JudgeCallRow.attempt).where(
                JudgeCallRow.run_id == run_id
            )
        )
    }
    numbers = {
        str(v.id): v.number
        for v in s.execute(select(ScoreVersionRow.id, ScoreVersionRow.number).where(ScoreVersionRow.run_id == run_id))
    }
    if not numbers.keys() & set(want.get("score_versions", {})) and len(want.get("score_versions", {})) == 1:
        numbers.update({key: 1 for key in want["score_versions"]})  # a run's manifest holds its first version

    def name(part: str, key: str) -> str:
        if part in ("grades", "ledgers"):
            what = "grade" if part == "grades" else "ledger of the grade"
            if key in grades:
                judge, contestant, repeat = grades[key]
                return (
                    f"{what} of contestant {contestant} by {judge}"
                    + (f" (repeat {repeat})" if repeat else "")
                    + f" [row {key}]"
                )
            return f"{what} [row {key}]"
        if part == "parsed":
            if key in calls:
                judge, contestant, attempt = calls[key]
                return f"parsed reply of {judge} on contestant {contestant} (attempt {attempt}) [call {key}]"
            return f"parsed reply of call {key}"
        if key in numbers:
            return f"scored version {numbers[key]} [row {key}]"
        return f"scored version [row {key}]"

    return name
