"""Databases for the benchmarks: migrated, with the shipped catalog and one API key."""
from __future__ import annotations

from catalog.loader import load_files
from service import accounts, create_app, db, migrate
from service.config import REPO_ROOT, Config
from tests.conftest import drop_postgres_database, new_postgres_database

__all__ = ["drop_postgres_database", "new_postgres_database", "prepare"]


def prepare(database_url: str) -> str:
    """Migrate, load the catalog and return a key with every scope."""
    migrate.upgrade(database_url)
    app = create_app(Config(database_url=database_url))
    with app.app_context():
        session = db.session()
        load_files(session, REPO_ROOT / "catalog" / "data")
        account = accounts.create_account(session, "bench")
        key = accounts.create_key(session, account.id, scopes=accounts.SCOPES)[1]
        db.session().close()
        db.engine().dispose()
    return key
