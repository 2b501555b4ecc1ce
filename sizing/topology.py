"""The network a collective runs on: link figures, tiers and the traffic that crosses them.

A node's NICs behind their PCIe links and the host limits of TCP and of RDMA without GPUDirect;
the tiers below and above the spine (a leaf, or a rail-optimised unit; a core beyond the spine's
reach) with the oversubscription that slows only the bytes crossing it; congestion and loss by
fabric and traffic pattern; the slowest-rank stretch.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from functools import cached_property

import numpy as np

from sizing import kernels, links_kernel
from sizing.constants import per_gpu_lookup
from sizing.hardware import FABRIC_KINDS, INTRA_LINKS, Cluster
from sizing.kernels import column

# Which tier of the network a collective's traffic reached (the breakdown names it).
TIERS = ("none", "nvlink", "leaf", "spine", "core")
_INFINIBAND = FABRIC_KINDS.index("infiniband")
_ROCE = FABRIC_KINDS.index("roce")
_NVLINK = INTRA_LINKS.index("nvlink")
_XGMI = INTRA_LINKS.index("xgmi")


# --------------------------------------------------------------------------- link figures

def _pcie_Bps(c: dict, constants) -> np.ndarray:
    """One x16 PCIe link of the server's generation, bytes/s (the measured host-to-device rate)."""
    table = constants.host_link_gbs
    gens = np.asarray(c["pcie_gen"]).astype(int)
    rate = np.array([float(table.get(str(g), table["default"]))
                     for g in range(int(gens.max(initial=0)) + 1)])
    return rate[gens] * 1e9


def _port_gbps(c: dict) -> np.ndarray:
    """Each NIC's port rate, Gb/s: the NIC's or the fabric's line rate, whichever is lower."""
    return np.minimum(np.asarray(c["nic_rate_gbps"], float), c["fabric_line_rate_gbps"])


def _wire_gbs(c: dict) -> np.ndarray:
    """One node's NICs at their port rate x the fabric's achievable fraction, GB/s one way."""
    return (np.asarray(c["nics_per_node"], float) * _port_gbps(c) / 8.0
            * c["fabric_achievable_fraction"])


def offered_share(c: dict, constants, node_gbs: np.ndarray | None = None) -> np.ndarray:
    """Share of its NICs' wire rate a node puts on the network, 0-1: its node bandwidth over
    its wire.

    Whatever binds before the wire (node_bandwidth_gbs: a host's socket ceiling without RDMA,
    staging through host memory without GPUDirect, a PCIe link under a faster NIC) makes its
    flows carry that much less than their ports and load the uplinks that much less: a faster
    wire under the same limit never congests more.
    """
    node = node_bandwidth_gbs(c, constants) if node_gbs is None else node_gbs
    return np.minimum(node / np.maximum(_wire_gbs(c), 1e-12), 1.0)


def node_bandwidth_gbs(c: dict, constants) -> np.ndarray:
    """Achievable inter-node bandwidth of one node, one direction, GB/s, before congestion.

    - RDMA with GPUDirect: each NIC gives min(port rate x achievable fraction, the x16 PCIe
      link between it and its GPU's switch): a 400G NIC on PCIe 4 is held to PCIe 4;
    - no RDMA: the NCCL socket transport copies through the kernel on the host's CPUs, one
      ceiling per host whatever the NIC count (brief 2.6);
    - RDMA without GPUDirect stages through host memory: slower than GPUDirect, bounded by the
      GPUs' host links, and never slower than TCP on the same wire (TCP stages too).
    Congestion, loss and oversubscription depend on the traffic and are priced per collective.
    """
    nics = np.asarray(c["nics_per_node"], float)
    port_gbps = _port_gbps(c)
    wire = _wire_gbs(c)
    pcie = _pcie_Bps(c, constants) / 1e9
    rdma = np.asarray(c["fabric_rdma"], bool)
    gdr = np.asarray(c["gpudirect"], bool) & rdma
    tcp = np.minimum(wire, constants.tcp_host_ceiling_gbs)
    direct = nics * np.minimum(port_gbps / 8.0 * c["fabric_achievable_fraction"], pcie)
    host_links = np.asarray(c["gpus_per_node"], float) * pcie
    staged = np.maximum(np.minimum(direct, host_links) * constants.host_staging_bandwidth_factor,
                        tcp)
    return np.where(gdr, direct, np.where(rdma, staged, tcp))


def pair_bandwidth_gbs(c: dict, constants) -> np.ndarray:
    """Achievable bandwidth of one GPU pair alone on the network, one direction, GB/s: the
    node's as if it had one NIC, the one next to the pair's GPU. With RDMA that is one NIC's
    share of the node's; without it the socket ceiling is the host's CPUs', whatever the
    flows (node_bandwidth_gbs), so a lone pair has it whole, up to its one wire."""
    return node_bandwidth_gbs({**c, "nics_per_node": np.ones_like(
        np.asarray(c["nics_per_node"], float))}, constants)


