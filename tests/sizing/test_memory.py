import dataclasses

import pytest

from catalog.shipped import shipped
from sizing.hardware import Cluster, Server
from sizing.memory import activation_bytes_by_recompute
from sizing.presets import preset_model
from sizing.step import estimate
from sizing.workload import Layout, Training, Transformer

A100_SXM = shipped().gpus["a100-80gb-sxm"]


def activation_bytes_per_layer(model, micro_batch, tp, sequence_parallel, recompute_code, **kw):
    """One recompute setting's bytes per layer (RECOMPUTE's order)."""
    return activation_bytes_by_recompute(model, micro_batch, tp, sequence_parallel,
                                         **kw)[recompute_code]


def test_llama_70b_zero3_on_64_gpus_shards_16_bytes_per_param(cluster_on, constants):
    m = preset_model("llama-3-70b")
    e = estimate(cluster_on("ib-ndr-400", 8), m, Training(64, 1),
                 Layout(dp=64, tp=1, pp=1, zero_stage=3, recompute="full", framework="fsdp"),
                 constants)
    states = e.memory["weights_gb"] + e.memory["gradients_gb"] + e.memory["optimizer_gb"]
    assert states == pytest.approx(m.params * 16 / 64 / 1e9, rel=1e-9)  # ~17.6 GB
    assert e.memory["total_gb"] == pytest.approx(sum(
        e.memory[k] for k in ("weights_gb", "gradients_gb", "optimizer_gb", "activations_gb",
                              "logits_gb", "buffers_gb", "reserved_gb")))
    # FSDP gathers one layer and prefetches the next, and reduces the layer's gradients.
    layer = (m.params - m.embedding_params) / m.layers
    assert e.memory["buffers_gb"] == pytest.approx(layer * 6 / 1e9)


def test_megatron_keeps_fp32_main_gradients(cluster_on, constants):
    m = preset_model("llama-3-8b")
    layouts = [Layout(dp=16, tp=1, pp=1, zero_stage=1, framework=f) for f in ("megatron", "fsdp")]
    megatron, fsdp = (estimate(cluster_on("ib-ndr-400", 2), m, Training(16, 1), lay,
                               constants).memory for lay in layouts)
    assert megatron["gradients_gb"] == pytest.approx(2 * fsdp["gradients_gb"])


def test_zero_stages_shard_optimizer_then_gradients_then_weights(cluster_on, constants):
    m = preset_model("llama-3-8b")
    mem = [estimate(cluster_on("ib-ndr-400", 2), m, Training(16, 1),
                    Layout(dp=16, tp=1, pp=1, zero_stage=z, recompute="full"), constants).memory
           for z in range(4)]
    assert mem[1]["optimizer_gb"] == pytest.approx(mem[0]["optimizer_gb"] / 16)
    assert mem[2]["gradients_gb"] == pytest.approx(mem[1]["gradients_gb"] / 16)
    assert mem[3]["weights_gb"] == pytest.approx(mem[2]["weights_gb"] / 16)


def test_activation_memory_follows_korthikanti():
    m = preset_model("gpt-3-175b")
    s, b, h, a, t = m.seq_len, 1, m.hidden, m.heads, 8
    sbh = s * b * h
    none_tp = sbh * (10 + 24 / t + 5 * a * s / (h * t))
    assert float(activation_bytes_per_layer(m, b, t, False, 0, flash_attention=False)) == \
        pytest.approx(none_tp)
    # Fused attention keeps no s x s scores; context parallelism splits the sequence.
    assert float(activation_bytes_per_layer(m, b, t, False, 0)) == \
        pytest.approx(sbh * (10 + 24 / t))
    assert float(activation_bytes_per_layer(m, b, t, True, 1, cp=4)) == \
        pytest.approx(sp_selective_cp := sbh / t * 34 / 4)
    assert sp_selective_cp > 0
    sp_selective = sbh / t * 34
    assert float(activation_bytes_per_layer(m, b, t, True, 1)) == pytest.approx(sp_selective)
    assert float(activation_bytes_per_layer(m, b, t, True, 2)) == pytest.approx(2 * sbh / t)


