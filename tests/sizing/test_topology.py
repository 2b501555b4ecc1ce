"""The network below the collectives: host and PCIe limits per node, the slowest-rank stretch."""
import math
from dataclasses import replace

import numpy as np
import pytest

from catalog.shipped import shipped
from sizing.collectives import collective_time
from sizing.hardware import Cluster, Server
from sizing.topology import (
    KERNEL_FIGURES,
    Links,
    hashed_busiest,
    inter_node_bandwidth_gbs,
    nccl_channels,
    network_shares,
    node_bandwidth_gbs,
    offered_share,
    straggler_stretch,
)


def test_tcp_per_host_does_not_grow_with_nics(cluster_on, constants):
    tcp = cluster_on("eth-tcp-100", 2).as_arrays()
    per_host = []
    for nics in (1, 2, 4, 8):
        tcp["nics_per_node"] = np.array([nics])
        per_host.append(float(node_bandwidth_gbs(tcp, constants)[0]))
    assert per_host[0] < 0.5 * 100 / 8
    assert max(per_host) == pytest.approx(constants.tcp_host_ceiling_gbs)
    assert per_host[-1] == per_host[1]


def test_a_socket_bound_host_offers_its_ceiling_not_its_wire(cluster_on, constants):
    tcp10 = cluster_on("eth-tcp-10", 64).as_arrays()
    tcp100 = cluster_on("eth-tcp-100", 64).as_arrays()
    rdma = cluster_on("roce-100-lossless", 64).as_arrays()
    ceiling = constants.tcp_host_ceiling_gbs
    assert float(offered_share(tcp10, constants)[0]) == pytest.approx(ceiling / (8 * 10 / 8 * 0.9))
    assert float(offered_share(tcp100, constants)[0]) == pytest.approx(ceiling / (8 * 100 / 8 * 0.9))
    assert float(offered_share(rdma, constants)[0]) == 1.0
    # at 64 nodes both cross the spine; the 100 GbE hosts load their uplinks less
    shares = {name: float(network_shares("all_gather", ["ring"], np.array([64.0]),
                                         Links.of(c, constants), constants)["ring"][0])
              for name, c in (("10", tcp10), ("100", tcp100))}
    assert shares["100"] >= shares["10"]


def test_a_staging_host_loads_the_spine_no_more_than_a_socket_bound_one_as_fast(leaf_spine_on,
                                                                                constants):
    """RDMA without GPUDirect stages through host memory, below its wire: its flows carry
    what the host moves, so at 64 nodes on a 3:1 spine it loads the uplinks as a TCP host of
    the same node bandwidth does, not as a host at its full wire rate."""
    staged = leaf_spine_on("roce-400-lossless", 64, gpudirect=False)
    staged = replace(staged, fabric=replace(staged.fabric, oversubscription=3.0)).as_arrays()
    staged_gbs = float(node_bandwidth_gbs(staged, constants)[0])
    # The same host and wire over sockets, its ceiling where staging holds the RDMA host.
    as_fast = replace(constants, tcp_host_ceiling_gbs=staged_gbs)
    tcp = {**staged, "fabric_rdma": np.array([False])}
    assert float(node_bandwidth_gbs(tcp, as_fast)[0]) == pytest.approx(staged_gbs)
    assert float(offered_share(staged, constants)[0]) < 0.6  # staging at about half the wire
    nodes = np.array([64.0])
    staged_share = network_shares("all_gather", ["ring"], nodes, Links.of(staged, constants),
                                  constants)["ring"][0]
    tcp_share = network_shares("all_gather", ["ring"], nodes, Links.of(tcp, as_fast),
                               as_fast)["ring"][0]
    assert tcp_share < 1.0  # the spine slows the socket-bound host: the check has teeth
    assert staged_share >= tcp_share


def test_rdma_without_gpudirect_is_slower_but_never_slower_than_tcp(cluster_on, fabrics,
                                                                     constants):
    gdr = cluster_on("roce-100-lossless", 4, gpudirect=True)
    staged = cluster_on("roce-100-lossless", 4, gpudirect=False)
    tcp = cluster_on("eth-tcp-100", 4)
    assert (inter_node_bandwidth_gbs(tcp, constants) <= inter_node_bandwidth_gbs(staged, constants)
            < inter_node_bandwidth_gbs(gdr, constants))
    one_nic = replace(staged, server=replace(staged.server, nics_per_node=1))
    tcp_one = replace(tcp, server=replace(tcp.server, nics_per_node=1))
    assert inter_node_bandwidth_gbs(one_nic, constants) >= inter_node_bandwidth_gbs(tcp_one,
                                                                                     constants)


