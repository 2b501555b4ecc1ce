"""NCCL's collective algorithms and protocols on a (node, leaf, spine) cluster, as NCCL prices them.

Each algorithm (ring, tree, NVLS, NVLS-Tree, CollNet) runs with each of its protocols (LL, LL128,
Simple).
Its time is NCCL's latency structure (a base latency per collective, intra-node steps at the
intra-node latency, inter-node steps at the network latency, from tuning.cc of NCCL 2.20.3)
plus the bytes its bottleneck link carries at the protocol's share of that link; NVLS and
NVLS-Tree move theirs in loops of NCCL's chunks and pay their pipeline's fill and drain.
`auto` takes the fastest enabled pair as NCCL's own tuning model prices it, without that
fill (beyond two nodes on EFA, where aws-ofi-nccl's tuner chooses, with it: _tuned). Bandwidths are physical: the GPU's NVLink/PCIe rate, the node's NICs behind the host and
PCIe limits, and on the network the congestion and loss of the fabric for the traffic pattern
and the tiers the traffic crosses.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType

import numpy as np

from sizing import kernels, nccl_kernel
from sizing.constants import built_once
from sizing.hardware import Cluster
from sizing.topology import Links, network_shares, pair_bandwidth_gbs, straggler_stretch

# The collectives and algorithms the cost model prices (the estimate API offers these).
COLLECTIVES = ("all_reduce", "reduce_scatter", "all_gather", "all_to_all", "p2p")
ALGORITHMS = ("auto", "ring", "tree", "nvls", "nvls_tree", "collnet")
# What a priced collective ran: one of NCCL's algorithms, or point-to-point sends (all-to-all,
# p2p), which NCCL does not tune by algorithm.
CHOSEN = ("ring", "tree", "nvls", "nvls_tree", "collnet", "p2p")
PROTOCOLS = ("ll", "ll128", "simple")
# The protocols each algorithm runs (tuning.cc: NVLS, NVLS-Tree and CollNet are Simple only).
ALGORITHM_PROTOCOLS = {"ring": PROTOCOLS, "tree": PROTOCOLS, "nvls": ("simple",),
                       "nvls_tree": ("simple",), "collnet": ("simple",)}


def busbw_factor(op: str, n):
    """nccl-tests bus-bandwidth factor (doc/PERFORMANCE.md)."""
    n = np.asarray(n, float)
    if op == "all_reduce":
        return 2 * (n - 1) / n
    if op in ("reduce_scatter", "all_gather", "all_to_all"):
        return (n - 1) / n
    if op in ("p2p", "broadcast"):
        return np.ones_like(n)
    raise ValueError(f"unknown collective {op!r}")


def _lookup(table, key: str) -> float:
    return float(table.get(key, table["default"]))


def _log2i(x):
    return np.floor(np.log2(np.maximum(x, 1.0)))


def algorithm_available(op: str, algorithm: str, nodes, links: Links, per_node=2.0) -> np.ndarray:
    """Whether NCCL can run `algorithm` for `op` on a group spanning `nodes` (tuning.cc 2.20.3).

    Tree, NVLS, NVLS-Tree and CollNet are priced for all-reduce; NVLS needs an NVSwitch with
    in-switch reduction and, without SHARP, one node; NVLS-Tree (NVLS inside each node, a tree
    between nodes) the same switch and two nodes or more (tuning.cc: disabled when nNodes == 1);
    CollNet needs SHARP on the fabric and two nodes. NVLS and NVLS-Tree also need two of the
    group's GPUs in a node (`per_node`): ncclNvlsInit leaves NVLS off when the communicator
    has fewer than two GPUs there (`gpuCount < 2`; later releases `<= 2`).
    """
    nodes = np.asarray(nodes, float)
    yes = np.ones(np.broadcast(nodes, links.nvls).shape, bool)
    if algorithm == "ring":
        return yes
    if op != "all_reduce":
        return ~yes
    if algorithm == "tree":
        return yes
    switch = links.nvls & (np.asarray(per_node, float) >= 2)
    if algorithm == "nvls":
        return switch & (nodes <= 1)
    if algorithm == "nvls_tree":
        return switch & (nodes > 1)
    if algorithm == "collnet":
        return links.collnet & (nodes > 1)
    raise ValueError(f"unknown algorithm {algorithm!r}")


def algorithm_refusal(op: str, algorithm: str, cluster: Cluster) -> str | None:
    """Why NCCL cannot run `algorithm` for `op` over all GPUs of `cluster`, or None if it can."""
    if algorithm in ("auto", "ring") or op in ("all_to_all", "p2p"):
        return None
    if op != "all_reduce":
        return f"{algorithm} is priced for all_reduce only; {op} runs as a ring"
    if algorithm == "tree":
        return None
    if algorithm in ("nvls", "nvls_tree"):
        if not cluster.gpu.nvlink_sharp:
            return (f"{algorithm} needs an NVSwitch with in-switch reduction (NVLink SHARP); "
                    f"{cluster.gpu.name} has none")
        if cluster.gpus_per_node < 2:
            return f"{algorithm} needs at least two GPUs of the group in each node"
        if algorithm == "nvls" and cluster.nodes > 1:
            return ("nvls spans one node here: across nodes NCCL runs it only together with "
                    "CollNet (SHARP), or as nvls_tree; use collnet on a SHARP fabric, "
                    "nvls_tree, or one node")
        if algorithm == "nvls_tree" and cluster.nodes < 2:
            return "nvls_tree joins nodes by a tree: it needs at least two nodes; use nvls"
        return None
    if not (cluster.fabric.sharp and cluster.fabric.rdma):
        return f"collnet needs in-network reduction (SHARP) on the fabric; {cluster.fabric.name} has none"
    if cluster.nodes < 2:
        return "collnet reduces in the network switches: it needs at least two nodes"
    return None


@dataclass(frozen=True)
class _Shape:
    """A group's counts that every algorithm and protocol of one collective prices alike."""

    n: np.ndarray
    g: np.ndarray
    nodes: np.ndarray
    multi: np.ndarray
    ring_inter_steps: np.ndarray  # NCCL's nInterSteps
    ring_intra_steps: np.ndarray  # nsteps - nInterSteps
    # Read by the trees alone (all-reduce): None for the other collectives.
    tree_depth: np.ndarray | None  # log2i(nodes)
    size_step: np.ndarray | None  # log2i(bytes / 64), NCCL's index into the tree correction
    # Index of the intra-node latency that applies: 0 PCI, 1 NVLink; + 2 across nodes (where
    # the ring's intra-node steps wait at least NCCL's network overhead). One take from a
    # table of those figures costs a third of the np.where and np.maximum it replaces.
    intra_row: np.ndarray

    def rows(self, mask, idx) -> _Shape:
        """The counts of rows `idx` of `mask` only (figures shared by all, 0-d or None, as
        they are)."""
        return replace(self, **{f.name: _on_rows(getattr(self, f.name), mask, idx)
                                for f in fields(self) if getattr(self, f.name) is not None})

    @classmethod
    def of(cls, op: str, size, n, g, nodes, nvlink_like) -> _Shape:
        multi = nodes > 1
        steps = (2.0 if op == "all_reduce" else 1.0) * (n - 1)
        inter = np.where(multi, 2.0 * nodes if op == "all_reduce" else nodes - 1, 0.0)
        intra_row = np.asarray(nvlink_like).astype(np.intp) + 2 * multi
        if op != "all_reduce":
            return cls(n, g, nodes, multi, inter, steps - inter, None, None, intra_row)
        # np.clip's own definition, minimum(maximum(x, low), high), at a fraction of its cost
        size_step = np.minimum(np.maximum(_log2i(np.asarray(size, float) / 64.0), 0),
                               22).astype(int)
        return cls(n, g, nodes, multi, inter, steps - inter, _log2i(nodes), size_step,
                   intra_row)


