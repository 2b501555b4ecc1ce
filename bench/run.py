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

from bench import async_bench, http_bench, intervals_bench, model_bench, peer_bench, search_bench


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text()
                .splitlines() if line.startswith("model name")), platform.processor())
    mem_kb = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal")))
    return (f"{os.cpu_count()} CPUs ({cpu}), {mem_kb / 1024 ** 2:.0f} GiB, "
            f"Python {platform.python_version()}")


def ratio(pair, digits: int = 2, unit: str = "x") -> str:
    return f"{pair.ratio_median:.{digits}f}{unit} (best {pair.ratio_best:.{digits}f}{unit})"


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
    kernels = model_bench.measure_kernels()
    print("peer ...", flush=True)
    peer = peer_bench.measure()
    print("search ...", flush=True)
    search = search_bench.measure()
    print("goodput and intervals ...", flush=True)
    spread = intervals_bench.measure()
    print("http ...", flush=True)
    http = http_bench.measure(requests)
    print(f"async and memory ({sizings} sizings) ...", flush=True)
    tasks = async_bench.measure(sizings, noops=1000)

    rows: list[tuple[str, str, str, str]] = []
    pair = model["pair"]
    rows.append(("model: estimate_batch (goal >= 1M/s)",
                 f"{pair.a.median:,.0f} configs/s (best {pair.a.best:,.0f})",
                 f"loop of estimate: {pair.b.median:,.0f} configs/s", ratio(pair, 0)))
    if kernels["pair"] is not None:
        pair = kernels["pair"]
        rows.append(("model: estimate_batch compiled vs numpy reference",
                     f"{pair.a.median:,.0f} configs/s (best {pair.a.best:,.0f})",
                     f"SIZING_KERNELS=numpy: {pair.b.median:,.0f} configs/s", ratio(pair)))
    if peer is None:
        rows.append(("model: one estimate vs llm-analysis", "llm-analysis not installed",
                     "make bench installs it (the bench extra)", "-"))
    else:
        pair = peer["pair"]
        rows.append(("model: one estimate vs llm-analysis (goal < 1x)",
                     f"{pair.a.median * 1000:.3f} ms (best {pair.a.best * 1000:.3f})",
                     (f"llm-analysis 0.2.2 training(), same GPT-3 175B layout: "
                     f"{pair.b.median * 1000:.3f} ms"), ratio(pair)))
    e2e = search["end_to_end"]["pair"]
    rows.append(("search: full catalog vs one node (goal <= 5x)",
                 (f"{e2e.a.median * 1000:,.0f} ms (best {e2e.a.best * 1000:,.0f}), "
                 f"{search['end_to_end']['candidates']:,} cand."),
                 f"POST /v1/sizings, Prefer: wait; one node {e2e.b.median * 1000:.1f} ms",
                 ratio(e2e, 1)))
    per = search["per_candidate"]
    for name in ("small", "wide"):
        pair = per[name]
        rows.append((f"search: per candidate, {per[name + '_candidates'] / 1e6:.1f}M (goal <= 2x)",
                     f"{pair.a.median * 1e6:.3f} us (best {pair.a.best * 1e6:.3f})",
                     (f"numpy floor (estimate_batch alone) {pair.b.median * 1e6:.3f} us; "
                     f"time model on {per[name + '_timed']:,}"), ratio(pair)))
    rows.append(("search: per candidate, flatness", (f"{per['wide_candidates'] / 1e6:.1f}M vs "
                 f"{per['small_candidates'] / 1e6:.1f}M candidates"), "median cost per candidate",
                 f"{per['wide'].a.median / per['small'].a.median:.2f}x"))
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
    mem = search["memory"]
    small_mem, wide_mem = mem["dense_128"]["growth_kb"] / 1024, mem["dense_512"]["growth_kb"] / 1024
    rows.append(("memory: worker peak RSS growth (goal <= 500 MiB)",
                 f"{small_mem:.0f} MiB at 1-128, {wide_mem:.0f} MiB at 1-512",
                 (f"70B, every pair; {mem['dense_512']['search_size']:,} candidates at 1-512 "
                 f"(secret key allowance {mem['allowance']:,})"),
                 f"{wide_mem / small_mem:.2f}x"))
    for name, label, goal in (("catalog_servers", "GET /v1/catalog/servers (SQLite)", ""),
                              ("estimates", "POST /v1/estimates (SQLite)", " (goal >= 0.5x)"),
                              ("sizings", "POST /v1/sizings (PostgreSQL+Redis)",
                               " (goal >= 0.25x)")):
        pair = http[name]["pair"]
        rows.append((f"http: {label}{goal}",
                     f"{pair.a.median:,.0f} req/s (best {pair.a.best:,.0f})",
                     f"bare Flask floor {pair.b.median:,.0f} req/s (best {pair.b.best:,.0f})",
                     ratio(pair)))
    pair = tasks["pair"]
    rows.append(("async: sizings end to end vs no-op task",
                 f"{pair.a.median:.1f} sizings/s (best {pair.a.best:.1f})",
                 f"no-op Celery round trips {pair.b.median:,.0f}/s; {tasks['workers']} workers",
                 ratio(pair, 3)))
    rss = tasks["rss"]
    rows.append((f"memory after {tasks['count']} sizings", "peak RSS (VmHWM)",
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
    print(f"\nEvery ratio: its two sides measured turn about (A B A B ...); the median of the "
          f"ratios of each turn, the best turn in brackets; figures: median of the repeats "
          f"(best in brackets). gunicorn {http['workers']} workers x {http['threads']} threads, "
          f"{http['clients']} client threads on loopback, {http['rounds']} rounds of "
          f"{http['per_round']} requests per side; {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