def inter_node_bandwidth_gbs(cluster: Cluster, constants) -> float:
    """Achievable inter-node bandwidth of one node of `cluster` (all its NICs, one way), GB/s."""
    return float(node_bandwidth_gbs(cluster.as_arrays(), constants)[0])


def inter_latency_s(c: dict, constants) -> np.ndarray:
    """Per-message inter-node latency (alpha), with host staging when RDMA lacks GPUDirect."""
    rdma = np.asarray(c["fabric_rdma"], bool)
    staged = rdma & ~np.asarray(c["gpudirect"], bool)
    extra = np.where(staged, constants.host_staging_latency_us, 0.0)
    return (np.asarray(c["fabric_latency_us"], float) + extra) * 1e-6


def _intra_link_efficiency(c: dict, constants) -> np.ndarray:
    """The share of its link's rate a GPU reaches inside a node, by the link's kind."""
    table = np.array(
        [constants.intra_link_efficiency.get(n, constants.intra_link_efficiency["default"])
         for n in INTRA_LINKS]
    )
    return table[np.asarray(c["gpu_intra_link"], int)]


def intra_bandwidth_Bps(c: dict, constants) -> np.ndarray:
    """Achievable GPU-to-GPU bandwidth inside a node, one direction, bytes/s."""
    eff = _intra_link_efficiency(c, constants)
    return np.asarray(c["gpu_intra_bandwidth_gbs"], float) * 1e9 * eff


def nvls_bandwidth_Bps(c: dict, constants) -> np.ndarray:
    """NVLS all-reduce algorithm bandwidth inside a node (S / t at large messages), bytes/s.

    Each GPU's link carries its buffer to the switch and the reduced buffer back once, so the
    bound is the GPU's NVLink rate; the share of it reached is measured per GPU generation
    (the switch's multimem reduction, not the link, sets it)."""
    rate = np.asarray(c["gpu_intra_bandwidth_gbs"], float)
    share = per_gpu_lookup(constants, c.get("gpu_id"), rate.shape[0])("nvls_algbw_share")
    return rate * 1e9 * share


# NCCL's search tries these per-channel speeds across nodes, highest first (GB/s; src/graph/
# search.cc at v2.20.3 speedArrayInter, sm90SpeedArrayInter from compute capability 9.0).
_SPEEDS_INTER = np.array([48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0,
                          5.0, 4.0, 3.0, 2.4, 1.2, 0.24, 0.12])
_SPEEDS_INTER_SM90 = np.array([48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0,
                               6.0, 3.0, 2.4, 1.2, 0.24, 0.12])
_MAX_RING_CHANNELS = 16.0  # MAXCHANNELS / 2, a ring graph's maxChannels (init.cc)


# The same speeds lowest first, for a binary search.
_RISING_INTER = np.ascontiguousarray(_SPEEDS_INTER[::-1])
_RISING_INTER_SM90 = np.ascontiguousarray(_SPEEDS_INTER_SM90[::-1])


def _channel_speed_gbs(nic_gbs: np.ndarray, sm90: np.ndarray) -> np.ndarray:
    """The first of NCCL's speeds, highest first, that one NIC carries (the lowest where none
    does): a channel's bwIntra and bwInter after the search's first pass, one channel per NIC."""
    def first_fitting(rising):
        # The speeds a NIC carries are those at or below its own: counted by a binary search
        # of the rising speeds, the highest of them is the last counted (a tenth of the cost
        # of comparing every NIC with every speed). Below the lowest speed, or NaN, none fits.
        carried = np.searchsorted(rising, nic_gbs, side="right")
        return np.where(nic_gbs >= rising[0], rising[carried - 1], rising[0])
    return np.where(sm90, first_fitting(_RISING_INTER_SM90), first_fitting(_RISING_INTER))


