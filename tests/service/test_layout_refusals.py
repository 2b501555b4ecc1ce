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


def post_v100(client, training=None, layout=None):
    return client.post("/v1/estimates", json={
        "cluster": {"system": "dgx-2", "nodes": 1}, "workload": {"preset": "bert-large"},
        "training": {"global_batch": 256, "micro_batch": 16, **(training or {})},
        "layout": {"dp": 16, **(layout or {})}})


def test_bf16_on_a_gpu_without_it_is_refused_naming_the_gpu(client):
    response = post_v100(client, {"precision": "bf16"})
    assert response.status_code == 422, response.get_json()
    [error] = response.get_json()["errors"]
    assert error["pointer"] == "/training/precision"
    assert "V100" in error["detail"] and "fp16" in error["detail"]


def test_a_gpu_without_bf16_or_flashattention_trains_in_fp16_unfused_unless_told(client):
    unstated = post_v100(client)
    assert unstated.status_code == 200, unstated.get_json()
    stated = post_v100(client, {"precision": "fp16"}, {"flash_attention": False}).get_json()
    assert unstated.get_json()["step_time_s"] == stated["step_time_s"]
    compute = next(a for a in unstated.get_json()["assumptions"] if a.startswith("Compute"))
    assert "unfused attention" in compute and "no FlashAttention-class kernel" in compute
    fused = post_v100(client, layout={"flash_attention": True})
    assert fused.status_code == 422
    assert [e["pointer"] for e in fused.get_json()["errors"]] == ["/layout/flash_attention"]


def test_fp16_runs_at_the_16_bit_rate_of_a_gpu_with_bf16(client):
    def step(precision):
        response = post(client, LLAMA_8B, {"dp": 16, "recompute": "full"})
        if precision:
            response = client.post("/v1/estimates", json={
                "cluster": CLUSTER, "workload": LLAMA_8B,
                "training": {"global_batch": 64, "precision": precision},
                "layout": {"dp": 16, "recompute": "full"}})
        assert response.status_code == 200, response.get_json()
        return response.get_json()["step_time_s"]
    assert step(None) == step("bf16") == step("fp16")


def test_a_sizing_in_fp16_ranks_as_one_in_bf16(client):
    def ranked(precision):
        response = client.post("/v1/sizings", json={
            "workload": LLAMA_8B, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
            "gpu_models": ["h100-sxm"], "fabrics_include": ["ib-ndr-400"],
            "precision": precision}, headers={"Prefer": "wait=30"})
        assert response.status_code == 201, response.get_json()
        return [(c["nodes"], c["layout"], c["tokens_per_s"])
                for c in response.get_json()["result"]["configurations"]]
    assert ranked("fp16") == ranked("bf16")
