"""A one-node run uses no scale-out fabric: listed once per server, billed none, advised none."""
from __future__ import annotations

from datetime import date

from service.sizing_run import search
from service.sizing_shown import shown_result
from tests.service.test_search_exact import request_of

SMALL_8B = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 4},
            "currency": "JPY"}


def test_one_node_configurations_are_one_per_server_and_say_the_fabric_is_unused(snap):
    result = shown_result(search(snap, request_of(SMALL_8B), lambda _f: None), date(2026, 12, 1))
    one_node = [c for c in result.configurations if c.nodes == 1]
    assert one_node and result.configurations[0].nodes == 1
    servers = [c.server.id for c in one_node]
    assert len(servers) == len(set(servers)), servers
    assert all("does not use the fabric" in c.network_note for c in one_node)
    reason = result.network_advice.reason
    assert "no fabric is used or billed" in reason and "most throughput" not in reason
    # the configurations past one node do not read a recommendation rank 1 does not make
    assert all("ranks none" in c.network_note for c in result.configurations if c.nodes > 1)
