"""FP8 training's weight copies: Transformer Engine's cached FP8 cast of each linear's weight,
its transpose where the GPU's FP8 GEMMs take only the TN layout, and fp8_param_gather's FP8
parameters in place of the 16-bit ones."""
import numpy as np
import pytest

from catalog.shipped import shipped
from sizing import kernels
from sizing.hardware import Cluster, Server
from sizing.presets import preset_model
from sizing.step import estimate, feasibility_batch, layout_arrays
from sizing.workload import Layout, Training

DATA = shipped()


def _server(gpu_id: str) -> Server:
    return Server(gpu_id, gpu_id, DATA.all_gpus[gpu_id], 8, 8, 400, 5, True)


def _memory(gpu_id, model, precision, constants, **layout):
    kw = {"dp": 4, "tp": 4, "pp": 4, "zero_stage": 1, "sequence_parallel": True,
          "recompute": "none", **layout}
    cluster = Cluster(_server(gpu_id), DATA.all_fabrics["ib-ndr-400"], 8, True)
    return estimate(cluster, model, Training(64, 1, precision), Layout(**kw), constants).memory


def _linear_params(model) -> float:
    """Attention's and the MLPs' weights, counted from the model's shape: h x (q + k + v + o)
    and two or three h x ffn matrices per expert."""
    kv = model.kv_heads / model.heads
    attention = model.hidden * model.hidden * (2 + 2 * kv)
    mlp = (3 if model.gated_mlp else 2) * model.hidden * model.ffn_hidden
    return model.layers * (attention + model.experts * mlp)


@pytest.mark.parametrize("gpu_id,copy_bytes", [("h100-sxm", 2.0), ("h200", 2.0), ("b200", 1.0)])
def test_fp8_holds_each_linear_weight_s_cast_and_its_transpose_before_blackwell(
        gpu_id, copy_bytes, constants):
    """Hopper keeps the row-wise FP8 cast and its transpose (two bytes), B200 one byte that
    serves both GEMMs; the embedding, output layer and norms add nothing."""
    m = preset_model("llama-3-70b")
    bf16, fp8 = (_memory(gpu_id, m, p, constants) for p in ("bf16", "fp8"))
    local = _linear_params(m) / (4 * 4)
    assert fp8["weights_gb"] - bf16["weights_gb"] == pytest.approx(local * copy_bytes / 1e9,
                                                                    rel=1e-9)
    assert fp8["total_gb"] - fp8["weights_gb"] < bf16["total_gb"] - bf16["weights_gb"]


@pytest.mark.parametrize("gpu_id,saved_bytes", [("h100-sxm", 0.0), ("b200", 1.0)])
def test_fp8_param_gather_keeps_the_fp8_weight_in_place_of_the_16_bit_one(
        gpu_id, saved_bytes, constants):
    """With fp8_param_gather the FP8 weight (and on Hopper its transpose) is the parameter:
    two bytes on Hopper as the 16-bit weight was, one on B200."""
    m = preset_model("llama-3-70b")
    bf16 = _memory(gpu_id, m, "bf16", constants)
    gathered = _memory(gpu_id, m, "fp8", constants, fp8_param_gather=True)
    local = _linear_params(m) / (4 * 4)
    assert bf16["weights_gb"] - gathered["weights_gb"] == pytest.approx(
        local * saved_bytes / 1e9, abs=1e-9)


def test_experts_fp8_copies_are_sharded_by_expert_parallelism(constants):
    m = preset_model("mixtral-8x7b")
    layout = {"dp": 16, "tp": 2, "pp": 2, "ep": 8}
    bf16, fp8 = (_memory("h100-sxm", m, p, constants, **layout) for p in ("bf16", "fp8"))
    expert = m.expert_params
    local = (_linear_params(m) - expert) / 4 + expert / (4 * 8)
    assert fp8["weights_gb"] - bf16["weights_gb"] == pytest.approx(local * 2 / 1e9, rel=1e-9)


def test_zero_3_holds_no_fp8_copy_of_the_weights_it_shards(constants):
    m = preset_model("llama-3-8b")
    layout = {"dp": 64, "tp": 1, "pp": 1, "zero_stage": 3, "sequence_parallel": False,
              "framework": "fsdp", "recompute": "full"}
    bf16, fp8 = (_memory("h100-sxm", m, p, constants, **layout) for p in ("bf16", "fp8"))
    assert fp8["weights_gb"] == bf16["weights_gb"]


@pytest.mark.skipif(not kernels.ENABLED, reason="SIZING_KERNELS=numpy: no compiled kernel")
def test_compiled_memory_matches_the_reference_on_fp8_layouts(constants, monkeypatch):
    """Every GPU with FP8, ZeRO stages 0-3, expert parallelism and fp8_param_gather: the
    compiled kernel's memory columns are the numpy reference's, bit for bit."""
    m = preset_model("mixtral-8x7b")
    training = Training(1024, 1, "fp8")
    rows = []
    for gpu_id in ("h100-sxm", "h200", "b200", "l40s", "mi300x"):
        cluster = Cluster(_server(gpu_id), DATA.all_fabrics["ib-ndr-400"], 8, True)
        for zero in range(4):
            for ep, gather in ((1, False), (8, False), (8, zero == 1)):
                row = cluster.as_arrays()
                row.update(layout_arrays(Layout(dp=16, tp=2, pp=2, ep=ep, zero_stage=zero,
                                                recompute="selective",
                                                fp8_param_gather=gather), training))
                rows.append(row)
    batch = {k: np.concatenate([np.atleast_1d(r[k]) for r in rows]) for k in rows[0]}
    compiled = feasibility_batch(batch, m, training, constants)
    monkeypatch.setattr(kernels, "ENABLED", False)
    reference = feasibility_batch(batch, m, training, constants)
    for key, value in reference.items():
        assert np.broadcast_to(compiled[key], value.shape).tobytes() == value.tobytes(), key
