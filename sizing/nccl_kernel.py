"""NCCL's choice of algorithm and protocol for a ring-or-tree collective, compiled, one candidate
at a time.

The same formulas as the numpy path of sizing.collectives (the reference, which the tests
compare this with on many random groups), in the same order of operations (sizing.kernels), and
no transcendental: the logarithms the trees read come from numpy. A pass over the candidates
keeps each one's figures in registers instead of writing an array per term and per pair,
which is most of what a batch of candidates costs in numpy.
"""
from __future__ import annotations

import numpy as np

from sizing.kernels import column, kernel

# Algorithms in the order sizing.collectives.ALGORITHM_PROTOCOLS prices them (index into
# CHOSEN), and the protocols of PROTOCOLS.
RING, TREE, NVLS, NVLS_TREE, COLLNET = range(5)
LL, LL128, SIMPLE = range(3)


@kernel
def _nvls_fill(s, heads, nodes_i, tree, plugin, rate, scalars, table):
    """NVLS's pipeline fill (NVLS-Tree's NVLS phase with `tree`) and the bytes of one loop
    (sizing.collectives._nvls_loop_bytes and _nvls_fill_s); `rate`: the NVLS rate times
    Simple's share."""
    off = 8 if tree else 5
    stages, largest, from_4 = scalars[off], scalars[off + 1], scalars[off + 2]
    ops = scalars[11] * np.minimum(heads, scalars[12])
    loops = s / ops
    chunk = (from_4 if nodes_i >= 4 else largest) if from_4 != largest else largest
    if tree and plugin:
        chunk = scalars[14]
    for j in range(table.shape[0]):
        smaller, count = table[j, 0], table[j, 1]
        if loops < count * chunk and chunk > smaller:
            chunk = smaller
    loop = np.minimum(s, ops * chunk)
    return (stages - 1.0) * np.maximum(loop / rate, scalars[13] * 1e-6), loop


@kernel
def _nvls_tree_fill(s, gi, nodes_i, depth, net, t_bw, nic_count, nvls_rate, plugin, factor,
                    scalars, table):
    """NVLS-Tree's time beyond its bandwidth time (sizing.collectives._nvls_tree_fill_s; the
    network's fill on a net plugin's fabric only)."""
    rate = nvls_rate * factor
    fill, loop = _nvls_fill(s, np.minimum(gi, nic_count), nodes_i, True, plugin, rate,
                            scalars, table)
    inside = s / rate + fill
    per_node = 2.0 if nodes_i > 2 else 1.0
    network = ((per_node * s / net + (2.0 * depth - 1.0) * (per_node * loop / net)) / factor
               if plugin else 0.0)
    t = t_bw / factor
    return np.maximum(np.maximum(t, inside), network) - t


