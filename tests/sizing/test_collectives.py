"""The collective model: NCCL's algorithms, protocols and latency structure, busbw as nccl-tests
defines it, host and PCIe limits, congestion and loss, and oversubscribed tiers."""
import math
from dataclasses import replace

import numpy as np
import pytest

from sizing.collectives import CHOSEN, busbw_factor, collective_cost, collective_time
from sizing.hardware import Cluster
from sizing.topology import (
    Links,
    hashed_busiest,
    inter_node_bandwidth_gbs,
    network_shares,
    straggler_stretch,
)

SIZES = [2**k for k in range(10, 35, 2)]  # 1 KiB .. 16 GiB


def busbw_curve(cluster, constants, algorithm="auto", op="all_reduce"):
    return np.array([collective_time(op, s, cluster, constants, algorithm)[2] for s in SIZES])


def test_ring_latency_follows_nccl_structure(cluster_on, constants):
    # 2 nodes x 8 GPUs, ring LL at 1 KiB: base + (2(n-1) - 2 nodes) intra steps + 4 net steps.
    cluster = cluster_on("ib-ndr-400", 2)
    links = Links.of(cluster.as_arrays(), constants)
    t, _ = collective_cost("all_reduce", 1024.0, 16, 8, links, links.node_Bps, constants, "ring")
    hw = constants.nccl_hw_latency_us
    intra = max(hw["nvlink.ring.ll"], constants.nccl_net_overhead_us)
    lat = (constants.nccl_base_latency_us["ring.ll"] + (30 - 4) * intra + 4 * hw["net.ring.ll"])
    # the node's GPU links carry 2(g-1)/g of S, its NICs 2(n-1)/n of S; the slower sets the time
    bw = max(2 * 7 / 8 * 1024 / links.intra_Bps[0], 2 * 15 / 16 * 1024 / links.node_Bps[0])
    bw /= constants.nccl_protocol_bandwidth_factor["ring.ll"]
    assert float(t[0]) == pytest.approx(lat * 1e-6 + bw, rel=1e-9)


@pytest.mark.parametrize("fabric,nodes,algorithm", [
    ("ib-ndr-400", 1, "ring"), ("ib-ndr-400", 1, "nvls"), ("ib-ndr-400", 4, "ring"),
    ("ib-ndr-400", 4, "tree"), ("roce-400-lossless", 8, "auto"), ("eth-tcp-100", 4, "ring"),
    ("ib-ndr-400-sharp", 4, "collnet"),
])
def test_busbw_has_the_nccl_tests_shape(cluster_on, constants, fabric, nodes, algorithm):
    cluster = cluster_on(fabric, nodes)
    curve = busbw_curve(cluster, constants, algorithm)
    plateau = curve[-1]
    # latency-bound below 64 KB: busbw far below the plateau, and rising with size
    small = [b for s, b in zip(SIZES, curve) if s < 64 * 1024]
    assert max(small) < 0.1 * plateau
    assert np.all(np.diff(curve[:-3]) > 0)
    # the plateau is the bottleneck link at the protocol's share of it
    c = cluster.as_arrays()
    links = Links.of(c, constants)
    wire = links.intra_Bps[0] if nodes == 1 else min(links.intra_Bps[0], links.node_Bps[0])
    factor = busbw_factor("all_reduce", cluster.gpus)
    if algorithm == "nvls":
        expected = factor * wire * 5 / 6
    elif algorithm == "collnet":
        # NVLS inside the node, then S up to the switch and S back: algbw is the slower of the
        # two at CollNet's protocol share (tuning.cc: 0.85 on Hopper)
        expected = factor * min(links.intra_Bps[0] * 5 / 6, links.node_Bps[0]) * 0.85
    elif algorithm == "tree" and nodes > 2:
        # NCCL's per-channel ceiling (tuning.cc perChMaxTreeBws) binds before the wire: eight
        # channels, one per 400G NIC, of at most 36 GB/s each on an H100
        expected = min(wire, links.tree_cap_many_Bps[0])
        assert expected < 0.85 * wire
    else:
        expected = wire
    if nodes > links.nodes_per_leaf[0] and links.ecmp[0]:
        # the ring crosses the spine: it runs at its busiest ECMP uplink (one leaf's 8 NICs x
        # flows per NIC hashed onto the leaf's uplinks, once per leaf crossed)
        f = constants.ecmp_flows_per_nic
        k = links.nodes_per_leaf[0]
        expected /= float(hashed_busiest(8 * f, 8 * k, nodes / k)) / f
    if nodes > 1:  # the slowest of n ranks sets the time
        expected /= float(straggler_stretch(cluster.fabric.jitter_cv, cluster.gpus))
    assert plateau == pytest.approx(expected / 1e9, rel=0.15)


