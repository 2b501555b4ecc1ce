"""catalog tables and sizing records

Revision ID: 0001
Revises: 
Create Date: 2026-11-30 04:51:03.639998
"""
import sqlalchemy as sa
from alembic import op

import catalog.tables

# The type the money columns had when this revision was written (NUMERIC on PostgreSQL, text
# on SQLite); the app no longer stores money in columns (0005 drops them).
Money = sa.Numeric(18, 6).with_variant(sa.String(40), "sqlite")

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('catalog_versions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.Column('origin', sa.String(length=40), nullable=False),
    sa.Column('note', sa.String(length=500), nullable=False),
    sa.Column('content_sha256', sa.String(length=64), nullable=False),
    sa.Column('document', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('catalog_fabrics',
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('rdma', sa.Boolean(), nullable=False),
    sa.Column('line_rate_gbps', sa.Double(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('version_id', 'id')
    )
    op.create_table('catalog_gpus',
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('vendor', sa.String(length=40), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('version_id', 'id')
    )
    op.create_table('catalog_rdma_support',
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('server_id', sa.String(length=64), nullable=False),
    sa.Column('fabric_id', sa.String(length=64), nullable=False),
    sa.Column('supported', sa.Boolean(), nullable=False),
    sa.Column('gpudirect_rdma', sa.Boolean(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('version_id', 'server_id', 'fabric_id')
    )
    op.create_table('catalog_regions',
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('country', sa.String(length=2), nullable=False),
    sa.Column('tax_rate', Money, nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('version_id', 'id')
    )
    op.create_table('catalog_server_prices',
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('server_id', sa.String(length=64), nullable=False),
    sa.Column('region_id', sa.String(length=64), nullable=False),
    sa.Column('hourly_usd', Money, nullable=False),
    sa.Column('monthly_usd', Money, nullable=False),
    sa.Column('setup_fee_usd', Money, nullable=False),
    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('version_id', 'server_id', 'region_id')
    )
    op.create_table('catalog_servers',
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('gpu_id', sa.String(length=64), nullable=False),
    sa.Column('gpus_per_node', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('version_id', 'id')
    )
    op.create_table('catalog_stock',
    sa.Column('version_id', sa.Integer(), nullable=False),
    sa.Column('region_id', sa.String(length=64), nullable=False),
    sa.Column('server_id', sa.String(length=64), nullable=False),
    sa.Column('available_nodes', sa.Integer(), nullable=False),
    sa.Column('lead_time_days', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('version_id', 'region_id', 'server_id')
    )
    op.create_table('sizings',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('account_id', sa.String(length=36), nullable=True),
    sa.Column('status', sa.String(length=12), nullable=False),
    sa.Column('request', sa.JSON(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('error', sa.JSON(), nullable=True),
    sa.Column('progress', sa.Double(), nullable=False),
    sa.Column('catalog_version_id', sa.Integer(), nullable=True),
    sa.Column('created_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.Column('updated_at', catalog.tables.UTCDateTime(), nullable=False),
    sa.Column('dispatched_at', catalog.tables.UTCDateTime(), nullable=True),
    sa.Column('started_at', catalog.tables.UTCDateTime(), nullable=True),
    sa.Column('finished_at', catalog.tables.UTCDateTime(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('cancel_requested', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['catalog_version_id'], ['catalog_versions.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.create_index('ix_sizings_account_created', ['account_id', 'created_at', 'id'], unique=False)
        batch_op.create_index('ix_sizings_status_dispatched', ['status', 'dispatched_at'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('sizings', schema=None) as batch_op:
        batch_op.drop_index('ix_sizings_status_dispatched')
        batch_op.drop_index('ix_sizings_account_created')

    op.drop_table('sizings')
    op.drop_table('catalog_stock')
    op.drop_table('catalog_servers')
    op.drop_table('catalog_server_prices')
    op.drop_table('catalog_regions')
    op.drop_table('catalog_rdma_support')
    op.drop_table('catalog_gpus')
    op.drop_table('catalog_fabrics')
    op.drop_table('catalog_versions')