@kernel
def _kernel(reduce, size, n, g, nodes, safe_ring, safe_tree, tree_depth, size_step, link_rows,
            intra_Bps, nvls_Bps, net_extra_us, ring_extra_us, flush_extra_us, nics, nvlink_like,
            nvls, collnet, ll128, net_plugin, ring_ll128_cap, tree_cap, tree_cap_many,
            tree_ll128_cap, tree_ll128_cap_many, latency_us, ring_intra_us, factors,
            tree_correction, scalars, nvls_steps, tree_steps):
    """Time and algorithm code of each candidate (sizing.collectives.collective_cost's
    loop over algorithms and protocols, the NVLS fill and the n > 1 rule).

    link_rows: the row of the link columns (intra_Bps .. tree_ll128_cap_many) each candidate
    is on (empty: the candidates are those rows, in order);
    ring_ll128_cap .. tree_ll128_cap_many: NCCL's per-channel ceilings x its channels (Links);
    latency_us[a, p]: (pci, nvlink, net, base); ring_intra_us[p]: the ring's four intra-node
    latencies by intra_row; factors[a, p]: protocol shares; scalars: plateau, CollNet arity,
    tree.ll128 in one node, ring.ll128 at one GPU per node, NVLS-Tree's network share, then
    per NVLS kind (one node, tree) stages, largest chunk, chunk from four nodes, and the
    pipeline's channels, heads_max, step_us, NVLS-Tree's chunk under a net plugin;
    nvls_steps and tree_steps: (smaller, count) rows.
    """
    rows = size.shape[0]
    t_out = np.empty(rows)
    code_out = np.empty(rows, np.int64)
    plateau, arity = scalars[0], scalars[1]
    tree_ll128_one_node, ring_ll128_one_gpu, nvls_tree_net = scalars[2], scalars[3], scalars[4]
    k = 2.0 if reduce else 1.0
    picked = link_rows.shape[0] > 0
    for i in range(rows):
        s, ni, gi, nodes_i = size[i], n[i], g[i], nodes[i]
        j = link_rows[i] if picked else i
        multi = nodes_i > 1
        b = intra_Bps[j]
        link_like = nvlink_like[j]
        row = (1 if link_like else 0) + (2 if multi else 0)
        # _Shape.of
        steps = k * (ni - 1)
        inter_steps = (2.0 * nodes_i if reduce else nodes_i - 1) if multi else 0.0
        intra_steps = steps - inter_steps
        # _intra_ring_time
        intra_ring = k * (gi - 1) / gi * s / b if gi > 1 else 0.0
        best = np.inf
        code = 0
        t_bw_nvls_tree = 0.0
        net_nvls_tree = 0.0
        # aws-ofi-nccl's tuner sets the pair beyond two nodes (collectives._tuned)
        tuned = net_plugin[j] and nodes_i > 2
        n_algorithms = 5 if reduce else 1
        for a in range(n_algorithms):
            # algorithm_available
            if a == NVLS:
                if not (nvls[j] and gi >= 2 and nodes_i <= 1):
                    continue
            elif a == NVLS_TREE:
                if not (nvls[j] and gi >= 2 and nodes_i > 1):
                    continue
            elif a == COLLNET and not (collnet[j] and nodes_i > 1):
                continue
            # _bandwidth_time
            if a == RING:
                net = safe_ring[i]
                ring_bytes = k * (ni - 1) / ni * s
                inter = ring_bytes / net if multi else 0.0
                intra = intra_ring if multi else ring_bytes / b
                t_bw = np.maximum(intra, inter)
            elif a == TREE:
                net = safe_tree[i]
                per_node = 2.0 if nodes_i > 2 else 1.0
                t_bw = np.maximum(intra_ring, per_node * s / net if multi else 0.0)
            elif a == NVLS:
                t_bw = s / nvls_Bps[j]
            elif a == NVLS_TREE:
                net = safe_tree[i] * nvls_tree_net
                per_node = 2.0 if nodes_i > 2 else 1.0
                t_bw = np.maximum(s / nvls_Bps[j], per_node * s / net if multi else 0.0)
                t_bw_nvls_tree = t_bw
                net_nvls_tree = net
            else:
                net = safe_ring[i]
                inside = s / nvls_Bps[j] if nvls[j] else intra_ring
                t_bw = np.maximum(inside, s / net if multi else 0.0)
            won = False
            first = SIMPLE if a >= NVLS else LL
            for p in range(first, 3):
                if p == LL128 and not (ll128[j] if multi else link_like):
                    continue
                # _latency_us
                pci, nvlink = latency_us[a, p, 0], latency_us[a, p, 1]
                net_lat = latency_us[a, p, 2] + (ring_extra_us[j] if a == RING
                                                 else net_extra_us[j])
                if p == SIMPLE:
                    net_lat = net_lat + flush_extra_us[j]
                base = latency_us[a, p, 3]
                if a == RING:
                    lat = (base + intra_steps * ring_intra_us[p, row]
                           + inter_steps * net_lat)
                    if reduce and p == SIMPLE and multi:
                        lat = lat * plateau
                else:
                    intra_lat = nvlink if link_like else pci
                    if a == TREE:
                        lat = base + 2.0 * ((gi - 1) * intra_lat
                                            + tree_depth[i] * (net_lat if multi else 0.0))
                    elif a == NVLS:
                        lat = base + intra_lat
                    elif a == NVLS_TREE:
                        lat = base + intra_lat + 2.0 * tree_depth[i] * net_lat
                    else:
                        direct = 2.0 * (np.minimum(1.0, gi - 1) * intra_lat + (gi - 1) * arity) + net_lat
                        chain = 2.0 * (gi - 1) * intra_lat + net_lat
                        lat = base + (direct if link_like else chain)
                # _protocol_factor
                factor = factors[a, p]
                if a == TREE and p == LL128 and not multi:
                    factor = tree_ll128_one_node
                if a == RING and p == LL128 and multi and gi < 2:
                    factor = ring_ll128_one_gpu
                if a == TREE:
                    factor = factor * tree_correction[p, size_step[i]]
                if a == TREE and multi:
                    # _channel_floor_s: NCCL's per-channel ceilings, under the size correction
                    two = nodes_i <= 2
                    cap = (tree_cap[j] if two else tree_cap_many[j]) * (
                        factors[TREE, p] / factors[TREE, SIMPLE])
                    if p == LL128:
                        cap = min(cap, tree_ll128_cap[j] if two else tree_ll128_cap_many[j])
                    floor = 2.0 * s / cap
                    t = lat * 1e-6 + max(t_bw / factor, floor / tree_correction[p, size_step[i]])
                elif a == TREE:
                    t = lat * 1e-6 + max(t_bw / factor, 0.0)
                elif a == RING and p == LL128:
                    floor = k * (ni - 1) / ni * s / ring_ll128_cap[j] if multi else 0.0
                    t = lat * 1e-6 + max(t_bw / factor, floor)
                else:
                    t = lat * 1e-6 + t_bw / factor
                    if a == NVLS_TREE and tuned:
                        t = t + _nvls_tree_fill(s, gi, nodes_i, tree_depth[i], net, t_bw,
                                                nics[j], nvls_Bps[j], True, factor, scalars,
                                                tree_steps)
                if t < best:
                    best = t
                    won = True
            if won:
                code = a
        # The pipeline fill of the NVLS kind chosen (_nvls_fill_s), at Simple's share; a
        # tuned NVLS-Tree has it in its time already.
        if code == NVLS:
            fill, _ = _nvls_fill(s, gi, nodes_i, False, False, nvls_Bps[j] * factors[NVLS, SIMPLE],
                                 scalars, nvls_steps)
            best += fill
        elif code == NVLS_TREE and not tuned:
            best += _nvls_tree_fill(s, gi, nodes_i, tree_depth[i], net_nvls_tree,
                                    t_bw_nvls_tree, nics[j], nvls_Bps[j], net_plugin[j],
                                    factors[NVLS_TREE, SIMPLE], scalars, tree_steps)
        t_out[i] = best if ni > 1 else 0.0
        code_out[i] = code
    return t_out, code_out


