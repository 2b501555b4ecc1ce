"""Fixtures of the fault tests: a private PostgreSQL cluster and Redis, the API and workers.

Nothing here touches the machine's own PostgreSQL or Redis: the tests stop, kill and restart
their own copies, on spare loopback ports, and every process they start is stopped at the end.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
from celery import Celery
from sqlalchemy import create_engine, text

from service import db
from tests.conftest import build_app
from tests.faults.servers import (
    LOAD_TEST_ENV,
    ApiServer,
    PostgresCluster,
    RedisServer,
    Worker,
    request,
    service_env,
    wait_until,
)

# Every write of an outcome (succeeded, failed, cancelled) and every claim, as the database saw it,
# so a test can count how many times a sizing was run and finished.
AUDIT_SQL = """
CREATE TABLE sizing_audit (
    id bigserial PRIMARY KEY, sizing_id varchar(36) NOT NULL, event varchar(12) NOT NULL,
    status varchar(12) NOT NULL, attempts integer NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE FUNCTION sizing_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A claim sets started_at (and attempts); two racing claims may write the same attempts.
    IF NEW.started_at IS DISTINCT FROM OLD.started_at THEN
        INSERT INTO sizing_audit (sizing_id, event, status, attempts)
        VALUES (NEW.id, 'claim', NEW.status, NEW.attempts);
    END IF;
    IF NEW.status IN ('succeeded', 'failed', 'cancelled')
       AND NEW.finished_at IS DISTINCT FROM OLD.finished_at THEN
        INSERT INTO sizing_audit (sizing_id, event, status, attempts)
        VALUES (NEW.id, 'outcome', NEW.status, NEW.attempts);
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER sizing_audit AFTER UPDATE ON sizings
    FOR EACH ROW EXECUTE FUNCTION sizing_audit_row();
"""

FINAL = ("succeeded", "failed", "cancelled")
SMALL_SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10,
                "nodes": {"min": 1, "max": 4}, "gpu_models": ["h100-sxm"]}
# Mixtral on every server and fabric at 1 to 512 nodes: about 14 million candidates, about 2 s
# of one core (a dense model's full catalog now takes well under one), beyond a secret key's
# default allowance: the API that takes it is started with LARGE_SIZING_ALLOWANCE.
LARGE_SIZING = {"workload": {"preset": "mixtral-8x7b"}, "tokens": 1e12,
                "nodes": {"min": 1, "max": 512}}
LARGE_SIZING_ALLOWANCE = {"SEARCH_CANDIDATES_SECRET_KEY": "20000000"}


@pytest.fixture(scope="session")
def pg_cluster():
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.destroy()


@pytest.fixture(scope="session")
def redis_server():
    workdir = Path(tempfile.mkdtemp(prefix="sizing-faults-redis-"))
    server = RedisServer(workdir)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


class NeverFinished(AssertionError):
    """Sizings that were still queued or running at the deadline."""


class Stack:
    """One test's database, and the API and workers it starts against it."""

    def __init__(self, workdir: Path, pg: PostgresCluster, redis: RedisServer):
        self.workdir = workdir
        self.pg = pg
        self.redis = redis
        self.database_url = pg.create_database(f"faults_{uuid.uuid4().hex[:10]}")
        app = build_app(self.database_url)
        self.key = app.config["TEST_KEY"]
        with app.app_context():
            db.engine().dispose()
        self.engine = create_engine(self.database_url, pool_pre_ping=True)
        with self.engine.begin() as conn:
            conn.exec_driver_sql(AUDIT_SQL)
        self.processes: list = []
        self._celery: Celery | None = None

    def env(self, **extra: str) -> dict[str, str]:
        settings = {**LOAD_TEST_ENV, "DISPATCH_INTERVAL_S": "1", **extra}
        return service_env(self.database_url, self.redis.url, **settings)

    def api(self, **extra: str) -> ApiServer:
        server = ApiServer(self.workdir, self.env(**extra))
        self.processes.append(server)
        return server.start()

    def workers(self, *names: str, concurrency: int = 1, **extra: str) -> list[Worker]:
        started = []
        for name in names:
            worker = Worker(self.workdir, name, self.env(**extra), concurrency=concurrency)
            self.processes.append(worker)
            started.append(worker.start(wait=False))
        for worker in started:
            worker.wait_ready()
        return started

    def post_sizing(self, body=SMALL_SIZING, **kwargs):
        return request(self.api_port, "POST", "/v1/sizings", body, key=self.key, **kwargs)

    @property
    def api_port(self) -> int:
        return next(p for p in self.processes if isinstance(p, ApiServer)).port

    def rows(self, sql: str, **params):
        with self.engine.connect() as conn:
            return conn.execute(text(sql), params).mappings().all()

    def states(self, ids) -> dict[str, dict]:
        rows = self.rows("SELECT id, status, attempts, result IS NOT NULL AS has_result, "
                         "dispatched_at, updated_at FROM sizings WHERE id = ANY(:ids)", ids=list(ids))
        return {r["id"]: dict(r) for r in rows}

    def wait_final(self, ids, timeout_s: float) -> dict[str, dict]:
        ids = list(ids)

        def done():
            states = self.states(ids)
            return states if len(states) == len(ids) and all(
                s["status"] in FINAL for s in states.values()) else None

        try:
            return wait_until(done, timeout_s, f"{len(ids)} sizings to finish", 0.5)
        except TimeoutError:
            states = self.states(ids)
            waiting = {i: s for i, s in states.items() if s["status"] not in FINAL}
            missing = set(ids) - set(states)
            example = next(iter(waiting), None)
            detail = self.rows("SELECT *, now() AS db_now FROM sizings WHERE id = :id", id=example)
            history = self.rows("SELECT * FROM sizing_audit WHERE sizing_id = :id ORDER BY id",
                                id=example)
            raise NeverFinished(f"{len(waiting)} sizings never finished and {len(missing)} "
                                 f"are missing; e.g. {[dict(r) for r in detail]} with history "
                                 f"{[dict(r) for r in history]}") from None

    def audit(self, ids) -> dict[str, dict[str, int]]:
        rows = self.rows("SELECT sizing_id, event, count(*) AS n FROM sizing_audit "
                         "WHERE sizing_id = ANY(:ids) GROUP BY sizing_id, event", ids=list(ids))
        out: dict[str, dict[str, int]] = {i: {"claim": 0, "outcome": 0} for i in ids}
        for r in rows:
            out[r["sizing_id"]][r["event"]] = r["n"]
        return out

    def send_run_message(self, sizing_id: str) -> None:
        """Put one more copy of a sizing's message on the broker, as a redelivery would."""
        if self._celery is None:
            self._celery = Celery("faults-client", broker=self.redis.url)
        self._celery.send_task("tasks.run_sizing", args=(sizing_id,))

    def close(self) -> None:
        for process in reversed(self.processes):
            process.stop()
        if self._celery is not None:
            self._celery.close()
        self.engine.dispose()


@pytest.fixture()
def stack(pg_cluster, redis_server, tmp_path, request):
    # A previous test may have left its server stopped when it failed half-way.
    if not pg_cluster.running():
        pg_cluster.start()
    if not redis_server.process or not redis_server.process.alive():
        redis_server.start()
    redis_server_flush(redis_server)
    built = Stack(tmp_path, pg_cluster, redis_server)
    yield built
    built.close()
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        for log in sorted(tmp_path.glob("*.log")):
            print(f"--- {log.name} (tail) ---\n{log.read_text(errors='replace')[-4000:]}")
    if not pg_cluster.running():
        pg_cluster.start()
    if not redis_server.process or not redis_server.process.alive():
        redis_server.start()


def redis_server_flush(server: RedisServer) -> None:
    import redis

    client = redis.Redis.from_url(server.url)
    client.flushall()
    client.close()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.rep_call = report


class Load:
    """Client threads that submit sizings until told to stop, recording every answer."""

    def __init__(self, stack: Stack, clients: int, per_client: int, body=SMALL_SIZING,
                 pause_s: float = 0.02, poll: bool = True):
        self.stack = stack
        self.per_client = per_client
        self.body = body
        self.pause_s = pause_s
        self.poll = poll
        self.stop_event = threading.Event()
        self.answers: list[dict] = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._client, daemon=True) for _ in range(clients)]

    def _record(self, **answer) -> None:
        with self.lock:
            self.answers.append(answer)

    def _client(self) -> None:
        for _ in range(self.per_client):
            if self.stop_event.is_set():
                return
            started = time.monotonic()
            try:
                status, headers, data = self.stack.post_sizing(self.body, timeout_s=30)
            except OSError as exc:
                self._record(method="POST", status=None, error=repr(exc), started=started,
                             ended=time.monotonic())
                continue
            self._record(method="POST", status=status, content_type=headers.get("Content-Type"),
                         id=(data or {}).get("id") if status == 202 else None,
                         code=(data or {}).get("code"), started=started, ended=time.monotonic(),
                         location=headers.get("Location"))
            if self.poll and status == 202:
                try:
                    status, headers, data = request(self.stack.api_port, "GET",
                                                    headers_location(headers), key=self.stack.key)
                    self._record(method="GET", status=status, code=(data or {}).get("code"),
                                 content_type=headers.get("Content-Type"), started=started,
                                 ended=time.monotonic())
                except OSError as exc:
                    self._record(method="GET", status=None, error=repr(exc), started=started,
                                 ended=time.monotonic())
            time.sleep(self.pause_s)

    def start(self) -> Load:
        for thread in self.threads:
            thread.start()
        return self

    def stop(self, timeout_s: float = 60) -> None:
        self.stop_event.set()
        self.join(timeout_s)

    def join(self, timeout_s: float = 120) -> None:
        deadline = time.monotonic() + timeout_s
        for thread in self.threads:
            thread.join(max(0.1, deadline - time.monotonic()))
        assert not any(t.is_alive() for t in self.threads), "client threads did not finish"

    def accepted_ids(self) -> list[str]:
        return [a["id"] for a in self.answers if a["method"] == "POST" and a["status"] == 202]


def headers_location(headers: dict[str, str]) -> str:
    return headers.get("Location") or headers.get("location")
