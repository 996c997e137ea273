"""SQLAlchemy 2 typed models: seasons, contestants, decisions, runs, judge calls, grades, ledgers, humans.

Append-only tables (judge calls, human grades, ledger annotations) are never updated in place: a correction
is a new row. Keys never reach any table: panels store the *name* of the environment variable only.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, datetime: DateTime(timezone=True)}


class SeasonRow(Base):
    __tablename__ = "seasons"
    id: Mapped[int] = mapped_column(primary_key=True)
    season_key: Mapped[str] = mapped_column(String(200), index=True)
    content_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(300))
    start: Mapped[date] = mapped_column(Date)
    end: Mapped[date] = mapped_column(Date)
    benchmark: Mapped[str] = mapped_column(String(50))
    source_path: Mapped[str] = mapped_column(Text)
    info: Mapped[dict[str, Any]] = mapped_column(JSON)
    file_hashes: Mapped[dict[str, Any]] = mapped_column(JSON)
    imported_at: Mapped[datetime] = mapped_column(default=utcnow)
    contestants: Mapped[list[ContestantRow]] = relationship(back_populates="season", order_by="ContestantRow.id")


class ContestantRow(Base):
    __tablename__ = "contestants"
    __table_args__ = (UniqueConstraint("season_id", "contestant_key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), index=True)
    contestant_key: Mapped[str] = mapped_column(String(200))
    display_name: Mapped[str] = mapped_column(String(300))
    provider_family: Mapped[str] = mapped_column(String(100))
    model: Mapped[str] = mapped_column(String(200))
    season: Mapped[SeasonRow] = relationship(back_populates="contestants")


class DecisionRow(Base):
    __tablename__ = "decisions"
    __table_args__ = (
        UniqueConstraint("contestant_id", "decided_at"),
        Index("ix_decisions_season_contestant_time", "season_id", "contestant_id", "decided_at"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"))
    contestant_id: Mapped[int] = mapped_column(ForeignKey("contestants.id"))
    decided_at: Mapped[datetime] = mapped_column()
    line: Mapped[int] = mapped_column(Integer)
    trades: Mapped[list[Any]] = mapped_column(JSON)
    allocation: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    rationale: Mapped[str] = mapped_column(Text)
    decision_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    context: Mapped[str | None] = mapped_column(Text, nullable=True)
    round_id: Mapped[str | None] = mapped_column(String(100), nullable=True)


class RunRow(Base):
    """One isolated grading run (official, stability, dry-run, mock, baseline)."""

    __tablename__ = "runs"
    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), index=True)
    run_type: Mapped[str] = mapped_column(String(20))
    rubric_id: Mapped[str] = mapped_column(String(200))
    rubric_hash: Mapped[str] = mapped_column(String(64))
    judge_facing_hash: Mapped[str] = mapped_column(String(64))
    panel_name: Mapped[str] = mapped_column(String(200))
    panel_hash: Mapped[str] = mapped_column(String(64))
    repeats: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(20), default="running")
    official_eligible: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(nullable=True)
    manifest: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    manifest_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    panel_doc: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The panel file's content as the run used it (a custom panel file can be verified without the file)."""
    notes: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """What a reader must know about the run (e.g. the panel does not fit the rubric's panel), shown in reports."""


class RunLeaseRow(Base):
    """One process per run id: the holder (host, pid) and when it last said it is alive (0003)."""

    __tablename__ = "run_leases"
    run_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    token: Mapped[str] = mapped_column(String(64))
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    acquired_at: Mapped[datetime] = mapped_column(default=utcnow)
    heartbeat_at: Mapped[datetime] = mapped_column(default=utcnow)


