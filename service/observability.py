"""Request ids carried into logs and tasks, structured JSON logs, and Prometheus metrics."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from sqlalchemy import func, select

from service import db

REQUEST_ID = contextvars.ContextVar("request_id", default=None)
VALID_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")


class JsonFormatter(logging.Formatter):
    """One JSON object per line, with the request id of the request or task being served."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if request_id := REQUEST_ID.get():
            entry["request_id"] = request_id
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def configure_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


class SizingQueueCollector:
    """Queue depth and recent durations, read from the database at scrape time, so the
    figures are the deployment's, not one process's."""

    def __init__(self, app: Flask):
        self.app = app

    def collect(self):
        from service.records import Sizing

        depth = GaugeMetricFamily("sizing_queue_depth", "Sizings by state", labels=["status"])
        duration = GaugeMetricFamily("sizing_duration_seconds_avg",
                                     "Mean run time of the last 100 finished sizings")
        try:
            with self.app.app_context():
                session = db.session()
                counts = dict(session.execute(
                    select(Sizing.status, func.count()).where(Sizing.status.in_(("queued", "running")))
                    .group_by(Sizing.status)).all())
                recent = session.execute(
                    select(Sizing.started_at, Sizing.finished_at)
                    .where(Sizing.status == "succeeded", Sizing.started_at.is_not(None))
                    .order_by(Sizing.finished_at.desc()).limit(100)).all()
        except Exception:  # noqa: BLE001  a scrape during an outage reports nothing, not an error
            return
        for status in ("queued", "running"):
            depth.add_metric([status], counts.get(status, 0))
        yield depth
        if recent:
            duration.add_metric([], sum((f - s).total_seconds() for s, f in recent) / len(recent))
            yield duration


def init_observability(app: Flask) -> None:
    registry = CollectorRegistry()
    requests_total = Counter("http_requests_total", "HTTP requests", ["route", "method", "status"],
                             registry=registry)
    latency = Histogram("http_request_duration_seconds", "HTTP request latency", ["route", "method"],
                        registry=registry)
    registry.register(SizingQueueCollector(app))

    @app.before_request
    def _start() -> None:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if VALID_ID.fullmatch(given) else uuid.uuid4().hex
        g.request_token = REQUEST_ID.set(g.request_id)
        g.request_started = time.perf_counter()

    @app.after_request
    def _finish(response: Response) -> Response:
        response.headers["X-Request-Id"] = g.get("request_id", "")
        route = request.url_rule.rule if request.url_rule else "unmatched"
        if "request_started" in g:
            latency.labels(route, request.method).observe(time.perf_counter() - g.request_started)
        requests_total.labels(route, request.method, str(response.status_code)).inc()
        return response

    @app.teardown_request
    def _forget(_exc) -> None:
        if token := g.pop("request_token", None):
            REQUEST_ID.reset(token)

    @app.get("/metrics")
    def metrics() -> Response:
        # As content_type, not mimetype: Flask adds a charset to a text/ mimetype, and
        # CONTENT_TYPE_LATEST already has one.
        return Response(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
