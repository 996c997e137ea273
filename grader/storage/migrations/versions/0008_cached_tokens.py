"""judge calls record their prompt-cache tokens (read and written) apart from the other input tokens

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 10:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('judge_calls', sa.Column('cached_input_tokens', sa.Integer(), nullable=True))
    op.add_column('judge_calls', sa.Column('cache_write_tokens', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('judge_calls') as batch:
        batch.drop_column('cache_write_tokens')
        batch.drop_column('cached_input_tokens')
