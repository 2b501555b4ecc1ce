"""The database engine of an app and one SQLAlchemy session per app context."""

from __future__ import annotations

import logging
import select

from flask import Flask, current_app, g
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError, SQLAlchemyError
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
    engine = create_engine(url, pool_size=5, max_overflow=10)
    event.listen(engine, "checkout", _refuse_if_closed_by_server)
    return engine


def _refuse_if_closed_by_server(dbapi_connection, _record, _proxy) -> None:
    """A pooled connection the server closed (a restart, a terminated backend) is replaced at
    checkout, without the round trip of a ping.

    An idle connection between transactions has nothing to read; one the server let go of has
    its last words (a FATAL notice) or the end of the stream waiting. DisconnectionError makes
    the pool drop it and check out another, or connect anew.
    """
    # poll, not select: select refuses descriptors past FD_SETSIZE (1024), which a busy
    # process holding many sockets reaches.
    waiting = select.poll()
    waiting.register(dbapi_connection.fileno(), select.POLLIN)
    if waiting.poll(0):
        raise DisconnectionError("the server closed this pooled connection")


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