def _latency_us(op, algorithm, protocol, shape: _Shape, links: Links, constants):
    """NCCL's latency of one collective (tuning.cc 2.20.3 ncclTopoTuneModel), microseconds."""
    hw = constants.nccl_hw_latency_us
    key = f"{algorithm}.{protocol}"
    pci, nvlink = _lookup(hw, f"pci.{key}"), _lookup(hw, f"nvlink.{key}")
    # a ring step waits the fabric's ring latency, where it states one (Links.ring_extra_us)
    inter = _lookup(hw, f"net.{key}") + (links.ring_extra_us if algorithm == "ring"
                                         else links.net_extra_us)
    if protocol == "simple":
        # tuning.cc: 'Also add the flush extra latency': Simple pays the latency the net
        # transport reports twice (Links.flush_extra_us: none for NCCL's own IB and sockets)
        inter = inter + links.flush_extra_us
    base = _lookup(constants.nccl_base_latency_us, key)
    multi, g = shape.multi, shape.g
    if algorithm == "ring":
        overhead = constants.nccl_net_overhead_us * (3.0 if protocol == "simple" else 1.0)
        intra = np.array([pci, nvlink, np.maximum(pci, overhead),
                          np.maximum(nvlink, overhead)]).take(shape.intra_row)
        lat = base + shape.ring_intra_steps * intra + shape.ring_inter_steps * inter
        if op == "all_reduce" and protocol == "simple":
            lat = np.where(multi, lat * constants.nccl_ring_plateau_factor, lat)
        return lat
    intra = np.array([pci, nvlink, pci, nvlink]).take(shape.intra_row)
    if algorithm == "tree":
        return base + 2.0 * ((g - 1) * intra + shape.tree_depth * np.where(multi, inter, 0.0))
    if algorithm == "nvls":
        return base + intra
    if algorithm == "nvls_tree":
        return base + intra + 2.0 * shape.tree_depth * inter
    # CollNet: Direct on NVSwitch systems (each GPU talks to the NICs), Chain otherwise.
    direct = 2.0 * (np.minimum(1.0, g - 1) * intra
                    + (g - 1) * constants.nccl_collnet_arity_latency_us) + inter
    chain = 2.0 * (g - 1) * intra + inter
    return base + np.where(links.nvlink_like, direct, chain)


