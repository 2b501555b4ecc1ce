"""CPU seconds per request under gunicorn, by process: the API's workers, PostgreSQL, Redis and
the load generator, for the endpoints of `bench/http_bench.py` served the same way.

A rate on a shared machine moves with whatever else runs; the CPU a request costs each process
moves much less, so this is the figure to compare between commits when the machine is busy.
It reads each process's user and system time from /proc (Linux) before and after a load of
`--requests` requests from 8 client threads. Run: `.venv/bin/python bench/server_cpu.py`.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import loadgen
from bench.databases import deployed_api, prepare
from bench.http_bench import CLIENTS, ESTIMATE, SIZING, THREADS, WORKERS
from tests.faults.servers import LOAD_TEST_ENV, ApiServer, service_env

TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def cpu_seconds(matches: Callable[[str], bool]) -> float:
    """User and system CPU of every process whose command line `matches`."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if matches(command):
            total += (int(fields[11]) + int(fields[12])) / TICKS_PER_S
    return total


def per_request(port: int, method: str, path: str, body, key: str | None,
                requests: int) -> dict[str, float]:
    loadgen.run(port, method, path, body=body, key=key, requests=100, clients=CLIENTS)
    processes = {"api": lambda c: "gunicorn" in c and f":{port} " in c,
                 "postgres": lambda c: c.startswith("postgres:"),
                 "redis": lambda c: "redis-server" in c}
    before = {name: cpu_seconds(m) for name, m in processes.items()}
    own = os.times()
    result = loadgen.run(port, method, path, body=body, key=key, requests=requests,
                         clients=CLIENTS)
    own_s = sum(os.times()[:2]) - sum(own[:2])
    out = {name: (cpu_seconds(m) - before[name]) / requests * 1000 for name, m in processes.items()}
    return {"rps": result["rps"], **out, "loadgen": own_s / requests * 1000}


def show(name: str, figures: dict[str, float]) -> None:
    print(f"{name:24} {figures['rps']:6.0f} req/s; CPU ms per request: API {figures['api']:.2f}, "
          f"PostgreSQL {figures['postgres']:.2f}, Redis {figures['redis']:.2f}, "
          f"load generator {figures['loadgen']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    n = parser.parse_args().requests
    with tempfile.TemporaryDirectory(prefix="sizing-bench-cpu-") as tmp:
        workdir = Path(tmp)
        floor = ApiServer(workdir, service_env("sqlite://", None), app="bench.floor_app:create_app()",
                          workers=WORKERS, threads=THREADS).start(probe="/ping")
        try:
            show("bare Flask floor", per_request(floor.port, "GET", "/ping", None, None, n))
        finally:
            floor.stop()
        sqlite_url = f"sqlite:///{workdir / 'bench.sqlite3'}"
        key = prepare(sqlite_url)
        api = ApiServer(workdir, service_env(sqlite_url, None, **LOAD_TEST_ENV), workers=WORKERS,
                        threads=THREADS).start()
        try:
            show("GET /v1/catalog/servers", per_request(api.port, "GET", "/v1/catalog/servers",
                                                        None, key, n))
            show("POST /v1/estimates", per_request(api.port, "POST", "/v1/estimates", ESTIMATE,
                                                   key, n))
        finally:
            api.stop()
        with deployed_api(workdir, WORKERS, THREADS) as (api, key):
            show("POST /v1/sizings", per_request(api.port, "POST", "/v1/sizings", SIZING,
                                                 key, n))


if __name__ == "__main__":
    main()
