"""sizing lease in its own heartbeat column

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 05:35:55.763468
"""
import sqlalchemy as sa
from alembic import op

import catalog.tables

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('heartbeat_at', catalog.tables.UTCDateTime(), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.drop_column('heartbeat_at')