def _protocol_factor(algorithm, protocol, shape: _Shape, constants):
    f = constants.nccl_protocol_bandwidth_factor
    key = f"{algorithm}.{protocol}"
    factor = _lookup(f, key)
    if key == "tree.ll128":
        factor = np.where(shape.multi, factor, _lookup(f, "tree.ll128.one_node"))
    if key == "ring.ll128":
        factor = np.where(shape.multi & (shape.g < 2),
                          _lookup(f, "ring.ll128.one_gpu_per_node"), factor)
    if algorithm == "tree":
        # NCCL's correction of the tree model at medium sizes, by powers of two from 64 B.
        table = _tree_correction(constants.nccl_tree_correction, protocol)
        factor = factor * table[shape.size_step]
    return factor


_TREE_TABLES: dict[int, tuple[object, dict]] = {}


def _tree_correction(table, protocol: str) -> np.ndarray:
    """The 23 tree corrections of one protocol as an array, built once per constants table."""
    return built_once(_TREE_TABLES, table, protocol, lambda: np.array(
        [_lookup(table, f"{protocol}.{i}") for i in range(23)]))


def _channel_floor_s(op, algorithm, protocol, size, n, nodes, multi, links: Links, constants):
    """Seconds NCCL's per-channel ceilings set under a ring LL128 or a tree across nodes (0 in
    one node): the bytes a node's channels move, at nccl_channels x the most one channel moves
    (tuning.cc 2.20.3: busBw = min(busBw x share, nChannels x perChMax...Bw); a ring moves
    k(n-1)/n of S, a tree, whose algorithm bandwidth is half its busBw, 2S). A tree's ceiling
    takes its protocol's share first (LL's 1/3.8, LL128's 120/128), LL128's own ceiling after."""
    if algorithm == "ring":
        k = 2.0 if op == "all_reduce" else 1.0
        return np.where(multi, k * (n - 1) / n * size / links.ring_ll128_cap_Bps, 0.0)
    two = nodes <= 2
    f = constants.nccl_protocol_bandwidth_factor
    cap = np.where(two, links.tree_cap_Bps, links.tree_cap_many_Bps) * (
        _lookup(f, f"tree.{protocol}") / _lookup(f, "tree.simple"))
    if protocol == "ll128":
        cap = np.minimum(cap, np.where(two, links.tree_ll128_cap_Bps,
                                       links.tree_ll128_cap_many_Bps))
    return np.where(multi, 2.0 * size / cap, 0.0)


def _intra_ring_time(op, size, g, links: Links):
    """Seconds a ring's steps inside one node need for the bytes (every algorithm but NVLS
    has them, or is bounded by them)."""
    k = 2.0 if op == "all_reduce" else 1.0
    return np.where(g > 1, k * (g - 1) / g * size / links.intra_Bps, 0.0)


_NVLS_TABLES: dict[int, tuple[object, dict]] = {}


def _nvls_pipeline(table, tree: bool) -> tuple:
    """(stages, largest chunk, largest chunk from four nodes, ((smaller chunk, loops), ...) by
    size down, largest chunk under a net plugin) of NVLS or NVLS-Tree, read once per constants
    table."""
    def build() -> tuple:
        pre = "tree." if tree else ""
        steps = sorted(((float(k.rsplit(".", 1)[1]), v) for k, v in table.items()
                        if k.startswith(pre + "chunk.")), reverse=True)
        largest = table[pre + "chunk_bytes"]
        return (table[pre + "stages"], largest,
                table.get("tree.chunk_bytes_from_4_nodes", largest) if tree else largest,
                tuple(steps),
                table.get("tree.chunk_bytes_net_plugin", largest) if tree else largest)
    return built_once(_NVLS_TABLES, table, tree, build)


def _nvls_loop_bytes(size, heads, nodes, constants, tree: bool = False, net_plugin=False):
    """Bytes one loop of NVLS (NVLS-Tree with `tree`) moves: every channel and head one chunk
    (`heads`: one per GPU in one node, where NCCL drops the NICs from its topology; across
    nodes one per NIC, at most one per GPU), the chunk shrinking for messages of few loops, or
    the message where it fills less than one loop (model.yaml nccl_nvls_pipeline, from NCCL
    2.20.3's enqueue.cc). `net_plugin`: NVLS-Tree's chunk is the plugin's (aws-ofi-nccl sets
    NCCL_NVLSTREE_MAX_CHUNKSIZE, so NCCL's smaller chunk from four nodes does not apply)."""
    table = constants.nccl_nvls_pipeline
    _, largest, from_4_nodes, steps, plugin_chunk = _nvls_pipeline(table, tree)
    ops = table["channels"] * np.minimum(heads, table["heads_max"])  # NCCL's concurrentOps
    loops = size / ops  # bytes per channel and head: the message's loops times the chunk
    chunk = np.where(nodes >= 4, from_4_nodes, largest) if from_4_nodes != largest else largest
    if tree:
        chunk = np.where(net_plugin, plugin_chunk, chunk)
    for smaller, count in steps:
        # NCCL: if (nBytes < count * concurrentOps * chunkSize && chunkSize > smaller)
        chunk = np.where((loops < count * chunk) & (chunk > smaller), smaller, chunk)
    return np.minimum(size, ops * chunk)


