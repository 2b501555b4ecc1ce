"""Alpha-beta cost of NCCL-style collectives on a two-level (node, fabric) cluster."""
from __future__ import annotations

import numpy as np

from sizing.hardware import INTRA_LINKS, Cluster

# The collectives and algorithms the cost model prices (the estimate API offers these).
COLLECTIVES = ("all_reduce", "reduce_scatter", "all_gather", "all_to_all", "p2p")
ALGORITHMS = ("ring", "tree", "auto")


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


# --------------------------------------------------------------------------- link figures

def node_bandwidth_gbs(c: dict, constants) -> np.ndarray:
    """Achievable inter-node bandwidth of one node, one direction, GB/s.

    NICs x min(NIC, fabric line rate) x achievable fraction, then:
    - without RDMA the NCCL socket transport caps each NIC (brief 2.6);
    - RDMA without GPUDirect stages through host memory (lower bandwidth);
    - RDMA on a lossy fabric recovers by go-back-N: one loss resends a window of packets,
      goodput ~ 1 / (1 + loss_rate * window) (brief 4, Wang et al.);
    - traffic leaving a leaf of an oversubscribed fabric gets 1/oversubscription.
    """
    nics = np.asarray(c["nics_per_node"], float)
    port_gbps = np.minimum(np.asarray(c["nic_rate_gbps"], float), c["fabric_line_rate_gbps"])
    bw = nics * port_gbps / 8.0 * c["fabric_achievable_fraction"]
    rdma = np.asarray(c["fabric_rdma"], bool)
    gdr = np.asarray(c["gpudirect"], bool) & rdma
    bw = np.where(rdma, bw, np.minimum(bw, nics * constants.tcp_socket_ceiling_gbs))
    bw = np.where(rdma & ~gdr, bw * constants.host_staging_bandwidth_factor, bw)
    lossy = rdma & ~np.asarray(c["fabric_lossless"], bool)
    goodput = 1.0 / (1.0 + np.asarray(c["fabric_loss_rate"], float) * constants.go_back_n_window_packets)
    bw = np.where(lossy, bw * goodput, bw)
    beyond_leaf = np.asarray(c["nodes"]) > np.asarray(c["fabric_nodes_per_leaf"])
    return np.where(beyond_leaf, bw / np.asarray(c["fabric_oversubscription"], float), bw)


def inter_node_bandwidth_gbs(cluster: Cluster, constants) -> float:
    """Achievable inter-node bandwidth of one node of `cluster` (all its NICs, one way), GB/s."""
    return float(node_bandwidth_gbs(cluster.as_arrays(), constants)[0])


def inter_latency_s(c: dict, constants) -> np.ndarray:
    """Per-message inter-node latency (alpha), with host staging when RDMA lacks GPUDirect."""
    rdma = np.asarray(c["fabric_rdma"], bool)
    staged = rdma & ~np.asarray(c["gpudirect"], bool)
    extra = np.where(staged, constants.host_staging_latency_us, 0.0)
    return (np.asarray(c["fabric_latency_us"], float) + extra) * 1e-6


def intra_bandwidth_Bps(c: dict, constants) -> np.ndarray:
    """Achievable GPU-to-GPU bandwidth inside a node, one direction, bytes/s."""
    table = np.array(
        [constants.intra_link_efficiency.get(n, constants.intra_link_efficiency["default"])
         for n in INTRA_LINKS]
    )
    eff = table[np.asarray(c["gpu_intra_link"], int)]
    return np.asarray(c["gpu_intra_bandwidth_gbs"], float) * 1e9 * eff


def straggler_stretch(jitter_cv, ranks) -> np.ndarray:
    """Expected slowest of `ranks` independent normal delays: 1 + cv * sqrt(2 ln N)."""
    n = np.maximum(np.asarray(ranks, float), 1.0)
    return 1.0 + np.asarray(jitter_cv, float) * np.sqrt(2.0 * np.log(n))


def group_span(size, stride, gpus_per_node):
    """Members per node and nodes spanned by a group of `size` ranks `stride` apart."""
    size = np.asarray(size, float)
    stride = np.asarray(stride, float)
    gpn = np.asarray(gpus_per_node, float)
    per_node = np.where(stride >= gpn, 1.0, np.floor(gpn / stride))
    per_node = np.clip(per_node, 1.0, np.maximum(size, 1.0))
    return per_node, np.ceil(size / per_node)


# --------------------------------------------------------------------------- costs

def _log2_steps(x):
    return np.ceil(np.log2(np.maximum(x, 1.0)))


