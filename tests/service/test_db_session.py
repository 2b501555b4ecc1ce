"""A request whose PostgreSQL connection is dropped under it still gets its answer."""

from __future__ import annotations

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
