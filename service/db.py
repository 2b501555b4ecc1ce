"""The database engine of an app and one SQLAlchemy session per app context."""

from __future__ import annotations

import logging

from flask import Flask, current_app, g
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

log = logging.getLogger(__name__)


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            # WAL lets the API read while an in-process task writes.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    # pre_ping lets a pooled connection notice a database restart and reconnect.
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)


def init_db(app: Flask, url: str) -> None:
    engine = make_engine(url)
    app.extensions["db_engine"] = engine
    app.extensions["db_sessionmaker"] = sessionmaker(bind=engine, expire_on_commit=False)
    app.teardown_appcontext(_close_session)


def engine() -> Engine:
    return current_app.extensions["db_engine"]


def session() -> Session:
    """The session of the current app context, opened on first use."""
    if "db_session" not in g:
        g.db_session = current_app.extensions["db_sessionmaker"]()
    return g.db_session


def _close_session(_exc: BaseException | None) -> None:
    db_session = g.pop("db_session", None)
    if db_session is None:
        return
    try:
        db_session.close()
    except SQLAlchemyError as exc:
        # Closing rolls back; on a connection the database dropped (a restart) that rollback
        # fails. SQLAlchemy has already invalidated the connection, and the answer was already
        # made: raising here would replace it with the server's bare HTML 500.
        log.warning("closing a session on a lost connection: %s", exc.__class__.__name__)
