"""Where one request's time goes, server side: SQL statements, Redis round trips and a profile.

The three endpoints of `bench/http_bench.py`, each through the Flask test client (no HTTP
server, no network), as that bench serves them: GET /v1/catalog/servers and POST
/v1/estimates embedded (SQLite file, no broker), POST /v1/sizings on PostgreSQL (a throwaway
database) with a private Redis for the broker and the rate limits. After a warm-up, it counts
the SQL statements the engine executed, the transactions it committed, its pool checkouts
(on PostgreSQL each a look at the socket, no round trip) and the Redis round trips (one per
command, one per pipeline) per request, times the requests (wall clock, and this process's CPU: the test client's share
included, the database's and Redis's not) and the cycle collector's time, and prints the functions with the most cumulative
time under cProfile; with estimates, the CPU of one catalog version read
(`current_snapshot`); with sizings, the CPU of one task send, the app's and Celery's
send_task's. Run: `.venv/bin/python bench/request_profile.py [--top N] [--only ...]
[--sort tottime]`.
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis.connection
from sqlalchemy import event

from bench.databases import drop_postgres_database, new_postgres_database, prepare
from bench.http_bench import ESTIMATE, SIZING
from service import create_app, db
from service.config import Config
from tests.faults.servers import LOAD_TEST_ENV, RedisServer

WARMUP, REQUESTS = 30, 300


class Counts:
    """SQL statements, transactions committed, pool checkouts (on PostgreSQL each a look at
    the socket, service.db), Redis round trips and seconds in the cycle collector since the
    last reset."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.sql = self.commits = self.checkouts = self.redis = 0
        self.gc_s = 0.0


@contextmanager
def counting(app, counts: Counts):
    """Count every statement of the app's engine and every packet redis-py sends, and time the
    cycle collector's passes."""
    with app.app_context():
        engine = db.engine()

    def on_statement(*_args) -> None:
        counts.sql += 1

    def on_commit(*_args) -> None:
        counts.commits += 1

    def on_checkout(*_args) -> None:
        counts.checkouts += 1

    original = redis.connection.AbstractConnection.send_packed_command

    def send_packed_command(self, command, check_health=True):
        counts.redis += 1
        return original(self, command, check_health)

    gc_started = [0.0]

    def on_gc(phase: str, _info) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            counts.gc_s += time.perf_counter() - gc_started[0]

    hooks = [(engine, "before_cursor_execute", on_statement), (engine, "commit", on_commit),
             (engine.pool, "checkout", on_checkout)]
    for target, name, hook in hooks:
        event.listen(target, name, hook)
    redis.connection.AbstractConnection.send_packed_command = send_packed_command
    gc.callbacks.append(on_gc)
    try:
        yield
    finally:
        gc.callbacks.remove(on_gc)
        redis.connection.AbstractConnection.send_packed_command = original
        for target, name, hook in hooks:
            event.remove(target, name, hook)


def load_config(**values) -> dict:
    """The bench's generous limits as Config fields, so limits are counted but never reached."""
    return {name: int(LOAD_TEST_ENV[variable]) for name, variable in (
        ("rate_limit_per_minute", "RATE_LIMIT_PER_MINUTE"),
        ("account_rate_limit_per_minute", "ACCOUNT_RATE_LIMIT_PER_MINUTE"),
        ("active_sizings_per_account", "ACTIVE_SIZINGS_PER_ACCOUNT"),
        ("active_sizings_from_publishable_keys", "ACTIVE_SIZINGS_FROM_PUBLISHABLE_KEYS"),
    )} | values


def profile(app, key: str, name: str, method: str, path: str, body, top: int, status: int,
            sort: str = "cumulative") -> None:
    client = app.test_client()
    headers = {"Authorization": f"Bearer {key}"}

    def once():
        response = client.open(path, method=method, json=body, headers=headers)
        assert response.status_code == status, (name, response.status_code, response.get_data())

    counts = Counts()
    for _ in range(WARMUP):
        once()
    with counting(app, counts):
        counts.reset()
        started, cpu_started = time.perf_counter(), time.process_time()
        for _ in range(REQUESTS):
            once()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(f"\n== {name}: {elapsed / REQUESTS * 1000:.2f} ms per request in process "
          f"({cpu / REQUESTS * 1000:.2f} ms of this process's CPU), "
          f"{counts.sql / REQUESTS:.2f} SQL statements, {counts.commits / REQUESTS:.2f} commits, "
          f"{counts.checkouts / REQUESTS:.2f} pool checkouts, {counts.redis / REQUESTS:.2f} Redis "
          f"round trips, {counts.gc_s / REQUESTS * 1000:.3f} ms in the cycle collector per "
          "request")
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(REQUESTS):
        once()
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats(sort).print_stats(top)
    print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


