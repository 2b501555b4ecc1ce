"""Time of a full-catalog sizing search, and candidates scored per second, as a worker runs it."""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datetime import date

from catalog.files import read_catalog
from catalog.snapshot import build
from service.config import REPO_ROOT
from service.schemas.sizings import SizingRequestSchema
from service.sizing_request import SizingRequest
from service.sizing_run import run

# Every server and every fabric the RDMA matrix allows, at 1 to 128 nodes, every layout.
FULL_CATALOG = {"workload": {"preset": "llama-3-70b"}, "tokens": 1e12,
                "nodes": {"min": 1, "max": 128}, "max_lead_time_days": 365}
SMALL = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 4},
         "gpu_models": ["h100-sxm"]}


def shipped_snapshot():
    # Stored as JSON in the database, so go through JSON here too, as a worker sees it.
    document = json.loads(json.dumps(read_catalog(REPO_ROOT / "catalog" / "data"), default=str))
    return build(1, document)


def time_search(snap, body: dict, repeats: int) -> dict:
    schema = SizingRequestSchema()
    document = schema.dump(schema.load(body))
    times, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = run(snap, SizingRequest.from_document(document), lambda _fraction: None,
                     date.today())
        times.append(time.perf_counter() - t0)
    seconds = statistics.median(times)
    return {"seconds": seconds, "best_s": min(times), "repeats": repeats,
            "candidates": result.candidates_evaluated,
            "eligible": result.candidates_eligible,
            "candidates_per_s": result.candidates_evaluated / seconds}


def measure(repeats: int = 3) -> dict:
    snap = shipped_snapshot()
    return {"servers": len(snap.servers), "fabrics": len(snap.fabrics),
            "full": time_search(snap, FULL_CATALOG, repeats),
            "small": time_search(snap, SMALL, repeats * 5)}


def main():
    m = measure()
    full, small = m["full"], m["small"]
    print(f"catalog: {m['servers']} servers x {m['fabrics']} fabrics, nodes 1-128")
    print(f"full-catalog search: {full['seconds']:.2f} s (median of {full['repeats']}), "
          f"{full['candidates']:,} candidates, {full['candidates_per_s']:,.0f} candidates/s")
    print(f"small search: {small['seconds'] * 1000:.0f} ms, {small['candidates']:,} candidates")


if __name__ == "__main__":
    main()
