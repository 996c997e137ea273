"""scored versions numbered within their run, with the rubric they were scored under

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 20:20:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('score_versions') as batch:
        batch.add_column(sa.Column('number', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('rubric_doc', sa.JSON(), nullable=True))
    # existing versions: 1, 2, ... in the order they were stored, per run
    conn = op.get_bind()
    rows = conn.execute(sa.text("select id, run_id from score_versions order by run_id, id")).fetchall()
    seen: dict[str, int] = {}
    for version_id, run_id in rows:
        seen[run_id] = seen.get(run_id, 0) + 1
        conn.execute(sa.text("update score_versions set number = :n where id = :i"), {"n": seen[run_id], "i": version_id})
    # a unique index, not a constraint: SQLite would have to rebuild the table, which contestant_scores references
    op.create_index('uq_score_versions_run_number', 'score_versions', ['run_id', 'number'], unique=True)


def downgrade() -> None:
    op.drop_index('uq_score_versions_run_number', table_name='score_versions')
    with op.batch_alter_table('score_versions') as batch:
        batch.drop_column('rubric_doc')
        batch.drop_column('number')
