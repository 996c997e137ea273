"""Point-in-time store: values with the moment they became known; snapshots never look ahead."""

from grader.pit._derived import DERIVED_PRICE_FIELDS, VOLUME_FIELDS, derive_fields, wilder_rsi
from grader.pit._store import MARKET_TZ, FieldRow, PointInTimeStore, close_time
from grader.pit._types import Observation, Snapshot

__all__ = [
    "DERIVED_PRICE_FIELDS",
    "MARKET_TZ",
    "VOLUME_FIELDS",
    "FieldRow",
    "Observation",
    "PointInTimeStore",
    "Snapshot",
    "close_time",
    "derive_fields",
    "wilder_rsi",
]
