"""client secrets and origin of sizings and quotes

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 09:00:00

A publishable key reads back an object only with the client secret its creation returned,
stored here as its SHA-256; `origin` says whether the page (a publishable key) or the API (a
secret key) made it. Objects made before this revision have no client secret, so no publishable
key can read them again; their origin is taken from the kind of key that made them.
"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

TABLES = ('sizings', 'quotes')


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('client_secret_sha256', sa.String(length=64), nullable=True))
            batch_op.add_column(sa.Column('origin', sa.String(length=8), nullable=False,
                                          server_default='api'))
        op.execute(f"UPDATE {table} SET origin = 'page' WHERE api_key_id IN "
                   "(SELECT id FROM api_keys WHERE kind = 'publishable')")
    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.create_index('ix_sizings_account_status', ['account_id', 'status'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.drop_index('ix_sizings_account_status')
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('origin')
            batch_op.drop_column('client_secret_sha256')