def _nvls_fill_s(loop_bytes, nvls_Bps, factor, constants, tree: bool = False):
    """Seconds an NVLS all-reduce (NVLS-Tree's NVLS phase with `tree`) spends filling and
    draining its pipeline (model.yaml nccl_nvls_pipeline, from NCCL 2.20.3's enqueue.cc and
    all_reduce.h).

    A loop (`loop_bytes`, _nvls_loop_bytes) passes the kernel's warp groups in turn (three in
    one node: scatter, reduce and multicast, gather), so the message takes (stages - 1)
    loop-times more than its bytes, a loop-time being the loop's bytes at the NVLS rate and
    its protocol share `factor`, and never less than one hand-over between warp groups
    (step_us)."""
    table = constants.nccl_nvls_pipeline
    stages = _nvls_pipeline(table, tree)[0]
    loop_s = loop_bytes / (nvls_Bps * factor)
    return (stages - 1.0) * np.maximum(loop_s, table["step_us"] * 1e-6)


def _nvls_tree_fill_s(size, g, nodes, depth, net, t_bw, nics, nvls_Bps, net_plugin, factor,
                      constants):
    """Seconds NVLS-Tree takes beyond its bandwidth time `t_bw` (_bandwidth_time's, at the
    network share `net`): the pipeline's fill and drain, of the NVLS phase inside each node
    (_nvls_fill_s, with NVLS-Tree's chunks and stages and a head per NIC) or, on a net
    plugin's fabric, of the network tree, whichever is the longer. Each loop climbs the tree
    and comes down again, 2 x depth hops, and a node passes a chunk on once it has received
    and reduced it (NVLS-Tree's network warps in src/device/all_reduce.h work chunk by chunk,
    every channel and head at once), so the network leg takes 2 x depth - 1 loop-times more
    than its bytes, a loop-time being the loop's bytes at the leg's rate (a node sends S on
    two nodes, 2S beyond, as _bandwidth_time counts). Measured on EFA only (the p5 curve);
    on NCCL's own transports, with NCCL's 64 KiB chunks from four nodes, no measurement was
    read and the network's fill is left out (a lower bound there). `nics`, `nvls_Bps`,
    `net_plugin`: Links' figures."""
    heads = np.minimum(g, np.maximum(nics, 1))
    loop = _nvls_loop_bytes(size, heads, nodes, constants, tree=True, net_plugin=net_plugin)
    inside = size / (nvls_Bps * factor) + _nvls_fill_s(loop, nvls_Bps, factor, constants,
                                                       tree=True)
    per_node = np.where(nodes > 2, 2.0, 1.0)
    network = np.where(net_plugin, (per_node * size / net + (2.0 * depth - 1.0)
                                    * (per_node * loop / net)) / factor, 0.0)
    t = t_bw / factor
    return np.maximum(np.maximum(t, inside), network) - t


def _bandwidth_time(op, algorithm, size, n, g, nodes, safe, intra_ring, links: Links):
    """Seconds the algorithm's bottleneck link needs for the bytes, at full protocol efficiency
    (NVLS, inside one node or a CollNet node, at its measured rate, protocol included).
    `safe`: the group's network share where it spans nodes (1 elsewhere, never read there);
    `intra_ring`: _intra_ring_time. NVLS's pipeline fill is not in it (_nvls_fill_s):
    NCCL's tuning model, which picks the algorithm, does without it."""
    multi = nodes > 1
    b = links.intra_Bps
    k = 2.0 if op == "all_reduce" else 1.0
    if algorithm == "ring":
        ring_bytes = k * (n - 1) / n * size
        inter = np.where(multi, ring_bytes / safe, 0.0)
        # A flat ring's GPU links carry k(n-1)/n of S: inside one node that is the bound.
        intra = np.where(multi, intra_ring, ring_bytes / b)
        return np.maximum(intra, inter)
    if algorithm == "tree":
        # Double binary tree, S/2 per tree: on two nodes each node sends S/2 in each tree (S),
        # half a ring's bytes (nccl-tests #196, nccl #946: 'up to ~2x the network speed');
        # beyond, a node with two children in one tree sends S/2 up and S down there and S/2
        # as a leaf of the other: 2S, a ring's bytes.
        per_node = np.where(nodes > 2, 2.0, 1.0)
        return np.maximum(intra_ring, np.where(multi, per_node * size / safe, 0.0))
    if algorithm == "nvls":
        # Each GPU sends its buffer to the switch once and receives the reduction once.
        return size / links.nvls_Bps
    if algorithm == "nvls_tree":
        # NVLS inside each node, the node's NICs in a tree between nodes: S each way on two
        # nodes, 2S beyond (tuning.cc: bwInter on two nodes, bwInter / 2 beyond).
        per_node = np.where(nodes > 2, 2.0, 1.0)
        return np.maximum(size / links.nvls_Bps, np.where(multi, per_node * size / safe, 0.0))
    # CollNet: the node reduces inside (NVLS where the switch reduces, else a ring), then
    # sends S up to the SHARP switch and receives S back (brief 3.1: 'only N+1 sends').
    inside = np.where(links.nvls, size / links.nvls_Bps, intra_ring)
    return np.maximum(inside, np.where(multi, size / safe, 0.0))