def test_model_that_does_not_fit_says_so(constants, fabrics):
    server = Server("dgx-a100", "DGX A100", A100_SXM, 8, 8, 200, 4, True)
    e = estimate(Cluster(server, fabrics["ib-hdr-200"], 1, True), preset_model("llama-3-70b"),
                 Training(8, 1), Layout(dp=8, tp=1, pp=1, zero_stage=0), constants)
    assert not e.memory["fits"]
    assert e.memory["margin_gb"] < 0
    assert e.bottleneck.startswith("Does not fit")


def _one_gpu(gpu_id: str, pcie_gen: int = 4) -> Cluster:
    data = shipped()
    server = Server("one", "one GPU", data.all_gpus[gpu_id], 1, 1, 200, pcie_gen, True)
    return Cluster(server, data.all_fabrics["ib-hdr-200"], 1, True)


def test_published_out_of_memory_case_does_not_fit_and_offload_fixes_it(constants):
    """OpenRLHF issue 698: Llama-3-8B on one A100 80GB with DeepSpeed ZeRO-2, checkpointing,
    sequence 128, batch 1 runs out of memory in the optimizer step; --adam_offload fits."""
    m = dataclasses.replace(preset_model("llama-3-8b"), seq_len=128)
    base = {"dp": 1, "tp": 1, "pp": 1, "zero_stage": 2, "recompute": "full", "framework": "deepspeed"}
    oom = estimate(_one_gpu("a100-80gb-sxm"), m, Training(1, 1), Layout(**base), constants)
    assert not oom.memory["fits"]
    offloaded = estimate(_one_gpu("a100-80gb-sxm"), m, Training(1, 1),
                         Layout(**base, offload="optimizer"), constants)
    assert offloaded.memory["fits"]
    assert offloaded.memory["optimizer_gb"] == 0.0
    # The weights and gradients the issue reports (about 46 GB then 61 GB with 16-bit
    # gradients, before the optimizer state) are what stays on the GPU.
    assert 30 < offloaded.memory["total_gb"] < 61


def test_published_configurations_that_ran_fit_with_the_policy_margin(constants, fabrics):
    """BLOOM-176B ran on 384 A100 80GB with TP 4, PP 12, DP 8, micro-batch 2, ZeRO-1 and
    full checkpointing (measurements.csv row 228); MPT-70B ran FULL_SHARD on 64 A100 80GB
    with micro-batch 8 and checkpointing (holdout row 114)."""
    data = shipped()
    bloom = Transformer("BLOOM", 70, 14336, 112, 112, 4 * 14336, 250880, 2048)
    jean_zay = Server("jz", "Jean Zay", A100_SXM, 8, 4, 100, 4, True)
    e = estimate(Cluster(jean_zay, data.all_fabrics["omni-path-100"], 48, True), bloom,
                 Training(2048, 2), Layout(dp=8, tp=4, pp=12, zero_stage=1, recompute="full",
                                           framework="megatron-deepspeed"), constants)
    assert e.memory["fits"] and e.memory["margin_gb"] >= 0
    assert e.memory["total_gb"] + e.memory["headroom_gb"] <= e.memory["capacity_gb"]
    mpt = Transformer("MPT-70B", 80, 8192, 64, 64, 4 * 8192, 50368, 2048)
    server = Server("mosaic", "8x A100", A100_SXM, 8, 8, 200, 4, True)
    e = estimate(Cluster(server, fabrics["ib-hdr-200"], 8, True), mpt, Training(2048, 8),
                 Layout(dp=64, tp=1, pp=1, zero_stage=3, recompute="full", framework="fsdp"),
                 constants)
    assert e.memory["fits"]


def test_a_published_configuration_beyond_80_gb_does_not_fit_on_80_gb(constants):
    """torchtitan Llama 3.1 8B, FSDP over 8 GPUs, local batch 2, sequence 8192, selective
    checkpointing took 82.4 GiB on 96 GB H100s: on an 80 GB H100 it does not fit."""
    data = shipped()
    server = Server("h", "8x H100", data.all_gpus["h100-sxm"], 8, 8, 400, 5, True)
    e = estimate(Cluster(server, data.all_fabrics["ib-ndr-400"], 1, True),
                 preset_model("llama-3-8b"), Training(16, 2),
                 Layout(dp=8, tp=1, pp=1, zero_stage=3, recompute="selective", framework="fsdp"),
                 constants)
    assert not e.memory["fits"]
    assert e.memory["logits_gb"] == pytest.approx(6 * 8192 * 2 * 128256 / 1e9)


