import pytest

from catalog.shipped import shipped
from sizing.hardware import Cluster, Server
from sizing.memory import activation_bytes_per_layer
from sizing.presets import preset_model
from sizing.step import estimate
from sizing.workload import Layout, Training

A100_SXM = shipped().gpus["a100-80gb-sxm"]


def test_llama_70b_zero3_on_64_gpus_shards_16_bytes_per_param(cluster_on, constants):
    m = preset_model("llama-3-70b")
    e = estimate(cluster_on("ib-ndr-400", 8), m, Training(64, 1),
                 Layout(dp=64, tp=1, pp=1, zero_stage=3, recompute="full"), constants)
    states = e.memory["weights_gb"] + e.memory["gradients_gb"] + e.memory["optimizer_gb"]
    assert states == pytest.approx(m.params * 16 / 64 / 1e9, rel=1e-9)  # ~17.6 GB
    assert e.memory["total_gb"] == pytest.approx(sum(
        e.memory[k] for k in ("weights_gb", "gradients_gb", "optimizer_gb", "activations_gb",
                              "reserved_gb")))


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
    assert float(activation_bytes_per_layer(m, b, t, False, 0)) == pytest.approx(none_tp)
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