def test_pcie_generation_bounds_each_nic(hgx_h100, fabrics, constants):
    gen5 = Cluster(hgx_h100, fabrics["ib-ndr-400"], 2, True)
    gen4 = Cluster(replace(hgx_h100, pcie_gen=4), fabrics["ib-ndr-400"], 2, True)
    per_nic_gen4 = inter_node_bandwidth_gbs(gen4, constants) / 8
    assert per_nic_gen4 == pytest.approx(constants.host_link_gbs["4"])
    assert inter_node_bandwidth_gbs(gen5, constants) > 1.5 * inter_node_bandwidth_gbs(gen4,
                                                                                       constants)
    # a 200G NIC fits in a PCIe 4 x16 link: no change
    hdr4 = Cluster(replace(hgx_h100, pcie_gen=4), fabrics["ib-hdr-200"], 2, True)
    hdr5 = Cluster(hgx_h100, fabrics["ib-hdr-200"], 2, True)
    assert inter_node_bandwidth_gbs(hdr4, constants) == inter_node_bandwidth_gbs(hdr5, constants)


def test_straggler_stretch_is_expected_max_of_normals():
    assert float(straggler_stretch(0.05, 1)) == 1.0
    assert float(straggler_stretch(0.05, 1024)) == pytest.approx(
        1 + 0.05 * math.sqrt(2 * math.log(1024)))


def test_server_fixture_is_pcie5(hgx_h100):
    assert isinstance(hgx_h100, Server) and hgx_h100.pcie_gen == 5


@pytest.mark.parametrize("flows,links,sets", [(16, 16, 2), (16, 32, 3), (2, 16, 8), (8, 16, 3),
                                               (100, 16, 2), (300, 8, 4)])
def test_hashed_busiest_is_the_expected_busiest_link_of_random_hashing(flows, links, sets):
    rng = np.random.default_rng(7)
    draws = [max(np.bincount(rng.integers(0, links, flows), minlength=links).max()
                 for _ in range(sets)) for _ in range(3000)]
    assert float(hashed_busiest(flows, links, sets)) == pytest.approx(np.mean(draws), rel=0.05)


def test_one_uplink_carries_every_flow():
    assert float(hashed_busiest(16, 1, 2)) == 16.0


def test_ecmp_ring_bandwidth_falls_as_the_job_crosses_more_leaves_adaptive_routing_does_not(
        leaf_spine_on, constants):
    size = 2**34  # large enough that NCCL's per-step latency does not matter

    def on_leaves(n, adaptive_routing=False):
        cluster = leaf_spine_on("roce-400-lossless", n)  # 4 nodes per leaf
        return replace(cluster, fabric=replace(cluster.fabric, adaptive_routing=adaptive_routing))

    roce = [collective_time("all_reduce", size, on_leaves(n), constants, "ring")[2]
            for n in (4, 8, 16, 32)]
    assert roce[1] < 0.85 * roce[0]  # the first spine crossing: flows collide on uplinks
    assert np.all(np.diff(roce) < 0)  # more leaves crossed, a busier busiest uplink
    adaptive = [collective_time("all_reduce", size, on_leaves(n, adaptive_routing=True),
                                constants, "ring")[2] for n in (4, 8, 16, 32)]
    # only the slowest-rank stretch remains, a few percent
    assert min(adaptive) > 0.9 * adaptive[0]
    assert all(a > r for a, r in zip(adaptive[1:], roce[1:]))


def test_roce_400_is_rail_optimised_and_runs_near_ndr_inside_a_unit(cluster_on, constants):
    """400G RoCE AI fabrics are cabled rail-optimised like NDR's SuperPOD (a leaf per rail), on
    51.2 Tb/s leaves: up to a unit the same 8x 400G wire gives near NDR's bandwidth, only the
    latency and jitter of Ethernet apart (not ECMP collisions at the fifth node)."""
    for fabric in ("roce-400-lossless", "roce-400-lossy"):
        f = cluster_on(fabric, 1).fabric
        assert f.topology == "rail-optimised" and f.nodes_below_spine == 64
    for nodes in (8, 32):
        ndr, roce = (collective_time("reduce_scatter", 2**32, cluster_on(f, nodes), constants,
                                     "ring")[2] for f in ("ib-ndr-400", "roce-400-lossless"))
        assert 0.95 * ndr < roce < ndr


def test_plain_ethernet_is_one_port_per_node_so_its_wire_rates_differ(snap, constants):
    """The plain-TCP offer is the node's one front-end port, not eight compute NICs held to the
    socket ceiling together: 10 and 25 GbE run at their wire, 100 GbE at the ceiling."""
    busbw, wire = {}, {}
    for fabric in ("eth-tcp-10", "eth-tcp-25", "eth-tcp-100"):
        assert snap.pairings[("hgx-h100-8", fabric)].nics_used == 1
        cluster = snap.cluster("hgx-h100-8", fabric, 8)
        busbw[fabric] = collective_time("reduce_scatter", 2**32, cluster, constants, "ring")[2]
        f = cluster.fabric
        wire[fabric] = f.line_rate_gbps / 8 * f.achievable_fraction  # one port, GB/s
    del wire["eth-tcp-100"]  # above the socket ceiling
    assert busbw["eth-tcp-10"] < busbw["eth-tcp-25"] < busbw["eth-tcp-100"]
    for f, gbs in wire.items():
        assert 0.7 * gbs < busbw[f] <= gbs  # the wire, less the slowest rank's stretch
    assert busbw["eth-tcp-100"] <= constants.tcp_host_ceiling_gbs


