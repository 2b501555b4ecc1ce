"""drop catalog tables and columns nothing reads

Prices, stock and tax rates are read from the catalog version's document; the per-row copies in
catalog_server_prices, catalog_stock and catalog_regions.tax_rate were kept in step and never read.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 09:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table('catalog_stock')
    op.drop_table('catalog_server_prices')
    with op.batch_alter_table('catalog_regions', schema=None) as batch_op:
        batch_op.drop_column('tax_rate')


def downgrade() -> None:
    with op.batch_alter_table('catalog_regions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tax_rate', sa.Numeric(18, 6), nullable=False,
                                      server_default='0'))
    op.create_table('catalog_server_prices',
                    sa.Column('version_id', sa.Integer(), nullable=False),
                    sa.Column('server_id', sa.String(length=64), nullable=False),
                    sa.Column('region_id', sa.String(length=64), nullable=False),
                    sa.Column('hourly_usd', sa.Numeric(18, 6), nullable=False),
                    sa.Column('monthly_usd', sa.Numeric(18, 6), nullable=False),
                    sa.Column('setup_fee_usd', sa.Numeric(18, 6), nullable=False),
                    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'],
                                            ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('version_id', 'server_id', 'region_id'))
    op.create_table('catalog_stock',
                    sa.Column('version_id', sa.Integer(), nullable=False),
                    sa.Column('region_id', sa.String(length=64), nullable=False),
                    sa.Column('server_id', sa.String(length=64), nullable=False),
                    sa.Column('available_nodes', sa.Integer(), nullable=False),
                    sa.Column('lead_time_days', sa.Integer(), nullable=False),
                    sa.ForeignKeyConstraint(['version_id'], ['catalog_versions.id'],
                                            ondelete='CASCADE'),
                    sa.PrimaryKeyConstraint('version_id', 'region_id', 'server_id'))
