"""Storage on SQLite and PostgreSQL: migrations, idempotent transactional import."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from grader.season import load_bundle
from grader.storage import (
    ContestantRow,
    DecisionRow,
    SeasonRow,
    get_engine,
    import_season,
    session_scope,
)


def test_migrations_create_every_table(db_url):
    tables = set(sa.inspect(get_engine(db_url)).get_table_names())
    for name in (
        "seasons",
        "contestants",
        "decisions",
        "runs",
        "judge_calls",
        "grades",
        "ledger_entries",
        "human_grades",
        "ledger_annotations",
        "score_versions",
        "contestant_scores",
        "prompts",
        "run_leases",
        "identity_probe_calls",
        "row_hashes",
    ):
        assert name in tables
    with get_engine(db_url).connect() as c:
        assert c.execute(sa.text("select version_num from alembic_version")).scalar() == "0012"
    # 0012: a per-season alias secret, grader-side
    assert "alias_secrets" in tables
    # 0011: a ledger entry keeps the clause its claim came from
    assert "clause" in {col["name"] for col in sa.inspect(get_engine(db_url)).get_columns("ledger_entries")}
    # 0004: identity-guess probe calls, one row per attempt
    probe = {col["name"] for col in sa.inspect(get_engine(db_url)).get_columns("identity_probe_calls")}
    assert {"run_id", "judge_id", "item_key", "true_family", "raw_reply", "guess", "status"} <= probe
    # 0003: one process per run (run_leases), the panel file's content and notes stored with each run
    assert {"panel_doc", "notes"} <= {col["name"] for col in sa.inspect(get_engine(db_url)).get_columns("runs")}
    # 0002: which verifier path checked each ledger entry, and the reason of every flag
    columns = {col["name"] for col in sa.inspect(get_engine(db_url)).get_columns("ledger_entries")}
    assert {"check_path", "flag_reasons"} <= columns


def test_import_is_idempotent_by_content_hash(db_url, tiny_bundle):
    bundle = load_bundle(tiny_bundle)
    with session_scope(db_url) as s:
        first = import_season(s, bundle)
    with session_scope(db_url) as s:
        second = import_season(s, bundle)
    assert first.created and not second.created
    assert first.season_id == second.season_id
    with session_scope(db_url) as s:
        assert s.query(SeasonRow).count() == 1
        assert s.query(ContestantRow).count() == 2
        assert s.query(DecisionRow).count() == 4
        row = s.query(DecisionRow).order_by(DecisionRow.id).first()
        assert row.decided_at.utcoffset() is not None or db_url.startswith("sqlite")


def test_import_is_transactional(db_url, tiny_bundle):
    bundle = load_bundle(tiny_bundle)
    with pytest.raises(RuntimeError), session_scope(db_url) as s:
        import_season(s, bundle)
        raise RuntimeError("crash after the rows were flushed")
    with session_scope(db_url) as s:
        assert s.query(SeasonRow).count() == 0
        assert s.query(DecisionRow).count() == 0


def test_changed_content_is_a_new_season(db_url, tiny_bundle):
    with session_scope(db_url) as s:
        a = import_season(s, load_bundle(tiny_bundle))
    (tiny_bundle / "decisions.jsonl").write_text(
        (tiny_bundle / "decisions.jsonl").read_text().replace("Holding.", "Holding still.")
    )
    with session_scope(db_url) as s:
        b = import_season(s, load_bundle(tiny_bundle))
    assert b.created and b.season_id != a.season_id
