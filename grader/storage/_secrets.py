"""Per-season alias secrets (``alias_secrets``): read or created once, never shown."""

from __future__ import annotations

import secrets

from sqlalchemy.exc import IntegrityError

from grader.storage._engine import session_scope
from grader.storage._models import AliasSecretRow


def alias_secret(season_key: str, db_url: str | None = None, *, create: bool = True) -> str:
    """The season's alias secret; created (32 random bytes) on first use when ``create``, else "" when none is
    stored (a season graded before secrets existed keeps its public seed, so its cached calls stay valid)."""
    with session_scope(db_url) as s:
        row = s.get(AliasSecretRow, season_key)
        if row is not None or not create:
            return row.secret if row is not None else ""
    try:
        with session_scope(db_url) as s:
            s.add(AliasSecretRow(season_key=season_key, secret=secrets.token_hex(32)))
    except IntegrityError:  # another process created it first: use theirs
        pass
    with session_scope(db_url) as s:
        row = s.get(AliasSecretRow, season_key)
        assert row is not None
        return row.secret


__all__ = ["alias_secret"]
