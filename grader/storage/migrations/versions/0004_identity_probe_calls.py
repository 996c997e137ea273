"""identity-guess probe calls: one row per attempt, stored as sent before the request leaves

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 20:10:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'identity_probe_calls',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('run_id', sa.String(length=200), sa.ForeignKey('runs.id'), nullable=False),
        sa.Column('judge_id', sa.String(length=200), nullable=False),
        sa.Column('item_key', sa.String(length=400), nullable=False),
        sa.Column('true_family', sa.String(length=100), nullable=False),
        sa.Column('candidates', sa.JSON(), nullable=False),
        sa.Column('prompt_sha256', sa.String(length=64), nullable=False),
        sa.Column('attempt', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('guess', sa.String(length=100), nullable=True),
        sa.Column('confidence', sa.Float(), nullable=True),
        sa.Column('raw_reply', sa.Text(), nullable=True),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('input_tokens', sa.Integer(), nullable=True),
        sa.Column('output_tokens', sa.Integer(), nullable=True),
        sa.Column('latency_s', sa.Float(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('completed_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_probe_calls_run_judge', 'identity_probe_calls', ['run_id', 'judge_id', 'status'])


def downgrade() -> None:
    op.drop_index('ix_probe_calls_run_judge', table_name='identity_probe_calls')
    op.drop_table('identity_probe_calls')
