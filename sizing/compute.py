"""Compute time: FLOPs as executed, GEMMs at their efficiency, and memory-bound work by its bytes."""
from __future__ import annotations

import numpy as np

from sizing.constants import built_once
from sizing.workload import ATTENTION_KERNELS, FRAMEWORKS, GenericModel, Transformer

# FlashAttention's backward is 5 matmuls (QK^T recomputed, dV, dP, dQ, dK) against the
# forward's 2: Dao-AILab/flash-attention benchmarks/benchmark_flash_attention.py `flops`
# (bwd = 2.5 x fwd). Unfused attention's backward is the usual 2 x forward.
FLASH_BACKWARD_RATIO = 2.5
# Adam with FP32 master weights, moments and main gradients, 16-bit parameters written back:
# read 4+4+4+4, write 4+4+4+2 bytes per parameter, plus the gradient-norm clip (L2 norm read 4,
# scale read 4 and write 4): Megatron-LM docs/user-guide/features/dist_optimizer.md and
# megatron/core/optimizer/clip_grads.py (multi_tensor_l2norm, multi_tensor_scale).
OPTIMIZER_BYTES_PER_PARAM = 30.0 + 12.0
# Memory-bound bytes per token per transformer layer with fused kernels, 16-bit activations,
# each kernel reading its inputs and writing its outputs once (Megatron-Core fusions:
# fused_layer_norm, fused_bias_swiglu / fused_bias_gelu, fused_bias_dropout, apply_rope_fusion).
# Split into the tensors sequence parallelism divides by tp (norms, residuals, dropout: factors
# of h) and those tensor parallelism always divides (RoPE on heads, the MLP activation).
# Gated (Llama): forward 20h on the residual stream + 4h + 4h_kv + 6f per rank; backward
# 24h + 4h + 4h_kv + 10f. Plain (GPT): forward 22h + 4f, backward 28h + 6f.
_NONGEMM_GATED = {"fwd_h": 20.0, "fwd_head": 4.0, "fwd_f": 6.0,
                  "bwd_h": 24.0, "bwd_head": 4.0, "bwd_f": 10.0}
_NONGEMM_PLAIN = {"fwd_h": 22.0, "fwd_head": 0.0, "fwd_f": 4.0,
                  "bwd_h": 28.0, "bwd_head": 0.0, "bwd_f": 6.0}
# Unfused attention materialises the a x s score matrix per token: scores written, softmax
# read and written, dropout read, written and its 1-byte mask, P.V read: 13 a s bytes forward,
# twice that backward (Korthikanti et al. 2022 section 4.1 lists the tensors).
_UNFUSED_SCORES_FWD, _UNFUSED_SCORES_BWD = 13.0, 26.0
# Cross entropy in FP32 (Megatron's VocabParallelCrossEntropy casts the logits with .float()):
# cast, exp, sum and normalise read and write about 26 v bytes forward and 14 v backward.
_CROSS_ENTROPY_BYTES = 40.0
# Batch norm (or bias) and ReLU after each conv, fused, 16-bit: forward read and write (4 B),
# backward read input, output gradient and statistics passes, write input gradient (10 B).
CONV_ELEMENTWISE_BYTES = 14.0


def gemm_efficiency(gemm_flops, peak_flops, max_efficiency, knee_s) -> np.ndarray:
    """Fraction of dense peak reached by GEMMs of `gemm_flops` FLOPs each.

    A GEMM costs W / (peak x max) plus a fixed knee time (launch, tail wave, epilogue), so the
    fraction saturates: max x W / (W + knee x peak x max).
    """
    w = np.asarray(gemm_flops, float)
    knee = np.asarray(knee_s, float) * np.asarray(peak_flops, float) * max_efficiency
    return max_efficiency * w / (w + knee)


def sequence_share(table, seq_len) -> np.ndarray:
    """Share of a fused attention kernel's long-sequence rate at `seq_len` tokens per rank:
    a table keyed by length (and 'default'), interpolated in log2 of the length and held at
    its ends (short sequences leave the kernel's tiles idle at their ends)."""
    x, shares = built_once(_SHARE_POINTS, table, None, lambda: _share_points(table))
    return np.interp(np.log2(np.asarray(seq_len, float)), x, shares)


# Each sequence-share table's points, read once per table object (the prior's draws of the
# prediction intervals make new ones: only the latest few are kept).
_SHARE_POINTS: dict[int, tuple[object, dict]] = {}


