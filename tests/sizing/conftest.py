"""Shared fixtures: the shipped catalog data (constants, fabrics) and a reference H100 cluster."""
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
