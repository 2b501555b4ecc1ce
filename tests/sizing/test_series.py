"""The efficiency plot: the requested range and a step either side, one layout family, one scale."""

from __future__ import annotations

from sizing.presets import PRESETS
from sizing.search import LayoutSpace
from sizing.series import fabric_lines, node_counts, one_node_reference
from sizing.workload import Layout, Training


def test_node_counts_cover_the_range_and_a_step_either_side():
    assert node_counts(4, 6, 4) == [3, 4, 5, 6, 7]
    assert node_counts(1, 4, 2) == [1, 2, 3, 4, 5]
    assert node_counts(4, 16, 8) == [2, 4, 8, 16, 32]
    assert node_counts(3, 100, 64) == [2, 3, 4, 8, 16, 32, 64, 100, 128]


def test_node_counts_hold_rank_ones_own_beside_the_others():
    """The plot is drawn for rank 1: its node count is a point even off the powers of two."""
    assert node_counts(8, 32, 9) == [4, 8, 9, 16, 32, 64]
    assert node_counts(64, 128, 95) == [32, 64, 95, 128, 256]


def test_every_point_of_a_line_keeps_the_layout_family(cluster_on, constants):
    model = PRESETS["llama-3-8b"].model
    training = Training(512, 1)
    layout = Layout(dp=0, tp=2, pp=1, zero_stage=1, sequence_parallel=True)
    clusters = [cluster_on("ib-ndr-400", 1), cluster_on("eth-tcp-100", 1)]
    reference = one_node_reference(clusters[0], model, training, LayoutSpace(), False, 2048,
                                   constants)
    assert reference.fits_memory and reference.throughput_per_gpu > 0
    lines = fabric_lines(clusters, [1, 2, 4, 8], model, training, layout, 1, False, 2048,
                         constants, reference)
    assert [line.fabric for line in lines] == ["ib-ndr-400", "eth-tcp-100"]
    fast, slow = ({p.nodes: p for p in line.points} for line in lines)
    assert set(fast) == {1, 2, 4, 8}
    assert fast[1].efficiency_vs_one_node <= 1.0 + 1e-9  # the best one-node layout is the scale
    assert slow[8].efficiency_vs_one_node < fast[8].efficiency_vs_one_node
