"""Shared fixtures: the shipped catalog data (constants, fabrics) and a reference H100 cluster."""
from dataclasses import replace

import pytest

from catalog.shipped import shipped
from sizing.hardware import Cluster, Server


@pytest.fixture(scope="session")
def constants():
    return shipped().constants


@pytest.fixture(scope="session")
def fabrics():
    return shipped().fabrics


@pytest.fixture(scope="session")
def hgx_h100():
    """8x H100 SXM, 8x 400G NICs, GPUDirect RDMA."""
    return Server("hgx-h100", "HGX H100 8-GPU", shipped().gpus["h100-sxm"], 8, 8, 400.0, 5, True)


@pytest.fixture
def cluster_on(hgx_h100, fabrics):
    def make(fabric_id, nodes, gpudirect=True):
        return Cluster(hgx_h100, fabrics[fabric_id], nodes, gpudirect)
    return make


@pytest.fixture
def leaf_spine_on(cluster_on):
    """A catalog fabric cabled leaf-spine instead (every NIC of a node on one leaf of
    `per_leaf` nodes): the spine and its ECMP hashing are crossed from per_leaf + 1 nodes."""
    def make(fabric_id, nodes, per_leaf=4, gpudirect=True):
        cluster = cluster_on(fabric_id, nodes, gpudirect)
        return replace(cluster, fabric=replace(cluster.fabric, topology="leaf-spine",
                                               nodes_per_unit=0, nodes_per_leaf=per_leaf))
    return make
