"""efficiency_vs_one_node's reference: named, measured as it says, and a ratio above 1 explained."""
from __future__ import annotations

from datetime import date

from service.sizing_result import ResultLayout
from service.sizing_run import search
from service.sizing_shown import one_node, shown_result
from tests.service.test_search_exact import request_of

# 70B on 4-16 nodes: one MI300X node holds it only with full recomputation, so rank 1's layout
# (selective recompute) runs faster per GPU on four nodes than the one-node reference.
LLAMA_70B = {"workload": {"preset": "llama-3-70b"}, "tokens": 2e11, "nodes": {"min": 4, "max": 16},
             "term": "1y", "currency": "EUR", "region": "eu-central"}


def test_the_one_node_reference_is_the_layout_named_and_a_ratio_above_1_is_explained(snap):
    found = search(snap, request_of(LLAMA_70B), lambda _f: None)
    result = shown_result(found, date(2026, 12, 1))
    plot = result.efficiency_series
    reference = plot.one_node_layout
    assert reference is not None and plot.one_node_layout_description
    # The named layout is the one efficiency_vs_one_node is measured against.
    measured = one_node(found, plot.server)
    assert reference == ResultLayout.of(measured.layout, measured.micro_batch)
    assert plot.one_node_throughput_per_gpu == measured.throughput_per_gpu
    assert plot.one_node_fits_memory == measured.fits_memory
    server = snap.servers[plot.server]
    above = [c for c in result.configurations
             if c.server.id == plot.server and c.efficiency_vs_one_node > 1]
    assert above, "the case this test is about: a configuration faster per GPU than one node"
    said = [n for n in result.notes if n.startswith("efficiency_vs_one_node reaches")]
    assert len(said) == 1 and server.name in said[0], result.notes
    assert plot.one_node_layout_description in said[0]
    assert "no scaling efficiency above 100%" in said[0]
