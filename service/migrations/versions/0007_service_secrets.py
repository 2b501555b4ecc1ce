"""service secrets: the key list cursors are signed with

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 10:00:00
"""
import sqlalchemy as sa
from alembic import op

import catalog.tables

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('service_secrets',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('value', sa.String(length=128), nullable=False),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )


def downgrade() -> None:
    op.drop_table('service_secrets')
