"""The model through the API: one configuration, one collective, presets, and unphysical input."""

from __future__ import annotations

import pytest

H100_NDR = {"server": "hgx-h100-8", "fabric": "ib-ndr-400"}
LLAMA_70B = {"preset": "llama-3-70b"}
TRAINING = {"global_batch": 512, "micro_batch": 1}


def estimate(client, fabric="ib-ndr-400", nodes=8, layout=None, workload=None, training=None,
             cluster=None):
    body = {"cluster": cluster or {"server": "hgx-h100-8", "fabric": fabric, "nodes": nodes},
            "workload": workload or LLAMA_70B, "training": training or TRAINING,
            "layout": layout or {"dp": nodes, "tp": 8, "pp": 1, "zero_stage": 2,
                                 "sequence_parallel": True}}
    return client.post("/v1/estimates", json=body)


def test_an_estimate_has_every_output_with_units(client):
    response = estimate(client)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    for key in ("step_time_s", "tokens_per_s", "samples_per_s", "achieved_tflops_per_gpu",
                "executed_tflops_per_gpu", "mfu",
                "scaling_efficiency", "communication_share", "inter_node_bandwidth_gbs"):
        assert body[key] > 0, key
    assert 0 < body["scaling_efficiency"] <= 1 and 0 < body["mfu"] < 1
    assert body["memory"]["fits"] and body["memory"]["margin_gb"] > 0
    assert body["bottleneck"].endswith(".") and body["assumptions"]
    exposed = sum(v for k, v in body["breakdown"].items() if not k.endswith("_hidden_s"))
    # Each figure is rounded to four significant digits, so the parts add up to about that.
    assert exposed == pytest.approx(body["step_time_s"], rel=2e-3)


