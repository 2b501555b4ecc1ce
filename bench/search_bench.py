"""The sizing search: end to end against a one-node sizing, per candidate against the model's
floor, and a worker's peak memory as the node range widens. Every ratio interleaves its sides.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.databases import prepare
from bench.interleave import interleaved
from catalog.files import read_catalog
from catalog.offer import sellable_pairs
from catalog.snapshot import build
from service.config import REPO_ROOT, Config
from service.schemas.sizings import SizingRequestSchema
from service.sizing_request import SizingRequest
from service.sizing_run import run, search
from sizing.search import HardwareTable, enumeration
from sizing.step import estimate_batch
from tests.faults.servers import LOAD_TEST_ENV, ApiServer, request, service_env

# Every server and every fabric the RDMA matrix allows, at 1 to 128 nodes, every layout.
FULL_CATALOG = {"workload": {"preset": "llama-3-70b"}, "tokens": 1e12,
                "nodes": {"min": 1, "max": 128}, "max_lead_time_days": 365}
# The least a sizing can be: one node of one server on one fabric, the layout pinned.
ONE_NODE = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 1},
            "gpu_models": ["h100-sxm"], "fabrics_include": ["ib-ndr-400"],
            "layout": {"tp": 2, "zero_stage": 1}}
# Per candidate: one model (MoE, the largest layout grid) at a small and at the widest range.
SMALLER = {"workload": {"preset": "mixtral-8x7b"}, "tokens": 1e12,
           "nodes": {"min": 1, "max": 48}, "max_lead_time_days": 365}
WIDEST = {**SMALLER, "nodes": {"min": 1, "max": 512}}
# Memory: a dense model from 1-128 nodes to the widest range a secret key may search.
DENSE_128 = FULL_CATALOG
DENSE_512 = {**FULL_CATALOG, "nodes": {"min": 1, "max": 512}}


def shipped_snapshot():
    # Stored as JSON in the database, so go through JSON here too, as a worker sees it.
    document = json.loads(json.dumps(read_catalog(REPO_ROOT / "catalog" / "data"), default=str))
    return build(1, document)


def request_of(body: dict) -> SizingRequest:
    schema = SizingRequestSchema()
    return SizingRequest.from_document(schema.dump(schema.load(body)))


# ------------------------------------------------------------------------------ end to end

def end_to_end(repeats: int) -> dict:
    """POST /v1/sizings (Prefer: wait) of the full catalog and of one node, turn about, under
    gunicorn as `make run` serves it (embedded: SQLite, the task run in the process)."""
    with tempfile.TemporaryDirectory(prefix="sizing-bench-search-") as tmp:
        workdir = Path(tmp)
        url = f"sqlite:///{workdir / 'bench.sqlite3'}"
        key = prepare(url)
        api = ApiServer(workdir, service_env(url, None, **LOAD_TEST_ENV), workers=1, threads=4)
        try:
            api.start()

            def sizing(body: dict):
                def once() -> float:
                    t0 = time.perf_counter()
                    status, _, answer = request(api.port, "POST", "/v1/sizings", body, key=key,
                                                headers={"Prefer": "wait=20"}, timeout_s=60)
                    seconds = time.perf_counter() - t0
                    if status not in (200, 201) or answer["status"] != "succeeded":
                        raise RuntimeError(f"sizing answered {status}: {answer}")
                    once.candidates = answer["result"]["candidates_evaluated"]
                    return seconds
                return once

            full, one = sizing(FULL_CATALOG), sizing(ONE_NODE)
            full(), one()  # the snapshot and the code paths warm
            pair = interleaved(full, one, repeats)
        finally:
            api.stop()
    return {"pair": pair, "candidates": full.candidates}


# ------------------------------------------------------------------------------ per candidate

def floor_per_candidate(snap, body: dict) -> float:
    """Seconds per candidate of estimate_batch alone on every candidate of the search, in the
    search's chunks, with the input arrays built outside the clock: the model's numpy floor."""
    req = request_of(body)
    policy = snap.policy
    training = req.training(policy)
    pairs = sellable_pairs(snap, req.hardware, req.region).pairs
    clusters = [snap.cluster(s, f, 1) for s, f in pairs]
    table = HardwareTable.of(clusters)
    space = enumeration([c.gpus_per_node for c in clusters], req.node_counts, req.model,
                        training, req.layout, req.batch_fixed, req.max_global_batch(policy),
                        table.groups)
    seconds, count = 0.0, 0
    for cands in space.chunks(policy.max_candidates_per_pass):
        batch = table.batch(cands)
        t0 = time.perf_counter()
        estimate_batch(batch, req.model, training, snap.constants)
        seconds += time.perf_counter() - t0
        count += len(cands)
    return seconds / count


def search_per_candidate(snap, body: dict):
    req = request_of(body)

    def once() -> float:
        t0 = time.perf_counter()
        found = search(snap, req, lambda _fraction: None)
        seconds = time.perf_counter() - t0
        once.candidates, once.timed = found.tally.evaluated, found.tally.timed
        return seconds / found.tally.evaluated
    return once


def per_candidate(snap, repeats: int) -> dict:
    small, wide = search_per_candidate(snap, SMALLER), search_per_candidate(snap, WIDEST)
    floor = interleaved(small, lambda: floor_per_candidate(snap, SMALLER), repeats)
    widest = interleaved(wide, lambda: floor_per_candidate(snap, SMALLER), max(1, repeats - 1))
    return {"small": floor, "wide": widest, "small_candidates": small.candidates,
            "small_timed": small.timed, "wide_candidates": wide.candidates,
            "wide_timed": wide.timed}


# ------------------------------------------------------------------------------ memory

def rss_child(body: dict) -> dict:
    """In a fresh process, as a worker: peak RSS before and after one sizing."""
    snap = shipped_snapshot()
    run(snap, request_of(ONE_NODE), lambda _f: None, date.today())  # imports and caches warm
    before = _vm_hwm_kb()
    req = request_of(body)
    result = run(snap, req, lambda _f: None, date.today())
    return {"before_kb": before, "after_kb": _vm_hwm_kb(),
            "candidates": result.candidates_evaluated, "search_size": req.search_size(snap)}


def _vm_hwm_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def memory() -> dict:
    out = {"allowance": Config().search_candidates_secret_key}
    for name, body in (("dense_128", DENSE_128), ("dense_512", DENSE_512)):
        done = subprocess.run([sys.executable, __file__, "--rss-child", json.dumps(body)],
                              check=True, capture_output=True, text=True)
        out[name] = json.loads(done.stdout.strip().splitlines()[-1])
        out[name]["growth_kb"] = out[name]["after_kb"] - out[name]["before_kb"]
    return out


def measure(repeats: int = 7) -> dict:
    snap = shipped_snapshot()
    return {"end_to_end": end_to_end(repeats), "per_candidate": per_candidate(snap, 3),
            "memory": memory()}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rss-child", help="(internal) a sizing body to measure in this process")
    parser.add_argument("--only", choices=("end-to-end",),
                        help="measure that part alone (end-to-end: the full catalog against one "
                             "node, POST /v1/sizings)")
    parser.add_argument("--repeats", type=int, default=7,
                        help="turns of each side of the end-to-end pair (default 7)")
    args = parser.parse_args()
    if args.rss_child:
        print(json.dumps(rss_child(json.loads(args.rss_child))))
        return
    if args.only == "end-to-end":
        _print_end_to_end(end_to_end(args.repeats)["pair"])
        return
    m = measure(args.repeats)
    _print_end_to_end(m["end_to_end"]["pair"])
    p = m["per_candidate"]
    for name in ("small", "wide"):
        pair = p[name]
        print(f"per candidate, {p[name + '_candidates']:,} candidates: search "
              f"{pair.a.median * 1e6:.3f} us, floor {pair.b.median * 1e6:.3f} us: "
              f"{pair.ratio_median:.2f}x")
    mem = m["memory"]
    for name in ("dense_128", "dense_512"):
        print(f"memory {name}: {mem[name]['search_size']:,} candidates, peak RSS growth "
              f"{mem[name]['growth_kb'] / 1024:.0f} MiB")


def _print_end_to_end(e) -> None:
    print(f"end to end: full catalog median {e.a.median * 1000:.0f} ms (best {e.a.best * 1000:.0f}),"
          f" one node median {e.b.median * 1000:.1f} ms (best {e.b.best * 1000:.1f}): "
          f"{e.ratio_median:.1f}x (best {e.ratio_best:.1f}x)")


if __name__ == "__main__":
    main()