def _spanning_shares(op: str, patterns, nodes, multi, share, links: Links, constants,
                     link_rows=None) -> dict:
    """{pattern: the group's share of the network where it spans nodes, 1 where it does not}.

    The share is read only where the group spans nodes: where those are a minority of the
    rows it is priced on them alone (picking their links out costs about as much as pricing
    the others); network_shares is element-wise (the ECMP sum it stops by looks at crossing
    rows only), so either way each row gets the same figure. `link_rows`: the rows of
    `links` the candidates are on (None: the candidates are links' rows)."""
    rows = np.shape(multi)
    if link_rows is not None:  # the network's figures of the rows alone
        if 2 * np.count_nonzero(multi) > rows[0]:
            return {p: np.where(multi, share * fraction, 1.0) for p, fraction in network_shares(
                op, patterns, nodes, links.network_rows(link_rows), constants).items()}
    elif rows == (1,) and np.shape(links.node_Bps) == rows:
        # One candidate (an estimate): 1 where its group stays in a node; where it spans
        # nodes the network's shares depend on its links (the cluster's) and the nodes
        # spanned alone, kept on the links for the next collective and estimate on them.
        if not multi[0]:
            return {p: np.ones(rows) for p in patterns}
        return {p: np.where(multi, share * fraction, 1.0) for p, fraction in
                _kept_network_shares(op, patterns, nodes, links, constants).items()}
    elif len(rows) != 1 or np.shape(links.node_Bps) != rows or 2 * np.count_nonzero(multi) > rows[0]:
        return {p: np.where(multi, share * fraction, 1.0) for p, fraction in
                network_shares(op, patterns, nodes, links, constants).items()}
    out = {p: np.ones(rows) for p in patterns}
    idx = np.flatnonzero(multi)
    if idx.size:
        here = share[idx] if np.ndim(share) else share
        picked = links.rows(idx) if link_rows is None else links.network_rows(link_rows[idx])
        for p, fraction in network_shares(op, patterns, nodes[idx], picked, constants).items():
            out[p][idx] = here * fraction
    return out


def _kept_network_shares(op: str, patterns, nodes, links: Links, constants) -> dict:
    """network_shares of one candidate's group, kept on its links by what it reads: whether
    the collective is an all-to-all, the patterns and the nodes spanned (and the constants
    object, kept with them so that its id is not reused while they live)."""
    key = ("shares", op == "all_to_all", tuple(patterns), float(nodes[0]), id(constants))
    kept = links.kept_by_span
    hit = kept.get(key)
    if hit is None or hit[0] is not constants:  # a race prices it twice, which is harmless
        hit = kept[key] = (constants, network_shares(op, patterns, nodes, links, constants))
    return hit[1]


def _shares(op: str, patterns, nodes, multi, share, links: Links, constants,
            cache: dict | None, link_rows=None) -> dict:
    """_spanning_shares, through `cache` ({(all-to-all?, pattern): share}) when one is given."""
    if cache is None:
        return _spanning_shares(op, patterns, nodes, multi, share, links, constants, link_rows)
    a2a = op == "all_to_all"
    missing = [p for p in patterns if (a2a, p) not in cache]
    if missing:
        priced = _spanning_shares(op, missing, nodes, multi, share, links, constants,
                                  link_rows)
        cache.update({(a2a, p): v for p, v in priced.items()})
    return {p: cache[(a2a, p)] for p in patterns}


def _group_figure(cache: dict | None, key: tuple, price, *args):
    """price(*args), kept in `cache` (collective_cost's `shares`) under `key` when one is
    given."""
    if cache is None:
        return price(*args)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = price(*args)
    return hit


def _tuned(nodes, links: Links):
    """Where a net plugin's tuner sets the algorithm: aws-ofi-nccl's (bundled in the plugin,
    which NCCL 2.21 and later load as their tuner: NVIDIA/nccl src/plugin/tuner.cc @v2.27.7)
    sets it beyond two nodes (src/tuner/nccl_ofi_regions.cpp @v1.16.3: 'Skip when two nodes or
    lesser'), from regions AWS measured. It is priced as the pair that runs fastest, NVLS-Tree
    with its pipeline's fill, which NCCL's own model leaves out of its choice."""
    return links.net_plugin & (nodes > 2)


def _ll128_enabled(ok, multi, links: Links):
    # LL128 needs NVLink inside and, across nodes, a GPUDirect NIC (tuning.cc).
    return ok & np.where(multi, links.ll128, links.nvlink_like)


def _latency_s(op, algorithm, protocol, shape: _Shape, links: Links, constants):
    return _latency_us(op, algorithm, protocol, shape, links, constants) * 1e-6


def _on_rows(x, mask, rows):
    """x (an array spread to `mask`'s shape, or a scalar) on the rows `rows` of `mask`."""
    if not np.ndim(x):
        return x
    return (x if np.shape(x) == mask.shape else np.broadcast_to(x, mask.shape))[rows]


# An algorithm fewer than 1 / _FEW_ROWS of a collective's rows can run is priced on those
# rows alone: picking them out costs less than pricing the others.
_FEW_ROWS = 3


