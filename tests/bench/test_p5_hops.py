"""The p5 curve's per-step diagnostic (bench/accuracy/p5_hops.py)."""
from __future__ import annotations

import pytest

from bench.accuracy.ofi_tuner import p5_pair
from bench.accuracy.p5_hops import (
    inter_steps,
    model_step_us,
    pipeline_efficiency,
    seconds,
    step_costs,
)
from bench.accuracy.predict import _cluster
from bench.accuracy.world import World
from catalog.shipped import shipped
from sizing.topology import Links

MIB = 2**20


def test_the_time_is_nccl_tests_from_its_bus_bandwidth() -> None:
    # 4 nodes of 8: busbw = algbw x 2 x 31 / 32; 1 GiB at an algbw of 100 GB/s
    assert seconds(4, 2**30, 100.0 * 62 / 32) == pytest.approx(2**30 / 100e9)


@pytest.mark.parametrize(("algorithm", "nodes", "steps"), [
    ("ring", 4, 8), ("ring", 32, 64), ("tree", 4, 4), ("tree", 32, 10), ("nvls_tree", 16, 8),
    ("tree", 24, 8)])
def test_steps_are_nccls_counts(algorithm, nodes, steps) -> None:
    assert inter_steps(algorithm, nodes) == steps


def test_a_chunk_pipeline_of_eight_loops_through_ten_hops_moves_bytes_eight_seventeenths() -> None:
    # 32 nodes: 10 hops; 512 MiB over 16 channels x 8 heads x 512 KiB: 8 loops
    assert pipeline_efficiency(512 * MIB, 32, 16, 8) == pytest.approx(8 / 17)
    # less than one loop still passes every hop once
    assert pipeline_efficiency(MIB, 32, 16, 8) == pytest.approx(1 / 10)


def test_the_model_step_is_the_catalogs_figures() -> None:
    """A tree hop at efa-v2-100's latency_us, a ring step at its ring_latency_us; Simple pays
    no flush on the p5's Hopper GPUs."""
    snap = shipped()
    c, efa = snap.constants, snap.all_fabrics["efa-v2-100"]
    world = World.of(snap)
    links = Links.of(_cluster(world, {"system": "p5-48xlarge", "nodes": 4}).as_arrays(), c)
    reference = c.nccl_net_reference_latency_us
    assert model_step_us("tree", "ll128", c, links) == pytest.approx(
        c.nccl_hw_latency_us["net.tree.ll128"] + efa.latency_us - reference)
    assert model_step_us("ring", "simple", c, links) == pytest.approx(
        (c.nccl_hw_latency_us["net.ring.simple"] + efa.ring_latency_us - reference)
        * c.nccl_ring_plateau_factor)


def test_steps_are_compared_only_between_counts_that_ran_one_pair() -> None:
    rows = step_costs()
    assert rows
    for r in rows:
        low, high = r["nodes"]
        assert low < high
        assert p5_pair(r["bytes"], low) == p5_pair(r["bytes"], high) == r["pair"]
