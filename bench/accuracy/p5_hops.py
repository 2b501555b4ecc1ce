"""python -m bench.accuracy.p5_hops: what one inter-node step or tree hop costs on the p5 curve.

The model prices an inter-node step at NCCL's 'net' latency plus the fabric's excess: a ring
step at efa-v2-100's ring_latency_us (fitted on the curve's ring points, p5_curve.py), a tree
and NVLS-Tree hop at its latency_us (assumed from efa-v4-400's fit on rows 7 and 12); Simple
pays it once, since NCCL does not flush on Hopper (sizing.topology.Links). The curve (p5_curve.py) measures the same sizes on 4 to 32 nodes with, at most
points, the pair aws-ofi-nccl's tuner set (ofi_tuner.p5_pair), so between two node counts that
ran the same pair the measured time's growth over the steps added is what one step cost there:
a ring all-reduce crosses 2 nNodes node boundaries (NCCL 2.20.3 tuning.cc nInterSteps), a tree
and NVLS-Tree 2 log2(nNodes) (tuning.cc's tree depth). Printed beside the model's own figure
for a step of that pair (ring Simple's with NCCL's 1.4 plateau factor).

NVLS-Tree's network leg moves its bytes in loops of concurrentOps x chunk (NVIDIA/nccl v2.27.7
src/enqueue.cc: concurrentOps = channels x heads, the chunk capped by NCCL_NVLSTREE_MAX_CHUNKSIZE,
524288 on p5 by aws/aws-ofi-nccl src/platform-aws.cpp's platform table). A chain of hops that
each forward a whole chunk before the next starts takes (loops + hops - 1) chunk-times, so the
measured figure over loops / (loops + hops - 1) is the rate such a pipeline would run at (the
model prices NVLS-Tree's network leg so, sizing.collectives._nvls_tree_fill_s, with NCCL's
smaller chunks for messages of few loops, which this table leaves out). A diagnostic only:
nothing here is read by the model and no constant is fitted on it.
"""
from __future__ import annotations

import itertools
import math

from bench.accuracy.ofi_tuner import p5_pair
from bench.accuracy.p5_curve import MIB, points
from bench.accuracy.predict import _cluster
from bench.accuracy.world import World
from catalog.shipped import shipped
from sizing.topology import Links

# aws/aws-ofi-nccl src/platform-aws.cpp, p5/p5e: NCCL_NVLSTREE_MAX_CHUNKSIZE=524288
P5_NVLS_TREE_CHUNK_BYTES = 524288
# NVLS channels (nccl_nvls_pipeline's channels) x heads: one per GPU, a p5 having 32 NICs
# for its 8 GPUs (nccl_nvls_pipeline's heads_max)
P5_GPUS_PER_NODE = 8


def seconds(nodes: int, message_bytes: float, busbw_gbs: float) -> float:
    """The time nccl-tests measured, from its bus bandwidth (all-reduce: busbw = algbw x 2(n-1)/n)."""
    return message_bytes * _ring_bytes(nodes) / (busbw_gbs * 1e9)


def _ring_bytes(nodes: int) -> float:
    n = nodes * P5_GPUS_PER_NODE
    return 2.0 * (n - 1) / n


def inter_steps(algorithm: str, nodes: int) -> float:
    """Inter-node steps on the critical path, as NCCL 2.20.3's tuning model counts them."""
    if algorithm == "ring":
        return 2.0 * nodes
    return 2.0 * math.floor(math.log2(nodes))


def model_step_us(algorithm: str, protocol: str, constants, links: Links) -> float:
    """The model's cost of one inter-node step of the pair on a p5 cluster's `links`, us."""
    hw = constants.nccl_hw_latency_us
    extra = links.ring_extra_us if algorithm == "ring" else links.net_extra_us
    step = float(hw.get(f"net.{algorithm}.{protocol}", hw["default"])) + float(extra[0])
    if protocol == "simple":
        step += float(links.flush_extra_us[0])
        if algorithm == "ring":
            step *= constants.nccl_ring_plateau_factor
    return step


def pipeline_efficiency(message_bytes: float, nodes: int, channels: float, heads: float,
                        chunk_bytes: float = P5_NVLS_TREE_CHUNK_BYTES) -> float:
    """loops / (loops + hops - 1): the share of a chunk pipeline's time that moves bytes."""
    loops = max(message_bytes / (channels * heads * chunk_bytes), 1.0)
    hops = inter_steps("nvls_tree", nodes)
    return loops / (loops + hops - 1.0)


def step_costs(world_constants=None) -> list[dict]:
    """Per size, each pair of node counts that ran the same tuner pair: the measured time's
    growth per added step and the model's step figure."""
    world = World.of(shipped())
    constants = world_constants or world.constants
    cluster = _cluster(world, {"system": "p5-48xlarge", "nodes": 4})
    links = Links.of(cluster.as_arrays(), constants)
    by_size: dict[int, dict[int, float]] = {}
    for nodes, size, busbw in points():
        by_size.setdefault(size, {})[nodes] = seconds(nodes, size, busbw)
    out = []
    for size, times in sorted(by_size.items()):
        counts = sorted(n for n in times if p5_pair(size, n))
        for low, high in itertools.pairwise(counts):
            pair = p5_pair(size, low)
            if p5_pair(size, high) != pair:
                continue
            added = inter_steps(pair[0], high) - inter_steps(pair[0], low)
            grown = times[high] - times[low]
            if pair[0] == "ring":
                # A ring's bytes grow with its ranks, 2(n-1)/n: the lower count's time scaled
                # by that growth is taken off (its latency counted as bytes too, so the figure
                # errs low). A tree's and NVLS-Tree's bytes beyond two nodes do not grow.
                grown -= times[low] * (_ring_bytes(high) / _ring_bytes(low) - 1.0)
            out.append({"bytes": size, "nodes": (low, high), "pair": pair,
                        "measured_us": 1e6 * grown / added,
                        "model_us": model_step_us(*pair, constants, links)})
    return out


def main() -> int:
    constants = shipped().constants
    table = constants.nccl_nvls_pipeline
    heads = min(P5_GPUS_PER_NODE, table["heads_max"])
    print("size    nodes  tuner ran         measured us/step  model us/step")
    for r in step_costs(constants):
        low, high = r["nodes"]
        print(f"{r['bytes'] // MIB:5d}M {low:3d}->{high:<3d} {'.'.join(r['pair']):<17s} "
              f"{r['measured_us']:16.1f} {r['model_us']:14.1f}")
    print("\nNVLS-Tree chunk pipeline (p5's 512 KiB chunk), points the tuner ran NVLS-Tree at")
    print("nodes   size  measured  loops/(loops+hops-1)  measured / that")
    for nodes, size, busbw in points():
        if p5_pair(size, nodes) != ("nvls_tree", "simple"):
            continue
        eff = pipeline_efficiency(size, nodes, table["channels"], heads)
        print(f"{nodes:5d} {size // MIB:5d}M {busbw:9.1f} {eff:21.3f} {busbw / eff:16.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