def test_nvls_beats_ring_on_one_h100_node_at_large_messages(cluster_on, constants):
    cluster = cluster_on("ib-ndr-400", 1)
    ring = busbw_curve(cluster, constants, "ring")
    nvls = busbw_curve(cluster, constants, "nvls")
    assert nvls[-1] > 1.3 * ring[-1]
    assert collective_time("all_reduce", 2**32, cluster, constants)[3] == "nvls"
    # ...and costs more at small ones: NCCL's 23 us NVLS latency against ring LL
    assert nvls[0] < ring[0]


@pytest.mark.parametrize("size,chunk", [(2**20, 16384), (2**24, 32768), (2**33, 131072)])
def test_nvls_pays_its_pipeline_fill_once_per_message(cluster_on, constants, size, chunk):
    # NCCL 2.20.3 on one 8-GPU node: 16 channels x 8 heads move one chunk each per loop (1 MiB:
    # 16 KiB, under one 2 MiB loop; 16 MiB: 32 KiB, four 4 MiB loops; 8 GiB: 128 KiB), and a
    # loop leaves the last of the three warp groups two loop-times after entering the first.
    cluster = cluster_on("ib-ndr-400", 1)
    links = Links.of(cluster.as_arrays(), constants)
    t, code = collective_cost("all_reduce", float(size), 8, 8, links, links.node_Bps,
                              constants, "nvls")
    loop = min(size, 16 * 8 * chunk)
    lat = constants.nccl_hw_latency_us["nvlink.nvls.simple"] * 1e-6
    assert CHOSEN[int(code[0])] == "nvls"
    assert float(t[0]) == pytest.approx(lat + (size + 2 * loop) / links.nvls_Bps[0], rel=1e-9)


def test_auto_chooses_as_nccls_tuning_model_does_and_pays_the_fill(cluster_on, constants):
    """NCCL's tuning model prices NVLS-Tree without its pipeline fill, so at a mid size on two
    nodes it picks NVLS-Tree where the fill makes a ring faster, and the collective costs what
    NVLS-Tree costs with the fill."""
    cluster = cluster_on("ib-ndr-400", 2)
    # 16 MiB: from 32 MiB the ring's LL128, held to NCCL's per-channel ceiling, is the slower
    size = 16.0 * 2**20
    auto = collective_time("all_reduce", size, cluster, constants)
    nvls_tree = collective_time("all_reduce", size, cluster, constants, "nvls_tree")
    ring = collective_time("all_reduce", size, cluster, constants, "ring")
    assert auto[3] == "nvls_tree"
    assert auto[0] == nvls_tree[0]
    assert ring[0] < auto[0]


def test_a_small_nvls_message_pays_two_hand_overs_between_warp_groups(cluster_on, constants):
    # 1 KiB fills far less than one loop: each of the two later warp groups waits one hand-over
    cluster = cluster_on("ib-ndr-400", 1)
    links = Links.of(cluster.as_arrays(), constants)
    t, _ = collective_cost("all_reduce", 1024.0, 8, 8, links, links.node_Bps, constants, "nvls")
    lat = constants.nccl_hw_latency_us["nvlink.nvls.simple"]
    step = constants.nccl_nvls_pipeline["step_us"]
    assert step > 1024 / links.nvls_Bps[0] * 1e6
    assert float(t[0]) == pytest.approx((lat + 2 * step) * 1e-6 + 1024 / links.nvls_Bps[0],
                                        rel=1e-9)


def test_nvls_reaches_its_plateau_only_past_the_mid_sizes(cluster_on, constants):
    cluster = cluster_on("ib-ndr-400", 1)
    at = {s: collective_time("all_reduce", s, cluster, constants, "nvls")[2]
          for s in (2**20, 2**24, 2**33)}
    assert at[2**20] < at[2**24] < at[2**33]
    # at 16 MiB the fill is two of six loop-times: a third of the bandwidth term
    assert at[2**24] < 0.75 * at[2**33]


