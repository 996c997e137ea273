"""one process per run (run_leases), the panel file's content and notes stored with each run

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 13:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'run_leases',
        sa.Column('run_id', sa.String(length=200), primary_key=True),
        sa.Column('token', sa.String(length=64), nullable=False),
        sa.Column('host', sa.String(length=255), nullable=False),
        sa.Column('pid', sa.Integer(), nullable=False),
        sa.Column('acquired_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('heartbeat_at', sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table('runs') as batch:
        batch.add_column(sa.Column('panel_doc', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('notes', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('runs') as batch:
        batch.drop_column('notes')
        batch.drop_column('panel_doc')
    op.drop_table('run_leases')
