"""Run manifests and their verification.

A manifest holds the SHA-256 of the season files, the rubric, the panel (its content is stored with the run), every
prompt and every raw reply, and of everything derived from them: each call's parsed reply, each grade (its JSON and
scores), each grade's ledger entries and each scored version's rows. ``grader verify`` recomputes every hash,
re-derives each grade from the reply it came from, and names anything that changed."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Text, cast, select

from grader.storage import (
    ContestantRow,
    ContestantScoreRow,
    GradeRow,
    JudgeCallRow,
    LedgerEntryRow,
    PromptRow,
    RunRow,
    ScoreVersionRow,
    SeasonRow,
    check_row_hashes,
    session_scope,
)


def _sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode()).hexdigest()


def _json_sha(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def _grade_doc(g: GradeRow) -> dict:
    return {
        "judge": g.judge_id,
        "contestant": g.contestant_id,
        "repeat": g.repeat,
        "call": g.call_id,
        "grade": g.grade,
        "scores": [g.reasoning, g.evidence, g.process, g.outcome, g.data_reliability, g.composite],
        "lookahead": g.lookahead_passed,
        "verdict": g.verdict,
    }


def _ledger_doc(rows: list, decode=lambda value: value) -> list:
    """The hashed form of a grade's ledger entries; ``decode`` reads the JSON columns when they come as text."""
    # the clause (0011) joins an entry's hashed form only when it has one, so runs stored before it verify unchanged
    return [
        [
            e.position,
            e.claim,
            e.symbol,
            decode(e.cited_fields),
            e.judge_status,
            e.verifier_status,
            e.verifier_reason,
            decode(e.evidence),
            decode(e.flags),
            decode(e.flag_reasons),
            e.check_path,
            e.lookahead,
            *([e.clause] if getattr(e, "clause", None) else []),
        ]
        for e in sorted(rows, key=lambda e: e.position)
    ]


def _scores_doc(rows: list[ContestantScoreRow]) -> list:
    return [
        [
            r.contestant_id,
            r.rank,
            r.total,
            r.reasoning_median,
            r.efficiency,
            r.band,
            r.judges_low,
            r.judges_high,
            r.n_judges,
            r.flagged,
            r.official_eligible,
        ]
        for r in sorted(rows, key=lambda r: r.contestant_id)
    ]


_GRADE_COLUMNS = (
    GradeRow.id,
    GradeRow.judge_id,
    GradeRow.contestant_id,
    GradeRow.repeat,
    GradeRow.call_id,
    GradeRow.grade,
    GradeRow.reasoning,
    GradeRow.evidence,
    GradeRow.process,
    GradeRow.outcome,
    GradeRow.data_reliability,
    GradeRow.composite,
    GradeRow.lookahead_passed,
    GradeRow.verdict,
)


def _as_text(column):  # noqa: ANN001, ANN202 - a JSON column read as its stored text
    return cast(column, Text).label(column.key)


# the ledger's JSON columns are read as text and each distinct value decoded once (a run's thousands of entries
# repeat a few dozen field lists, flags and reasons): the same values, a fraction of the decoding
_LEDGER_COLUMNS = (
    LedgerEntryRow.grade_id,
    LedgerEntryRow.position,
    LedgerEntryRow.claim,
    LedgerEntryRow.symbol,
    _as_text(LedgerEntryRow.cited_fields),
    LedgerEntryRow.judge_status,
    LedgerEntryRow.verifier_status,
    LedgerEntryRow.verifier_reason,
    _as_text(LedgerEntryRow.evidence),
    _as_text(LedgerEntryRow.flags),
    _as_text(LedgerEntryRow.flag_reasons),
    LedgerEntryRow.check_path,
    LedgerEntryRow.lookahead,
    LedgerEntryRow.clause,
)


def _json_decoder():  # noqa: ANN202
    """json.loads memoised per distinct text, for values that are only hashed (never changed); NULL stays None."""
    seen: dict[str, object] = {}

    def decode(text: str | None) -> object:
        if text is None:
            return None
        if text not in seen:
            seen[text] = json.loads(text)
        return seen[text]

    return decode


def derived_hashes(session, run_id: str) -> dict:
    """SHA-256 of what the run derived from its replies: parsed replies, grades, ledgers, scored versions. (Only
    the hashed columns are read, as plain rows: a run's thousands of ledger entries are never built as objects.)"""
    parsed = session.execute(
        select(JudgeCallRow.id, JudgeCallRow.parsed).where(
            JudgeCallRow.run_id == run_id, JudgeCallRow.parsed.is_not(None)
        )
    ).all()
    grades = session.execute(select(*_GRADE_COLUMNS).where(GradeRow.run_id == run_id)).all()
    ledger: dict[int, list] = {}
    for e in session.execute(select(*_LEDGER_COLUMNS).where(LedgerEntryRow.run_id == run_id)):
        ledger.setdefault(e.grade_id, []).append(e)
    versions = session.scalars(select(ScoreVersionRow.id).where(ScoreVersionRow.run_id == run_id)).all()
    decode = _json_decoder()
    return {
        "parsed": {str(c.id): _json_sha(c.parsed) for c in parsed if c.parsed is not None},
        "grades": {str(g.id): _json_sha(_grade_doc(g)) for g in grades},
        "ledgers": {str(g.id): _json_sha(_ledger_doc(ledger.get(g.id, []), decode)) for g in grades},
        "score_versions": {
            str(v): _json_sha(
                _scores_doc(session.scalars(select(ContestantScoreRow).where(ContestantScoreRow.version_id == v)).all())
            )
            for v in versions
        },
    }


def build_manifest(session, run: RunRow, bundle, rubric, panel) -> dict:
    calls = session.execute(
        select(
            JudgeCallRow.id,
            JudgeCallRow.judge_id,
            JudgeCallRow.contestant_id,
            JudgeCallRow.repeat,
            JudgeCallRow.attempt,
            JudgeCallRow.status,
            JudgeCallRow.replaces_call_id,
            JudgeCallRow.reused_from_call_id,
            JudgeCallRow.prompt_sha256,
            JudgeCallRow.raw_reply_sha256,
        )
        .where(JudgeCallRow.run_id == run.id)
        .order_by(JudgeCallRow.id)
    ).all()
    prompts = sorted({c.prompt_sha256 for c in calls})
    return {
        "derived": derived_hashes(session, run.id),
        "run_id": run.id,
        "run_type": run.run_type,
        "status": run.status,  # how the run ended (set before the manifest is built); older manifests lack it
        "season": {"id": bundle.info.id, "content_hash": bundle.content_hash, "files": bundle.file_hashes},
        "rubric": {
            "id": rubric.id,
            "content_hash": rubric.content_hash,
            "judge_facing_hash": rubric.judge_facing_hash,
            "path": rubric.source_path,
        },
        "panel": {"name": panel.name, "kind": panel.kind, "hash": panel.content_hash},
        "prompts": prompts,
        # what a run says about how it graded (e.g. a record graded in windows, then a whole-horizon pass)
        "notes": list(run.notes or []),
        "calls": [
            {
                "id": c.id,
                "judge": c.judge_id,
                "contestant": c.contestant_id,
                "repeat": c.repeat,
                "attempt": c.attempt,
                "status": c.status,
                "replaces": c.replaces_call_id,
                "reused_from": c.reused_from_call_id,
                "prompt_sha256": c.prompt_sha256,
                "raw_reply_sha256": c.raw_reply_sha256,
            }
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
        src = Path(season_dir) if season_dir else Path(season.source_path)
        if src.is_dir():
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
    fields = [
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
