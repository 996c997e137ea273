"""provider batches: one row per batch a run submitted (OpenAI Batch, Anthropic Message Batches, xAI Batch); each
judge call sent in one names its batch and the id its result is matched by; prompts record how much of the record
is shared with other records (where a cache breakpoint goes)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 11:50:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'judge_batches',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('run_id', sa.String(length=200), nullable=False),
        sa.Column('judge_id', sa.String(length=100), nullable=False),
        sa.Column('provider', sa.String(length=50), nullable=False),
        sa.Column('model', sa.String(length=200), nullable=False),
        sa.Column('provider_batch_id', sa.String(length=200), nullable=True),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('provider_status', sa.String(length=50), nullable=True),
        sa.Column('request_count', sa.Integer(), nullable=False),
        sa.Column('counts', sa.JSON(), nullable=True),
        sa.Column('raw_status', sa.Text(), nullable=True),
        sa.Column('error_message', sa.Text(), nullable=True),
        sa.Column('submitted_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('checked_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('collected_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['run_id'], ['runs.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_judge_batches_run', 'judge_batches', ['run_id', 'status'])
    op.add_column('judge_calls', sa.Column('batch_id', sa.Integer(), nullable=True))
    op.add_column('judge_calls', sa.Column('custom_id', sa.String(length=64), nullable=True))
    op.create_index('ix_calls_batch', 'judge_calls', ['batch_id'])
    op.add_column('prompts', sa.Column('shared_chars', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('prompts') as batch:
        batch.drop_column('shared_chars')
    op.drop_index('ix_calls_batch', table_name='judge_calls')
    with op.batch_alter_table('judge_calls') as batch:
        batch.drop_column('custom_id')
        batch.drop_column('batch_id')
    op.drop_index('ix_judge_batches_run', table_name='judge_batches')
    op.drop_table('judge_batches')
