"""Run manifests: what a run is checked against.

A manifest holds the SHA-256 of the season files, the rubric, the panel (its content is stored with the run), every
prompt and every raw reply, and of everything derived from them: each call's parsed reply, each grade (its JSON and
scores), each grade's ledger entries and each scored version's rows. ``grader verify`` recomputes every hash,
re-derives each grade from the reply it came from, and names anything that changed (``_verify``)."""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import Text, cast, select

from grader.storage import (
    ContestantScoreRow,
    GradeRow,
    JudgeCallRow,
    LedgerEntryRow,
    RunRow,
    ScoreVersionRow,
)


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
