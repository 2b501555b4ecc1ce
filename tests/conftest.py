"""Fixtures: apps on SQLite and on the real PostgreSQL server, with the catalog loaded."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from catalog.files import read_catalog
from catalog.loader import load_files
from catalog.snapshot import build
from service import accounts, create_app, db, migrate
from service.config import REPO_ROOT, Config
from tests.settings import POSTGRES_ADMIN_URL

CATALOG_DIR = REPO_ROOT / "catalog" / "data"
# Rate limits out of the way, for runs that send many requests on purpose (fuzzing, load).
NO_RATE_LIMITS = {"rate_limit_per_minute": 10**9, "account_rate_limit_per_minute": 10**9,
                  "publishable_rate_limit_per_address": 10**9, "auth_failures_per_address": 10**9}


def new_postgres_database() -> str:
    name = f"sizing_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def drop_postgres_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session")
def postgres_url():
    url = new_postgres_database()
    yield url
    drop_postgres_database(url)


def build_app(database_url: str, load_catalog: bool = True, **overrides):
    migrate.upgrade(database_url)
    app = create_app(Config(database_url=database_url, testing=True, **overrides))
    with app.app_context():
        if load_catalog:
            load_files(db.session(), CATALOG_DIR)
        app.config["TEST_KEY"] = new_key(app, scopes=accounts.SCOPES)
    return app


def new_key(app, *, kind: str = "secret", scopes=None, account_id: str | None = None) -> str:
    """A fresh key (of a new account unless one is given), as a client would present it."""
    with app.app_context():
        session = db.session()
        if account_id is None:
            account_id = accounts.create_account(session, f"account-{uuid.uuid4().hex[:6]}").id
        return accounts.create_key(session, account_id, kind=kind, scopes=scopes)[1]


def authorised(app, key: str | None = None):
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {key or app.config['TEST_KEY']}"
    return client


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request, tmp_path):
    """A new, empty database of each kind, for one test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    url = new_postgres_database()
    yield url
    drop_postgres_database(url)


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def catalog_app(request, tmp_path_factory):
    """An app with the shipped catalog loaded, on each database; read-only tests share it."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'catalog.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")
    app = build_app(url)
    yield app
    with app.app_context():
        db.engine().dispose()


@pytest.fixture()
def client(catalog_app):
    """A client presenting a secret key with every scope."""
    return authorised(catalog_app)


@pytest.fixture(scope="session")
def snap():
    """The shipped catalog's snapshot, as a worker sees it (through JSON), without a database."""
    return build(1, json.loads(json.dumps(read_catalog(CATALOG_DIR), default=str)))


@pytest.fixture()
def fresh_app(tmp_path: Path):
    """An app on an empty, migrated SQLite database of its own."""
    app = build_app(f"sqlite:///{tmp_path / 'fresh.sqlite3'}", load_catalog=False)
    yield app
    with app.app_context():
        db.engine().dispose()


@dataclass(frozen=True)
class LiveApi:
    url: str
    key: str
    database_url: str
    env: dict


@pytest.fixture(scope="session")
def live_api(tmp_path_factory):
    """gunicorn as `make run` serves it (SQLite, tasks in the API process), with a secret key of
    the usual scopes; for the clients of the API (the command line, the partner client)."""
    from tests.faults.servers import LOAD_TEST_ENV, ApiServer, service_env

    workdir = tmp_path_factory.mktemp("live-api")
    database_url = f"sqlite:///{workdir / 'live.sqlite3'}"
    app = build_app(database_url)
    key = new_key(app)
    with app.app_context():
        db.engine().dispose()
    env = service_env(database_url, None, **LOAD_TEST_ENV)
    server = ApiServer(workdir, env, workers=1, threads=4).start()
    try:
        yield LiveApi(url=f"http://127.0.0.1:{server.port}", key=key,
                      database_url=database_url, env=env)
    finally:
        server.stop()