class PromptRow(Base):
    """Prompts, content-addressed by SHA-256 (stored once, shared by calls and dry runs)."""

    __tablename__ = "prompts"
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    system: Mapped[str] = mapped_column(Text)
    user: Mapped[str] = mapped_column(Text)
    token_estimate: Mapped[int] = mapped_column(Integer)
    shared_chars: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Characters at the start of ``user`` shared with other records (where a cache breakpoint goes; 0009)."""


class JudgeCallRow(Base):
    """One attempt at one judge call. Append-only; a retry links to the attempt it replaces."""

    __tablename__ = "judge_calls"
    __table_args__ = (
        Index("ix_calls_run_judge_contestant", "run_id", "judge_id", "contestant_id", "repeat"),
        Index("ix_calls_cache_key", "cache_key", "status"),
        Index("ix_calls_batch", "batch_id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id"))
    judge_id: Mapped[str] = mapped_column(String(100))
    provider: Mapped[str] = mapped_column(String(50))
    model: Mapped[str] = mapped_column(String(200))
    contestant_id: Mapped[int] = mapped_column(ForeignKey("contestants.id"))
    repeat: Mapped[int] = mapped_column(Integer, default=0)
    attempt: Mapped[int] = mapped_column(Integer, default=1)
    replaces_call_id: Mapped[int | None] = mapped_column(ForeignKey("judge_calls.id"), nullable=True)
    reused_from_call_id: Mapped[int | None] = mapped_column(ForeignKey("judge_calls.id"), nullable=True)
    cache_key: Mapped[str] = mapped_column(String(64))
    prompt_sha256: Mapped[str] = mapped_column(ForeignKey("prompts.sha256"))
    status: Mapped[str] = mapped_column(String(20))
    """sent (recorded before the request leaves) | queued (in a provider batch, awaiting its result) | received | ok
    | invalid | error | interrupted (our process stopped with it in flight: never re-read, never counted toward the
    attempt cap) |
    dry_run | reused"""
    error_kind: Mapped[str | None] = mapped_column(String(30), nullable=True)
    error_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    http_status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    raw_reply: Mapped[str | None] = mapped_column(Text, nullable=True)
    raw_reply_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)
    parsed: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    input_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    output_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    cached_input_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Of input_tokens, read from the provider's prompt cache (0008)."""
    cache_write_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Of input_tokens, written to the prompt cache (Anthropic bills writes; 0008)."""
    cost_usd: Mapped[float | None] = mapped_column(Float, nullable=True)
    latency_s: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    batch_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=False)
    """The provider batch this attempt was sent in (judge_batches.id; 0009), None for a synchronous call."""
    custom_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The id the batch result is matched by (0009)."""