def test_zero1_rings_cost_more_than_the_nvls_tree_all_reduce_only_at_its_plateau(cluster_on,
                                                                                  constants):
    """On two NVSwitch nodes NCCL's all-reduce runs NVLS-Tree, which sends half a ring's bytes
    across; reduce-scatter and all-gather have only rings, so ZeRO-1's two halves cost more than
    the all-reduce they replace once NVLS-Tree reaches its plateau. At a DDP bucket's size
    (25 MB) its pipeline fill of a few loops takes that lead away (awsome-distributed-training's
    2x p5.48xlarge NCCL 2.20.3 curve: 143 GB/s busbw at 32 MiB, 487 at 16 GiB)."""
    cluster = cluster_on("ib-ndr-400", 2)

    def halves_over_all_reduce(size):
        ar = collective_time("all_reduce", size, cluster, constants)
        assert ar[3] == "nvls_tree"
        rs, ag = (collective_time(op, size, cluster, constants) for op in
                  ("reduce_scatter", "all_gather"))
        assert rs[3] == ag[3] == "ring"
        return (rs[0] + ag[0]) / ar[0]

    assert halves_over_all_reduce(2**34) > 1.3
    assert 0.8 < halves_over_all_reduce(2**25) < 1.2


def test_nvls_needs_an_nvswitch_with_sharp_and_collnet_needs_sharp(cluster_on, fabrics,
                                                                   constants):
    a100 = replace(cluster_on("ib-ndr-400", 1).server.gpu, nvlink_sharp=False)
    server = replace(cluster_on("ib-ndr-400", 1).server, gpu=a100)
    assert math.isinf(collective_time("all_reduce", 2**20, Cluster(server, fabrics["ib-ndr-400"],
                                                                   1, True), constants,
                                      "nvls")[0])
    assert math.isinf(collective_time("all_reduce", 2**20, cluster_on("ib-ndr-400", 4),
                                      constants, "collnet")[0])
    sharp = replace(cluster_on("ib-ndr-400", 4), fabric=replace(fabrics["ib-ndr-400"],
                                                                 sharp=True))
    collnet = collective_time("all_reduce", 2**32, sharp, constants, "collnet")[2]
    ring = collective_time("all_reduce", 2**32, sharp, constants, "ring")[2]
    # in-network reduction halves the bytes each node sends: well above the NIC-bound ring
    assert collnet > 1.15 * ring


def test_auto_chooses_by_message_size(cluster_on, constants):
    cluster = cluster_on("ib-ndr-400", 16)
    small = collective_time("all_reduce", 4096, cluster, constants)
    large = collective_time("all_reduce", 2**32, cluster, constants)
    assert small[3] == "tree"  # log-depth latency wins at 128 ranks
    assert large[3] in ("ring", "tree")
    for size in (4096, 2**20, 2**32):
        auto = collective_time("all_reduce", size, cluster, constants)[0]
        each = [collective_time("all_reduce", size, cluster, constants, a)[0]
                for a in ("ring", "tree")]
        assert auto == pytest.approx(min(each))


@pytest.mark.parametrize("op,factor", [
    ("all_reduce", lambda n: 2 * (n - 1) / n), ("reduce_scatter", lambda n: (n - 1) / n),
    ("all_gather", lambda n: (n - 1) / n), ("all_to_all", lambda n: (n - 1) / n),
    ("broadcast", lambda n: 1.0),
])
def test_busbw_follows_nccl_tests_definitions(op, factor, cluster_on, constants):
    cluster = cluster_on("ib-ndr-400", 4)
    t, algbw, busbw, _ = collective_time(op, 2**30, cluster, constants)
    n = cluster.gpus
    assert algbw == pytest.approx(2**30 / t / 1e9)
    assert busbw == pytest.approx(algbw * factor(n))
    assert float(busbw_factor(op, n)) == pytest.approx(factor(n))


def test_p2p_busbw_equals_algbw(cluster_on, constants):
    _, algbw, busbw, chosen = collective_time("p2p", 2**28, cluster_on("ib-ndr-400", 2),
                                              constants)
    assert busbw == algbw and chosen == "p2p"


def _ratio(cluster_on, constants, op, nodes, size=2**30):
    lossy = collective_time(op, size, cluster_on("roce-400-lossy", nodes), constants)[2]
    lossless = collective_time(op, size, cluster_on("roce-400-lossless", nodes), constants)[2]
    return lossy / lossless