def _price_algorithm(op, a, size, n, g, nodes, net, intra_ring, links: Links, shape: _Shape,
                     ok, best, constants, shares):
    """Each of algorithm `a`'s protocols on the rows, `best` lowered in place where one of
    them is faster (and enabled): its bandwidth time and where it won. `ok`: the rows that
    can run it (None: every row); `shares`: collective_cost's."""
    multi = shape.multi
    if a == "nvls_tree":
        # NCCL's 5/6 of NVLS Tree's bandwidth (tuning.cc) on its network leg; the NVLS
        # phase's share is measured (links.nvls_Bps) and carries it already.
        net = net * _lookup(constants.nccl_protocol_bandwidth_factor, "nvls_tree.net")
    t_bw = _bandwidth_time(op, a, size, n, g, nodes, net, intra_ring, links)
    everywhere = ok is None or bool(ok.all())
    if ok is None:
        ok = np.ones(np.shape(best), bool)
    reduce = op == "all_reduce"
    won = None  # the rows where one of the algorithm's protocols is the best so far
    for p in ALGORITHM_PROTOCOLS[a]:
        enabled = ok
        if p == "ll128":
            enabled = _group_figure(shares, ("ll128", reduce, a), _ll128_enabled, ok, multi,
                                    links)
        latency = _group_figure(shares, ("latency", reduce, a, p), _latency_s, op, a, p,
                                shape, links, constants)
        factor = (_protocol_factor(a, p, shape, constants) if a == "tree" else _group_figure(
            shares, ("factor", a, p), _protocol_factor, a, p, shape, constants))
        if a == "tree":
            # NCCL's size correction scales the tree's whole bandwidth, its ceiling included
            floor = _channel_floor_s(op, a, p, size, n, nodes, multi, links, constants)
            t = latency + np.maximum(t_bw / factor, floor / _tree_correction(
                constants.nccl_tree_correction, p)[shape.size_step])
        elif a == "ring" and p == "ll128":
            t = latency + np.maximum(t_bw / factor, _channel_floor_s(
                op, a, p, size, n, nodes, multi, links, constants))
        else:
            t = latency + t_bw / factor
            if a == "nvls_tree":
                tuned = _tuned(nodes, links)
                if np.any(tuned):
                    # the tuner's choice is the pair as it runs: its fill counts (_tuned)
                    t = t + np.where(tuned, _nvls_tree_fill_s(
                        size, g, nodes, shape.tree_depth, net, t_bw, links.nics,
                        links.nvls_Bps, links.net_plugin, factor, constants), 0.0)
        better = t < best
        if p == "ll128" or not everywhere:
            better &= enabled  # a pair NCCL cannot run costs infinity: never the best
        # np.putmask: copyto's where= at half its cost (a t of another shape is spread to
        # best's first, as copyto would, since putmask repeats a shorter t instead).
        np.putmask(best, better, t if np.shape(t) == best.shape
                   else np.broadcast_to(t, best.shape))
        if won is None:
            won = better
        else:
            won |= better
    return t_bw, won


_KERNEL_TABLES: dict[int, tuple[object, dict]] = {}


def _kernel_tables(constants) -> tuple:
    """The constants nccl_kernel reads, as arrays, built once per constants object."""
    return built_once(_KERNEL_TABLES, constants, None, lambda: _build_kernel_tables(constants))


def _build_kernel_tables(constants) -> tuple:
    hw, base = constants.nccl_hw_latency_us, constants.nccl_base_latency_us
    f = constants.nccl_protocol_bandwidth_factor
    latency = np.zeros((5, 3, 4))
    factors = np.ones((5, 3))
    for a, name in enumerate(ALGORITHM_PROTOCOLS):
        for p, protocol in enumerate(PROTOCOLS):
            key = f"{name}.{protocol}"
            latency[a, p] = (_lookup(hw, f"pci.{key}"), _lookup(hw, f"nvlink.{key}"),
                             _lookup(hw, f"net.{key}"), _lookup(base, key))
            factors[a, p] = _lookup(f, key)
    ring_intra = np.zeros((3, 4))
    for p, protocol in enumerate(PROTOCOLS):
        pci, nvlink = latency[0, p, 0], latency[0, p, 1]  # the ring's
        overhead = constants.nccl_net_overhead_us * (3.0 if protocol == "simple" else 1.0)
        ring_intra[p] = (pci, nvlink, max(pci, overhead), max(nvlink, overhead))
    correction = np.array([[_lookup(constants.nccl_tree_correction, f"{p}.{i}")
                            for i in range(23)] for p in PROTOCOLS])
    pipeline = constants.nccl_nvls_pipeline
    one, two = _nvls_pipeline(pipeline, False), _nvls_pipeline(pipeline, True)
    scalars = np.array([
        constants.nccl_ring_plateau_factor, constants.nccl_collnet_arity_latency_us,
        _lookup(f, "tree.ll128.one_node"), _lookup(f, "ring.ll128.one_gpu_per_node"),
        _lookup(f, "nvls_tree.net"),
        one[0], one[1], one[2], two[0], two[1], two[2],
        pipeline["channels"], pipeline["heads_max"], pipeline["step_us"], two[4]], float)
    steps = tuple(np.array(s[3], float).reshape(-1, 2) for s in (one, two))
    return (latency, ring_intra, factors, correction, scalars) + steps