def _share_points(table) -> tuple[np.ndarray, list]:
    """A sequence-share table as np.interp reads it: log2 of the lengths, ascending, and the
    shares."""
    points = sorted((float(k), v) for k, v in table.items() if k != "default")
    # the shares as an array: np.interp converts a list at every call
    return np.log2([p for p, _ in points]), np.array([v for _, v in points], float)


def attention_efficiency(kernel, seq_len, efficiency: dict, share: dict) -> np.ndarray:
    """Fraction of dense 16-bit peak each candidate's fused attention kernel reaches.

    `kernel`: index into ATTENTION_KERNELS per candidate; `seq_len`: tokens per rank;
    `efficiency`: kernel name -> long-sequence efficiency per candidate; `share`: kernel name
    -> its sequence-share table (`sequence_share`).
    """
    kernel = np.asarray(kernel, int)
    out = np.zeros(np.broadcast(kernel, np.asarray(seq_len, float)).shape)
    for i, name in enumerate(ATTENTION_KERNELS):
        runs = kernel == i
        # a batch often runs one kernel: the others' curves are not read (count_nonzero: a
        # fraction of any()'s cost on a short column)
        if np.count_nonzero(runs):
            out = np.where(runs, efficiency[name] * sequence_share(share[name], seq_len), out)
    return out


def per_gpu_gemm_flops(model: Transformer, micro_batch, tp, cp=1) -> np.ndarray:
    """Size of the typical per-GPU GEMM: (b*s/cp) x h by h x (h/tp), in FLOPs."""
    tokens = np.asarray(micro_batch, float) * model.seq_len / np.asarray(cp, float)
    return 2.0 * tokens * model.hidden * model.hidden / np.asarray(tp, float)


def recompute_fraction(model: Transformer, recompute_layers, pp, virtual_stages) -> np.ndarray:
    """Share of layers full recompute re-runs: Megatron's --recompute-num-layers counts the
    layers of each model chunk; 0 means every layer."""
    chunk = model.layers / (np.asarray(pp, float) * np.asarray(virtual_stages, float))
    rl = np.asarray(recompute_layers, float)
    return np.where(rl > 0, np.minimum(rl / chunk, 1.0), 1.0)