def collective_cost(op: str, size, n, per_node, b_intra, b_share, a_intra, a_inter,
                    algorithm: str = "auto") -> np.ndarray:
    """Seconds for one collective on a group of n ranks, `per_node` of them in each node.

    size: bytes of the full buffer (nccl-tests S). b_intra: per-GPU intra-node bandwidth;
    b_share: the group's share of its node's NIC bandwidth (bytes/s); alphas in seconds.
    Two-level model: the intra-node phase runs on NVLink/PCIe/xGMI, the inter-node phase is
    bounded by the node's NICs; NCCL pipelines the two, so the slower phase sets the time.
    Ring pays 2(n-1) (or n-1) hop latencies, tree 2 log2 of each level.
    """
    size = np.asarray(size, float)
    n = np.maximum(np.asarray(n, float), 1.0)
    g = np.minimum(np.asarray(per_node, float), n)
    nodes = np.ceil(n / g)
    multi = nodes > 1
    hop = np.where(multi, a_inter, a_intra)
    safe_share = np.where(multi, b_share, 1.0)
    if op in ("all_reduce", "reduce_scatter", "all_gather"):
        k = 2.0 if op == "all_reduce" else 1.0
        t_intra = np.where(g > 1, k * (g - 1) / g * size / b_intra, 0.0)
        t_inter = np.where(multi, k * (n - 1) / n * size / safe_share, 0.0)
        bw_time = np.maximum(t_intra, t_inter)
        ring_lat = k * (n - 1) * hop
        tree_lat = k * (_log2_steps(g) * a_intra + _log2_steps(nodes) * np.where(multi, a_inter, 0))
    elif op == "all_to_all":
        # Each rank sends (n-1)/n of S: the (n-g)/n that leave the node share the group's NICs.
        t_intra = np.where(g > 1, (g - 1) / n * size / b_intra, 0.0)
        t_inter = np.where(multi, g * (n - g) / n * size / safe_share, 0.0)
        bw_time = np.maximum(t_intra, t_inter)
        ring_lat = tree_lat = (n - 1) * hop
    elif op == "broadcast":
        bw_time = size / np.where(multi, np.minimum(b_intra, safe_share), b_intra)
        ring_lat = (n - 1) * hop
        tree_lat = (_log2_steps(g) * a_intra + _log2_steps(nodes) * np.where(multi, a_inter, 0))
    elif op == "p2p":
        bw_time = size / np.where(multi, safe_share, b_intra)
        ring_lat = tree_lat = hop
    else:
        raise ValueError(f"unknown collective {op!r}")
    if algorithm == "ring":
        lat = ring_lat
    elif algorithm == "tree":
        lat = tree_lat
    elif algorithm == "auto":
        lat = np.minimum(ring_lat, tree_lat)
    else:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    return np.where(n > 1, bw_time + lat, 0.0)


def collective_time(op: str, size_bytes: float, cluster, constants, algorithm: str = "ring"):
    """One collective over all GPUs of `cluster` (p2p: one GPU pair, across nodes if any).

    Returns (time_s, algbw_gbs, busbw_gbs) with nccl-tests definitions:
    algbw = S / t, busbw = algbw x factor (2(n-1)/n all-reduce; (n-1)/n RS/AG/all-to-all;
    1 p2p/broadcast). The slowest of n ranks sets the time (jitter stretch on inter-node runs).
    """
    c = cluster.as_arrays()
    gpn = float(cluster.gpus_per_node)
    node_bw = node_bandwidth_gbs(c, constants) * 1e9
    b_intra = intra_bandwidth_Bps(c, constants)
    a_inter = inter_latency_s(c, constants)
    a_intra = constants.intra_latency_us * 1e-6
    if op == "p2p":
        n, per_node = 2.0, (1.0 if cluster.nodes > 1 else 2.0)
        # A single pair uses one NIC (the one next to its GPU).
        share = node_bw / max(cluster.server.nics_per_node, 1)
    else:
        n, per_node = float(cluster.gpus), gpn
        share = node_bw
    t = collective_cost(op, size_bytes, n, per_node, b_intra, share, a_intra, a_inter, algorithm)
    multi = np.ceil(n / per_node) > 1
    t = t * np.where(multi, straggler_stretch(c["fabric_jitter_cv"], n), 1.0)
    t = float(t[0])
    algbw = size_bytes / t / 1e9 if t > 0 else float("inf")
    busbw = algbw * float(busbw_factor(op, n))
    return t, algbw, busbw
