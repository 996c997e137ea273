"""human grades record the hash of the rubric they were given under, not only its id

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 09:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('human_grades', sa.Column('rubric_hash', sa.String(length=64), nullable=True))
    # existing grades were entered against their run's rubric: its hash is the run's
    op.execute(sa.text("update human_grades set rubric_hash = "
                       "(select runs.rubric_hash from runs where runs.id = human_grades.run_id)"))


def downgrade() -> None:
    with op.batch_alter_table('human_grades') as batch:
        batch.drop_column('rubric_hash')
