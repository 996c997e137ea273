"""a per-season alias secret, kept grader-side: aliases no one can recompute from public inputs

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 05:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if 'alias_secrets' in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        'alias_secrets',
        sa.Column('season_key', sa.String(length=200), primary_key=True),
        sa.Column('secret', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('alias_secrets')
