"""The p5 curve's comparison (bench/accuracy/p5_curve.py) and its port of aws-ofi-nccl's tuner."""
from __future__ import annotations

import hashlib

import pytest

from bench.accuracy import ofi_tuner
from bench.accuracy.ofi_tuner import TUNER_MAX_RANKS, TUNER_MAX_SIZE, inside, p5_pair
from bench.accuracy.p5_curve import (
    CURVE,
    RING_LATENCY,
    compare,
    fit_ring_latency,
    points,
    ring_points,
)
from bench.accuracy.world import World
from catalog.shipped import shipped

MIB = 1024.0 * 1024
# aws/aws-ofi-nccl v1.16.3 tests/unit/region_based_tuner.cpp test_is_inside_region's polygon
EXTENDED = ofi_tuner._extend((48 * MIB, 16), (288 * MIB, 128), (TUNER_MAX_SIZE, TUNER_MAX_RANKS))
REGION = [EXTENDED, (288 * MIB, 128), (48 * MIB, 16), (4 * MIB, 2), (TUNER_MAX_SIZE, 2)]
GIB = 1024 * MIB


def test_the_curve_is_the_published_file_unchanged() -> None:
    digest = hashlib.sha256(CURVE.read_bytes()).hexdigest()
    assert digest == "8f732ed4bdf7cc62c35a82d8958f9b8c19b152aedc5aba7233900f6ed6efc46d"
    assert len(points()) == 45
    assert {n for n, _, _ in points()} == {2, 4, 8, 16, 32}


@pytest.mark.parametrize("point", REGION)
def test_a_vertex_is_on_the_edge_as_the_plugins_unit_test_says(point) -> None:
    assert inside(point, REGION) == 0


@pytest.mark.parametrize("point", [(16 * MIB, 4), (1 * GIB, 4), (32 * GIB, 4), (64 * MIB, 16),
                                   (64 * GIB, 16), (512 * MIB, 128), (64 * GIB, 256),
                                   (TUNER_MAX_SIZE - 1.0, 128),
                                   (EXTENDED[0] - 1.0, EXTENDED[1] - 1.0)])
def test_points_inside_are_inside_as_the_plugins_unit_test_says(point) -> None:
    assert inside(point, REGION) == 1


@pytest.mark.parametrize("point", [(8 * MIB, 4), (8 * MIB, 32), (2 * MIB, 2), (64 * MIB, 64),
                                   (200 * MIB, 128), (1 * GIB, 1024), (1 * GIB, 2048)])
def test_points_outside_are_outside_as_the_plugins_unit_test_says(point) -> None:
    assert inside(point, REGION) == -1


def test_the_tuner_leaves_two_nodes_to_nccls_model_and_steps_where_the_curve_steps() -> None:
    assert p5_pair(1 * GIB, 2) is None
    # the curve's step from 280 to 348 GB/s on four nodes between 1 and 2 GiB is the tuner
    # moving the ring from LL128 to Simple; on eight nodes the same step comes past 2 GiB
    assert p5_pair(1 * GIB, 4) == ("ring", "ll128")
    assert p5_pair(2 * GIB, 4) == ("ring", "simple")
    assert p5_pair(2 * GIB, 8) == ("ring", "ll128")
    assert p5_pair(4 * GIB, 8) == ("ring", "simple")
    assert p5_pair(256 * MIB, 32) == ("tree", "ll128")


def test_every_point_is_priced() -> None:
    rows = compare()
    assert len(rows) == 45
    assert all(r["model"] > 0 and r["measured"] > 0 for r in rows)
    assert all((r["ran"] is None) == (r["nodes"] <= 2) for r in rows)


def test_the_ring_latency_is_fitted_on_the_points_the_tuner_ran_a_ring_at() -> None:
    ring = ring_points()
    assert len(ring) == 20
    assert all(p5_pair(size, nodes)[0] == "ring" for nodes, size, _ in ring)
    # the shipped figure is the fit's (reference_systems.yaml efa-v2-100 ring_latency_us)
    world = World.of(shipped())
    assert fit_ring_latency(world) == pytest.approx(world.get(RING_LATENCY), rel=1e-3)