def test_simple_pays_a_second_latency_only_where_a_net_plugin_reports_one(cluster_on, fabrics,
                                                                          hgx_h100, constants):
    """tuning.cc adds the net's reported latency again for Simple's flush; NCCL's own IB verbs
    and socket transports report none, a plugin (EFA's aws-ofi-nccl) declares one, and NCCL
    flushes only on Ampere and older GPUs."""
    for fabric_id in ("roce-100-lossless", "eth-tcp-100"):
        links = Links.of(cluster_on(fabric_id, 4).as_arrays(), constants)
        assert links.net_extra_us[0] > 0 and links.flush_extra_us[0] == 0, fabric_id
        assert links.ring_extra_us[0] == links.net_extra_us[0] and not links.net_plugin[0]
    efa_like = replace(fabrics["roce-400-lossless"], kind="ethernet", latency_us=81.37)
    a100 = replace(hgx_h100, gpu=shipped().all_gpus["a100-80gb-sxm"])
    links = Links.of(Cluster(a100, efa_like, 4, True).as_arrays(), constants)
    assert links.flush_extra_us[0] == links.net_extra_us[0] > 0 and links.net_plugin[0]
    links = Links.of(Cluster(hgx_h100, efa_like, 4, True).as_arrays(), constants)
    assert links.flush_extra_us[0] == 0 < links.net_extra_us[0]


def test_a_ring_step_waits_the_fabrics_ring_latency_where_it_states_one(fabrics, hgx_h100,
                                                                          constants):
    """A fabric stating ring_latency_us (EFA on p5) prices a ring step at it beyond NCCL's
    net figure and a tree hop at latency_us; one stating none prices both at latency_us."""
    efa_like = replace(fabrics["roce-400-lossless"], kind="ethernet", latency_us=81.37)
    reference = constants.nccl_net_reference_latency_us
    links = Links.of(Cluster(hgx_h100, efa_like, 4, True).as_arrays(), constants)
    assert links.ring_extra_us[0] == links.net_extra_us[0] == pytest.approx(81.37 - reference)
    links = Links.of(Cluster(hgx_h100, replace(efa_like, ring_latency_us=27.0), 4,
                             True).as_arrays(), constants)
    assert links.ring_extra_us[0] == pytest.approx(27.0 - reference)
    assert links.net_extra_us[0] == pytest.approx(81.37 - reference)


@pytest.mark.parametrize("fabric_id,cc,channels", [
    ("ib-ndr-400", 90, 8),   # Hopper past sm80, 8 channels of 48 GB/s: not doubled
    ("ib-ndr-400", 80, 16),  # Ampere is not past sm80: doubled
    ("ib-hdr-200", 90, 16),  # under 25 GB/s a NIC carries two channels
    ("ib-hdr-200", 80, 16),
])
def test_nccl_channels_follow_the_search_s_doubling_rule(cluster_on, fabric_id, cc, channels):
    c = cluster_on(fabric_id, 4).as_arrays()
    assert nccl_channels(c, np.array([cc])).tolist() == [channels]


def test_a_p5_s_grouped_rails_are_one_nic_per_gpu_eight_channels(cluster_on):
    c = cluster_on("ib-ndr-400", 4).as_arrays()
    c["nics_per_node"], c["nic_rate_gbps"] = np.array([32]), np.array([100.0])
    assert nccl_channels(c, np.array([90])).tolist() == [8]


def test_kernel_columns_are_the_links_figures_kept_per_value_or_spread(cluster_on, constants):
    columns = {k: np.repeat(v, 3) for k, v in cluster_on("ib-ndr-400", 4).as_arrays().items()}
    links = Links.of(columns, constants)
    kept = links.kernel_columns(3)
    assert links.kernel_columns(3) is kept  # built once for the value
    for (name, dtype), col in zip(KERNEL_FIGURES, kept):
        assert col.dtype == np.dtype(dtype) and col.flags.c_contiguous and col.flags.writeable
        np.testing.assert_array_equal(col, getattr(links, name), err_msg=name)
    # The links of some rows are a value of their own, with their own columns.
    picked = links.rows(np.array([2]))
    assert [c.tolist() for c in picked.kernel_columns(1)] == [c[2:].tolist() for c in kept]
    # Links of one row priced for more rows: spread to them, the kept ones left as they are.
    spread = picked.kernel_columns(3)
    assert [c.tolist() for c in spread] == [c.tolist() for c in kept]
    assert all(c.shape == (1,) for c in picked.kernel_columns(1))
