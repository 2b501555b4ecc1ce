import math
from dataclasses import replace

import numpy as np
import pytest

from sizing.collectives import (
    busbw_factor,
    collective_cost,
    collective_time,
    inter_node_bandwidth_gbs,
    node_bandwidth_gbs,
    straggler_stretch,
)


def test_ring_all_reduce_matches_hand_worked_alpha_beta():
    # 4 ranks, one per node: 2(n-1)/n * S/B + 2(n-1) * alpha
    t = collective_cost("all_reduce", 1e9, 4, 1, 100e9, 10e9, 1e-6, 5e-6, "ring")
    assert float(t) == pytest.approx(2 * 3 / 4 * 1e9 / 10e9 + 2 * 3 * 5e-6, rel=1e-12)


def test_ring_all_reduce_inside_one_node_uses_the_intra_link():
    t = collective_cost("all_reduce", 8e8, 8, 8, 200e9, 1.0, 1e-6, 5e-6, "ring")
    assert float(t) == pytest.approx(2 * 7 / 8 * 8e8 / 200e9 + 14 * 1e-6, rel=1e-12)


def test_tree_has_logarithmic_latency_and_auto_takes_the_cheaper():
    args = (1e3, 64, 8, 200e9, 50e9, 1e-6, 5e-6)
    ring = float(collective_cost("all_reduce", *args, algorithm="ring"))
    tree = float(collective_cost("all_reduce", *args, algorithm="tree"))
    auto = float(collective_cost("all_reduce", *args, algorithm="auto"))
    assert tree < ring
    assert auto == pytest.approx(min(ring, tree))
    assert ring - tree == pytest.approx(2 * 63 * 5e-6 - 2 * (3 * 1e-6 + 3 * 5e-6), rel=1e-3)


def test_reduce_scatter_and_all_gather_are_half_an_all_reduce_in_bandwidth():
    ar = float(collective_cost("all_reduce", 1e10, 16, 8, 1e12, 50e9, 0, 0))
    rs = float(collective_cost("reduce_scatter", 1e10, 16, 8, 1e12, 50e9, 0, 0))
    ag = float(collective_cost("all_gather", 1e10, 16, 8, 1e12, 50e9, 0, 0))
    assert rs == pytest.approx(ar / 2) and ag == pytest.approx(ar / 2)


@pytest.mark.parametrize("op,factor", [
    ("all_reduce", lambda n: 2 * (n - 1) / n), ("reduce_scatter", lambda n: (n - 1) / n),
    ("all_gather", lambda n: (n - 1) / n), ("all_to_all", lambda n: (n - 1) / n),
    ("broadcast", lambda n: 1.0),
])
def test_busbw_follows_nccl_tests_definitions(op, factor, cluster_on, constants):
    cluster = cluster_on("ib-ndr-400", 4)
    t, algbw, busbw = collective_time(op, 2**30, cluster, constants)
    n = cluster.gpus
    assert algbw == pytest.approx(2**30 / t / 1e9)
    assert busbw == pytest.approx(algbw * factor(n))
    assert float(busbw_factor(op, n)) == pytest.approx(factor(n))


def test_p2p_busbw_equals_algbw(cluster_on, constants):
    _, algbw, busbw = collective_time("p2p", 2**28, cluster_on("ib-ndr-400", 2), constants)
    assert busbw == algbw


def test_small_messages_are_latency_bound(cluster_on, constants):
    cluster = cluster_on("ib-ndr-400", 8)
    _, _, small = collective_time("all_reduce", 1024, cluster, constants)
    _, _, large = collective_time("all_reduce", 4 * 2**30, cluster, constants)
    assert small < 0.01 * large
    # large messages approach the node's NIC bandwidth (8 x 400G x achievable fraction)
    assert large == pytest.approx(inter_node_bandwidth_gbs(cluster, constants), rel=0.1)


def test_tcp_sockets_are_capped_far_below_line_rate(cluster_on, constants):
    tcp = cluster_on("eth-tcp-100", 2).as_arrays()
    tcp["nics_per_node"] = np.array([1])
    bw = float(node_bandwidth_gbs(tcp, constants)[0])
    assert bw == pytest.approx(constants.tcp_socket_ceiling_gbs)
    assert bw < 0.5 * 100 / 8


def test_missing_gpudirect_stages_through_host_memory(cluster_on, constants):
    gdr = cluster_on("ib-ndr-400", 4, gpudirect=True)
    staged = cluster_on("ib-ndr-400", 4, gpudirect=False)
    assert inter_node_bandwidth_gbs(staged, constants) == pytest.approx(
        inter_node_bandwidth_gbs(gdr, constants) * constants.host_staging_bandwidth_factor)
    t_gdr = collective_time("all_reduce", 1024, gdr, constants)[0]
    t_staged = collective_time("all_reduce", 1024, staged, constants)[0]
    assert t_staged > t_gdr


def test_lossy_rdma_collapses_above_one_percent_loss(cluster_on, fabrics, constants):
    base = cluster_on("roce-400-lossy", 4)
    clean = replace(base, fabric=replace(base.fabric, loss_rate=0.0))
    one_pct = replace(base, fabric=replace(base.fabric, loss_rate=0.01))
    ratio = inter_node_bandwidth_gbs(one_pct, constants) / inter_node_bandwidth_gbs(clean, constants)
    assert ratio < 0.15  # Wang et al.: go-back-N relative throughput near zero above 1%
    lossless = cluster_on("roce-400-lossless", 4)
    assert inter_node_bandwidth_gbs(base, constants) < inter_node_bandwidth_gbs(lossless, constants)


def test_oversubscription_divides_bandwidth_beyond_a_leaf(cluster_on, constants):
    small = cluster_on("roce-400-lossless", 4)
    leaf = small.fabric.nodes_per_leaf
    within = replace(small, fabric=replace(small.fabric, oversubscription=2.0), nodes=leaf)
    beyond = replace(within, nodes=leaf + 1)
    assert inter_node_bandwidth_gbs(beyond, constants) == pytest.approx(
        inter_node_bandwidth_gbs(within, constants) / 2)


def test_straggler_stretch_is_expected_max_of_normals():
    assert float(straggler_stretch(0.05, 1)) == 1.0
    assert float(straggler_stretch(0.05, 1024)) == pytest.approx(
        1 + 0.05 * math.sqrt(2 * math.log(1024)))
