"""The migrations build exactly the tables the records declare, and step back down cleanly."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

import service.records  # noqa: F401  (the service's tables on Base.metadata)
from catalog.tables import Base
from service import migrate


@pytest.fixture()
def database_url(empty_database_url):
    return empty_database_url


def differences(url: str) -> list:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()


def test_the_migrated_schema_is_the_declared_one(database_url):
    migrate.upgrade(database_url)
    assert differences(database_url) == []


def test_the_latest_migrations_step_down_and_up_again(database_url):
    migrate.upgrade(database_url)
    command.downgrade(migrate.alembic_config(database_url), "0004")
    migrate.upgrade(database_url)
    assert differences(database_url) == []