def nccl_channels(c: dict, compute_capability: np.ndarray) -> np.ndarray:
    """The channels of NCCL's ring and tree graphs across nodes, per node.

    NCCL's search (src/graph/search.cc at v2.20.3) gives each channel one NIC at the first
    speed of its array the NIC carries (the NIC's speed as NCCL reads it: its port rate; at
    most one NIC per GPU), then doubles the channels (ncclTopoDupChannels, each at half the
    speed, never beyond a ring's 16) unless the GPUs are past sm80 with more than four channels
    under 50 GB/s ('if (ccMin > 80 && graph->bwIntra < 50.0 && graph->nChannels > 4)
    return'): an HGX H100 or H200 on 8 x 400G keeps 8, an HGX A100 on 8 x 400G doubles to 16
    (sm80 is not past 80). Under 25 GB/s the same rule does not double ('if
    (graph->bwIntra < 25.0) return'), yet NCCL runs two channels per such NIC: the search
    itself shares each slow NIC between two rings (NVIDIA/nccl #527, an A100 node on three
    100G EFA adapters: '6 coll channels'), so those count two per NIC; the reading that gives
    one would put an HGX A100 on 8 x 200G at 8. A node with more NICs than GPUs is AWS's p5:
    aws-ofi-nccl's RDMA protocol (its default there, src/platform-aws.cpp) groups the NICs
    beside each GPU into one device of their summed speed (src/nccl_ofi_topo.cpp NIC
    grouping, src/nccl_ofi_rdma.cpp 'Scale speed by the total number of rails'), so NCCL sees
    one NIC per GPU, 50 GB/s each: 8 channels."""
    nics = np.maximum(np.asarray(c["nics_per_node"], float), 1.0)
    seen = np.minimum(nics, np.maximum(np.asarray(c["gpus_per_node"], float), 1.0))
    nic_gbs = nics * _port_gbps(c) / 8.0 / seen
    cc = np.asarray(compute_capability, float)
    speed = _channel_speed_gbs(nic_gbs, cc >= 90)
    kept = (speed >= 25.0) & (cc > 80) & (speed < 50.0) & (seen > 4)
    return np.where(kept, seen, np.minimum(2.0 * seen, _MAX_RING_CHANNELS))


# The columns the compiled Links.of requires (the others have Links.of's defaults), and the
# per-GPU constants its channels' ceilings are read from, in links_kernel's order.
_KERNEL_COLUMNS = ("fabric_rdma", "gpudirect", "fabric_lossless", "gpu_intra_link",
                   "fabric_kind", "fabric_latency_us", "nic_rate_gbps", "fabric_line_rate_gbps",
                   "fabric_achievable_fraction", "nics_per_node", "gpus_per_node", "pcie_gen",
                   "gpu_intra_bandwidth_gbs", "fabric_loss_rate", "fabric_nodes_per_leaf",
                   "fabric_oversubscription")
_CHANNEL_CEILINGS = ("nccl_ring_ll128_channel_gbs", "nccl_tree_channel_gbs",
                     "nccl_tree_channel_gbs_beyond_two_nodes", "nccl_tree_ll128_channel_gbs",
                     "nccl_tree_ll128_channel_gbs_beyond_two_nodes")
_KERNEL_CODES = np.array([_NVLINK, _XGMI, _INFINIBAND, _ROCE, FABRIC_KINDS.index("ethernet")],
                         np.int64)

# The figures of Links that network_shares reads (with _spine_load).
NETWORK_FIGURES = ("loss_rate", "resend_packets", "nodes_per_leaf", "nics", "nodes_below_core",
                   "oversubscription", "offered", "lossy", "pfc", "ecmp", "rail")

# The figures of Links that the compiled collectives read (nccl_kernel.ring_or_tree_cost), in
# the kernel's order, with the dtype it is compiled for.
KERNEL_FIGURES = (("intra_Bps", float), ("nvls_Bps", float), ("net_extra_us", float),
                  ("ring_extra_us", float), ("flush_extra_us", float), ("nics", float),
                  ("nvlink_like", bool), ("nvls", bool), ("collnet", bool), ("ll128", bool),
                  ("net_plugin", bool), ("ring_ll128_cap_Bps", float), ("tree_cap_Bps", float),
                  ("tree_cap_many_Bps", float), ("tree_ll128_cap_Bps", float),
                  ("tree_ll128_cap_many_Bps", float))