@functools.cache
def _priced(op: str, algorithm: str) -> tuple[tuple[str, ...], Mapping[str, str], tuple[str, ...]]:
    """The algorithms collective_cost prices for `op` and `algorithm`, the traffic pattern
    each sends and the patterns priced: the same for every call on the same pair, so worked
    out once (a call at every collective of every estimate; op and algorithm checked first,
    so at most 3 x len(ALGORITHMS) entries)."""
    # Only the ring runs a reduce-scatter or an all-gather (algorithm_available): the others'
    # network shares and times are not priced for them.
    names = tuple(a for a in ALGORITHM_PROTOCOLS if algorithm in ("auto", a)
                  and (op == "all_reduce" or a == "ring"))
    # The network's share depends on the algorithm only through its fan-in: a tree's, or a
    # ring's (NVLS and CollNet send as a ring does).
    patterns = {a: "tree" if a in ("tree", "nvls_tree") else "ring" for a in names}
    return names, MappingProxyType(patterns), tuple(sorted(set(patterns.values())))


def collective_cost(op: str, size, n, per_node, links: Links, share, constants,
                    algorithm: str = "auto", shares: dict | None = None, link_rows=None):
    """Seconds for one collective on a group of n ranks, `per_node` of them in each node, and
    the index into CHOSEN of the algorithm it ran.

    size: bytes of the full buffer (nccl-tests S); share: the group's share of its node's NIC
    bandwidth (bytes/s). An algorithm the hardware cannot run costs infinity.
    shares: the network shares priced for another collective on the same group, rows and
    links, reused and added to (they depend on the collective only through all-to-all's
    pattern, which is kept apart), with the other figures of the group that do not depend on
    the bytes (_group_figure).
    link_rows: the rows of `links` the candidates are on (None: the candidates are links'
    rows, or one row of links is every candidate's); the compiled collectives read them there,
    the others pick them out first.
    """
    if link_rows is not None and not (kernels.ENABLED and algorithm == "auto"
                                      and op in ("all_reduce", "reduce_scatter", "all_gather")):
        links, link_rows = links.rows(link_rows), None
    size = np.asarray(size, float)
    n = np.maximum(np.asarray(n, float), 1.0)
    g = np.minimum(np.asarray(per_node, float), n)
    nodes = np.ceil(n / g)
    multi = nodes > 1
    if op in ("all_to_all", "p2p", "broadcast"):
        hop = np.where(multi, links.hop_inter_s, links.hop_intra_s)
        safe = _shares(op, ("ring",), nodes, multi, share, links, constants, shares)["ring"]
        if op == "all_to_all":
            # Each rank sends (n-1)/n of S: the (n-g)/n that leave the node share the NICs.
            t_intra = np.where(g > 1, (g - 1) / n * size / links.intra_Bps, 0.0)
            t_inter = np.where(multi, g * (n - g) / n * size / safe, 0.0)
            t = np.maximum(t_intra, t_inter) + (n - 1) * hop
        elif op == "p2p":
            t = size / np.where(multi, safe, links.intra_Bps) + hop
        else:
            t = size / np.where(multi, np.minimum(links.intra_Bps, safe), links.intra_Bps)
            t = t + (n - 1) * hop
        code = CHOSEN.index("p2p") if op != "broadcast" else CHOSEN.index("ring")
        return np.where(n > 1, t, 0.0), np.full(np.shape(t), code)
    if op not in ("all_reduce", "reduce_scatter", "all_gather"):
        raise ValueError(f"unknown collective {op!r}")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    names, patterns, priced_patterns = _priced(op, algorithm)
    # NCCL picks by its tuning model, which prices NVLS and NVLS-Tree without their pipeline
    # fill (tuning.cc: latency + bytes / bandwidth): the pair is chosen on the time without
    # the fill, which the rows that chose NVLS or NVLS-Tree then pay (their bandwidth time
    # without it is kept here for that); where a tuner chooses (_tuned), with the fill.
    nvls_bw = {}
    safe = _shares(op, priced_patterns, nodes, multi, share, links, constants, shares,
                   link_rows)
    rows = np.broadcast(size, n, g, links.node_Bps if link_rows is None else link_rows).shape
    if link_rows is not None and len(rows) != 1:  # not for the kernel: the rows' own links
        links, link_rows = links.rows(link_rows), None
    reduce = op == "all_reduce"
    if kernels.ENABLED and algorithm == "auto" and len(rows) == 1:
        # The same choice, compiled, one candidate at a time (the numpy path below is the
        # reference it is tested against).
        depth = step = None
        if reduce:  # the trees' logarithms, from numpy: the kernel has no transcendental
            depth = _log2i(nodes)
            step = np.minimum(np.maximum(_log2i(size / 64.0), 0), 22).astype(int)
        return nccl_kernel.ring_or_tree_cost(reduce, size, n, g, nodes, safe["ring"],
                                             safe.get("tree"), depth, step, links,
                                             _kernel_tables(constants), link_rows)
    best = np.full(rows, np.inf)
    code = np.zeros(best.shape, int)
    intra_ring = _intra_ring_time(op, size, g, links)
    # What depends on the group and not on the bytes is priced once for every collective on
    # it (a ZeRO stage's reduce-scatter and all-gather): the counts (an all-reduce's read its
    # size), each pair's latency and protocol share (a tree's reads the size), availability.
    shape = _Shape.of(op, size, n, g, nodes, links.nvlink_like) if reduce else _group_figure(
        shares, ("shape",), _Shape.of, op, size, n, g, nodes, links.nvlink_like)
    for a in names:
        ok = _group_figure(shares, ("available", reduce, a), algorithm_available, op, a, nodes,
                           links, g)
        count = np.count_nonzero(ok)
        if not count:
            continue
        if count < ok.size // _FEW_ROWS and np.shape(links.node_Bps) == ok.shape == (ok.size,):
            # Few rows can run it (NVLS-Tree, CollNet, NVLS inside one node of a larger
            # group): it is priced on them alone, each getting the figure a pass over all
            # rows would give it (element-wise), the others keeping theirs.
            rows = np.flatnonzero(ok)

            def pick(x, ok=ok, rows=rows):
                return _on_rows(x, ok, rows)

            here = best[rows]
            t_bw, won = _price_algorithm(
                op, a, pick(size), pick(n), pick(g), pick(nodes), pick(safe[patterns[a]]),
                pick(intra_ring), links.rows(rows), shape.rows(ok, rows), None, here, constants,
                None)
            best[rows] = here
            code[rows[won]] = CHOSEN.index(a)
            if a in ("nvls", "nvls_tree"):
                nvls_bw[a] = np.zeros(best.shape)  # read on the rows that chose it alone
                nvls_bw[a][rows] = t_bw
            continue
        t_bw, won = _price_algorithm(op, a, size, n, g, nodes, safe[patterns[a]], intra_ring,
                                     links, shape, ok, best, constants, shares)
        if a in ("nvls", "nvls_tree"):
            nvls_bw[a] = t_bw
        # Every protocol of an algorithm writes the same code: one write for all of them.
        np.putmask(code, won, CHOSEN.index(a))
    for a, t_bw in nvls_bw.items():
        chose = code == CHOSEN.index(a)
        if a == "nvls_tree":
            chose = chose & ~_tuned(nodes, links)  # those have their fill in their time
        if not chose.any():
            continue
        # The fill is read on the rows that chose the algorithm alone: it is priced on them
        # (element-wise, so each gets the figure a pass over all rows would give it).
        rows = np.nonzero(chose)
        size_r, g_r, nodes_r, nvls_Bps = (_on_rows(x, chose, rows)
                                          for x in (size, g, nodes, links.nvls_Bps))
        # both run Simple alone (tuning.cc)
        factor = _on_rows(_protocol_factor(a, "simple", shape, constants), chose, rows)
        if a == "nvls":
            # one node: its loops pass a three-stage pipeline
            fill_s = _nvls_fill_s(_nvls_loop_bytes(size_r, g_r, nodes_r, constants), nvls_Bps,
                                  factor, constants)
        else:
            net = _on_rows(safe["tree"], chose, rows) * _lookup(
                constants.nccl_protocol_bandwidth_factor, "nvls_tree.net")
            fill_s = _nvls_tree_fill_s(
                size_r, g_r, nodes_r, _on_rows(shape.tree_depth, chose, rows), net,
                _on_rows(t_bw, chose, rows), _on_rows(links.nics, chose, rows), nvls_Bps,
                _on_rows(links.net_plugin, chose, rows), factor, constants)
        best[rows] += fill_s
    return np.where(n > 1, best, 0.0), code