def task_sends(app, sends: int = 2000) -> None:
    """CPU per task send: the app's (service.broker.TaskPublisher) and Celery's own send_task
    with the options the app gave it before, alternately, each to the same private Redis."""
    from service.celery_app import send_task

    celery = app.extensions["celery"]

    def celerys() -> None:
        celery.send_task("tasks.run_sizing", args=("profile",), headers={"request_id": None},
                         retry=True, retry_policy={"max_retries": 1, "interval_start": 0,
                                                   "interval_step": 0.2},
                         argsrepr="('profile',)", kwargsrepr="{}")

    best = {"the app's publisher": float("inf"), "Celery's send_task": float("inf")}
    with app.app_context():
        for _ in range(3):
            for name, send in (("the app's publisher", lambda: send_task("tasks.run_sizing",
                                                                         "profile")),
                               ("Celery's send_task", celerys)):
                for _ in range(WARMUP):
                    send()
                started = time.process_time()
                for _ in range(sends):
                    send()
                best[name] = min(best[name], (time.process_time() - started) / sends * 1000)
    print("\n== task send, best of 3 rounds: " + ", ".join(
        f"{name} {ms:.3f} ms of CPU" for name, ms in best.items()))


def version_reads(app, reads: int = 3000) -> None:
    """CPU per catalog version read (`catalog.snapshot.current_snapshot`, its snapshot cached),
    each on a new session as a request opens it, best of 3 rounds."""
    from catalog.snapshot import current_snapshot

    new_session = app.extensions["db_sessionmaker"]

    def once() -> None:
        session = new_session()
        current_snapshot(session)
        session.close()

    best = float("inf")
    with app.app_context():
        for _ in range(3):
            for _ in range(WARMUP):
                once()
            started = time.process_time()
            for _ in range(reads):
                once()
            best = min(best, (time.process_time() - started) / reads * 1000)
    print(f"\n== catalog version read (current_snapshot, a new session), best of 3 rounds: "
          f"{best:.3f} ms of CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=45, help="functions shown per endpoint")
    parser.add_argument("--only", choices=("catalog", "estimates", "sizings"), action="append")
    parser.add_argument("--sort", choices=("cumulative", "tottime"), default="cumulative",
                        help="order of the profile's functions: with their callees, or without")
    args = parser.parse_args()
    only = set(args.only or ("catalog", "estimates", "sizings"))
    with tempfile.TemporaryDirectory(prefix="sizing-request-profile-") as tmp:
        workdir = Path(tmp)
        if only & {"catalog", "estimates"}:
            sqlite_url = f"sqlite:///{workdir / 'profile.sqlite3'}"
            key = prepare(sqlite_url)
            app = create_app(Config(database_url=sqlite_url, **load_config()))
            if "catalog" in only:
                profile(app, key, "GET /v1/catalog/servers", "GET", "/v1/catalog/servers", None,
                        args.top, 200, args.sort)
            if "estimates" in only:
                profile(app, key, "POST /v1/estimates", "POST", "/v1/estimates", ESTIMATE,
                        args.top, 200, args.sort)
                version_reads(app)
            with app.app_context():
                db.engine().dispose()
        if "sizings" in only:
            redis_server = RedisServer(workdir)
            database_url = new_postgres_database()
            try:
                redis_server.start()
                key = prepare(database_url)
                app = create_app(Config(database_url=database_url, redis_url=redis_server.url,
                                        tasks_eager=False, **load_config()))
                profile(app, key, "POST /v1/sizings", "POST", "/v1/sizings", SIZING, args.top, 202,
                        args.sort)
                task_sends(app)
                with app.app_context():
                    db.engine().dispose()
            finally:
                redis_server.stop()
                drop_postgres_database(database_url)


if __name__ == "__main__":
    main()