def test_fused_cross_entropy_drops_the_logits(cluster_on, constants):
    m = preset_model("llama-3-8b")
    lay = {"dp": 8, "tp": 1, "pp": 1, "zero_stage": 3, "recompute": "full", "framework": "deepspeed"}
    plain, fused = (estimate(cluster_on("ib-ndr-400", 1), m, Training(8, 1),
                             Layout(**lay, fused_cross_entropy=f), constants).memory
                    for f in (False, True))
    assert plain["logits_gb"] > 6 and fused["logits_gb"] == 0.0


def test_dropout_masks_and_fp8_linear_inputs_follow_what_is_saved():
    gpt = Transformer("gpt", 24, 2048, 16, 16, 8192, 50257, 2048)
    sbh = 2048 * 1 * 2048
    # Korthikanti's 34 sbh less the two dropout masks when the model trains without dropout.
    no_dropout = dataclasses.replace(gpt, dropout=False)
    assert float(activation_bytes_per_layer(no_dropout, 1, 1, False, 0)) == pytest.approx(32 * sbh)
    # FP8: the QKV, MLP, projection and second MLP inputs (2 + 2 + 2 + 8 sbh) saved in one byte.
    assert float(activation_bytes_per_layer(gpt, 1, 1, False, 0, fp8=True)) == \
        pytest.approx((34 - 7) * sbh)


def test_published_runs_stay_within_the_gpu(constants):
    """NeMo 25.02 ran Llama 3.1 405B on 128 B200 with TP 4, PP 8, VP 8, CP 2, DP 2, FP8,
    micro-batch 1, its FP8 weights gathered and held in place of the 16-bit ones and 16-bit
    gradients (check row 430, bench/accuracy/specs.yaml's reading of NeMo v2.2.0); Narayanan et al. 2021 ran GPT 530B under DeepSpeed ZeRO-3
    on 1120 A100 80GB with micro-batch 2 (hold-out row 112). Within capacity, whatever the
    selling margin says."""
    data = shipped()
    b200 = Server("dgx-b200", "DGX B200", data.all_gpus["b200"], 8, 8, 400, 5, True)
    e = estimate(Cluster(b200, data.all_fabrics["ib-ndr-400"], 16, True),
                 preset_model("llama-3-405b"), Training(64, 1, "fp8"),
                 Layout(dp=2, tp=4, pp=8, cp=2, virtual_stages=8, zero_stage=1,
                        sequence_parallel=True, recompute="none", fp8_param_gather=True,
                        grad_reduce_in_fp32=False), constants)
    assert e.memory["total_gb"] <= e.memory["capacity_gb"]
    gpt530 = Transformer("GPT 530B", 105, 20480, 128, 128, 4 * 20480, 51200, 2048)
    dgx = Server("dgx-a100", "DGX A100", A100_SXM, 8, 8, 200, 4, True)
    e = estimate(Cluster(dgx, data.all_fabrics["ib-hdr-200"], 140, True), gpt530,
                 Training(2240, 2), Layout(dp=1120, tp=1, pp=1, zero_stage=3, recompute="full",
                                           framework="megatron-deepspeed",
                                           flash_attention=False), constants)
    assert e.memory["total_gb"] <= e.memory["capacity_gb"]
    # DeepSpeed gathers tensor by tensor, up to its live-parameter cap: far less than the
    # 5e9-parameter layer FSDP would gather twice.
    assert e.memory["buffers_gb"] < 0.5 * (2 * 2 + 2) * 5.0


GPT_530B = Transformer("GPT 530B", 105, 20480, 128, 128, 4 * 20480, 51200, 2048)


