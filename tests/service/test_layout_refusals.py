"""Layouts and inputs that cannot run are a 422 naming the field, on an estimate and on a
sizing's pinned layout alike."""

from __future__ import annotations

import pytest

CLUSTER = {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2}
LLAMA_8B = {"preset": "llama-3-8b"}
RESNET_50 = {"preset": "resnet-50"}

REFUSED = [
    (LLAMA_8B, {"dp": 1, "tp": 8, "pp": 2, "virtual_stages": 32}, "/layout/virtual_stages"),
    (LLAMA_8B, {"dp": 1, "tp": 8, "pp": 2, "virtual_stages": 3}, "/layout/virtual_stages"),
    (LLAMA_8B, {"dp": 2, "tp": 8, "recompute": "full", "recompute_layers": 99},
     "/layout/recompute_layers"),
    (LLAMA_8B, {"dp": 1, "tp": 16}, "/layout/tp"),
    (LLAMA_8B, {"dp": 16, "framework": "ddp", "zero_stage": 3}, "/layout/zero_stage"),
    (LLAMA_8B, {"dp": 1, "tp": 2, "pp": 8, "zero_stage": 3}, "/layout/zero_stage"),
    (RESNET_50, {"dp": 16, "framework": "megatron"}, "/layout/framework"),
    (LLAMA_8B, {"dp": 16, "recompute": "full", "sequence_parallel": True},
     "/layout/sequence_parallel"),
    (RESNET_50, {"dp": 8, "cp": 2}, "/layout/cp"),
    (RESNET_50, {"dp": 16, "ep": 2}, "/layout/ep"),
    ({**RESNET_50, "seq_len": 4096}, {"dp": 16}, "/workload/seq_len"),
]
# What each refused layout becomes when only its fault is taken out: these run.
RUNS = [
    (LLAMA_8B, {"dp": 1, "tp": 8, "pp": 2, "virtual_stages": 8}),
    (LLAMA_8B, {"dp": 1, "tp": 8, "pp": 2, "virtual_stages": 2}),
    (LLAMA_8B, {"dp": 2, "tp": 8, "recompute": "full", "recompute_layers": 32}),
    (LLAMA_8B, {"dp": 2, "tp": 8}),
    (LLAMA_8B, {"dp": 16, "framework": "fsdp", "zero_stage": 3}),
    (LLAMA_8B, {"dp": 1, "tp": 2, "pp": 8, "zero_stage": 1}),
    (RESNET_50, {"dp": 16, "framework": "ddp"}),
    (LLAMA_8B, {"dp": 16, "recompute": "full", "sequence_parallel": False}),
    (RESNET_50, {"dp": 16}),
    ({"preset": "llama-3-8b", "seq_len": 4096}, {"dp": 16}),
]


def post(client, workload, layout):
    return client.post("/v1/estimates", json={
        "cluster": CLUSTER, "workload": workload, "training": {"global_batch": 64},
        "layout": layout})


@pytest.mark.parametrize("workload, layout, pointer", REFUSED)
def test_an_estimate_of_what_cannot_run_is_422_at_its_field(client, workload, layout, pointer):
    response = post(client, workload, layout)
    assert response.status_code == 422, response.get_json()
    assert [e["pointer"] for e in response.get_json()["errors"]] == [pointer]


@pytest.mark.parametrize("workload, layout", RUNS)
def test_the_same_layout_without_its_fault_is_estimated(client, workload, layout):
    response = post(client, workload, layout)
    assert response.status_code == 200, response.get_json()


@pytest.mark.parametrize("workload, layout, pointer",
                         [case for case in REFUSED if case[2].startswith("/layout/")])
def test_a_sizing_pinned_to_what_cannot_run_is_422_at_its_field(client, workload, layout,
                                                                pointer):
    pinned = {k: v for k, v in layout.items() if k != "dp"}
    response = client.post("/v1/sizings", json={
        "workload": workload, "nodes": {"min": 2, "max": 2},
        **({"samples": 1e7} if workload is RESNET_50 else {"tokens": 1e9}),
        "gpu_models": ["h100-sxm"], "fabrics_include": ["ib-ndr-400"], "layout": pinned})
    assert response.status_code == 422, response.get_json()
    assert pointer in [e["pointer"] for e in response.get_json()["errors"]]
