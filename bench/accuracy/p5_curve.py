"""python -m bench.accuracy.p5_curve: the model against AWS p5's whole all-reduce curve.

p5_all_reduce_curve.csv is crazyguitar/aws-gpu-communication-benchmark data/nccl_all_reduce.csv
at a77f70db668034b75db9a430b3cd718f59a6c232, copied unchanged: nccl-tests all_reduce_perf on
2-32 p5.48xlarge (8x H100, 32x 100G EFA), 32 MiB to 8 GiB (k8s/nccl_all_reduce_perf.yaml),
NCCL 2.27.7 with aws-ofi-nccl's tuner. Rows 313-319 of check_measurements.csv are seven of its
45 points; this prints all of them as bench/accuracy prices an NCCL row (a cluster of the
reference system p5-48xlarge, collective_time with NCCL's own choice), next to the pair the
tuner ran (ofi_tuner.p5_pair) and the model's figure for that algorithm.

One figure is fitted on it: efa-v2-100's ring_latency_us (catalog/data/reference_systems.yaml),
on the 20 points the tuner ran a ring at (ring_points, marked 'fit' below), each priced as a
ring; `--fit` refits it. Rows 315-317 are three of those points (seen rows of the report).
"""
from __future__ import annotations

import argparse
import csv
import statistics

from bench.accuracy import HERE
from bench.accuracy.fitting import FitGroup, fit
from bench.accuracy.ofi_tuner import p5_pair
from bench.accuracy.predict import _cluster
from bench.accuracy.world import Param, World
from catalog.shipped import shipped
from sizing.collectives import collective_time

CURVE = HERE / "p5_all_reduce_curve.csv"
MIB = 2**20


def points(path=CURVE) -> list[tuple[int, int, float]]:
    """(nodes, message bytes, out-of-place busbw GB/s) of each line."""
    with open(path, newline="") as f:
        return [(int(r["Nodes"]), int(r["size(MB)"]) * MIB, float(r["out busbw(GB/s)"]))
                for r in csv.DictReader(f, skipinitialspace=True)]


RING_LATENCY = Param("fabric", "efa-v2-100", "ring_latency_us")


def ring_points(path=CURVE) -> list[tuple[int, int, float]]:
    """The points efa-v2-100's ring_latency_us is fitted on: those the tuner ran a ring at."""
    return [p for p in points(path) if (p5_pair(p[1], p[0]) or ("",))[0] == "ring"]


def _ring_busbw(nodes: int, size: int, world: World) -> float:
    cluster = _cluster(world, {"system": "p5-48xlarge", "nodes": nodes})
    return collective_time("all_reduce", size, cluster, world.constants, "ring")[2]


def fit_ring_latency(world: World | None = None) -> float:
    """efa-v2-100's ring_latency_us by least squares of log(model / measured) over ring_points."""
    world = world or World.of(shipped())
    ring = ring_points()
    rows = tuple(range(len(ring)))
    fitted = fit(FitGroup((RING_LATENCY,), rows), rows, world,
                 lambda i, w: _ring_busbw(ring[i][0], ring[i][1], w),
                 {i: ring[i][2] for i in rows})
    return fitted[RING_LATENCY]


def compare(world: World | None = None) -> list[dict]:
    world = world or World.of(shipped())
    out = []
    for nodes, size, measured in points():
        cluster = _cluster(world, {"system": "p5-48xlarge", "nodes": nodes})
        _, _, busbw, chosen = collective_time("all_reduce", size, cluster, world.constants)
        ran = p5_pair(size, nodes)
        as_ran = (collective_time("all_reduce", size, cluster, world.constants, ran[0])[2]
                  if ran else None)
        out.append({"nodes": nodes, "bytes": size, "measured": measured, "model": busbw,
                    "chosen": chosen, "ran": ran, "as_ran": as_ran,
                    "error_pct": 100.0 * (busbw / measured - 1.0)})
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The model against p5's all-reduce curve.")
    parser.add_argument("--fit", action="store_true",
                        help="refit efa-v2-100's ring_latency_us on the ring points and print "
                             "it next to the catalog value")
    args = parser.parse_args(argv)
    world = World.of(shipped())
    if args.fit:
        print(f"{RING_LATENCY}: fitted {fit_ring_latency(world):.4g}, "
              f"catalog {world.get(RING_LATENCY):g} ({len(ring_points())} ring points)")
    rows = compare(world)
    fitted = {(n, size) for n, size, _ in ring_points()}
    print("nodes   size  measured  model  error  model ran    tuner ran        model for it")
    for r in rows:
        ran = ".".join(r["ran"]) if r["ran"] else "NCCL's model"
        it = f"{r['as_ran']:6.1f}" if r["as_ran"] is not None else "     -"
        mark = "fit" if (r["nodes"], r["bytes"]) in fitted else ""
        print(f"{r['nodes']:5d} {r['bytes'] // MIB:5d}M {r['measured']:8.1f} {r['model']:6.1f} "
              f"{r['error_pct']:+5.0f}%  {r['chosen']:<11s}  {ran:<16s} {it}  {mark}")
    errors = [abs(r["error_pct"]) for r in rows]
    worst = max(rows, key=lambda r: abs(r["error_pct"]))
    print(f"p5 curve: {len(rows)} points, median |error| {statistics.median(errors):.1f}%, "
          f"worst {worst['error_pct']:+.1f}% ({worst['nodes']} nodes, "
          f"{worst['bytes'] // MIB} MiB), {sum(e > 25 for e in errors)} beyond 25%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