def test_fabric_order_holds_and_widens_with_nodes(client):
    # ZeRO-1 (the distributed optimizer) reduces once per step: with ZeRO-2 the 8-node run's
    # micro-batches would each reduce-scatter, four times the 32-node run's traffic.
    def layout(n):
        return {"dp": n // 2, "tp": 8, "pp": 2, "zero_stage": 1, "sequence_parallel": True}

    eff = {(f, n): estimate(client, f, n, layout(n)).get_json()["scaling_efficiency"]
           for f in ("ib-ndr-400", "roce-400-lossless", "roce-400-lossy", "eth-tcp-100")
           for n in (8, 32)}
    for n in (8, 32):
        assert eff[("ib-ndr-400", n)] >= eff[("roce-400-lossless", n)] > eff[("roce-400-lossy", n)] \
            > eff[("eth-tcp-100", n)]
    assert eff[("ib-ndr-400", 32)] - eff[("eth-tcp-100", 32)] > eff[("ib-ndr-400", 8)] - eff[("eth-tcp-100", 8)]


def test_tensor_parallel_across_nodes_is_flagged_and_slower(client):
    # Llama 3 70B's dimensions with 16 key/value heads, which tp 16 splits (its own 8 do not).
    kv16 = {"transformer": {"layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 16,
                            "ffn_hidden": 28672, "vocab": 128256, "seq_len": 8192,
                            "gated_mlp": True, "tied_embeddings": False, "dropout": False}}
    inside = estimate(client, workload=kv16, layout={"dp": 8, "tp": 8, "pp": 1, "zero_stage": 2,
                                                     "sequence_parallel": True}).get_json()
    across = estimate(client, workload=kv16, layout={"dp": 4, "tp": 16, "pp": 1, "zero_stage": 2,
                                                     "sequence_parallel": True}).get_json()
    assert across["step_time_s"] > inside["step_time_s"]
    assert "spans nodes" in across["bottleneck"] or any("exceeds" in a for a in across["assumptions"])


@pytest.mark.parametrize("layout, workload, cluster_nodes, pointer", [
    ({"dp": 8, "tp": 3, "pp": 1}, None, 8, "/layout/tp"),
    ({"dp": 4, "tp": 8, "pp": 1}, None, 8, "/layout/dp"),
    ({"dp": 8, "tp": 1, "pp": 1, "zero_stage": 0}, None, 1, "/layout"),
    ({"dp": 8, "tp": 8, "pp": 1}, None, 0, "/cluster/nodes"),
    ({"dp": 8, "tp": 8, "pp": 1, "grad_bucket_mb": -1}, None, 8, "/layout/grad_bucket_mb"),
])
def test_unphysical_input_is_422_naming_the_field(client, layout, workload, cluster_nodes, pointer):
    response = client.post("/v1/estimates", json={
        "cluster": {**H100_NDR, "nodes": cluster_nodes}, "workload": workload or LLAMA_70B,
        "training": TRAINING, "layout": layout})
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert pointer in [e["pointer"] for e in body["errors"]], body


def test_a_model_that_does_not_fit_says_so_with_numbers(client):
    body = client.post("/v1/estimates", json={
        "cluster": {**H100_NDR, "nodes": 1}, "workload": LLAMA_70B, "training": {"global_batch": 8},
        "layout": {"dp": 8, "tp": 1, "pp": 1, "zero_stage": 0}}).get_json()
    assert body["code"] == "does_not_fit"
    assert "GB per GPU" in body["detail"] and "80 GB" in body["detail"]


def test_a_run_inside_the_policy_headroom_is_estimated_and_flagged(client):
    # MPT-7B-shaped, FSDP over 8 A100 80GB, micro-batch 6, no checkpointing (llm-foundry's
    # benchmark table ran it): within the GPU, inside the 10% the policy keeps free.
    mpt = {"transformer": {"layers": 32, "hidden": 4096, "heads": 32, "vocab": 50368,
                           "seq_len": 2048}}
    response = client.post("/v1/estimates", json={
        "cluster": {"system": "mosaic-a100", "nodes": 1}, "workload": mpt,
        "training": {"global_batch": 96, "micro_batch": 6},
        "layout": {"dp": 8, "framework": "fsdp"}})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    memory = body["memory"]
    assert not memory["fits"]
    assert memory["capacity_gb"] - memory["headroom_gb"] < memory["total_gb"] <= memory["capacity_gb"]
    assert any("not offered by a sizing" in a for a in body["assumptions"])


def test_offload_is_held_to_the_host_memory_of_the_node(client):
    """70B, ZeRO-3 over one node with the optimizer and activations offloaded: about 930 GB
    in the node's host memory. The catalog server's 2 TB holds it; a server with less is
    flagged within its memory and refused beyond it, at the offload field."""
    layout = {"dp": 8, "tp": 1, "pp": 1, "zero_stage": 3, "recompute": "full",
              "offload": "optimizer+activations"}
    training = {"global_batch": 64, "micro_batch": 1}

    def run(cluster):
        return estimate(client, cluster={**cluster, "nodes": 1}, layout=layout, training=training)

    body = run(H100_NDR).get_json()
    memory = body["memory"]
    assert memory["fits"], body
    assert 0 < memory["host_offload_gb"] < memory["host_capacity_gb"] < 2048

    def custom(host_gb):
        return {"custom_server": {**_h100_server_inline(catalog_gpu="h100-sxm"),
                                  "host_memory_gb": host_gb}, "fabric": "ib-ndr-400"}

    within = run(custom(1100))
    assert within.status_code == 200, within.get_json()
    assert not within.get_json()["memory"]["fits"]
    assert any("Host memory" in a for a in within.get_json()["assumptions"])
    beyond = run(custom(512)).get_json()
    assert beyond["code"] == "does_not_fit"
    assert beyond["errors"][0]["pointer"] == "/layout/offload"
    assert "512 GB" in beyond["detail"]
    unstated = run({"custom_server": _h100_server_inline(catalog_gpu="h100-sxm"),
                    "fabric": "ib-ndr-400"}).get_json()
    assert unstated["memory"]["fits"] and unstated["memory"]["host_capacity_gb"] is None


def test_unsupported_pairing_is_refused_with_the_matrix_reason(client):
    response = estimate(client, cluster={"server": "hgx-h100-8", "fabric": "ib-qdr-40", "nodes": 2},
                        layout={"dp": 2, "tp": 8, "pp": 1})
    assert response.status_code == 422
    assert "ConnectX-7" in response.get_json()["errors"][0]["detail"]


def test_inline_hardware_outside_the_catalog(client):
    cluster = {"nodes": 4, "custom_server": {
        "gpu": {"bf16_tflops": 989, "memory_gb": 80, "intra_link": "nvlink", "intra_bandwidth_gbs": 450},
        "gpus_per_node": 8, "nics_per_node": 8, "nic_rate_gbps": 400},
        "custom_fabric": {"kind": "roce", "line_rate_gbps": 400, "rdma": True, "lossless": True}}
    response = estimate(client, cluster=cluster, workload={"preset": "llama-3-8b"},
                        layout={"dp": 32, "tp": 1, "pp": 1, "zero_stage": 2})
    assert response.status_code == 200, response.get_json()
    assert any("taken from catalog fabric" in a for a in response.get_json()["assumptions"])


def test_collective_matches_nccl_tests_definitions(client):
    body = client.post("/v1/estimates/collectives", json={
        "cluster": {**H100_NDR, "nodes": 4}, "operation": "all_reduce", "size_bytes": 4 * 2**30}).get_json()
    n = body["ranks"]
    assert n == 32
    assert body["algbw_gbs"] == pytest.approx(4 * 2**30 / body["time_s"] / 1e9, rel=1e-3)
    assert body["busbw_gbs"] == pytest.approx(body["algbw_gbs"] * 2 * (n - 1) / n, rel=1e-3)
    # Published: about 380 GB/s busbw for DGX H100 with 8x400G (measurements.csv row 5).
    assert 300 < body["busbw_gbs"] < 450
    # On two nodes NVLS Tree sends each node's buffer once each way, and busbw passes the
    # network rate: 430 to 487 GB/s published (nccl #1221, nccl-tests #309, AWS's p5 output).
    two = client.post("/v1/estimates/collectives", json={
        "cluster": {**H100_NDR, "nodes": 2}, "operation": "all_reduce", "size_bytes": 4 * 2**30}).get_json()
    assert two["algorithm_used"] == "nvls_tree"
    assert 400 < two["busbw_gbs"] < 550
    small = client.post("/v1/estimates/collectives", json={
        "cluster": {**H100_NDR, "nodes": 4}, "operation": "all_reduce", "size_bytes": 8192}).get_json()
    assert small["busbw_gbs"] < body["busbw_gbs"] / 10  # small messages are latency-bound


def test_a_collective_on_one_gpu_is_a_422_not_infinite_bandwidth(client):
    response = client.post("/v1/estimates/collectives", json={
        "cluster": {"server": "pcie-rtx-4090-8", "fabric": "eth-tcp-10", "nodes": 1},
        "operation": "all_gather", "size_bytes": 1.0})
    assert response.status_code == 200  # eight GPUs in one node
    one_gpu = {"custom_server": {"gpus_per_node": 1, "nics_per_node": 1, "nic_rate_gbps": 100,
                                 "gpu": {"bf16_tflops": 100, "memory_gb": 24, "intra_link": "pcie",
                                         "intra_bandwidth_gbs": 32}},
               "fabric": "eth-tcp-10", "nodes": 1}
    response = client.post("/v1/estimates/collectives", json={
        "cluster": one_gpu, "operation": "all_gather", "size_bytes": 1.0})
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"][0]["pointer"] == "/cluster/nodes"



    presets = {p["id"]: p for p in client.get("/v1/presets").get_json()}
    for name in ("gpt-3-175b", "llama-3-8b", "llama-3-70b", "llama-3-405b", "mixtral-8x7b",
                 "bert-large", "resnet-50", "resnet-101", "inception-v3", "vgg-16"):
        assert presets[name]["source"]
    assert presets["llama-3-70b"]["params"] == pytest.approx(70.6e9, rel=0.02)
    assert presets["mixtral-8x7b"]["active_params"] < presets["mixtral-8x7b"]["params"] / 3


def test_an_estimate_answers_p10_p90_beside_each_headline_figure(client):
    body = estimate(client).get_json()
    assert body["calibration"] == "calibrated"  # H100 and NDR InfiniBand have measured rows
    for name in ("step_time_s", "tokens_per_s", "samples_per_s", "mfu", "scaling_efficiency"):
        interval = body["intervals"][name]
        assert interval["p10"] < interval["p90"], name
    # Measured LLM throughput falls below the model more often than above it: the interval
    # lies mostly under a speed and over a time.
    speed, step = body["intervals"]["tokens_per_s"], body["intervals"]["step_time_s"]
    assert speed["p10"] < body["tokens_per_s"] and step["p90"] > body["step_time_s"]
    assert body["intervals"]["mfu"]["p90"] <= 1 and body["goodput"] is None


def test_hardware_without_measurements_is_extrapolated_with_a_wider_interval(client):
    def width(body, name="tokens_per_s"):
        return body["intervals"][name]["p90"] / body["intervals"][name]["p10"]

    measured = estimate(client).get_json()
    other = estimate(client, cluster={"server": "oam-mi300x-8", "fabric": "ib-ndr-400",
                                      "nodes": 8}).get_json()
    assert other["calibration"] == "extrapolated"
    assert width(other) > width(measured)


def test_efficiency_and_mfu_bounds_stay_inside_the_step_s_own_breakdown(client):
    # Extrapolated (MI300X has no measured row), so the interval is at its widest.
    body = estimate(client, cluster={"server": "oam-mi300x-8", "fabric": "ib-ndr-400",
                                     "nodes": 8},
                    layout={"dp": 8, "tp": 4, "pp": 2, "zero_stage": 1,
                            "sequence_parallel": True, "recompute": "full"}).get_json()
    eff, step = body["scaling_efficiency"], body["step_time_s"]
    bubble = body["breakdown"]["bubble_s"] / step
    assert bubble > 0.01
    interval = body["intervals"]["scaling_efficiency"]
    assert interval["p10"] < eff < interval["p90"] < eff / (eff + bubble)
    # MFU is model FLOPs over the step: its p90 is at the step's p10.
    mfu = body["intervals"]["mfu"]["p90"] * body["intervals"]["step_time_s"]["p10"]
    assert mfu == pytest.approx(body["mfu"] * step, rel=2e-3)


def test_an_estimate_over_a_duration_says_what_survives_failures(client):
    body = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 8},
            "workload": LLAMA_70B, "training": TRAINING, "duration_days": 30,
            "layout": {"dp": 8, "tp": 8, "pp": 1, "zero_stage": 2, "sequence_parallel": True}}
    answer = client.post("/v1/estimates", json=body).get_json()
    g = answer["goodput"]
    assert 0.95 < g["goodput"] < 1 and g["expected_interruptions"] > 0
    assert g["work_done"] == pytest.approx(answer["tokens_per_s"] * g["goodput"] * 30 * 86400,
                                           rel=1e-3)