def test_lossy_roce_falls_behind_lossless_as_nodes_grow_most_for_all_to_all(cluster_on,
                                                                           constants):
    for op in ("all_reduce", "all_to_all"):
        ratios = [_ratio(cluster_on, constants, op, n) for n in (2, 8, 32)]
        assert ratios[0] > ratios[1] > ratios[2]
        assert ratios[-1] < 0.9
    assert (_ratio(cluster_on, constants, "all_to_all", 32)
            < 0.7 * _ratio(cluster_on, constants, "all_reduce", 32))


def test_lossless_roce_degrades_less_than_lossy_and_infiniband_least(cluster_on, constants):
    nodes = 32
    bw = {f: collective_time("all_to_all", 2**28, cluster_on(f, nodes), constants)[2]
          for f in ("ib-ndr-400", "roce-400-lossless", "roce-400-lossy")}
    assert bw["ib-ndr-400"] > bw["roce-400-lossless"] > bw["roce-400-lossy"]


def test_lossy_rdma_collapses_above_one_percent_loss_and_selective_repeat_does_not(cluster_on,
                                                                                  constants):
    base = cluster_on("roce-400-lossy", 4)
    clean = replace(base, fabric=replace(base.fabric, loss_rate=0.0))
    one_pct = replace(base, fabric=replace(base.fabric, loss_rate=0.01))
    selective = replace(one_pct, fabric=replace(one_pct.fabric, selective_repeat=True))

    def bw(c):
        # a tree node receives from two children: one sender beyond the first, 1% loss
        return collective_time("all_reduce", 2**30, c, constants, "tree")[2]

    assert bw(one_pct) / bw(clean) < 0.15  # Wang et al.: go-back-N near zero above 1%
    assert bw(selective) / bw(clean) > 0.9  # IRN / RoSR: resend only what was lost


def test_a_lossy_port_resends_its_own_rate_s_window_and_a_packet_is_lost_at_most_once(
        cluster_on, constants):
    """Go-back-N's window is the bandwidth-delay product of the port's own rate; a packet's
    drop over many chances (fan-in, uplink load, tiers) is a probability, never above 1, so
    even at thousands of nodes each delivered packet costs at most one window more."""
    def window(fabric):
        return Links.of(cluster_on(fabric, 4).as_arrays(), constants).resend_packets[0]

    assert window("roce-100-lossy") == pytest.approx(window("roce-400-lossy") / 4)
    def share(cluster):
        links = Links.of(cluster.as_arrays(), constants)
        return network_shares("all_to_all", ("p2p",), cluster.nodes, links, constants)["p2p"][0]

    for fabric in ("roce-100-lossy", "roce-400-lossy"):
        lossy = cluster_on(fabric, 4096)
        kept = share(lossy) / share(replace(lossy, fabric=replace(lossy.fabric, loss_rate=0.0)))
        assert 1 / (1 + window(fabric)) <= kept < 0.1, fabric


def test_oversubscription_hurts_all_to_all_far_more_than_a_ring(leaf_spine_on, constants):
    base = leaf_spine_on("roce-400-lossless", 16)  # 4 nodes per leaf
    over = replace(base, fabric=replace(base.fabric, oversubscription=2.0))

    def slowdown(op):
        return (collective_time(op, 2**30, base, constants, "ring" if op != "all_to_all"
                                else "auto")[0]
                / collective_time(op, 2**30, over, constants, "ring" if op != "all_to_all"
                                  else "auto")[0])

    # ECMP: a ring's few large flows collide more often on half the uplinks, all-to-all's many
    # small flows average out but load the uplinks 2 x 12/16 = 1.5x their rate
    assert slowdown("all_to_all") <= 1 / 1.5 * 1.01
    assert slowdown("all_reduce") > slowdown("all_to_all") + 0.15
    # with adaptive routing only the mean load counts: 2:1 under a 4-node leaf is absorbed
    spread = replace(base, fabric=replace(base.fabric, adaptive_routing=True))
    spread_over = replace(spread, fabric=replace(spread.fabric, oversubscription=2.0))
    assert (collective_time("all_reduce", 2**30, spread, constants, "ring")[0]
            == pytest.approx(collective_time("all_reduce", 2**30, spread_over, constants,
                                             "ring")[0]))
    # a job inside one leaf never sees the spine
    leaf = base.fabric.nodes_per_leaf
    within = replace(over, nodes=leaf)
    assert collective_time("all_to_all", 2**30, within, constants)[0] == pytest.approx(
        collective_time("all_to_all", 2**30, replace(base, nodes=leaf), constants)[0])