def transformer_work(model: Transformer, c: dict, fp8: bool) -> dict:
    """Per GPU and micro-batch: FLOPs by kind (executed) and memory-bound bytes, forward apart.

    `c` holds arrays micro_batch, tp, pp, cp, sequence_parallel, recompute (0-2),
    recompute_fraction, flash_attention, paced_layers and paced_output (the stage that paces
    the pipeline: Transformer.pacing_stage). The executed work is that stage's; the model
    FLOPs (MFU's and the counted conventions) are the model's averaged over the stages.
    """
    b = np.asarray(c["micro_batch"], float)
    tp, pp, cp = (np.asarray(c[k], float) for k in ("tp", "pp", "cp"))
    rc = np.asarray(c["recompute"], int)
    flash = np.asarray(c["flash_attention"], bool)
    t_sp = np.where(np.asarray(c["sequence_parallel"], bool), tp, 1.0)
    rfrac = np.asarray(c["recompute_fraction"], float)
    tokens = b * model.seq_len / cp  # this rank's tokens; each sees all keys before it
    s, h, L = model.seq_len, model.hidden, model.layers
    mp = tp * pp
    # the paced stage's share of the layers, and of the output layer (1 or 0)
    layers_here = np.asarray(c["paced_layers"], float)
    layer_share = layers_here / L
    output = np.asarray(c["paced_output"], float)
    full = rc == 2
    selective = rc == 1

    linear_fwd = model.linear_forward_flops_per_token * tokens / tp * layer_share
    logits_fwd = model.logits_forward_flops_per_token * tokens / tp * output
    # Scores: QK^T and PV, 4sh per token per layer over the whole matrix; a causal fused kernel
    # skips the masked half (the FLOPs of `flops(..., causal=True)` in flash-attention).
    scores_full = model.attention_score_flops_per_token * tokens / tp * layer_share
    attn_fwd = np.where(flash & model.causal, scores_full / 2, scores_full)
    bwd_ratio = np.where(flash, FLASH_BACKWARD_RATIO, 2.0)
    # Share of the layers full recompute re-runs, and the selective recompute of attention.
    full_re = np.where(full, rfrac, 0.0)
    selective_re = np.where(selective, 1.0, 0.0)
    attn_re = full_re + selective_re
    attn_total = attn_fwd * (1.0 + bwd_ratio + attn_re)
    linear_total = linear_fwd * (3.0 + full_re)
    logits_total = 3.0 * logits_fwd

    k = min(model.top_k, model.experts)
    f = model.ffn_hidden * k
    h_kv = h * model.kv_ratio
    table = _NONGEMM_GATED if model.gated_mlp else _NONGEMM_PLAIN
    per_layer_fwd = (table["fwd_h"] * h / t_sp
                     + (table["fwd_head"] * (h + h_kv) + table["fwd_f"] * f) / tp)
    per_layer_bwd = (table["bwd_h"] * h / t_sp
                     + (table["bwd_head"] * (h + h_kv) + table["bwd_f"] * f) / tp)
    if flash.all():  # fused attention everywhere: no score tensor goes through HBM
        scores_fwd = scores_bwd = np.zeros(np.broadcast(flash, tp).shape)
    else:
        scores_fwd = np.where(flash, 0.0, _UNFUSED_SCORES_FWD * model.heads * s / tp)
        scores_bwd = np.where(flash, 0.0, _UNFUSED_SCORES_BWD * model.heads * s / tp)
    # Element-wise work (what a framework fuses or not) apart from the score tensors and the
    # cross entropy, whose bytes are counted kernel by kernel already. FP8 casts are not
    # added: the FP8 GEMM speedup of model.yaml is measured with quantisation included.
    elementwise = per_layer_fwd * (1.0 + full_re) + per_layer_bwd
    scores = (scores_fwd * (1.0 + full_re + selective_re)
              + scores_bwd)
    ce = np.where(np.asarray(c.get("fused_cross_entropy", False), bool), 0.0,
                  _CROSS_ENTROPY_BYTES * model.vocab / tp * output)
    nongemm_bytes = tokens * layers_here * elementwise
    fixed_bytes = tokens * (layers_here * scores + ce)
    nongemm_fwd_bytes = tokens * layers_here * per_layer_fwd
    fixed_fwd_bytes = tokens * (layers_here * scores_fwd + ce * 26 / 40)

    unfused_scores = ~flash
    return {
        # 16-bit GEMMs: the logits always (Megatron's output layer is not an FP8 linear), the
        # linears unless FP8, and the score matmuls of unfused attention.
        "gemm16_flops": logits_total + (0.0 if fp8 else linear_total)
        + np.where(unfused_scores, attn_total, 0.0),
        "gemm8_flops": linear_total if fp8 else np.zeros_like(linear_total),
        "attention_flops": np.where(unfused_scores, 0.0, attn_total),
        "bytes": nongemm_bytes, "fixed_bytes": fixed_bytes,
        "gemm16_fwd_flops": logits_fwd + (0.0 if fp8 else linear_fwd)
        + np.where(unfused_scores, attn_fwd, 0.0),
        "gemm8_fwd_flops": linear_fwd if fp8 else np.zeros_like(linear_fwd),
        "attention_fwd_flops": np.where(unfused_scores, 0.0, attn_fwd),
        "fwd_bytes": nongemm_fwd_bytes, "fixed_fwd_bytes": fixed_fwd_bytes,
        "gemm_size": per_gpu_gemm_flops(model, b, tp, cp),
        "model_flops": model.model_flops_per_token("full") * tokens / mp,
        "model_flops_causal": model.model_flops_per_token("causal") * tokens / mp,
        # The Megatron-DeepSpeed / Narayanan 2021 "achieved TFLOP/s" count: model FLOPs (full
        # score matrix) plus what recomputation re-runs.
        "counted_flops": (model.training_flops_per_token() * tokens
                          + full_re * model.layer_forward_flops_per_token
                          * tokens
                          + np.where(selective, 3.0, 0.0) * model.attention_score_flops_per_token
                          * tokens) / mp,
    }


