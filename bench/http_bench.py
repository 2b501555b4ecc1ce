"""Requests per second and latency of API endpoints under gunicorn, against a bare Flask floor.

GET /v1/catalog/servers and POST /v1/estimates run embedded (SQLite file, no broker), as
`make run` serves them. POST /v1/sizings runs as deployed: PostgreSQL (a throwaway database
on the local server) and a private Redis broker, no worker consuming, so it measures
validation, the commit of the record and the send of its task. Every server is gunicorn with
the same workers and threads; the load comes from Python threads on loopback.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loadgen
from bench.databases import drop_postgres_database, new_postgres_database, prepare
from tests.faults.servers import LOAD_TEST_ENV, ApiServer, RedisServer, service_env

WORKERS, THREADS, CLIENTS = 2, 4, 8
ESTIMATE = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 512},
            "layout": {"dp": 32, "zero_stage": 2}}  # fits with the policy's memory headroom
SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 4},
          "gpu_models": ["h100-sxm"]}


def measure(requests: int = 1000) -> dict:
    out = {"workers": WORKERS, "threads": THREADS, "clients": CLIENTS}
    with tempfile.TemporaryDirectory(prefix="sizing-bench-http-") as tmp:
        workdir = Path(tmp)
        floor = ApiServer(workdir, service_env("sqlite://", None), app="bench.floor_app:create_app()",
                          workers=WORKERS, threads=THREADS)
        try:
            floor.start(probe="/ping")
            out["floor"] = loadgen.run(floor.port, "GET", "/ping", requests=requests * 2,
                                       clients=CLIENTS)
        finally:
            floor.stop()

        sqlite_url = f"sqlite:///{workdir / 'bench.sqlite3'}"
        key = prepare(sqlite_url)
        api = ApiServer(workdir, service_env(sqlite_url, None, **LOAD_TEST_ENV),
                        workers=WORKERS, threads=THREADS)
        try:
            api.start()
            out["catalog_servers"] = loadgen.run(api.port, "GET", "/v1/catalog/servers", key=key,
                                                 requests=requests, clients=CLIENTS)
            out["estimates"] = loadgen.run(api.port, "POST", "/v1/estimates", body=ESTIMATE,
                                           key=key, requests=requests, clients=CLIENTS)
        finally:
            api.stop()

        redis = RedisServer(workdir)
        database_url = new_postgres_database()
        try:
            redis.start()
            key = prepare(database_url)
            api = ApiServer(workdir, service_env(database_url, redis.url,
                                                 **LOAD_TEST_ENV),
                            workers=WORKERS, threads=THREADS)
            try:
                api.start()
                out["sizings"] = loadgen.run(api.port, "POST", "/v1/sizings", body=SIZING,
                                             key=key, requests=requests, clients=CLIENTS)
            finally:
                api.stop()
        finally:
            redis.stop()
            drop_postgres_database(database_url)
    return out


def main():
    m = measure()
    for name in ("floor", "catalog_servers", "estimates", "sizings"):
        r = m[name]
        print(f"{name:16} {r['rps']:8.0f} req/s  p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms"
              f"  statuses {r['statuses']}")


if __name__ == "__main__":
    main()
