"""Runs every benchmark in bench/ and prints one table; `make bench`.

Each ratio compares two figures measured in this same run on this same machine.
"""
from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import async_bench, http_bench, intervals_bench, model_bench, search_bench


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text()
                .splitlines() if line.startswith("model name")), platform.processor())
    mem_kb = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal")))
    return (f"{os.cpu_count()} CPUs ({cpu}), {mem_kb / 1024 ** 2:.0f} GiB, "
            f"Python {platform.python_version()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer requests and sizings")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    requests, sizings = (300, 200) if args.quick else (1000, 1000)

    started = time.perf_counter()
    print(f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {machine()}", flush=True)
    print("model ...", flush=True)
    model = model_bench.measure()
    print("search ...", flush=True)
    search = search_bench.measure()
    print("goodput and intervals ...", flush=True)
    spread = intervals_bench.measure()
    print("http ...", flush=True)
    http = http_bench.measure(requests)
    print(f"async and memory ({sizings} sizings) ...", flush=True)
    tasks = async_bench.measure(sizings, noops=1000)

    rows: list[tuple[str, str, str, str]] = []
    rows.append(("model: estimate_batch", f"{model['vectorised_per_s']:,.0f} configs/s",
                 f"loop of estimate: {model['loop_per_s']:,.0f} configs/s",
                 f"{model['vectorised_per_s'] / model['loop_per_s']:,.0f}x"))
    full = search["full"]
    rows.append(("search: full catalog", f"{full['seconds']:.2f} s, {full['candidates']:,} cand.",
                 f"{full['candidates_per_s']:,.0f} candidates/s vs estimate_batch",
                 f"{full['candidates_per_s'] / model['vectorised_per_s']:.2f}x"))
    rows.append((f"model: {spread['candidates']:,} candidates alone",
                 f"{spread['model_s'] * 1000:.1f} ms", "estimate_batch", "1.00x"))
    for key, label in (("goodput_s", "+ goodput"), ("calibrated_s", "+ calibrated intervals"),
                       ("extrapolated_s", f"+ extrapolated intervals ({spread['draws']} draws)")):
        rows.append((f"model: {label}", f"{spread[key] * 1000:.1f} ms",
                     "same candidates, same run", f"{spread[key] / spread['model_s']:.2f}x"))
    rows.append(("search: intervals of the ranked list",
                 f"{spread['ranked_intervals_s'] * 1000:.0f} ms",
                 f"{spread['ranked']} configurations, of a {spread['search_s']:.2f} s search",
                 f"{spread['ranked_intervals_s'] / spread['search_s']:.3f}x"))
    small = search["small"]
    rows.append(("search: small (1 GPU, 1-4 nodes)", f"{small['seconds'] * 1000:.0f} ms",
                 f"{small['candidates']:,} candidates", "-"))
    floor = http["floor"]
    rows.append(("http: bare Flask GET (floor)", f"{floor['rps']:,.0f} req/s",
                 f"p50 {floor['p50_ms']:.1f} ms, p99 {floor['p99_ms']:.1f} ms", "1.00x"))
    for name, label in (("catalog_servers", "GET /v1/catalog/servers (SQLite)"),
                        ("estimates", "POST /v1/estimates (SQLite)"),
                        ("sizings", "POST /v1/sizings (PostgreSQL+Redis)")):
        r = http[name]
        rows.append((f"http: {label}", f"{r['rps']:,.0f} req/s",
                     f"p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms",
                     f"{r['rps'] / floor['rps']:.2f}x of floor"))
    noop, done = tasks["noop"], tasks["sizings"]
    rows.append(("async: no-op Celery round trip (floor)", f"{noop['per_s']:,.0f} tasks/s",
                 f"one at a time: {noop['round_trip_ms']:.1f} ms", "1.00x"))
    rows.append(("async: sizings end to end", f"{done['per_s']:.1f} sizings/s",
                 f"{done['count']} in {done['seconds']:.1f} s, {tasks['workers']} workers",
                 f"{done['per_s'] / noop['per_s']:.3f}x of floor"))
    rss = tasks["rss"]
    rows.append((f"memory after {done['count']} sizings", "peak RSS (VmHWM)",
                 (f"API worker {rss['api_worker_kb'] / 1024:.0f} MiB, Celery pool "
                  f"{rss['celery_child_kb'] / 1024:.0f} MiB, Celery main "
                  f"{rss['celery_main_kb'] / 1024:.0f} MiB"), "-"))

    widths = [max(len(r[i]) for r in rows + [("benchmark", "figure", "detail", "ratio")])
              for i in range(4)]
    line = "  ".join("-" * w for w in widths)
    print()
    print("  ".join(h.ljust(w) for h, w in zip(("benchmark", "figure", "detail", "ratio"), widths)))
    print(line)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)))
    print(f"\ngunicorn {http['workers']} workers x {http['threads']} threads, {http['clients']} "
          f"client threads on loopback; {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