def test_deepspeeds_2021_zero3_run_of_530b_at_micro_batch_4_stays_within_the_gpu(constants):
    """Narayanan et al. 2021 Table 2 ran GPT 530B under DeepSpeed ZeRO-3 on 640 A100 80GB at
    micro-batch 4 (row 111). DeepSpeed's ZeRO-3 keeps 16-bit gradients, half of what
    Megatron's FP32 main gradients take; its tensor-list gathers hold the tensor being
    gathered twice, beside the 16-bit gradient of one being reduced."""
    data = shipped()
    dgx = Server("dgx-a100", "DGX A100", A100_SXM, 8, 8, 200, 4, True)
    cluster = Cluster(dgx, data.all_fabrics["ib-hdr-200"], 80, True)

    def memory(framework):
        return estimate(cluster, GPT_530B, Training(2560, 4),
                        Layout(dp=640, tp=1, pp=1, zero_stage=3, recompute="full",
                               framework=framework, flash_attention=False), constants).memory
    then = memory("megatron-deepspeed-2021")
    assert then["gradients_gb"] == pytest.approx(2 * GPT_530B.params / 640 / 1e9)
    largest = 20480 * 4 * 20480  # elements of each of the MLP's weight matrices
    assert then["buffers_gb"] == pytest.approx((2 + 2 + 2) * largest / 1e9)
    assert then["total_gb"] <= then["capacity_gb"]


@pytest.mark.parametrize(("zero_stage", "gradient_bytes"), [(0, 6), (1, 6), (2, 2), (3, 2)])
def test_megatron_deepspeed_keeps_fp32_gradients_only_below_zero_2(cluster_on, constants,
                                                                   zero_stage, gradient_bytes):
    """DeepSpeed's BF16 optimizer (FP32 gradients) runs without ZeRO and at stage 1, and keeps
    the 16-bit gradients autograd writes beside them (2 + 4 bytes); its ZeRO-2 and ZeRO-3
    optimizers hold the parameters' 16-bit dtype. A stated grad_reduce_in_fp32 still wins."""
    m = preset_model("llama-3-8b")

    def grads(**kw):
        layout = Layout(dp=8, tp=1, pp=1, zero_stage=zero_stage, recompute="full",
                        framework="megatron-deepspeed", **kw)
        return estimate(cluster_on("ib-ndr-400", 1), m, Training(8, 1), layout,
                        constants).memory["gradients_gb"]
    shards = 8 if zero_stage >= 2 else 1
    assert grads() == pytest.approx(gradient_bytes * m.params / shards / 1e9)
    stated = 4 if zero_stage >= 2 else 6
    assert grads(grad_reduce_in_fp32=True) == pytest.approx(stated * m.params / shards / 1e9)


def test_the_logits_and_a_recomputed_layer_are_not_alive_together(cluster_on, constants):
    """On the last stage the loss's backward frees the logits before the last layer's
    backward recomputes it: the peak holds the larger of the two, not both."""
    m = preset_model("llama-3-8b")
    lay = {"dp": 8, "tp": 1, "pp": 1, "zero_stage": 3, "framework": "fsdp",
           "recompute": "full"}

    def memory(fused):
        return estimate(cluster_on("ib-ndr-400", 1), m, Training(8, 1),
                        Layout(**lay, fused_cross_entropy=fused), constants).memory
    plain, fused = memory(False), memory(True)
    logits = 6 * 8192 * 128256 / 1e9
    working = float(activation_bytes_per_layer(m, 1, 1, False, 0)) / 1e9
    assert working < logits
    assert plain["logits_gb"] == pytest.approx(logits) and fused["logits_gb"] == 0.0
    assert plain["total_gb"] - fused["total_gb"] == pytest.approx(logits - working)


def test_offload_fits_only_where_the_node_s_host_memory_holds_it(hgx_h100, fabrics, constants):
    """ZeRO-Offload moves each GPU's optimizer state to its node's host: the node holds eight
    GPUs' worth, beside the OS and the data loader (the policy's reserve)."""
    m = preset_model("llama-3-70b")

    def memory(host_gb, offload):
        server = dataclasses.replace(hgx_h100, host_memory_gb=host_gb)
        layout = Layout(dp=8, tp=1, pp=1, zero_stage=3, recompute="full", offload=offload)
        return estimate(Cluster(server, fabrics["ib-ndr-400"], 1, True), m, Training(64, 1),
                        layout, constants).memory

    on_gpu = memory(2048, "none")["optimizer_gb"]
    big, small = memory(2048, "optimizer+activations"), memory(1024, "optimizer+activations")
    optimizer_only = memory(2048, "optimizer")
    # the host holds what the GPUs no longer do: 8 GPUs' optimizer state, then their activations
    assert optimizer_only["host_offload_gb"] == pytest.approx(8 * on_gpu, rel=1e-9)
    assert big["host_offload_gb"] > optimizer_only["host_offload_gb"]
    reserve = constants.host_memory_reserve_share
    assert 0 < reserve < 1
    assert big["host_capacity_gb"] == pytest.approx(2048 * (1 - reserve))
    # the same GPUs fit in both; 930 GB of offloaded state fits a 2 TB host, not a 1 TB one
    assert big["total_gb"] == small["total_gb"] and big["margin_gb"] > 0
    assert big["host_capacity_gb"] > big["host_offload_gb"] > small["host_capacity_gb"]
    assert big["fits"] and not small["fits"]
    # without offload the host holds nothing; a server stating no host memory is not checked
    assert memory(1, "none")["host_offload_gb"] == 0 and memory(1, "none")["host_capacity_gb"] > 0
    assert memory(None, "optimizer+activations")["fits"]


