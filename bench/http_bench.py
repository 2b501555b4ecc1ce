"""Requests per second and latency of API endpoints under gunicorn, against a bare Flask floor.

GET /v1/catalog/servers and POST /v1/estimates run embedded (SQLite file, no broker), as
`make run` serves them. POST /v1/sizings runs as deployed: PostgreSQL (a throwaway database
on the local server) and a private Redis broker, no worker consuming, so it measures
validation, the commit of the record and the send of its task. Every server is gunicorn with
the same workers and threads; the load comes from Python threads on loopback. The floor and
each endpoint are loaded turn about (floor, endpoint, floor, endpoint, ...), both servers up,
so a busy moment of the shared machine slows both sides of a ratio alike.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loadgen
from bench.databases import deployed_api, prepare
from bench.interleave import interleaved
from tests.faults.servers import LOAD_TEST_ENV, ApiServer, service_env

WORKERS, THREADS, CLIENTS = 2, 4, 8
ROUNDS = 5
ESTIMATE = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 512},
            "layout": {"dp": 32, "zero_stage": 2}}  # fits with the policy's memory headroom
SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 4},
          "gpu_models": ["h100-sxm"]}


def against_floor(floor_port: int, port: int, method: str, path: str, *, body=None, key=None,
                  requests: int) -> dict:
    """Rounds of `requests` requests, floor and endpoint turn about; rates and latencies."""
    rounds: dict[str, list[dict]] = {"floor": [], "endpoint": []}

    def side(name: str, run):
        def once() -> float:
            result = run()
            rounds[name].append(result)
            return result["rps"]
        return once

    pair = interleaved(
        side("endpoint", lambda: loadgen.run(port, method, path, body=body, key=key,
                                             requests=requests, clients=CLIENTS)),
        side("floor", lambda: loadgen.run(floor_port, "GET", "/ping", requests=requests,
                                          clients=CLIENTS)),
        ROUNDS, higher_is_better=True)
    return {"pair": pair, "rounds": rounds}


ENDPOINTS = ("catalog_servers", "estimates", "sizings")


def measure(requests: int = 1000, only: tuple[str, ...] = ENDPOINTS) -> dict:
    per_round = max(100, requests // ROUNDS)
    out = {"workers": WORKERS, "threads": THREADS, "clients": CLIENTS, "rounds": ROUNDS,
           "per_round": per_round}
    with tempfile.TemporaryDirectory(prefix="sizing-bench-http-") as tmp:
        workdir = Path(tmp)
        floor = ApiServer(workdir, service_env("sqlite://", None), app="bench.floor_app:create_app()",
                          workers=WORKERS, threads=THREADS)
        floor.start(probe="/ping")
        try:
            if {"catalog_servers", "estimates"} & set(only):
                sqlite_url = f"sqlite:///{workdir / 'bench.sqlite3'}"
                key = prepare(sqlite_url)
                api = ApiServer(workdir, service_env(sqlite_url, None, **LOAD_TEST_ENV),
                                workers=WORKERS, threads=THREADS)
                try:
                    api.start()
                    if "catalog_servers" in only:
                        out["catalog_servers"] = against_floor(floor.port, api.port, "GET",
                                                               "/v1/catalog/servers", key=key,
                                                               requests=per_round)
                    if "estimates" in only:
                        out["estimates"] = against_floor(floor.port, api.port, "POST",
                                                         "/v1/estimates", body=ESTIMATE, key=key,
                                                         requests=per_round)
                finally:
                    api.stop()

            if "sizings" in only:
                with deployed_api(workdir, WORKERS, THREADS) as (api, key):
                    out["sizings"] = against_floor(floor.port, api.port, "POST", "/v1/sizings",
                                                   body=SIZING, key=key, requests=per_round)
        finally:
            floor.stop()
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=ENDPOINTS, action="append",
                        help="an endpoint to load (repeatable); all three by default")
    parser.add_argument("--requests", type=int, default=1000,
                        help="requests per side, split over the rounds")
    args = parser.parse_args()
    m = measure(args.requests, tuple(args.only or ENDPOINTS))
    for name in (n for n in ENDPOINTS if n in m):
        pair = m[name]["pair"]
        print(f"{name:16} median {pair.a.median:6.0f} req/s (best {pair.a.best:.0f}) against a floor "
              f"of {pair.b.median:.0f} (best {pair.b.best:.0f}): {pair.ratio_median:.2f}x "
              f"(best {pair.ratio_best:.2f}x)")


if __name__ == "__main__":
    main()