def test_a_collective_estimate_has_intervals(client):
    body = client.post("/v1/estimates/collectives", json={
        "cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4},
        "operation": "all_reduce", "size_bytes": 1e9}).get_json()
    busbw, time_s = body["intervals"]["busbw_gbs"], body["intervals"]["time_s"]
    assert busbw["p10"] < body["busbw_gbs"] and time_s["p90"] > body["time_s"]
    assert body["calibration"] == "calibrated"


def collective(client, algorithm=None, fabric="ib-ndr-400", nodes=1, server="hgx-h100-8",
               size=4 * 2**30):
    body = {"cluster": {"server": server, "fabric": fabric, "nodes": nodes},
            "operation": "all_reduce", "size_bytes": size}
    if algorithm:
        body["algorithm"] = algorithm
    return client.post("/v1/estimates/collectives", json=body)


def test_a_collective_names_the_algorithm_auto_chose(client):
    one_node = collective(client).get_json()
    assert one_node["algorithm"] == "auto" and one_node["algorithm_used"] == "nvls"
    ring = collective(client, "ring").get_json()
    assert ring["algorithm_used"] == "ring" and ring["busbw_gbs"] < one_node["busbw_gbs"]
    small = collective(client, nodes=16, size=4096).get_json()
    assert small["algorithm_used"] == "tree"
    sharp = collective(client, "collnet", fabric="ib-ndr-400-sharp", nodes=4).get_json()
    plain = collective(client, "ring", fabric="ib-ndr-400-sharp", nodes=4).get_json()
    assert sharp["algorithm_used"] == "collnet" and sharp["busbw_gbs"] > plain["busbw_gbs"]