# A BLOOM-like shape: its 250k vocabulary makes the embedding about one layer's parameters.
BLOOM_LIKE = Transformer("bloom-like", layers=70, hidden=14336, heads=112, kv_heads=112,
                         ffn_hidden=4 * 14336, vocab=250880, seq_len=2048)


def _bloom_like_memory(cluster_on, constants, **layout):
    lay = {"dp": 8, "tp": 4, "pp": 12, "zero_stage": 1, "recompute": "full",
           "framework": "megatron-deepspeed", **layout}
    nodes = lay["dp"] * lay["tp"] * lay["pp"] // 8
    return estimate(cluster_on("ib-ndr-400", nodes), BLOOM_LIKE, Training(2048, 2),
                    Layout(**lay), constants).memory


def test_the_first_stage_holds_the_embedding_beside_its_layers(cluster_on, constants):
    """Without the embedding in the split every stage holds ceil(70 / 12) = 6 layers and the
    first one the word embedding too: its 16-bit weights are those, not 1/12 of the model."""
    m = BLOOM_LIKE
    memory = _bloom_like_memory(cluster_on, constants)
    per_layer = (m.params - m.embedding_params) / m.layers
    assert memory["weights_gb"] == pytest.approx(
        (6 * per_layer + m.vocab * m.hidden) / 4 * 2 / 1e9, rel=1e-12)
    assert memory["weights_gb"] > m.params / (4 * 12) * 2 / 1e9


def test_with_the_embedding_in_the_split_a_middle_stage_may_hold_the_most(cluster_on,
                                                                          constants):
    """(70 + 2) / 12 = 6 places: the first stage holds the embedding and 5 layers, the second
    6 layers with one micro-batch fewer in flight. With BLOOM's 250k vocabulary the first
    holds more; with a 32k one the second does."""
    split = _bloom_like_memory(cluster_on, constants, embedding_in_pipeline_split=True)
    plain = _bloom_like_memory(cluster_on, constants)
    assert split["total_gb"] < plain["total_gb"]
    m = BLOOM_LIKE
    per_layer = (m.params - m.embedding_params) / m.layers
    assert split["weights_gb"] == pytest.approx(
        (5 * per_layer + m.vocab * m.hidden) / 4 * 2 / 1e9, rel=1e-12)
    small = dataclasses.replace(BLOOM_LIKE, vocab=32000)
    lay = Layout(dp=8, tp=4, pp=12, zero_stage=1, recompute="full",
                 framework="megatron-deepspeed", embedding_in_pipeline_split=True)
    memory = estimate(cluster_on("ib-ndr-400", 48), small, Training(2048, 2), lay,
                      constants).memory
    assert memory["weights_gb"] == pytest.approx(6 * per_layer / 4 * 2 / 1e9, rel=1e-12)


def test_deepspeed_bf16_optimizer_holds_six_bytes_of_gradient(cluster_on, constants):
    """FP32 accumulation and the 16-bit gradients autograd writes: 2 + 4 bytes a parameter,
    not sharded by ZeRO-1; Megatron's FP32 main gradients alone hold 4."""
    deepspeed = _bloom_like_memory(cluster_on, constants)
    megatron = _bloom_like_memory(cluster_on, constants, framework="megatron")
    assert deepspeed["gradients_gb"] == pytest.approx(1.5 * megatron["gradients_gb"], rel=1e-12)
    assert deepspeed["gradients_gb"] == pytest.approx(3 * deepspeed["weights_gb"], rel=1e-12)