@dataclass(frozen=True)
class Links:
    """What the collectives of a batch of candidates run on (arrays, one entry per candidate).

    Bandwidths in bytes/s, latencies in seconds.
    """

    node_Bps: np.ndarray  # one node's NICs, one direction, before congestion
    intra_Bps: np.ndarray  # one GPU's NVLink / xGMI / PCIe rate, one direction
    nvls_Bps: np.ndarray  # NVLS all-reduce algorithm bandwidth inside a node
    hop_intra_s: np.ndarray | float  # one point-to-point message inside a node
    hop_inter_s: np.ndarray  # one point-to-point message across nodes
    net_extra_us: np.ndarray  # fabric latency beyond NCCL's InfiniBand 'net' figures, per tree hop
    ring_extra_us: np.ndarray  # the same per inter-node ring step (Fabric.ring_latency_us)
    # the latency the net transport reports to NCCL, which tuning.cc adds again to Simple's
    # per-step latency for the receive flush, where the GPU needs one (see Links.of)
    flush_extra_us: np.ndarray
    # the fabric runs through a net plugin (EFA's aws-ofi-nccl): its tuner sets the algorithm
    # beyond two nodes, its platform file NVLS-Tree's chunk (sizing.collectives)
    net_plugin: np.ndarray
    nvlink_like: np.ndarray  # intra-node steps priced at NCCL's NVLink latency (else PCI)
    nvls: np.ndarray  # NVSwitch with in-switch reduction
    collnet: np.ndarray  # SHARP in-network reduction on the fabric
    ll128: np.ndarray  # NCCL enables LL128 (NVLink inside, GPUDirect NIC under the switch)
    lossy: np.ndarray  # RDMA without a lossless class
    loss_rate: np.ndarray  # drop probability per packet per sender beyond one on a port
    resend_packets: np.ndarray  # packets resent per loss (go-back-N window at the port's rate, or 1)
    pfc: np.ndarray  # lossless Ethernet: PFC pauses under incast
    ecmp: np.ndarray  # flows hashed on uplinks (no adaptive routing)
    nodes_per_leaf: np.ndarray  # nodes below the spine: a leaf, or a rail-optimised unit
    rail: np.ndarray  # rail-optimised: NIC i of each node on leaf i (else each node on one leaf)
    nics: np.ndarray  # NICs per node
    # NCCL's per-channel ceilings times its channels (nccl_channels), bytes/s per node: ring
    # LL128, tree on two nodes and beyond, tree LL128 on two nodes and beyond (tuning.cc)
    ring_ll128_cap_Bps: np.ndarray
    tree_cap_Bps: np.ndarray
    tree_cap_many_Bps: np.ndarray
    tree_ll128_cap_Bps: np.ndarray
    tree_ll128_cap_many_Bps: np.ndarray
    nodes_below_core: np.ndarray  # nodes the spine joins (inf: no core tier)
    oversubscription: np.ndarray
    offered: np.ndarray  # share of its NICs' wire rate a node offers the uplinks (offered_share)
    # The per-candidate figures above stacked by dtype, each field a row of one stack (names,
    # matrix): picking candidates out is then one gather per dtype, not one per field.
    stacks: tuple = field(default=(), repr=False, compare=False)

    @classmethod
    def of(cls, c: dict, constants) -> Links:
        """The links of candidate arrays `c` (keys of Cluster.as_arrays())."""
        if kernels.ENABLED:
            rows = np.broadcast(*(c[k] for k in _KERNEL_COLUMNS)).shape
            if len(rows) == 1:
                return cls._compiled(c, constants, rows[0])
        rdma = np.asarray(c["fabric_rdma"], bool)
        gdr = np.asarray(c["gpudirect"], bool) & rdma
        link = np.asarray(c["gpu_intra_link"], int)
        kind = np.asarray(c["fabric_kind"], int)
        lossless = np.asarray(c["fabric_lossless"], bool)
        staged = np.where(rdma & ~gdr, constants.host_staging_latency_us, 0.0)
        net_extra = np.maximum(np.asarray(c["fabric_latency_us"], float)
                               - constants.nccl_net_reference_latency_us, 0.0) + staged
        # tuning.cc adds the net's reported latency (graph->latencyInter) a second time for
        # Simple ('Also add the flush extra latency'). NCCL's own IB verbs and socket
        # transports report none (net_ib.cc, net_socket.cc: 'props->latency = 0; // Not set'):
        # InfiniBand, RoCE and TCP pay their extra latency once. An RDMA fabric of the
        # Ethernet kind runs through a net plugin (EFA: aws-ofi-nccl, whose platform file
        # declares a latency to NCCL), priced at the fabric's own figure. The flush it stands
        # for is a GPU's read-back of data the NIC wrote, which NCCL issues on Ampere and older
        # only: from Hopper (sm90) on it flushes only when NCCL_NET_FORCE_FLUSH asks, which
        # aws-ofi-nccl sets to 0 (NVIDIA/nccl src/graph/paths.cc ncclTopoNeedFlush at v2.20.3
        # and v2.27.7, 'Flush is required on Ampere and earlier'; aws/aws-ofi-nccl
        # src/platform-aws.cpp @v1.16.3, p5/p5e and p5en/p6: NCCL_NET_FORCE_FLUSH=0).
        plugin_latency = (kind == FABRIC_KINDS.index("ethernet")) & rdma
        selective = np.asarray(c.get("fabric_selective_repeat", False), bool)
        # Go-back-N resends what the sender put on its own port since the lost packet: the
        # bandwidth-delay product of the port's rate, a quarter at 100G of 400G's.
        window = (_port_gbps(c) * 1e9 / 8.0 * constants.go_back_n_window_us * 1e-6
                  / constants.roce_packet_bytes)
        node_gbs = node_bandwidth_gbs(c, constants)
        per_gpu = per_gpu_lookup(constants, c.get("gpu_id"), np.shape(node_gbs)[0])
        compute_capability = per_gpu("nccl_compute_capability")
        channels = nccl_channels(c, compute_capability) * 1e9
        # A fabric may wait less per ring step than per tree hop (Fabric.ring_latency_us: EFA
        # on p5, whose ring steps were measured apart); elsewhere the two are the same.
        ring_extra = np.maximum(np.asarray(c.get("fabric_ring_latency_us",
                                                 c["fabric_latency_us"]), float)
                                - constants.nccl_net_reference_latency_us, 0.0) + staged

        def cap(name: str) -> np.ndarray:
            return channels * per_gpu(name)

        return cls._stacked(
            node_Bps=node_gbs * 1e9,
            intra_Bps=intra_bandwidth_Bps(c, constants),
            nvls_Bps=nvls_bandwidth_Bps(c, constants),
            hop_intra_s=constants.intra_latency_us * 1e-6,
            hop_inter_s=inter_latency_s(c, constants),
            net_extra_us=net_extra,
            ring_extra_us=ring_extra,
            flush_extra_us=np.where(plugin_latency & (compute_capability < 90), net_extra, 0.0),
            net_plugin=plugin_latency,
            nvlink_like=(link == _NVLINK) | (link == _XGMI),
            nvls=np.asarray(c.get("gpu_nvlink_sharp", False), bool),
            collnet=np.asarray(c.get("fabric_sharp", False), bool) & rdma,
            ll128=(link == _NVLINK) & gdr,
            lossy=rdma & ~lossless,
            loss_rate=np.asarray(c["fabric_loss_rate"], float),
            resend_packets=np.where(selective, 1.0, window),
            pfc=(kind == _ROCE) & lossless,
            ecmp=(kind != _INFINIBAND) & ~np.asarray(c.get("fabric_adaptive_routing", False),
                                                     bool),
            nodes_per_leaf=np.asarray(c["fabric_nodes_per_leaf"], float),
            rail=np.asarray(c.get("fabric_rail", False), bool),
            nics=np.maximum(np.asarray(c["nics_per_node"], float), 1.0),
            ring_ll128_cap_Bps=cap("nccl_ring_ll128_channel_gbs"),
            tree_cap_Bps=cap("nccl_tree_channel_gbs"),
            tree_cap_many_Bps=cap("nccl_tree_channel_gbs_beyond_two_nodes"),
            tree_ll128_cap_Bps=cap("nccl_tree_ll128_channel_gbs"),
            tree_ll128_cap_many_Bps=cap("nccl_tree_ll128_channel_gbs_beyond_two_nodes"),
            nodes_below_core=np.asarray(c.get("fabric_nodes_below_core", np.inf), float),
            oversubscription=np.asarray(c["fabric_oversubscription"], float),
            offered=np.asarray(offered_share(c, constants, node_gbs), float),
        )

    @classmethod
    def _compiled(cls, c: dict, constants, rows: int) -> Links:
        """Links.of's figures compiled (links_kernel; the numpy code of Links.of is the
        reference), the kernel's two matrices the stacks."""
        per_gpu = per_gpu_lookup(constants, c.get("gpu_id"), rows)

        def col(key, dtype=float, default=None):
            return column(c[key] if default is None else c.get(key, default), rows, dtype)

        floats, flags = links_kernel.figures(
            col("fabric_rdma", bool), col("gpudirect", bool), col("fabric_lossless", bool),
            col("fabric_selective_repeat", bool, False), col("gpu_nvlink_sharp", bool, False),
            col("fabric_sharp", bool, False), col("fabric_adaptive_routing", bool, False),
            col("fabric_rail", bool, False), col("gpu_intra_link", np.int64),
            col("fabric_kind", np.int64), col("fabric_latency_us"),
            col("fabric_ring_latency_us", float, c["fabric_latency_us"]),
            col("nic_rate_gbps"), col("fabric_line_rate_gbps"),
            col("fabric_achievable_fraction"), col("nics_per_node"), col("gpus_per_node"),
            column(_pcie_Bps(c, constants), rows), col("gpu_intra_bandwidth_gbs"),
            column(_intra_link_efficiency(c, constants), rows),
            column(per_gpu("nvls_algbw_share"), rows),
            column(per_gpu("nccl_compute_capability"), rows),
            np.stack([column(per_gpu(name), rows) for name in _CHANNEL_CEILINGS]),
            col("fabric_loss_rate"), col("fabric_nodes_per_leaf"),
            col("fabric_nodes_below_core", float, np.inf), col("fabric_oversubscription"),
            _KERNEL_CODES,
            np.array([constants.host_staging_latency_us, constants.nccl_net_reference_latency_us,
                      constants.go_back_n_window_us, constants.roce_packet_bytes,
                      constants.tcp_host_ceiling_gbs, constants.host_staging_bandwidth_factor],
                     float),
            _SPEEDS_INTER, _SPEEDS_INTER_SM90)
        return cls(**dict(zip(links_kernel.FLOATS, floats)),
                   **dict(zip(links_kernel.BOOLS, flags)),
                   hop_intra_s=constants.intra_latency_us * 1e-6,
                   stacks=((links_kernel.FLOATS, floats), (links_kernel.BOOLS, flags)))

    @classmethod
    def _stacked(cls, **figures) -> Links:
        """Links whose 1-d figures are rows of one matrix per (dtype, length)."""
        groups: dict[tuple, list[str]] = {}
        for name, value in figures.items():
            if np.ndim(value) == 1:
                groups.setdefault((value.dtype, value.shape), []).append(name)
        stacks = []
        for names in groups.values():
            matrix = np.stack([figures[k] for k in names])
            figures.update(zip(names, matrix))
            stacks.append((tuple(names), matrix))
        return cls(**figures, stacks=tuple(stacks))

    def kernel_columns(self, rows: int) -> tuple[np.ndarray, ...]:
        """KERNEL_FIGURES as columns of `rows` candidates (kernels.column): those kept on the
        value when the links are of those rows (nearly always), else spread to them."""
        if np.shape(self.node_Bps) == (rows,):
            return self._kept_kernel_columns
        return self._columns(rows)

    @cached_property
    def kept_by_span(self) -> dict:
        """One candidate's figures of the network a group crosses, by what they read of the
        group (its nodes spanned): its network shares (sizing.collectives._kept_network_shares)
        and tier (tier_reached). Kept on the value as the kernel columns are: they live no
        longer than the links."""
        return {}

    @cached_property
    def _kept_kernel_columns(self) -> tuple[np.ndarray, ...]:
        # Every collective of a step runs on the same links, and building the columns at each
        # call cost about a third of the kernel's call. Kept on the value, not in a cache
        # beside it, so they live no longer than the links (a search chunk's).
        return self._columns(np.shape(self.node_Bps)[0])

    def _columns(self, rows: int) -> tuple[np.ndarray, ...]:
        return tuple(column(getattr(self, name), rows, dtype) for name, dtype in KERNEL_FIGURES)

    def network_rows(self, idx: np.ndarray) -> Links:
        """The links of candidates `idx` as network_shares reads them: NETWORK_FIGURES alone
        picked out (a slice of each stack where they lead it, as Links.of's compiled figures
        have them), every other figure None."""
        figures = dict.fromkeys(f.name for f in fields(self) if f.name != "stacks")
        wanted = set(NETWORK_FIGURES)
        for names, matrix in self.stacks:
            lead = 0
            while lead < len(names) and names[lead] in wanted:
                lead += 1
            if lead:
                figures.update(zip(names[:lead], matrix[:lead].take(idx, axis=1)))
        for name in NETWORK_FIGURES:
            if figures[name] is None:  # unstacked (0-d) or not at the head of its stack
                value = getattr(self, name)
                figures[name] = value[idx] if np.ndim(value) else value
        return Links(**figures)

    def rows(self, idx: np.ndarray) -> Links:
        """The links of candidates `idx` only (figures shared by all, 0-d, stay as they are)."""
        stacked = {name for names, _ in self.stacks for name in names}
        figures = {f.name: getattr(self, f.name)[idx] for f in fields(self)
                   if f.name != "stacks" and f.name not in stacked
                   and np.ndim(getattr(self, f.name))}
        stacks = []
        for names, matrix in self.stacks:
            picked = matrix.take(idx, axis=1)
            figures.update(zip(names, picked))
            stacks.append((names, picked))
        return replace(self, **figures, stacks=tuple(stacks))


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
    # np.clip's own definition, minimum(maximum(x, low), high): several times cheaper than
    # np.clip with an array bound
    per_node = np.minimum(np.maximum(per_node, 1.0), np.maximum(size, 1.0))
    return per_node, np.ceil(size / per_node)