@pytest.mark.parametrize("algorithm,fabric,nodes,server,words", [
    ("collnet", "ib-ndr-400", 4, "hgx-h100-8", "SHARP"),
    ("nvls", "ib-ndr-400", 2, "hgx-h100-8", "one node"),
    ("nvls", "ib-hdr-200", 1, "hgx-a100-80gb-8", "NVLink SHARP"),
])
def test_an_impossible_algorithm_is_a_422_naming_the_field(client, algorithm, fabric, nodes,
                                                           server, words):
    response = collective(client, algorithm, fabric, nodes, server)
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["errors"][0]
    assert error["pointer"] == "/algorithm" and words in error["detail"]


def test_a_custom_fabric_and_server_state_sharp_and_pcie(client):
    server = {"gpus_per_node": 8, "nics_per_node": 8, "nic_rate_gbps": 400, "pcie_gen": 4,
              "gpu": {"bf16_tflops": 989, "memory_gb": 80, "intra_link": "nvlink",
                      "intra_bandwidth_gbs": 450, "nvlink_sharp": True}}
    fabric = {"kind": "infiniband", "line_rate_gbps": 400, "rdma": True, "lossless": True,
              "sharp": True}

    def run(**changes):
        body = {"cluster": {"custom_server": {**server, **changes.get("server", {})},
                            "custom_fabric": {**fabric, **changes.get("fabric", {})},
                            "nodes": 4},
                "operation": "all_reduce", "size_bytes": 4 * 2**30,
                "algorithm": changes.get("algorithm", "auto")}
        return client.post("/v1/estimates/collectives", json=body)

    assert run(algorithm="collnet").status_code == 200
    assert run(algorithm="collnet", fabric={"sharp": False}).status_code == 422
    # a 400G NIC on PCIe 4 is held to PCIe 4 x16
    gen4 = run(algorithm="ring").get_json()["busbw_gbs"]
    gen5 = run(algorithm="ring", server={"pcie_gen": 5}).get_json()["busbw_gbs"]
    assert gen5 > 1.5 * gen4


