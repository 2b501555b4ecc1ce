"""Liveness and readiness probes."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from sqlalchemy import text

from service import db
from service.api.blueprint import Blueprint
from service.errors import Problem

blp = Blueprint("health", __name__, description="Liveness and readiness of the service")


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"example": "ok"})
    checks = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String())


def broker_reachable() -> bool:
    celery = current_app.extensions["celery"]
    if celery.conf.task_always_eager:
        return True
    try:
        with celery.connection_for_write() as connection:
            connection.ensure_connection(max_retries=0, timeout=2)
        return True
    except Exception:  # noqa: BLE001  any failure to connect means not ready
        return False


def database_reachable() -> bool:
    try:
        with db.engine().connect() as connection:
            connection.execute(text("SELECT 1"))
        return True
    except Exception:  # noqa: BLE001  the probe reports, it never raises
        return False


@blp.route("/healthz")
class Liveness(MethodView):
    @blp.response(200, HealthSchema)
    @blp.doc(operationId="getHealth", summary="The process is alive")
    def get(self):
        return {"status": "ok", "checks": {}}


@blp.route("/readyz")
class Readiness(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, description="A dependency is down; the problem names it")
    @blp.doc(operationId="getReadiness", summary="The database and the broker are reachable")
    def get(self):
        checks = {
            "database": "ok" if database_reachable() else "unreachable",
            "broker": "ok" if broker_reachable() else "unreachable",
        }
        down = [name for name, state in checks.items() if state != "ok"]
        if down:
            raise Problem(503, "dependency_unavailable", f"Not ready: {', '.join(down)} unreachable",
                          headers={"Retry-After": "5"})
        return {"status": "ok", "checks": checks}