# --------------------------------------------------------------------------- the network

def fan_in(op: str, algorithm: str, nodes) -> np.ndarray:
    """Senders converging on one receiving NIC: the incast that fills switch queues."""
    nodes = np.asarray(nodes, float)
    if op == "all_to_all":
        return np.maximum(nodes - 1.0, 1.0)
    if algorithm == "tree":
        # A node of the double binary tree receives from its two children while reducing.
        return np.minimum(np.maximum(nodes - 1.0, 1.0), 2.0)
    return np.ones_like(nodes)


_BUSIEST_TERMS = 48  # loads summed exactly; beyond ~8 flows per link the normal limit is used


def hashed_busiest(flows, links, sets) -> np.ndarray:
    """Expected flows on the busiest of `links` x `sets` links when each of `sets` groups hashes
    `flows` flows onto its own `links` uniformly at random (ECMP without adaptive routing).

    Balls into bins: P(busiest < m) ~ P(Binomial(flows, 1/links) < m) ** (links x sets), summed
    over m for a handful of flows per link; beyond, the expected maximum of `bins` normals
    (mean + sd x the Gumbel location sqrt(2 ln B) - (ln ln B + ln 4 pi) / (2 sqrt(2 ln B))).
    """
    flows = np.maximum(np.asarray(flows, float), 0.0)
    links = np.maximum(np.asarray(links, float), 1.0)
    bins = links * np.maximum(np.asarray(sets, float), 1.0)
    p = 1.0 / links
    mean = flows * p
    sd = np.sqrt(flows * p * (1.0 - p))
    root = np.sqrt(2.0 * np.log(np.maximum(bins, 3.0)))
    normal = mean + sd * (root - (np.log(root**2 / 2.0) + np.log(4.0 * np.pi)) / (2.0 * root))
    q = np.where(p < 1.0, p / np.maximum(1.0 - p, 1e-12), 0.0)
    pmf = np.where(p < 1.0, (1.0 - p) ** flows, 0.0)  # P(load = 0)
    cdf = pmf
    exact = np.zeros(np.shape(mean))
    summed = mean <= 8.0  # the loads whose terms are summed (the others take the normal limit)
    # Each row stops at its own first term below 1e-4 flows (the tail only falls), so its
    # figure never depends on the other rows of its batch: a search's chunking cannot move it.
    adding = summed.copy()
    for j in range(_BUSIEST_TERMS):
        tail = 1.0 - cdf ** bins  # P(busiest >= j + 1)
        np.add(exact, tail, out=exact, where=adding)  # the stopped rows keep their sum
        if j >= 1:
            adding &= tail >= 1e-4
            if not adding.any():
                break  # every row's remaining terms add less than 1e-4 flows each
        pmf = pmf * np.maximum(flows - j, 0.0) / (j + 1.0) * q
        cdf = np.minimum(cdf + pmf, 1.0)
    one_link = links <= 1.0  # every flow on the one link
    return np.where(one_link, flows, np.where(summed, exact, normal))