def test_a_cnn_estimate_runs_the_framework_it_states(client):
    def samples_per_s(framework=None):
        layout = {"dp": 1} if framework is None else {"dp": 1, "framework": framework}
        response = client.post("/v1/estimates", json={
            "cluster": {"system": "dgx-a100", "nodes": 1, "gpus_per_node": 1},
            "workload": {"preset": "resnet-50"},
            "training": {"global_batch": 256, "micro_batch": 256}, "layout": layout})
        assert response.status_code == 200, response.get_json()
        return response.get_json()["samples_per_s"]

    ddp, mxnet, tensorflow = (samples_per_s(f) for f in ("ddp", "mxnet", "horovod"))
    # Each framework's own kernels (model.yaml framework_conv_efficiency, kernel fusion):
    # DeepLearningExamples' MXNet ResNet-50 is the fastest of the three on one A100.
    assert len({ddp, mxnet, tensorflow}) == 3 and mxnet > max(ddp, tensorflow)
    assert samples_per_s() == ddp  # the default for a sample-based model


@pytest.mark.parametrize("layout, pointer", [
    ({"dp": 8, "zero_stage": 0, "overlap_param_gather": True}, "overlap_param_gather"),
    ({"dp": 8, "zero_stage": 3, "fp8_param_gather": True}, "fp8_param_gather"),
    ({"dp": 8, "zero_stage": 1, "fp8_param_gather": True}, "fp8_param_gather"),  # in BF16
])
def test_distributed_optimizer_settings_without_their_optimizer_are_refused_by_name(
        client, layout, pointer):
    body = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 1},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 64},
            "layout": layout}
    response = client.post("/v1/estimates", json=body)
    assert response.status_code == 422, response.get_json()
    assert pointer in str(response.get_json()["errors"])


@pytest.mark.parametrize("layout", [
    {"dp": 2, "tp": 4, "sequence_parallel": False, "tp_comm_overlap": True},
    {"dp": 2, "tp": 4, "sequence_parallel": True, "tp_comm_overlap": True,
     "framework": "deepspeed"},
])
def test_tp_comm_overlap_outside_megatron_sequence_parallelism_is_refused_by_name(client, layout):
    body = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 1},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 64},
            "layout": layout}
    response = client.post("/v1/estimates", json=body)
    assert response.status_code == 422, response.get_json()
    assert "tp_comm_overlap" in str(response.get_json()["errors"])


