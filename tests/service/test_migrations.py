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


ACTIVE_COUNTS = ("SELECT active_sizings, active_sizings_from_page FROM accounts "
                 "WHERE id = 'acct'")
TRUE_COUNTS = ("SELECT count(*), count(CASE WHEN origin = 'page' THEN 1 END) FROM sizings "
               "WHERE account_id = 'acct' AND status IN ('queued', 'running')")


def sizing_row(sizing_id: str, status: str, origin: str) -> str:
    return ("INSERT INTO sizings (id, account_id, origin, status, request, progress, created_at, "
            "updated_at, attempts, cancel_requested) VALUES "
            f"('{sizing_id}', 'acct', '{origin}', '{status}', '{{}}', 0, "
            "'2026-12-01 00:00:00', '2026-12-01 00:00:00', 0, false)")


def test_an_account_s_active_counts_follow_every_write_of_its_sizings(database_url):
    # Sizings written before the counts existed are counted by the migration.
    migrate.upgrade(database_url, "0008")
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO accounts (id, name, created_at) VALUES "
                                 "('acct', 'counted', '2026-12-01 00:00:00')")
            for sizing_id, status, origin in (("old-queued", "queued", "api"),
                                              ("old-running", "running", "page"),
                                              ("old-done", "succeeded", "page")):
                conn.exec_driver_sql(sizing_row(sizing_id, status, origin))
        migrate.upgrade(database_url)
        writes = [
            sizing_row("new-page", "queued", "page"),
            sizing_row("new-done", "failed", "api"),
            # A claim and a release keep a sizing active: no count moves.
            "UPDATE sizings SET status = 'running', attempts = 1 WHERE id = 'new-page'",
            "UPDATE sizings SET status = 'queued' WHERE id = 'new-page'",
            "UPDATE sizings SET status = 'succeeded' WHERE id = 'old-running'",
            "UPDATE sizings SET status = 'cancelled' WHERE id = 'old-queued'",
            "UPDATE sizings SET origin = 'api' WHERE id = 'new-page'",
            "DELETE FROM sizings WHERE id = 'old-done'",
            "DELETE FROM sizings WHERE id = 'new-page'",
        ]
        seen = []
        with engine.connect() as conn:
            seen.append(tuple(conn.exec_driver_sql(ACTIVE_COUNTS).one()))
            for write in writes:
                conn.exec_driver_sql(write)
                kept = tuple(conn.exec_driver_sql(ACTIVE_COUNTS).one())
                assert kept == tuple(conn.exec_driver_sql(TRUE_COUNTS).one()), write
                seen.append(kept)
            conn.commit()
        assert seen == [(2, 1), (3, 2), (3, 2), (3, 2), (3, 2), (2, 1), (1, 1), (1, 0), (1, 0),
                        (0, 0)]
    finally:
        engine.dispose()