class JudgeBatchRow(Base):
    """One provider batch a run submitted (0009): OpenAI Batch, Anthropic Message Batches or xAI Batch. Its calls
    are ``judge_calls`` rows (status ``queued`` until the result is stored) that name it in ``batch_id``.

    status: submitting (recorded before the request leaves; a process that died here leaves it visible) |
    submitted | collected (every result stored) | lost (the provider no longer knows it, or the submission failed:
    its calls are retried in a new batch)."""

    __tablename__ = "judge_batches"
    __table_args__ = (Index("ix_judge_batches_run", "run_id", "status"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id"))
    judge_id: Mapped[str] = mapped_column(String(100))
    provider: Mapped[str] = mapped_column(String(50))
    model: Mapped[str] = mapped_column(String(200))
    provider_batch_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    status: Mapped[str] = mapped_column(String(20))
    provider_status: Mapped[str | None] = mapped_column(String(50), nullable=True)
    request_count: Mapped[int] = mapped_column(Integer)
    counts: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    raw_status: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The provider's last status object for the batch, exactly as received."""
    error_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    submitted_at: Mapped[datetime] = mapped_column(default=utcnow)
    checked_at: Mapped[datetime | None] = mapped_column(nullable=True)
    collected_at: Mapped[datetime | None] = mapped_column(nullable=True)


class GradeRow(Base):
    """A valid structured grade of one contestant by one judge (one repeat), with its axis scores."""

    __tablename__ = "grades"
    __table_args__ = (UniqueConstraint("run_id", "judge_id", "contestant_id", "repeat"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id"), index=True)
    judge_id: Mapped[str] = mapped_column(String(100))
    judge_family: Mapped[str] = mapped_column(String(50))
    contestant_id: Mapped[int] = mapped_column(ForeignKey("contestants.id"))
    repeat: Mapped[int] = mapped_column(Integer, default=0)
    call_id: Mapped[int | None] = mapped_column(ForeignKey("judge_calls.id"), nullable=True)
    grade: Mapped[dict[str, Any]] = mapped_column(JSON)
    reasoning: Mapped[float] = mapped_column(Float)
    evidence: Mapped[float] = mapped_column(Float)
    process: Mapped[float] = mapped_column(Float)
    outcome: Mapped[float | None] = mapped_column(Float, nullable=True)
    data_reliability: Mapped[float | None] = mapped_column(Float, nullable=True)
    composite: Mapped[float] = mapped_column(Float)
    lookahead_passed: Mapped[bool] = mapped_column(Boolean)
    verdict: Mapped[str] = mapped_column(Text)
    summary: Mapped[str] = mapped_column(Text)


class LedgerEntryRow(Base):
    __tablename__ = "ledger_entries"
    __table_args__ = (
        Index("ix_ledger_run_judge_status", "run_id", "judge_id", "verifier_status"),
        Index("ix_ledger_run_contestant", "run_id", "contestant_id"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    grade_id: Mapped[int] = mapped_column(ForeignKey("grades.id"), index=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id"))
    judge_id: Mapped[str] = mapped_column(String(100))
    contestant_id: Mapped[int] = mapped_column(ForeignKey("contestants.id"))
    position: Mapped[int] = mapped_column(Integer)
    claim: Mapped[str] = mapped_column(Text)
    decision_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    symbol: Mapped[str | None] = mapped_column(String(50), nullable=True)
    cited_fields: Mapped[list[Any]] = mapped_column(JSON)
    judge_status: Mapped[str] = mapped_column(String(20))
    judge_note: Mapped[str] = mapped_column(Text, default="")
    verifier_status: Mapped[str] = mapped_column(String(20))
    verifier_reason: Mapped[str] = mapped_column(Text)
    evidence: Mapped[list[Any]] = mapped_column(JSON)
    flags: Mapped[list[Any]] = mapped_column(JSON)
    disagrees: Mapped[bool] = mapped_column(Boolean, default=False)
    lookahead: Mapped[bool] = mapped_column(Boolean, default=False)
    check_path: Mapped[str] = mapped_column(String(12), default="text", server_default="text")
    """structured: the judge's own structured assertions were checked (grade-v2); text: its words were parsed."""
    flag_reasons: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """flag -> the reason a reader can check (which value, which comparison)."""
    clause: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The clause of the rationale the claim came from (claims the reference judge extracted; 0011), so a person
    reviewing the verdict reads the words that decide it, not a fragment ("5s, +2.08%")."""


class ScoreVersionRow(Base):
    """A scored version of a run under one rubric; re-scoring adds a version, the old one stays."""

    __tablename__ = "score_versions"
    __table_args__ = (Index("uq_score_versions_run_number", "run_id", "number", unique=True),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id"), index=True)
    number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """1, 2, ... within the run (0005): what users call "scored version N" (``--version N``)."""
    rubric_id: Mapped[str] = mapped_column(String(200))
    rubric_hash: Mapped[str] = mapped_column(String(64))
    rubric_doc: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The rubric the version was scored under (0005): its bands and weights, even if the file is gone."""
    judge_calls: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    note: Mapped[str] = mapped_column(Text, default="")


class ContestantScoreRow(Base):
    __tablename__ = "contestant_scores"
    __table_args__ = (UniqueConstraint("version_id", "contestant_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("score_versions.id"), index=True)
    contestant_id: Mapped[int] = mapped_column(ForeignKey("contestants.id"))
    rank: Mapped[int | None] = mapped_column(Integer, nullable=True)
    total: Mapped[float | None] = mapped_column(Float, nullable=True)
    reasoning_median: Mapped[float | None] = mapped_column(Float, nullable=True)
    efficiency: Mapped[float | None] = mapped_column(Float, nullable=True)
    band: Mapped[str | None] = mapped_column(String(20), nullable=True)
    judges_low: Mapped[float | None] = mapped_column(Float, nullable=True)
    judges_high: Mapped[float | None] = mapped_column(Float, nullable=True)
    n_judges: Mapped[int] = mapped_column(Integer, default=0)
    flagged: Mapped[bool] = mapped_column(Boolean, default=False)
    official_eligible: Mapped[bool] = mapped_column(Boolean, default=False)
    outcome: Mapped[dict[str, Any]] = mapped_column(JSON)
    details: Mapped[dict[str, Any]] = mapped_column(JSON)


class HumanGradeRow(Base):
    """A human calibration grade. Append-only: author, time, rubric version (id and hash) and run are always recorded."""

    __tablename__ = "human_grades"
    __table_args__ = (Index("ix_human_run_contestant", "run_id", "contestant_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id"))
    contestant_id: Mapped[int] = mapped_column(ForeignKey("contestants.id"))
    annotator: Mapped[str] = mapped_column(String(100))
    rubric_id: Mapped[str] = mapped_column(String(200))
    rubric_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the run's rubric (SHA-256)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    reasoning: Mapped[float] = mapped_column(Float)
    evidence: Mapped[float] = mapped_column(Float)
    outcome: Mapped[float | None] = mapped_column(Float, nullable=True)
    data_reliability: Mapped[float | None] = mapped_column(Float, nullable=True)
    composite: Mapped[float | None] = mapped_column(Float, nullable=True)
    sub_scores: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    comment: Mapped[str] = mapped_column(Text, default="")


class LedgerAnnotationRow(Base):
    """A human's verdict on one ledger entry. Append-only."""

    __tablename__ = "ledger_annotations"
    id: Mapped[int] = mapped_column(primary_key=True)
    ledger_entry_id: Mapped[int] = mapped_column(ForeignKey("ledger_entries.id"), index=True)
    annotator: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    status: Mapped[str] = mapped_column(String(20))
    note: Mapped[str] = mapped_column(Text, default="")


class IdentityProbeCallRow(Base):
    """One attempt at one identity-guess probe call (0004): a judge of a run's panel, asked in a call of its own
    (never inside a grading call) which provider family wrote an anonymized decision. Recorded as ``sent`` before
    the request leaves and filled in with the raw reply as soon as it is in; ``true_family`` stays grader-side."""

    __tablename__ = "identity_probe_calls"
    __table_args__ = (Index("ix_probe_calls_run_judge", "run_id", "judge_id", "status"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[str] = mapped_column(String(200), ForeignKey("runs.id"))
    judge_id: Mapped[str] = mapped_column(String(200))
    item_key: Mapped[str] = mapped_column(String(400))
    true_family: Mapped[str] = mapped_column(String(100))
    candidates: Mapped[list[Any]] = mapped_column(JSON)
    prompt_sha256: Mapped[str] = mapped_column(String(64))
    attempt: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(20), default="sent")
    """sent | ok | invalid (a reply off the schema, kept) | failed (no reply)."""
    guess: Mapped[str | None] = mapped_column(String(100), nullable=True)
    confidence: Mapped[float | None] = mapped_column(Float, nullable=True)
    raw_reply: Mapped[str | None] = mapped_column(Text, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    input_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    output_tokens: Mapped[int | None] = mapped_column(Integer, nullable=True)
    latency_s: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(nullable=True)


class CalibrationSetRow(Base):
    """A calibration set (0007): reference items sampled from a run, each one decision or a short window of
    consecutive decisions of one contestant. Seeded and stored with the rubric it was drawn under, so the set is
    reproducible; its items are the contestants of a derived season bundle (``bundle_path``) that calibration
    runs grade, so judges and humans grade identical material."""

    __tablename__ = "calibration_sets"
    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    source_run_id: Mapped[str] = mapped_column(String(200), ForeignKey("runs.id"))
    rubric_id: Mapped[str] = mapped_column(String(200))
    rubric_hash: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(Integer)
    n_items: Mapped[int] = mapped_column(Integer)
    window: Mapped[int] = mapped_column(Integer)
    bundle_path: Mapped[str] = mapped_column(Text)
    bundle_hash: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(Text)
    """How the items were chosen, in words (shown in the report)."""
    items: Mapped[list[Any]] = mapped_column(JSON)
    """Per item: id, label, source contestant, decision keys, stratum and why it was chosen."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RowHashRow(Base):
    """The SHA-256 of one derived row, recorded in the transaction that writes it (0010): every scored version and
    its contestant scores, human calibration grades, ledger annotations, calibration sets. Append-only; ``label``
    names the row as a reader knows it (the run's version number, the contestant, the annotator), so
    ``grader verify`` can name an edited or deleted row even when the row itself is gone."""

    __tablename__ = "row_hashes"
    __table_args__ = (
        Index("ix_row_hashes_run_kind", "run_id", "kind"),
        UniqueConstraint("kind", "ref", name="uq_row_hashes_kind_ref"),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(30))
    """score_version | contestant_score | human_grade | ledger_annotation | calibration_set"""
    ref: Mapped[str] = mapped_column(String(200))
    """The row's primary key, as text."""
    label: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)


class AliasSecretRow(Base):
    """A season's alias secret (0012): mixed into the seed that orders its contestants' aliases, so the aliases a
    judge sees cannot be recomputed from public inputs (season id, contestant ids, rubric). Kept grader-side with the
    mapping, written once per season and never shown: not in manifests, prompts, reports or logs."""

    __tablename__ = "alias_secrets"
    season_key: Mapped[str] = mapped_column(String(200), primary_key=True)
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