def generic_work(model: GenericModel, c: dict, fp32: bool) -> dict:
    """Per GPU and micro-batch work of a sample-based model; layer by layer when known."""
    b = np.asarray(c["micro_batch"], float)
    rc = np.asarray(c["recompute"], int)
    passes = np.where(rc == 2, 4.0, 3.0)
    fwd = model.flops_per_sample * b
    zeros = np.zeros_like(b)
    elem_bytes = CONV_ELEMENTWISE_BYTES * (2.0 if fp32 else 1.0)
    net = model.net
    layers = net.layer_arrays() if net is not None else None
    bytes_ = zeros if net is None else net.output_elements * b * elem_bytes * passes / 3.0
    # Each conv pass's own activations and weights, in the training precision (16-bit
    # activations and weights under mixed precision): candidates x layers, per pass.
    io = None if net is None else net.layer_io()
    conv_io = None if io is None else (
        (4.0 if fp32 else 2.0) * (io[None, :, 0] * b[:, None] + io[None, :, 1]))
    return {
        "conv_layers": layers, "conv_passes": passes, "micro_batch": b, "conv_io_bytes": conv_io,
        "gemm16_flops": passes * fwd, "gemm8_flops": zeros, "attention_flops": zeros,
        "bytes": bytes_, "fixed_bytes": zeros,
        "gemm16_fwd_flops": fwd, "gemm8_fwd_flops": zeros, "attention_fwd_flops": zeros,
        "fwd_bytes": bytes_ * (4.0 / 14.0), "fixed_fwd_bytes": zeros,
        "model_flops": 3.0 * fwd, "model_flops_causal": 3.0 * fwd, "counted_flops": passes * fwd,
    }


def conv_saturation(constants, framework_codes, fp32: bool) -> np.ndarray:
    """Fraction of dense peak the largest convolutions reach, per candidate's framework.

    16-bit convolutions run on tensor cores through each framework's own cuDNN kernels
    (model.yaml framework_conv_efficiency scales PyTorch DDP's conv_efficiency); FP32 ones on
    CUDA cores keep the one FP32 figure.
    """
    codes = np.asarray(framework_codes, int)
    if fp32:
        return np.full(codes.shape, constants.per_gpu("conv_efficiency", "fp32"))
    share = np.array([constants.per_gpu("framework_conv_efficiency", f) for f in FRAMEWORKS])
    return constants.per_gpu("conv_efficiency", "default") * share[codes]


def compute_time(work: dict, rates: dict) -> tuple[np.ndarray, np.ndarray]:
    """(time of the micro-batch, time of its forward) from the work and the achievable rates.

    `rates`: gemm16 and gemm8 (FLOP/s at the typical GEMM's efficiency), attention (FLOP/s of
    fused attention), hbm (bytes/s of element-wise work, the framework's fusion included) and
    hbm_raw (bytes/s of streaming kernels, for bytes already counted kernel by kernel).
    Sample-based models with layers get each conv at the efficiency of its own GEMM size, the
    3x3 stride-1 ones with `winograd`'s fewer multiplies.
    """
    layers = work.get("conv_layers")
    if layers is not None:
        macs, _, winograd = layers
        b = work["micro_batch"]
        fwd_layers = 2.0 * macs[None, :] * b[:, None]  # candidates x layers
        eff = gemm_efficiency(fwd_layers, rates["peak16"][:, None], rates["conv_max"][:, None],
                              rates["knee_s"])
        # Winograd-eligible layers execute their multiplies divided by the algorithm's saving
        # (1 where the precision's convolutions do not use it).
        executed = np.where(winograd[None, :], fwd_layers / rates["winograd"][:, None],
                            fwd_layers)
        # A conv kernel streams its activations while it multiplies: each layer's pass takes
        # the longer of its arithmetic and its own reads and writes at the streaming rate (a
        # roofline), which binds on layers with few channels for their spatial size.
        t_io = work["conv_io_bytes"] / rates["hbm_raw"][:, None]
        t_fwd_gemm = np.maximum(executed / (rates["peak16"][:, None] * eff), t_io).sum(axis=1)
        t_gemm = t_fwd_gemm * work["conv_passes"]
    else:
        t_gemm = work["gemm16_flops"] / rates["gemm16"] + work["gemm8_flops"] / rates["gemm8"]
        t_fwd_gemm = (work["gemm16_fwd_flops"] / rates["gemm16"]
                      + work["gemm8_fwd_flops"] / rates["gemm8"])
    t_attn = work["attention_flops"] / rates["attention"]
    t_attn_fwd = work["attention_fwd_flops"] / rates["attention"]
    t_mem = work["bytes"] / rates["hbm"] + work["fixed_bytes"] / rates["hbm_raw"]
    t_mem_fwd = work["fwd_bytes"] / rates["hbm"] + work["fixed_fwd_bytes"] / rates["hbm_raw"]
    return t_gemm + t_attn + t_mem, t_fwd_gemm + t_attn_fwd + t_mem_fwd
