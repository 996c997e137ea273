"""ledger entries: which verifier path checked each claim, and the reason of every flag

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 06:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('ledger_entries') as batch:
        batch.add_column(sa.Column('check_path', sa.String(length=12), nullable=False, server_default='text'))
        batch.add_column(sa.Column('flag_reasons', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('ledger_entries') as batch:
        batch.drop_column('flag_reasons')
        batch.drop_column('check_path')
