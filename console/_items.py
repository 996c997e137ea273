"""Calibration items as a person reads them: the decision and its trades, the rationale in full, the snapshot the
judges were shown as a table (the fields the rationale mentions first), earlier decisions of the window folded.

A run grades a calibration set when its season is the set's derived bundle (same content hash); the set's
stored items say which decisions each item is and what the judges saw at each."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
from pydantic import BaseModel
from sqlalchemy import select

from grader.calibration import calibration_set_of
from grader.storage import ContestantRow, DecisionRow, session_scope


class ItemDecision(BaseModel):
    key: str
    decided_at: Any
    trades: list[dict]
    allocation: list[dict] | None
    rationale: str
    confidence: float | None
    facts: str = ""
    snapshot: list[dict]


class CalibrationItemView(BaseModel):
    set_id: str
    label: str
    stratum: str
    reason: str
    first: int
    last: int
    decisions: list[ItemDecision]


def item_view(run_id: str, contestant_row_id: int, db_url: str | None = None) -> CalibrationItemView | None:
    """The item behind a calibration run's contestant row, or None when the run grades no calibration set."""
    found = calibration_set_of(run_id, db_url)
    if found is None:
        return None
    with session_scope(db_url) as s:
        c = s.get(ContestantRow, contestant_row_id)
        item = found["items"].get(c.contestant_key) if c is not None else None
        if item is None:
            return None
        wanted = {key.split("@", 1)[1]: key for key in item["decision_keys"]}
        rows = s.scalars(
            select(DecisionRow).where(DecisionRow.contestant_id == contestant_row_id).order_by(DecisionRow.decided_at)
        ).all()
        decisions = []
        for d in rows:
            source_key = next((k for stamp, k in wanted.items() if _same_instant(stamp, d.decided_at)), None)
            if source_key is None:
                continue
            shown = (item.get("rationales") or {}).get(source_key)
            if shown is None:  # never show an un-anonymized rationale on the blind page
                shown = "(the anonymized rationale of this item was not stored: see the record as the judges saw it)"
            # an allocation is shown with its holdings' rationales as the judges saw them (scrubbed), never raw
            allocation = (item.get("allocations") or {}).get(source_key)
            if allocation is None and d.allocation:
                allocation = [{"symbol": a.get("symbol"), "weight": a.get("weight")} for a in d.allocation]
            decisions.append(
                ItemDecision(
                    key=source_key,
                    decided_at=d.decided_at,
                    trades=list(d.trades or []),
                    allocation=allocation,
                    rationale=shown,
                    confidence=d.confidence,
                    facts=(item.get("facts") or {}).get(source_key, ""),
                    snapshot=list((item.get("snapshot") or {}).get(source_key, [])),
                )
            )
    return CalibrationItemView(
        set_id=found["set_id"],
        label=item["label"],
        stratum=item["stratum"],
        reason=item["reason"],
        first=item["first"],
        last=item["last"],
        decisions=decisions,
    )


def _same_instant(stamp: str, when: Any) -> bool:
    from datetime import datetime

    mine = datetime.fromisoformat(stamp)
    other = when if when.tzinfo is not None else when.replace(tzinfo=mine.tzinfo)
    return abs((mine - other).total_seconds()) < 1e-3


def _mentioned_fields(rationale: str) -> set[str]:
    """Registry fields the rationale names (by field name or one of its aliases)."""
    from ledgers import FIELDS

    text = rationale.lower()
    out = set()
    for spec in FIELDS:
        for word in (spec.name, *spec.aliases):
            w = word.lower()
            if len(w) > 2 and re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", text):
                out.add(spec.name)
                break
    return out


def snapshot_table(decision: ItemDecision) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the fields the rationale mentions, every other field): symbols as rows, fields as columns, the values the
    judges were shown, formatted as they were shown (as of the last close before the decision)."""
    if not decision.snapshot:
        empty = pd.DataFrame()
        return empty, empty
    from grader.prompts import format_value

    frame = pd.DataFrame(decision.snapshot)
    frame["value"] = [format_value(f, v) for f, v in zip(frame["field"], frame["value"], strict=True)]
    wide = frame.pivot_table(index="symbol", columns="field", values="value", aggfunc="last").fillna("")
    as_of = frame.groupby("symbol")["observed_at"].max().str[:10]
    mentioned = [f for f in wide.columns if f in _mentioned_fields(decision.rationale)]
    others = [f for f in wide.columns if f not in mentioned]
    first = wide[mentioned].copy()
    first.insert(0, "as of", as_of)
    rest = wide[others].copy()
    rest.insert(0, "as of", as_of)
    return first.reset_index(), rest.reset_index()
