"""calibration sets: reference items (one decision or a short window) sampled from a run, seeded and stored

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 10:05:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'calibration_sets',
        sa.Column('id', sa.String(length=200), nullable=False),
        sa.Column('source_run_id', sa.String(length=200), nullable=False),
        sa.Column('rubric_id', sa.String(length=200), nullable=False),
        sa.Column('rubric_hash', sa.String(length=64), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('n_items', sa.Integer(), nullable=False),
        sa.Column('window', sa.Integer(), nullable=False),
        sa.Column('bundle_path', sa.Text(), nullable=False),
        sa.Column('bundle_hash', sa.String(length=64), nullable=False),
        sa.Column('method', sa.Text(), nullable=False),
        sa.Column('items', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['source_run_id'], ['runs.id']),
        sa.PrimaryKeyConstraint('id'),
    )


def downgrade() -> None:
    op.drop_table('calibration_sets')
