"""quotes, revisions, numbering and idempotency keys

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 05:05:23.336944
"""
import sqlalchemy as sa
from alembic import op

import catalog.tables

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
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
    op.create_table('quote_counters',
    sa.Column('year', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('last', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('year')
    )
    op.create_table('quotes',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('account_id', sa.String(length=36), nullable=False),
    sa.Column('api_key_id', sa.String(length=36), nullable=True),
    sa.Column('number', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('lock_version', sa.Integer(), nullable=False),
    sa.Column('customer', sa.JSON(), nullable=False),
    sa.Column('sizing_id', sa.String(length=36), nullable=True),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.Column('updated_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('number')
    )
    with op.batch_alter_table('quotes', schema=None) as batch_op:
        batch_op.create_index('ix_quotes_account_created', ['account_id', 'created_at', 'id'], unique=False)

    op.create_table('quote_revisions',
    sa.Column('quote_id', sa.String(length=36), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('catalog_version_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=40), nullable=False),
    sa.Column('document', sa.JSON(), nullable=False),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['catalog_version_id'], ['catalog_versions.id'], ),
    sa.ForeignKeyConstraint(['quote_id'], ['quotes.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('quote_id', 'revision')
    )


def downgrade() -> None:
    op.drop_table('quote_revisions')
    with op.batch_alter_table('quotes', schema=None) as batch_op:
        batch_op.drop_index('ix_quotes_account_created')

    op.drop_table('quotes')
    op.drop_table('quote_counters')
    op.drop_table('idempotency_keys')
