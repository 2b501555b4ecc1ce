"""A bounded HTTP load generator on loopback: client threads with keep-alive connections."""
from __future__ import annotations

import http.client
import json
import statistics
import threading
import time


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(port: int, method: str, path: str, *, body=None, key: str | None = None,
        requests: int = 1000, clients: int = 8, warmup: int = 20, timeout_s: float = 60) -> dict:
    """Send `requests` requests from `clients` threads; latency and rate of the 2xx answers."""
    payload = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if payload else {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    remaining = [requests]

    def one(conn) -> tuple[int, float]:
        t0 = time.perf_counter()
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - t0

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
        try:
            while True:
                with lock:
                    if remaining[0] <= 0:
                        return
                    remaining[0] -= 1
                try:
                    status, seconds = one(conn)
                except (OSError, http.client.HTTPException):
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
                    status, seconds = 0, 0.0
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if 200 <= status < 300:
                        latencies.append(seconds)
        finally:
            conn.close()

    warm = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
    for _ in range(warmup):
        one(warm)
    warm.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout_s * 2)
    elapsed = time.perf_counter() - t0
    ok = len(latencies)
    return {"requests": requests, "clients": clients, "ok": ok, "statuses": statuses,
            "seconds": elapsed, "rps": ok / elapsed if elapsed else 0.0,
            "p50_ms": percentile(latencies, 0.50) * 1000 if ok else float("nan"),
            "p99_ms": percentile(latencies, 0.99) * 1000 if ok else float("nan"),
            "mean_ms": statistics.fmean(latencies) * 1000 if ok else float("nan")}
