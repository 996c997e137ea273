"""Point-in-time observation type shared by the PIT store, the ledger verifier and prompts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Observation:
    """One field value for one symbol, known from ``observed_at`` on."""

    symbol: str
    field: str
    value: float | str
    observed_at: datetime  # timezone-aware; a daily close is observed at 16:00 America/New_York
    source: str = "prices"


Snapshot = dict[str, dict[str, Observation]]
"""symbol -> field -> latest observation at or before the as-of time."""
