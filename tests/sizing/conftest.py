"""Shared fixtures: calibration data from catalog/data and a reference H100 cluster."""
import pytest

from catalog.validation import H100_SXM, load_constants, load_fabrics
from sizing.hardware import Cluster, Server


@pytest.fixture(scope="session")
def constants():
    return load_constants()


@pytest.fixture(scope="session")
def fabrics():
    return load_fabrics()


@pytest.fixture(scope="session")
def hgx_h100():
    """8x H100 SXM, 8x 400G NICs, GPUDirect RDMA."""
    return Server("hgx-h100", "HGX H100 8-GPU", H100_SXM, 8, 8, 400.0, 5, True)


@pytest.fixture
def cluster_on(hgx_h100, fabrics):
    def make(fabric_id, nodes, gpudirect=True):
        return Cluster(hgx_h100, fabrics[fabric_id], nodes, gpudirect)
    return make
