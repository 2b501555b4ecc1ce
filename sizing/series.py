"""Scaling against node count for one server, one layout family per plot, on a one-node scale."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from sizing.hardware import Cluster
from sizing.search import LayoutSpace, enumerate_candidates, evaluate
from sizing.step import SCALING_EFFICIENCY_MEANS
from sizing.workload import Layout, Training, Transformer

MAX_NODES = 1024


def node_counts(lowest: int, highest: int, rank_one: int) -> list[int]:
    """The requested range and one step either side: every count of a short range, powers of
    two (and the ends) of a long one; always rank 1's own node count, so that the plot shows
    the configuration it is drawn for."""
    if highest - lowest + 1 <= 8:
        return sorted({*range(max(1, lowest - 1), min(highest + 1, MAX_NODES) + 1), rank_one})
    powers = [2**k for k in range(11) if 2**k <= MAX_NODES]
    inside = [p for p in powers if lowest <= p <= highest]
    below = [p for p in powers if p < lowest][-1:]
    above = [p for p in powers if p > highest][:1]
    return sorted({*inside, lowest, highest, rank_one, *below, *above})


def rate_of(model, results: dict) -> np.ndarray:
    """Throughput in the workload's unit: tokens/s for a transformer, samples/s otherwise."""
    return results["tokens_per_s"] if isinstance(model, Transformer) else results["samples_per_s"]


@dataclass(frozen=True)
class OneNodeReference:
    """The best one-node layout's throughput per GPU: the scale of efficiency_vs_one_node."""

    server: str
    throughput_per_gpu: float
    # False when no one-node layout fits in memory: its throughput is then one node's speed as
    # if memory allowed it, a run no one could make, so no ratio is given against it.
    fits_memory: bool
    # The reference's own layout: the fastest per GPU on one node (of those that fit, where one
    # does), which need not be the layout of the configuration it is compared with.
    layout: Layout
    micro_batch: int


def one_node_reference(cluster: Cluster, model, training: Training, space: LayoutSpace,
                       batch_fixed: bool, max_global_batch: float,
                       constants) -> OneNodeReference | None:
    """Fabric does not matter inside one node, so any cluster of the server will do."""
    return one_node_references([cluster], model, training, space, batch_fixed,
                               max_global_batch, constants)[0]


def one_node_references(clusters: Sequence[Cluster], model, training: Training,
                        space: LayoutSpace, batch_fixed: bool, max_global_batch: float,
                        constants) -> list[OneNodeReference | None]:
    """one_node_reference of each cluster's server, every server's layouts in one pass of the
    model (element-wise, so each row's figures are those it has alone)."""
    ones = [replace(cluster, nodes=1) for cluster in clusters]
    cands = enumerate_candidates(ones, [1], model, training, space, batch_fixed, max_global_batch)
    if len(cands) == 0:
        return [None] * len(ones)
    r = evaluate(ones, cands, model, training, constants)
    valid = r["valid"].astype(bool)
    per_gpu = np.where(valid, rate_of(model, r) / r["gpus"], -np.inf)
    out: list[OneNodeReference | None] = []
    for h, one in enumerate(ones):
        # The server's own rows, in the order its search alone would enumerate them, so that
        # a tie goes to the same layout.
        rows = np.flatnonzero(cands.hardware == h)
        if not valid[rows].any():
            out.append(None)
            continue
        fits = valid[rows] & r["memory_fits"][rows].astype(bool)
        mine = per_gpu[rows]
        best = int(rows[np.argmax(np.where(fits, mine, -np.inf) if fits.any() else mine)])
        out.append(OneNodeReference(one.server.id, float(per_gpu[best]), bool(fits.any()),
                                    cands.layout_at(best), cands.micro_batch_at(best)))
    return out


def vs_one_node(throughput: float, gpus: int, reference: OneNodeReference | None) -> float | None:
    """Throughput per GPU against the best one-node layout of the same server; None where
    there is none, or none that fits in memory (there is no one-node run to compare with)."""
    if reference is None or not reference.fits_memory or reference.throughput_per_gpu <= 0:
        return None
    return throughput / gpus / reference.throughput_per_gpu


def family(layout: Layout, micro_batch: int) -> LayoutSpace:
    """The layouts that keep every degree of `layout` but let data parallelism follow the GPUs."""
    return LayoutSpace(micro_batch=(micro_batch,), fixed=replace(layout, dp=0))


@dataclass(frozen=True)
class SeriesPoint:
    nodes: int
    scaling_efficiency: float = field(metadata={"description": SCALING_EFFICIENCY_MEANS})
    efficiency_vs_one_node: float | None
    throughput: float
    communication_share: float


@dataclass(frozen=True)
class FabricLine:
    fabric: str
    fabric_name: str
    points: tuple[SeriesPoint, ...]


def fabric_lines(clusters: Sequence[Cluster], counts: Sequence[int], model, training: Training,
                 layout: Layout, micro_batch: int, batch_fixed: bool, max_global_batch: float,
                 constants, reference: OneNodeReference | None) -> list[FabricLine]:
    """One line per cluster's fabric, every point the same layout family; points that do not
    fit in memory are left out, since no one could run them."""
    space = family(layout, micro_batch)
    cands = enumerate_candidates(clusters, counts, model, training, space, batch_fixed,
                                 max_global_batch)
    if len(cands) == 0:
        return []
    r = evaluate(clusters, cands, model, training, constants)
    rate = rate_of(model, r)
    ok = r["valid"].astype(bool) & r["memory_fits"].astype(bool)
    lines = []
    for h, cluster in enumerate(clusters):
        points = tuple(
            SeriesPoint(nodes=int(cands.nodes[i]),
                        scaling_efficiency=float(r["scaling_efficiency"][i]),
                        efficiency_vs_one_node=vs_one_node(float(rate[i]), int(r["gpus"][i]),
                                                           reference),
                        throughput=float(rate[i]),
                        communication_share=float(r["communication_share"][i]))
            for i in sorted(np.flatnonzero(ok & (cands.hardware == h)), key=lambda i: cands.nodes[i]))
        lines.append(FabricLine(cluster.fabric.id, cluster.fabric.name, points))
    return lines