_EVERY_ROW = np.zeros(0, np.int64)  # link_rows of candidates that are the links' rows


def ring_or_tree_cost(reduce: bool, size, n, g, nodes, safe_ring, safe_tree, tree_depth,
                      size_step, links, tables: tuple,
                      link_rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """collective_cost's figures for an all-reduce (`reduce`) or a reduce-scatter or
    all-gather of the rows, with NCCL's choice among every algorithm and protocol they can
    run: (seconds, index into CHOSEN). `tree_depth` and `size_step`: the trees' logarithms
    (an all-reduce's only); `tables`: the constants as the kernel reads them (_kernel's
    docstring); `link_rows`: the rows of `links` the candidates are on (None: all of them,
    in order)."""
    if link_rows is None:
        rows = int(np.broadcast(size, n, g, links.node_Bps).shape[0])
        link_columns, link_rows = links.kernel_columns(rows), _EVERY_ROW
    else:
        rows = int(np.broadcast(size, n, g, link_rows).shape[0])
        link_columns = links.kernel_columns(np.shape(links.node_Bps)[0])
        link_rows = column(link_rows, rows, np.int64)
    if reduce:
        tree = column(safe_tree, rows, float)
        depth, step = column(tree_depth, rows, float), column(size_step, rows, np.int64)
    else:
        depth = tree = np.zeros(rows)
        step = np.zeros(rows, np.int64)
    return _kernel(reduce, column(size, rows, float), column(n, rows, float),
                   column(g, rows, float), column(nodes, rows, float),
                   column(safe_ring, rows, float), tree, depth, step, link_rows,
                   *link_columns, *tables)