def _spine_load(op: str, nodes, k, links: Links, constants) -> np.ndarray:
    """How many times over its rate the busiest uplink is asked to carry, >= 1 (no slowdown).

    A ring or tree ordered by topology leaves each leaf once per channel: one node's NICs'
    flows go up (rail-optimised: one flow set per rail leaf). All-to-all sends the share of
    each node's bytes addressed to other leaves, (N - k) / N, as many small flows. With
    adaptive routing (InfiniBand, SRD) packets spread evenly and only the mean load counts;
    with ECMP a synchronous collective waits for its busiest uplink. Every flow carries the
    share of its port the host offers (Links.offered): a socket-bound or staging host loads
    the uplinks at its node bandwidth, not at its wire rate.
    """
    nodes = np.asarray(nodes, float)
    a2a = op == "all_to_all"
    share_up = (nodes - k) / np.maximum(nodes, 1.0) if a2a else None
    mean = (links.oversubscription * share_up if a2a
            else links.oversubscription / np.maximum(k, 1.0)) * links.offered
    shape = np.broadcast(nodes, mean, links.ecmp).shape
    # Spread only where a figure is not of the rows' shape already: broadcast_to costs more
    # than the rest of a one-row evaluation's arithmetic here.
    load = np.array(mean if np.shape(mean) == shape else np.broadcast_to(mean, shape), float)
    hashed = links.ecmp & (nodes > k)
    if hashed.shape != shape:
        hashed = np.broadcast_to(hashed, shape)
    if not np.count_nonzero(hashed):
        return np.maximum(load, 1.0)
    # only ECMP candidates whose traffic crosses the spine: their figures, picked out first
    pick = np.nonzero(hashed)

    def at(x):
        return (x if np.shape(x) == load.shape else np.broadcast_to(x, load.shape))[pick]

    f = constants.ecmp_flows_per_nic
    n, kk, over, nics, rail = at(nodes), at(k), at(links.oversubscription), at(links.nics), \
        at(links.rail)
    per_group = np.where(rail, 1.0, nics)  # NICs one hashing group (a leaf) serves per node
    # uplinks one hashing group spreads over, and the sets of independent hashings
    uplinks = per_group * kk / over
    sets = np.ceil(n / np.maximum(kk, 1.0)) * np.where(rail, nics, 1.0)
    if a2a:
        flows = per_group * kk * f * np.maximum(n - kk, 1.0)
        # the uplinks carry k x NICs ports' worth of bytes x share_up, split over the flows
        per_link = flows / np.maximum(uplinks * over * at(share_up), 1e-12)
    else:
        flows = per_group * f
        per_link = f  # flows one uplink carries at full rate: each is 1/f of a port
    load[pick] = hashed_busiest(flows, uplinks, sets) / per_link * at(links.offered)
    return np.maximum(load, 1.0)


