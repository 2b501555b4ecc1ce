"""Goodput of a long run: interruptions by component, the Young/Daly interval, the wall clock."""

from __future__ import annotations

import math

import numpy as np
import pytest

from catalog.shipped import shipped
from sizing.goodput import (
    Reliability,
    checkpoint_bytes,
    goodput,
    of_candidates,
    required_storage_Bps,
    wall_clock_s,
    young_daly_interval_s,
)
from sizing.hardware import FABRIC_KINDS


@pytest.fixture(scope="module")
def rel() -> Reliability:
    return Reliability.from_mapping(shipped().document["reliability"])


def run(rel, gpus, nodes, nics=8, stability=1.0, size=14 * 70e9, hours=24.0 * 7, spare=False):
    return goodput(rel, gpus=np.array([gpus], float), nodes=np.array([nodes], float),
                   links=np.array([nodes * nics], float), stability=np.array([stability]),
                   checkpoint_bytes_=size, ideal_hours=np.array([hours]), hot_spare=spare)


def test_llama_3s_cluster_is_interrupted_as_often_as_it_reported(rel):
    # The rates were derived from these counts: the components must add back up to them.
    g = run(rel, 16384, 2048, hours=54 * 24)
    assert g.interruptions_per_day[0] * 54 == pytest.approx(419, rel=0.01)


def test_a_small_week_long_job_keeps_nearly_all_its_time(rel):
    g = run(rel, 32, 4)
    assert g.goodput[0] > 0.99
    assert g.expected_interruptions[0] < 0.5


def test_goodput_falls_as_the_job_grows(rel):
    small, large = run(rel, 512, 64, size=14 * 405e9), run(rel, 4096, 512, size=14 * 405e9)
    assert large.goodput[0] < small.goodput[0] < 1.0
    assert large.mtbf_s[0] < small.mtbf_s[0] / 7  # 8x the hardware, a bit of it shared storage


def test_a_lossy_fabric_is_interrupted_more(rel):
    kinds = np.array([FABRIC_KINDS.index("roce"), FABRIC_KINDS.index("roce"),
                      FABRIC_KINDS.index("infiniband")])
    factor = rel.stability(kinds, np.array([True, False, True]))
    assert factor[1] > factor[0] and factor[2] == factor[0]
    assert run(rel, 512, 64, stability=factor[1]).goodput[0] < run(rel, 512, 64).goodput[0]


def test_hot_spares_cut_the_restart_and_raise_goodput(rel):
    without, spared = run(rel, 4096, 512), run(rel, 4096, 512, spare=True)
    assert spared.restart_s[0] < without.restart_s[0]
    assert spared.goodput[0] > without.goodput[0]


def test_the_interval_is_young_s_sqrt_2cm():
    assert young_daly_interval_s(np.array([60.0]), np.array([3600.0 * 10]))[0] == \
        pytest.approx(math.sqrt(2 * 60 * 36000))
    # A checkpoint dearer than twice the MTBF: checkpoint once per MTBF (Daly).
    assert young_daly_interval_s(np.array([1e5]), np.array([1e4]))[0] == 1e4


def test_the_wall_clock_is_daly_s_first_order_when_failures_are_rare():
    solve, tau, c, r, m = 1e6, 3600.0, 30.0, 600.0, 1e8
    first_order = solve * (1 + c / tau + (tau + c) / (2 * m) + r / m)
    assert wall_clock_s(*map(np.array, ([solve], [tau], [c], [r], [m])))[0] == \
        pytest.approx(first_order, rel=1e-4)


def test_a_checkpoint_holds_weights_and_optimizer_state():
    constants = shipped().constants
    # BLOOM-176B saved 2.3 TB (bench/accuracy row 220): weights plus Adam state, no gradients.
    assert checkpoint_bytes(176e9, constants, "bf16") / 1e12 == pytest.approx(2.3, rel=0.1)


def test_the_storage_needed_keeps_checkpoints_to_the_share_asked():
    size, mtbf, share = np.array([5e12]), np.array([36000.0]), 0.02
    needed = required_storage_Bps(size, mtbf, share)
    write = size / needed
    assert write / young_daly_interval_s(write, mtbf) == pytest.approx(share)


def test_a_one_node_job_waits_on_no_link_of_the_fabric(rel, cluster_on):
    """Inside one server the job uses no NIC link: its fabric's stability class cannot
    interrupt it; from two nodes on the links count."""
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("roce-400-lossy", 1)]
    nodes = np.array([1.0, 1.0, 2.0, 2.0])
    g = of_candidates(rel, clusters, np.array([0, 1, 0, 1]), nodes, nodes * 8, 14 * 8e9,
                      np.full(4, 24.0 * 7))
    assert g.interruptions_per_day[0] == g.interruptions_per_day[1]
    assert g.interruptions_per_day[3] > g.interruptions_per_day[2] > g.interruptions_per_day[0]
    assert g.interruptions_per_day[0] == pytest.approx(
        8 * rel.gpu_interruptions_per_gpu_day + rel.node_interruptions_per_node_day)
