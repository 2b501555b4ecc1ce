"""The per-candidate figures of the network's links, compiled, one candidate at a time: the same
operations in the same order as sizing.topology's Links.of and the functions it calls (the
numpy reference; sizing.kernels). The table lookups (PCIe generation, link kind, per-GPU
constants) stay in numpy and come in as columns."""
from __future__ import annotations

import numpy as np

from sizing.kernels import kernel

# The figures `figures` writes, in its order: the rows of its float and of its bool matrix.
# The network's figures (topology.NETWORK_FIGURES) lead each: picking them alone out of
# the candidates is then a slice of each matrix and one gather.
FLOATS = ("loss_rate", "resend_packets", "nodes_per_leaf", "nics", "nodes_below_core",
          "oversubscription", "offered", "node_Bps", "intra_Bps", "nvls_Bps", "hop_inter_s",
          "net_extra_us", "ring_extra_us", "flush_extra_us", "ring_ll128_cap_Bps",
          "tree_cap_Bps", "tree_cap_many_Bps", "tree_ll128_cap_Bps", "tree_ll128_cap_many_Bps")
BOOLS = ("lossy", "pfc", "ecmp", "rail", "net_plugin", "nvlink_like", "nvls", "collnet", "ll128")


@kernel
def _first_fitting(nic_gbs, speeds):
    """The first of `speeds` (highest first) at or below nic_gbs, else the last (lowest)."""
    for j in range(speeds.shape[0]):
        if nic_gbs >= speeds[j]:
            return speeds[j]
    return speeds[speeds.shape[0] - 1]


@kernel
def figures(rdma, gpudirect, lossless, selective, nvlink_sharp, sharp, adaptive, rail, link,
            kind, latency_us, ring_latency_us, nic_rate_gbps, line_rate_gbps, achievable,
            nics_per_node, gpus_per_node, pcie_Bps, intra_gbs, intra_efficiency, nvls_share,
            compute_capability, cap_factors, loss_rate, nodes_per_leaf, nodes_below_core,
            oversubscription, codes, scalars, speeds, speeds_sm90):
    """Links.of's figures of each candidate: FLOATS and BOOLS, two matrices of a row each.

    codes: the indices of NVLink, xGMI, InfiniBand, RoCE and Ethernet; scalars: the host's
    staging latency, NCCL's net reference latency, the go-back-N window, the RoCE packet, the
    TCP host ceiling and the host staging bandwidth factor; cap_factors: the five per-GPU
    channel ceilings (rows), in FLOATS' order of the caps; speeds and speeds_sm90: NCCL's
    channel speeds across nodes, highest first."""
    rows = rdma.shape[0]
    out = np.empty((19, rows))
    flags = np.empty((9, rows), np.bool_)
    nvlink, xgmi, infiniband, roce, ethernet = codes[0], codes[1], codes[2], codes[3], codes[4]
    staging_us, reference_us, window_us, packet_bytes, tcp_ceiling, staging_factor = (
        scalars[0], scalars[1], scalars[2], scalars[3], scalars[4], scalars[5])
    for i in range(rows):
        rdma_i = rdma[i]
        gdr = gpudirect[i] and rdma_i
        staged = staging_us if (rdma_i and not gdr) else 0.0
        net_extra = np.maximum(latency_us[i] - reference_us, 0.0) + staged
        plugin = (kind[i] == ethernet) and rdma_i
        # _port_gbps, _wire_gbs and node_bandwidth_gbs
        port = np.minimum(nic_rate_gbps[i], line_rate_gbps[i])
        window = port * 1e9 / 8.0 * window_us * 1e-6 / packet_bytes
        nics = nics_per_node[i]
        wire = nics * port / 8.0 * achievable[i]
        pcie = pcie_Bps[i] / 1e9
        tcp = np.minimum(wire, tcp_ceiling)
        direct = nics * np.minimum(port / 8.0 * achievable[i], pcie)
        host_links = gpus_per_node[i] * pcie
        staged_gbs = np.maximum(np.minimum(direct, host_links) * staging_factor, tcp)
        node_gbs = direct if gdr else (staged_gbs if rdma_i else tcp)
        # nccl_channels
        nics_seen = np.maximum(nics, 1.0)
        seen = np.minimum(nics_seen, np.maximum(gpus_per_node[i], 1.0))
        nic_gbs = nics_seen * port / 8.0 / seen
        cc = compute_capability[i]
        speed = _first_fitting(nic_gbs, speeds_sm90 if cc >= 90 else speeds)
        kept = speed >= 25.0 and cc > 80 and speed < 50.0 and seen > 4
        channels = (seen if kept else np.minimum(2.0 * seen, 16.0)) * 1e9
        ring_extra = np.maximum(ring_latency_us[i] - reference_us, 0.0) + staged
        out[0, i] = loss_rate[i]
        out[1, i] = 1.0 if selective[i] else window
        out[2, i] = nodes_per_leaf[i]
        out[3, i] = nics_seen
        out[4, i] = nodes_below_core[i]
        out[5, i] = oversubscription[i]
        # offered_share
        out[6, i] = np.minimum(node_gbs / np.maximum(wire, 1e-12), 1.0)
        out[7, i] = node_gbs * 1e9
        out[8, i] = intra_gbs[i] * 1e9 * intra_efficiency[i]
        out[9, i] = intra_gbs[i] * 1e9 * nvls_share[i]
        # inter_latency_s: staging where RDMA lacks GPUDirect
        out[10, i] = (latency_us[i] + staged) * 1e-6
        out[11, i] = net_extra
        out[12, i] = ring_extra
        out[13, i] = net_extra if (plugin and cc < 90) else 0.0
        for k in range(5):
            out[14 + k, i] = channels * cap_factors[k, i]
        link_i, kind_i = link[i], kind[i]
        flags[0, i] = rdma_i and not lossless[i]
        flags[1, i] = kind_i == roce and lossless[i]
        flags[2, i] = kind_i != infiniband and not adaptive[i]
        flags[3, i] = rail[i]
        flags[4, i] = plugin
        flags[5, i] = link_i == nvlink or link_i == xgmi
        flags[6, i] = nvlink_sharp[i]
        flags[7, i] = sharp[i] and rdma_i
        flags[8, i] = link_i == nvlink and gdr
    return out, flags