def test_tp_comm_overlap_is_stated_back_and_shortens_a_tensor_parallel_step(client):
    def posted(overlap: bool) -> dict:
        response = client.post("/v1/estimates", json={
            "cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 64},
            "layout": {"dp": 2, "tp": 8, "sequence_parallel": True, "zero_stage": 1,
                       "recompute": "full", "tp_comm_overlap": overlap}})
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    plain, overlapped = posted(False), posted(True)
    assert overlapped["step_time_s"] < plain["step_time_s"]
    assert overlapped["breakdown"]["tp_hidden_s"] > 0 == plain["breakdown"]["tp_hidden_s"]
    assert any("userbuffers" in a for a in overlapped["assumptions"])


@pytest.mark.parametrize("framework, tp, stated, overlapped", [
    ("megatron-bridge", 8, None, True), ("nemo", 8, None, True),
    ("megatron-bridge", 8, False, False),  # stated: as stated
    ("megatron-bridge", 1, None, False),  # no tensor parallelism to overlap
    ("megatron", 8, None, False),  # Megatron-LM's own default
])
def test_recipe_frameworks_are_megatron_with_their_scripts_tensor_parallel_overlap(
        client, framework, tp, stated, overlapped):
    layout = {"dp": 16 // tp, "tp": tp, "framework": framework, "recompute": "full"}
    if stated is not None:
        layout["tp_comm_overlap"] = stated
    response = client.post("/v1/estimates", json={
        "cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2},
        "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 64},
        "layout": layout})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert (body["breakdown"]["tp_hidden_s"] > 0) == overlapped
    assert any("userbuffers" in a for a in body["assumptions"]) == overlapped


def _h100_server_inline(**gpu_fields):
    from catalog.shipped import shipped
    g = shipped().gpus["h100-sxm"]
    gpu = {"name": g.name, "bf16_tflops": g.bf16_tflops, "fp8_tflops": g.fp8_tflops,
           "memory_gb": g.memory_gb, "memory_bandwidth_gbs": g.memory_bandwidth_gbs,
           "intra_link": g.intra_link, "intra_bandwidth_gbs": g.intra_bandwidth_gbs,
           "nvlink_sharp": g.nvlink_sharp, **gpu_fields}
    return {"gpu": gpu, "gpus_per_node": 8, "nics_per_node": 8, "nic_rate_gbps": 400,
            "pcie_gen": 5}


def test_a_custom_gpu_named_as_a_catalog_gpu_takes_its_measured_figures(client):
    """NVLS's share of the NVLink rate is measured per GPU model (model.yaml nvls_algbw_share):
    an inline H100 that says it is one is priced as the catalog's; one that does not gets the
    model's default for an unmeasured NVLS GPU."""
    def busbw(cluster):
        response = client.post("/v1/estimates/collectives", json={
            "cluster": {**cluster, "nodes": 1}, "operation": "all_reduce",
            "size_bytes": 8 * 2**30, "algorithm": "nvls"})
        assert response.status_code == 200, response.get_json()
        return response.get_json()["busbw_gbs"]

    catalog = busbw(H100_NDR)
    named = busbw({"custom_server": _h100_server_inline(catalog_gpu="h100-sxm"),
                   "fabric": "ib-ndr-400"})
    unnamed = busbw({"custom_server": _h100_server_inline(), "fabric": "ib-ndr-400"})
    assert named == pytest.approx(catalog, rel=1e-9)
    assert unnamed != pytest.approx(catalog, rel=1e-3)
    response = estimate(client, cluster={"custom_server": _h100_server_inline(
        catalog_gpu="h100-sxm"), "fabric": "ib-ndr-400", "nodes": 2},
        workload={"preset": "llama-3-8b"}, layout={"dp": 16, "tp": 1, "pp": 1, "zero_stage": 1, "recompute": "full"})
    assert response.status_code == 200, response.get_json()
    assert any("measured on h100-sxm" in a for a in response.get_json()["assumptions"])


def test_an_unknown_catalog_gpu_is_a_422_at_its_field(client):
    response = client.post("/v1/estimates/collectives", json={
        "cluster": {"custom_server": _h100_server_inline(catalog_gpu="h900-sxm"),
                    "fabric": "ib-ndr-400", "nodes": 1},
        "operation": "all_reduce", "size_bytes": 2**20})
    assert response.status_code == 422, response.get_json()
    error = response.get_json()["errors"][0]
    assert error["pointer"] == "/cluster/custom_server/gpu/catalog_gpu"
    assert "h100-sxm" in error["detail"]


@pytest.mark.parametrize("workload, layout, pointer", [
    ({"preset": "resnet-50"}, {"dp": 8, "framework": "megatron-deepspeed-2021"},
     "/layout/framework"),
    ({"preset": "mixtral-8x7b"}, {"dp": 8, "ep": 8, "zero_stage": 3,
                                  "framework": "megatron-deepspeed-2021"}, "/layout/framework"),
    ({"preset": "llama-3-8b"}, {"dp": 2, "pp": 4, "zero_stage": 3, "framework": "deepspeed"},
     "/layout/zero_stage"),
    ({"preset": "llama-3-8b"}, {"dp": 4, "pp": 2, "zero_stage": 2,
                                "framework": "megatron-deepspeed"}, "/layout/zero_stage"),
])
def test_what_deepspeeds_engines_cannot_run_is_refused_by_name(client, workload, layout,
                                                                pointer):
    body = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 1},
            "workload": workload, "training": {"global_batch": 64}, "layout": layout}
    response = client.post("/v1/estimates", json=body)
    assert response.status_code == 422, response.get_json()
    assert pointer in [e["pointer"] for e in response.get_json()["errors"]]