def network_shares(op: str, algorithms, nodes, links: Links, constants) -> dict:
    """Share of the NIC bandwidth a collective spanning `nodes` gets from the network, for
    each of `algorithms` (the spine's load is the same for all of them: it is priced once).

    - Across the spine the collective runs at its busiest uplink (_spine_load): the mean load
      of the oversubscribed tier, and on Ethernet without adaptive routing the flows ECMP
      hashed onto the same uplink, which grow with the leaves crossed (brief 4; few large
      flows per NIC collide, many small ones average out).
    - Lossy RDMA: a queue drops only where more arrives than its port drains: the senders
      beyond the first converging on a receiver (fan-in - 1) and the busiest uplink's load
      beyond its rate (the spine's load - 1), at every switch tier crossed: each a chance to
      drop at the fabric's loss rate r, so a packet is lost with p = 1 - (1 - r)^chances, never
      above 1. One-to-one traffic below the spine (a ring inside a leaf or unit) fills no queue
      and loses nothing. Each drop resends a go-back-N window (the bandwidth-delay product of
      the port's rate), goodput 1 / (1 + p x window) (brief 4, Wang et al.); a
      selective-repeat NIC resends one packet (brief 4: IRN, RoSR).
    - Lossless RoCE: no drops, but PFC pauses under incast block the head of line and spread
      (brief 4, Mittal et al.); InfiniBand's credit flow control has no such pause storms.
    """
    nodes = np.asarray(nodes, float)
    k = np.minimum(links.nodes_per_leaf, nodes)
    spine = nodes > links.nodes_per_leaf
    # Below one leaf (most groups: inside a node, or a few nodes) no uplink is loaded: the
    # spine's load is not priced where no row would read it.
    over = (np.where(spine, _spine_load(op, nodes, k, links, constants), 1.0)
            if np.count_nonzero(spine) else np.ones(spine.shape))
    # switch tiers a packet queues in: the leaf, then the spine, then the core
    tiers = 1.0 + spine + (nodes > links.nodes_below_core)
    lossy, pfc = bool(np.count_nonzero(links.lossy)), bool(np.count_nonzero(links.pfc))
    shares = {}
    for algorithm in algorithms:
        incast = fan_in(op, algorithm, nodes)
        share = 1.0 / over
        if lossy:
            chances = ((incast - 1.0) + (over - 1.0)) * tiers
            # 1 - (1 - r)^chances, exact for small r too (log1p, expm1)
            p = -np.expm1(chances * np.log1p(-links.loss_rate))
            share = share * np.where(links.lossy, 1.0 / (1.0 + p * links.resend_packets), 1.0)
        if pfc and np.count_nonzero(incast > 1):
            share = share * np.where(links.pfc, 1.0 / (1.0 + constants.pfc_incast_penalty
                                                       * (1.0 - 1.0 / incast) * tiers), 1.0)
        shares[algorithm] = share
    return shares


def tier_reached(nodes, per_node, links: Links) -> np.ndarray:
    """Index into TIERS of the highest tier a group's traffic crosses (one candidate's kept
    on its links by the nodes spanned and whether a node holds two members or more: the
    caller only reads it)."""
    if np.shape(nodes) == (1,) == np.shape(per_node) == np.shape(links.nodes_per_leaf):
        key = ("tier", float(nodes[0]), bool(per_node[0] > 1))
        kept = links.kept_by_span
        hit = kept.get(key)
        if hit is None:
            hit = kept[key] = _tier_reached(nodes, per_node, links)
        return hit
    return _tier_reached(nodes, per_node, links)


def _tier_reached(nodes, per_node, links: Links) -> np.ndarray:
    nodes = np.asarray(nodes, float)
    # TIERS rise with their index: the highest tier crossed is the largest index of the tiers
    # crossed (a third of the cost of nested np.where).
    tier = np.maximum(np.asarray(per_node, float) > 1, 2 * (nodes > 1))
    tier = np.maximum(tier, 3 * (nodes > links.nodes_per_leaf))
    return np.maximum(tier, 4 * (nodes > links.nodes_below_core))


# --------------------------------------------------------------------------- costs
