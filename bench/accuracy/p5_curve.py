"""python -m bench.accuracy.p5_curve: the model against AWS p5's whole all-reduce curve.

p5_all_reduce_curve.csv is crazyguitar/aws-gpu-communication-benchmark data/nccl_all_reduce.csv
at a77f70db668034b75db9a430b3cd718f59a6c232, copied unchanged: nccl-tests all_reduce_perf on
2-32 p5.48xlarge (8x H100, 32x 100G EFA), 32 MiB to 8 GiB (k8s/nccl_all_reduce_perf.yaml),
NCCL 2.27.7 with aws-ofi-nccl's tuner. Rows 313-319 of check_measurements.csv are seven of its
45 points; this prints all of them as bench/accuracy prices an NCCL row (a cluster of the
reference system p5-48xlarge, collective_time with NCCL's own choice), next to the pair the
tuner ran (ofi_tuner.p5_pair) and the model's figure for that algorithm. No constant is fitted
on it.
"""
from __future__ import annotations

import csv
import statistics

from bench.accuracy import HERE
from bench.accuracy.ofi_tuner import p5_pair
from bench.accuracy.predict import _cluster
from bench.accuracy.world import World
from catalog.shipped import shipped
from sizing.collectives import collective_time

CURVE = HERE / "p5_all_reduce_curve.csv"
MIB = 2**20


def points(path=CURVE) -> list[tuple[int, int, float]]:
    """(nodes, message bytes, out-of-place busbw GB/s) of each line."""
    with open(path, newline="") as f:
        return [(int(r["Nodes"]), int(r["size(MB)"]) * MIB, float(r["out busbw(GB/s)"]))
                for r in csv.DictReader(f, skipinitialspace=True)]


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


def main() -> int:
    rows = compare()
    print("nodes   size  measured  model  error  model ran    tuner ran        model for it")
    for r in rows:
        ran = ".".join(r["ran"]) if r["ran"] else "NCCL's model"
        it = f"{r['as_ran']:6.1f}" if r["as_ran"] is not None else "     -"
        print(f"{r['nodes']:5d} {r['bytes'] // MIB:5d}M {r['measured']:8.1f} {r['model']:6.1f} "
              f"{r['error_pct']:+5.0f}%  {r['chosen']:<11s}  {ran:<16s} {it}")
    errors = [abs(r["error_pct"]) for r in rows]
    worst = max(rows, key=lambda r: abs(r["error_pct"]))
    print(f"p5 curve: {len(rows)} points, median |error| {statistics.median(errors):.1f}%, "
          f"worst {worst['error_pct']:+.1f}% ({worst['nodes']} nodes, "
          f"{worst['bytes'] // MIB} MiB), {sum(e > 25 for e in errors)} beyond 25%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
