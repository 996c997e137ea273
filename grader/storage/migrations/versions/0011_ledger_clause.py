"""ledger entries keep the clause a claim came from (free text): what a person reviewing the verdict reads

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 03:20:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns('ledger_entries')}
    if 'clause' in columns:  # a database stamped back by hand with the column in place keeps it
        return
    with op.batch_alter_table('ledger_entries') as batch:
        batch.add_column(sa.Column('clause', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('ledger_entries') as batch:
        batch.drop_column('clause')
