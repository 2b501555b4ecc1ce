"""Databases for the benchmarks: migrated, with the shipped catalog and one API key."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from catalog.loader import load_files
from service import accounts, create_app, db, migrate
from service.config import REPO_ROOT, Config
from tests.conftest import drop_postgres_database, new_postgres_database
from tests.faults.servers import LOAD_TEST_ENV, ApiServer, RedisServer, service_env

__all__ = ["deployed_api", "drop_postgres_database", "new_postgres_database", "prepare"]


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


@contextmanager
def deployed_api(workdir: Path, workers: int, threads: int) -> Iterator[tuple[ApiServer, str]]:
    """The API as deployed, under gunicorn: a throwaway PostgreSQL database on the local
    server and a private Redis broker (no worker consuming); the server and a key with every
    scope, everything stopped and dropped afterwards."""
    redis = RedisServer(workdir)
    database_url = new_postgres_database()
    try:
        redis.start()
        key = prepare(database_url)
        api = ApiServer(workdir, service_env(database_url, redis.url, **LOAD_TEST_ENV),
                        workers=workers, threads=threads)
        try:
            api.start()
            yield api, key
        finally:
            api.stop()
    finally:
        redis.stop()
        drop_postgres_database(database_url)