def test_chosen_names_are_known():
    assert set(CHOSEN) >= {"ring", "tree", "nvls", "collnet"}


def test_a_rail_optimised_unit_keeps_its_nodes_below_the_spine(cluster_on, leaf_spine_on,
                                                                constants):
    base = cluster_on("ib-ndr-400", 32)
    assert base.fabric.topology == "rail-optimised" and base.fabric.nodes_per_unit == 32
    over = replace(base, fabric=replace(base.fabric, oversubscription=2.0))

    def a2a(c, nodes):
        return collective_time("all_to_all", 2**34, replace(c, nodes=nodes), constants)[0]

    # a whole unit (placement fills units first): no spine, no oversubscription to pay
    assert a2a(over, 32) == pytest.approx(a2a(base, 32))
    # four units: 96/128 of all-to-all's bytes go up through the 2:1 spine, 1.5x its capacity
    assert a2a(over, 128) == pytest.approx(a2a(base, 128) * 2 * 96 / 128, rel=0.05)
    # beyond the spine's reach the core is one more tier: a lossy fabric whose ring crosses
    # ECMP-congested uplinks drops more there
    lossy = leaf_spine_on("roce-400-lossy", 8)
    core = replace(lossy, fabric=replace(lossy.fabric, nodes_below_core=8))
    assert (collective_time("all_reduce", 2**30, replace(core, nodes=16), constants)[2]
            < collective_time("all_reduce", 2**30, replace(lossy, nodes=16), constants)[2])


def test_nvls_needs_two_of_the_groups_gpus_in_a_node(cluster_on, constants):
    """A data-parallel group under tp 8 has one GPU in each node: NCCL leaves NVLS (and so
    NVLS-Tree) off there, and the all-reduce runs as a ring or tree."""
    cluster = cluster_on("ib-ndr-400", 32)
    links = Links.of(cluster.as_arrays(), constants)
    size = np.array([64.0 * 2**20])
    _, spread = collective_cost("all_reduce", size, 32, 1, links, links.node_Bps / 8, constants)
    two = Links.of(cluster_on("ib-ndr-400", 2).as_arrays(), constants)
    _, packed = collective_cost("all_reduce", size, 16, 8, two, two.node_Bps, constants)
    assert CHOSEN[int(spread[0])] in ("ring", "tree")
    assert CHOSEN[int(packed[0])] == "nvls_tree"


def test_lossy_roce_drops_only_where_queues_build(cluster_on, leaf_spine_on, constants):
    """A ring inside one unit is one sender per receiving port at line rate: no queue fills,
    so the loss figure (catalog: a drop rate under incast) costs nothing there; all-to-all's
    fan-in and a ring's ECMP-congested uplinks do pay it."""
    def without_loss(c):
        return replace(c, fabric=replace(c.fabric, loss_rate=0.0))

    def ratio(c, op, algorithm="ring"):
        return (collective_time(op, 2**32, c, constants, algorithm)[2]
                / collective_time(op, 2**32, without_loss(c), constants, algorithm)[2])

    inside = cluster_on("roce-400-lossy", 2)
    assert inside.nodes <= inside.fabric.nodes_below_spine
    assert ratio(inside, "reduce_scatter") == pytest.approx(1.0)
    assert ratio(inside, "all_reduce") == pytest.approx(1.0)
    assert ratio(cluster_on("roce-400-lossy", 8), "all_to_all", "auto") < 0.8  # fan-in 7
    assert ratio(leaf_spine_on("roce-400-lossy", 8), "reduce_scatter") < 0.99  # hashed uplinks


def test_a_lone_tcp_pair_has_the_host_s_socket_ceiling(cluster_on, constants):
    # Without RDMA the ceiling is the host's CPUs' (tcp_host_ceiling_gbs), whatever the NICs:
    # one pair alone on the network has it whole, not one NIC's eighth of it.
    _, algbw, _, _ = collective_time("p2p", 2**30, cluster_on("eth-tcp-100", 2), constants)
    assert 0.8 * constants.tcp_host_ceiling_gbs < algbw <= constants.tcp_host_ceiling_gbs
    # With RDMA a pair has one NIC of its node's eight.
    rdma = cluster_on("ib-ndr-400", 2)
    _, pair, _, _ = collective_time("p2p", 2**30, rdma, constants)
    one_nic = inter_node_bandwidth_gbs(rdma, constants) / rdma.server.nics_per_node
    assert 0.8 * one_nic < pair <= one_nic