def collective_time(op: str, size_bytes: float, cluster, constants, algorithm: str = "auto"):
    """One collective over all GPUs of `cluster` (p2p: one GPU pair, across nodes if any).

    Returns (time_s, algbw_gbs, busbw_gbs, chosen) with nccl-tests definitions:
    algbw = S / t, busbw = algbw x factor (2(n-1)/n all-reduce; (n-1)/n RS/AG/all-to-all;
    1 p2p/broadcast); chosen is the algorithm that ran (CHOSEN). The slowest of n ranks sets
    the time (jitter stretch on inter-node runs). An impossible algorithm gives time inf.
    """
    c = cluster.as_arrays()
    gpn = float(cluster.gpus_per_node)
    links = Links.of(c, constants)
    if op == "p2p":
        n, per_node = 2.0, (1.0 if cluster.nodes > 1 else 2.0)
        # A single pair, alone: one NIC, and the host's socket ceiling whole without RDMA (a
        # training step's pipeline sends, all GPUs at once, share the node: sizing.step).
        share = pair_bandwidth_gbs(c, constants) * 1e9
    else:
        n, per_node = float(cluster.gpus), gpn
        share = links.node_Bps
    t, code = collective_cost(op, size_bytes, n, per_node, links, share, constants, algorithm)
    multi = np.ceil(n / per_node) > 1
    t = t * np.where(multi, straggler_stretch(c["fabric_jitter_cv"], n), 1.0)
    t = float(t[0])
    algbw = size_bytes / t / 1e9 if t > 0 else float("inf")
    busbw = algbw * float(busbw_factor(op, n))
    return t, algbw, busbw, CHOSEN[int(code[0])]
