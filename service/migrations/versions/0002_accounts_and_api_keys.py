"""accounts and api keys

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 05:03:50.689479
"""
import sqlalchemy as sa
from alembic import op

import catalog.tables

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('api_keys',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('account_id', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('prefix', sa.String(length=32), nullable=False),
    sa.Column('secret_hash', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=12), nullable=False),
    sa.Column('mode', sa.String(length=8), nullable=False),
    sa.Column('scopes', sa.JSON(), nullable=False),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.Column('revoked_at', catalog.tables.UTCDateTime(), nullable=True),
    sa.Column('last_used_at', catalog.tables.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['account_id'], ['accounts.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('prefix')
    )
    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_api_keys_account_id'), ['account_id'], unique=False)

    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('api_key_id', sa.String(length=36), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.drop_column('api_key_id')

    with op.batch_alter_table('api_keys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_api_keys_account_id'))

    op.drop_table('api_keys')
    op.drop_table('accounts')
