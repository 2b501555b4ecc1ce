"""Sizings per second end to end (HTTP, PostgreSQL, Redis, worker processes) against a no-op
Celery round trip through the same broker and workers; then the peak RSS of each process.
"""
from __future__ import annotations

import http.client
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from celery import Celery
from sqlalchemy import create_engine, text

from bench.databases import drop_postgres_database, new_postgres_database, prepare
from bench.http_bench import SIZING
from bench.interleave import interleaved
from tests.faults.servers import (
    LOAD_TEST_ENV,
    ApiServer,
    RedisServer,
    Worker,
    peak_rss_kb,
    request,
    service_env,
    wait_until,
)

WORKERS = 2  # worker processes, one task at a time each: one per core
CLIENTS = 8
ROUNDS = 4


def noop_round_trips(redis_url: str, count: int) -> dict:
    client = Celery("bench-client", broker=redis_url, backend=redis_url)
    try:
        client.send_task("bench.noop").get(timeout=30)  # connections warm
        latencies = []
        for _ in range(50):
            t0 = time.perf_counter()
            client.send_task("bench.noop").get(timeout=30)
            latencies.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        results = [client.send_task("bench.noop") for _ in range(count)]
        for result in results:
            result.get(timeout=120)
        elapsed = time.perf_counter() - t0
    finally:
        client.close()
    return {"count": count, "seconds": elapsed, "per_s": count / elapsed,
            "round_trip_ms": statistics.median(latencies) * 1000}


def submit(port: int, key: str, count: int) -> list[str]:
    ids: list[str] = []
    lock = threading.Lock()
    remaining = [count]

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            while True:
                with lock:
                    if remaining[0] <= 0:
                        return
                    remaining[0] -= 1
                status, _, body = request(port, "POST", "/v1/sizings", SIZING, key=key,
                                          connection=conn)
                if status != 202:
                    raise RuntimeError(f"POST /v1/sizings answered {status}: {body}")
                with lock:
                    ids.append(body["id"])
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    return ids


def measure(sizings: int = 1000, noops: int = 1000) -> dict:
    with tempfile.TemporaryDirectory(prefix="sizing-bench-async-") as tmp:
        workdir = Path(tmp)
        redis = RedisServer(workdir)
        database_url = new_postgres_database()
        processes = []
        engine = create_engine(database_url)
        try:
            redis.start()
            key = prepare(database_url)
            env = service_env(database_url, redis.url, **LOAD_TEST_ENV)
            api = ApiServer(workdir, env)
            processes.append(api)
            api.start()
            workers = [Worker(workdir, f"bench{i}", env, app="bench.worker_app")
                       for i in range(WORKERS)]
            processes.extend(workers)
            for worker in workers:
                worker.start(wait=False)
            for worker in workers:
                worker.wait_ready()

            def done_count() -> int:
                with engine.connect() as conn:
                    return conn.execute(text(
                        "SELECT count(*) FROM sizings WHERE status IN "
                        "('succeeded', 'failed', 'cancelled')")).scalar()

            ids: list[str] = []

            def sizings_round() -> float:
                t0 = time.perf_counter()
                ids.extend(submit(api.port, key, sizings // ROUNDS))
                wait_until(lambda: done_count() >= len(ids), 900, "every sizing to finish", 0.05)
                return (sizings // ROUNDS) / (time.perf_counter() - t0)

            # Turn about: no-op round trips, sizings, no-op round trips, ...
            latencies: list[float] = []

            def noop_round() -> float:
                result = noop_round_trips(redis.url, noops // ROUNDS)
                latencies.append(result["round_trip_ms"])
                return result["per_s"]

            pair = interleaved(sizings_round, noop_round, ROUNDS, higher_is_better=True)
            with engine.connect() as conn:
                states = dict(conn.execute(text(
                    "SELECT status, count(*) FROM sizings GROUP BY status")).all())
            rss = {
                "api_worker_kb": max(peak_rss_kb(pid) for pid in api.worker_pids()),
                "celery_main_kb": max(peak_rss_kb(w.process.pid) for w in workers),
                "celery_child_kb": max(peak_rss_kb(pid) for w in workers
                                       for pid in w.process.group_pids() if pid != w.process.pid),
            }
        finally:
            for process in reversed(processes):
                process.stop()
            redis.stop()
            engine.dispose()
            drop_postgres_database(database_url)
    return {"pair": pair, "count": len(ids), "round_trip_ms": statistics.median(latencies),
            "states": states, "rss": rss, "workers": WORKERS, "rounds": ROUNDS}


def main():
    m = measure()
    pair = m["pair"]
    print(f"sizings end to end: median {pair.a.median:.1f}/s (best {pair.a.best:.1f}), "
          f"{m['count']} in {m['rounds']} rounds ({m['states']})")
    print(f"no-op task round trips: median {pair.b.median:.0f}/s (best {pair.b.best:.0f}), "
          f"{m['round_trip_ms']:.1f} ms one at a time")
    print(f"ratio: {pair.ratio_median:.3f}x (best {pair.ratio_best:.3f}x)")
    print(f"peak RSS: API worker {m['rss']['api_worker_kb'] / 1024:.0f} MiB, Celery pool process "
          f"{m['rss']['celery_child_kb'] / 1024:.0f} MiB, Celery main "
          f"{m['rss']['celery_main_kb'] / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
