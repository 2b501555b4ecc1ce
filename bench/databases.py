"""Databases for the benchmarks: migrated, with the shipped catalog and one API key."""
from __future__ import annotations

import uuid

from sqlalchemy import create_engine, text

from catalog.loader import load_files
from service import accounts, create_app, db, migrate
from service.config import REPO_ROOT, Config

POSTGRES_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


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


def new_postgres_database(admin_url: str = POSTGRES_ADMIN_URL) -> str:
    name = f"sizing_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return admin_url.rsplit("/", 1)[0] + "/" + name


def drop_postgres_database(url: str, admin_url: str = POSTGRES_ADMIN_URL) -> None:
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)'))
    admin.dispose()
