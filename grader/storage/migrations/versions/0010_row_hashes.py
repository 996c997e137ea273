"""row hashes: the SHA-256 of each derived row written after a run's manifest (scored versions and their contestant
scores, human grades, ledger annotations, calibration sets), recorded when the row is written, with a label naming
it (version number, contestant, annotator); rows that exist when this migration runs are recorded as they stand

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 02:10:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'row_hashes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('run_id', sa.String(length=200), nullable=False),
        sa.Column('kind', sa.String(length=30), nullable=False),
        sa.Column('ref', sa.String(length=200), nullable=False),
        sa.Column('label', sa.Text(), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('kind', 'ref', name='uq_row_hashes_kind_ref'),
    )
    op.create_index('ix_row_hashes_run_kind', 'row_hashes', ['run_id', 'kind'])
    from sqlalchemy.orm import Session

    from grader.storage._row_hashes import record_all_row_hashes

    session = Session(bind=op.get_bind())
    record_all_row_hashes(session)
    session.flush()


def downgrade() -> None:
    op.drop_index('ix_row_hashes_run_kind', table_name='row_hashes')
    op.drop_table('row_hashes')