def test_deepspeeds_2021_engine_runs_without_flash_attention_unless_told(client):
    def step(**flash):
        body = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2},
                "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 64},
                "layout": {"dp": 16, "zero_stage": 3, "recompute": "full",
                           "framework": "megatron-deepspeed-2021", **flash}}
        response = client.post("/v1/estimates", json=body)
        assert response.status_code == 200, response.get_json()
        return response.get_json()["step_time_s"]
    assert step() == step(flash_attention=False) != step(flash_attention=True)


def test_a_reference_system_runs_with_the_adapters_its_run_had(client):
    """A run whose log shows fewer adapters than the instance has (nccl #527: 3 of a p4dn's 4)
    is stated as such: the ring across nodes is held to the adapters in use; more adapters
    than the system has, or the field without a system, are refused by name."""
    def collective(**cluster):
        return client.post("/v1/estimates/collectives", json={
            "cluster": {"system": "p4dn-24xlarge", "nodes": 4, **cluster},
            "operation": "all_reduce", "size_bytes": 2**30, "algorithm": "ring"})

    four, three = (collective(**narrowed).get_json()["busbw_gbs"]
                   for narrowed in ({}, {"nics_per_node": 3}))
    assert 0.7 < three / four < 0.8
    too_many = collective(nics_per_node=5)
    assert too_many.status_code == 422
    assert "/cluster/nics_per_node" in str(too_many.get_json()["errors"])
    bare = client.post("/v1/estimates/collectives", json={
        "cluster": {**H100_NDR, "nodes": 2, "nics_per_node": 4}, "operation": "all_reduce",
        "size_bytes": 2**30})
    assert bare.status_code == 422 and "nics_per_node" in str(bare.get_json()["errors"])


@pytest.mark.parametrize("size, status", [(1.5, 422), (0, 422), (0.5, 422), ("8", 422),
                                          (2**40 + 1, 422), (2**40, 200), (1, 200), (1e9, 200),
                                          (8.0, 200)])
def test_a_collective_moves_whole_bytes(client, size, status):
    response = collective(client, nodes=2, size=size)
    assert response.status_code == status, response.get_json()
    if status == 422:
        assert [e["pointer"] for e in response.get_json()["errors"]] == ["/size_bytes"]
    else:
        assert response.get_json()["size_bytes"] == int(size)
        assert isinstance(response.get_json()["size_bytes"], int)
