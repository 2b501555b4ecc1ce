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


def test_the_ratio_quoted_is_of_a_configuration_in_the_node_range(snap):
    """70B on 9-32 nodes, cheapest: the series' step below the range (8 MI300X nodes) runs
    faster per GPU than any configuration asked for; the note quotes one in range and says
    which."""
    body = {"workload": {"preset": "llama-3-70b"}, "tokens": 15e12,
            "nodes": {"min": 9, "max": 32}, "objective": "cheapest"}
    result = shown_result(search(snap, request_of(body), lambda _f: None), date(2026, 12, 1))
    plot = result.efficiency_series
    in_range = {(line.fabric_name, p.nodes): p.efficiency_vs_one_node
                for line in plot.lines for p in line.points if 9 <= p.nodes <= 32}
    beyond = max(p.efficiency_vs_one_node for line in plot.lines for p in line.points)
    ranked = [c.efficiency_vs_one_node for c in result.configurations
              if c.server.id == plot.server]
    highest = max([*in_range.values(), *ranked])
    assert beyond > highest, "the case this test is about: a higher ratio outside the range"
    said = next(n for n in result.notes if n.startswith("efficiency_vs_one_node reaches"))
    assert said.startswith(f"efficiency_vs_one_node reaches {highest:.2f} on "), said
    fabric, nodes = next(k for k, v in in_range.items() if v == highest)
    assert f"in the efficiency series at {nodes} nodes of {fabric}:" in said


def test_no_ratio_against_a_one_node_run_that_cannot_fit(snap):
    """405B on 64-128 H100 nodes: no one-node layout fits (tp 1, dp 8, ZeRO-1 would need some
    800 GB per GPU), so efficiency_vs_one_node is null everywhere, the quote's copy too, and
    the notes say why."""
    body = {"workload": {"preset": "llama-3-405b"}, "tokens": 15e12,
            "nodes": {"min": 64, "max": 128}, "gpu_models": ["h100-sxm"]}
    found = search(snap, request_of(body), lambda _f: None)
    result = shown_result(found, date(2026, 12, 1))
    plot = result.efficiency_series
    assert not plot.one_node_fits_memory and not one_node(found, plot.server).fits_memory
    assert [c.efficiency_vs_one_node for c in result.configurations] == [None] * len(
        result.configurations)
    assert {p.efficiency_vs_one_node for line in plot.lines for p in line.points} == {None}
    assert {o.efficiency_vs_one_node for o in result.network_advice.comparison} == {None}
    name = snap.servers[plot.server].name
    assert (f"The model does not fit on one node of {name}: there is no one-node run to "
            "compare with, so efficiency_vs_one_node is null on it") in " ".join(result.notes)
