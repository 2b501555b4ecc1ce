"""idempotency keys per api key, claimed before the work

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 09:30:00

Keys were stored per account with the first response: another API key of the account replayed
them. They are now per (account, API key, key), claimed before the work and then pointing at the
object made. Keys stored before this revision are dropped: they expire within a day anyway, and
replaying them across API keys is what this revision stops.
"""
import sqlalchemy as sa
from alembic import op

import catalog.tables

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table('idempotency_keys')
    op.create_table('idempotency_keys',
    sa.Column('account_id', sa.String(length=36), nullable=False),
    sa.Column('api_key_id', sa.String(length=36), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('fingerprint', sa.String(length=64), nullable=False),
    sa.Column('state', sa.String(length=8), nullable=False),
    sa.Column('resource_id', sa.String(length=36), nullable=True),
    sa.Column('status_code', sa.Integer(), nullable=True),
    sa.Column('client_secret', sa.String(length=64), nullable=True),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('account_id', 'api_key_id', 'key')
    )


def downgrade() -> None:
    op.drop_table('idempotency_keys')
    op.create_table('idempotency_keys',
    sa.Column('account_id', sa.String(length=36), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('request_sha256', sa.String(length=64), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=False),
    sa.Column('resource_id', sa.String(length=36), nullable=False),
    sa.Column('response', sa.JSON(), nullable=False),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('account_id', 'key')
    )
