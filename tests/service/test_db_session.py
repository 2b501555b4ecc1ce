"""A request whose PostgreSQL connection is dropped under it still gets its answer."""

from __future__ import annotations

import time

from sqlalchemy import create_engine, text

from service import db
from tests.conftest import build_app
from tests.settings import POSTGRES_ADMIN_URL


def test_a_connection_dropped_mid_request_does_not_turn_the_answer_into_an_error(postgres_url):
    app = build_app(postgres_url, load_catalog=False)
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")

    @app.get("/test/dropped-connection")
    def dropped_connection():
        # An open transaction whose server process goes away, as in a database restart.
        pid = db.session().execute(text("SELECT pg_backend_pid()")).scalar_one()
        with admin.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        return {"pid": pid}

    client = app.test_client()
    try:
        first = client.get("/test/dropped-connection")
        assert first.status_code == 200
        # The pool let go of the dead connection: the next request gets a live one.
        second = client.get("/test/dropped-connection")
        assert second.status_code == 200
        assert second.get_json()["pid"] != first.get_json()["pid"]
    finally:
        admin.dispose()
        with app.app_context():
            db.engine().dispose()


def test_a_pooled_connection_whose_backend_was_terminated_is_replaced_at_checkout(postgres_url):
    # As after a database restart: the connection waits in the pool, its server process gone.
    app = build_app(postgres_url, load_catalog=False)
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with app.app_context():
            engine = db.engine()
            with engine.connect() as conn:
                pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
            with admin.connect() as conn:
                conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            deadline = time.monotonic() + 5
            while True:
                with admin.connect() as conn:
                    if not conn.execute(text("SELECT 1 FROM pg_stat_activity WHERE pid = :pid"),
                                        {"pid": pid}).first():
                        break
                assert time.monotonic() < deadline, "the backend did not go"
                time.sleep(0.05)
            with engine.connect() as conn:
                assert conn.execute(text("SELECT pg_backend_pid()")).scalar_one() != pid
    finally:
        admin.dispose()
        with app.app_context():
            db.engine().dispose()
