"""Importing a validated season bundle: one transaction, idempotent by content hash."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.season import SeasonBundle
from grader.storage._models import ContestantRow, DecisionRow, SeasonRow


@dataclass(frozen=True)
class ImportResult:
    season_id: int
    created: bool
    contestants: int
    decisions: int


def import_season(session: Session, bundle: SeasonBundle) -> ImportResult:
    """Store ``bundle``; the same content hash returns the existing season unchanged."""
    existing = session.scalar(select(SeasonRow).where(SeasonRow.content_hash == bundle.content_hash))
    if existing is not None:
        n_dec = session.query(DecisionRow).filter(DecisionRow.season_id == existing.id).count()
        return ImportResult(existing.id, False, len(existing.contestants), n_dec)
    info = bundle.info
    season = SeasonRow(
        season_key=info.id,
        content_hash=bundle.content_hash,
        name=info.name,
        start=info.start,
        end=info.end,
        benchmark=info.benchmark,
        source_path=str(bundle.path.resolve()),
        info=info.model_dump(mode="json"),
        file_hashes=bundle.file_hashes,
    )
    session.add(season)
    session.flush()
    by_key: dict[str, ContestantRow] = {}
    for c in bundle.contestants:
        row = ContestantRow(
            season_id=season.id,
            contestant_key=c.id,
            display_name=c.display_name,
            provider_family=c.provider_family,
            model=c.model,
        )
        session.add(row)
        by_key[c.id] = row
    session.flush()
    session.add_all(
        DecisionRow(
            season_id=season.id,
            contestant_id=by_key[d.contestant_id].id,
            decided_at=d.decided_at,
            line=d.line,
            trades=[t.model_dump() for t in d.trades],
            allocation=[a.model_dump() for a in d.allocation] if d.allocation is not None else None,
            rationale=d.rationale,
            decision_seconds=d.decision_seconds,
            confidence=d.confidence,
            context=d.context,
            round_id=d.round_id,
        )
        for d in bundle.decisions
    )
    session.flush()
    return ImportResult(season.id, True, len(by_key), len(bundle.decisions))


def season_by_hash(session: Session, content_hash: str) -> SeasonRow | None:
    return session.scalar(select(SeasonRow).where(SeasonRow.content_hash == content_hash))


def contestant_map(session: Session, season_id: int) -> dict[str, ContestantRow]:
    rows = session.scalars(select(ContestantRow).where(ContestantRow.season_id == season_id))
    return {r.contestant_key: r for r in rows}
