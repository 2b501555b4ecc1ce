"""A transformer's compute time per micro-batch, compiled, one candidate at a time: the work of
sizing.compute.transformer_work, the GEMMs' efficiency (gemm_efficiency) and compute_time, with
their operations in their order (the numpy reference; sizing.kernels)."""
from __future__ import annotations

import functools

import numpy as np

from sizing.compute import (
    _CROSS_ENTROPY_BYTES,
    _NONGEMM_GATED,
    _NONGEMM_PLAIN,
    _UNFUSED_SCORES_BWD,
    _UNFUSED_SCORES_FWD,
    FLASH_BACKWARD_RATIO,
)
from sizing.kernels import column, kernel
from sizing.workload import Transformer

# The columns _kernel returns, in its order.
KEYS = ("t_mb", "t_fwd_mb", "gemm_efficiency", "t_attention_mb", "model_flops",
        "model_flops_causal", "counted_flops", "executed_flops")


@kernel
def _kernel(b, tp, pp, cp, rc, flash, sp, rfrac, fused_ce, paced_layers, paced_output, peak16,
            emax, fp8_speedup, attention, hbm, hbm_raw, fp8, causal, figures):
    (s, h, layers, knee_s, linear_per_token, logits_per_token, scores_per_token, fwd_h, fwd_rest,
     bwd_h, bwd_rest, unfused_fwd, unfused_bwd, ce_bytes, full_per_token, causal_per_token,
     training_per_token, layer_per_token) = (
        figures[0], figures[1], figures[2], figures[3], figures[4], figures[5], figures[6],
        figures[7], figures[8], figures[9], figures[10], figures[11], figures[12], figures[13],
        figures[14], figures[15], figures[16], figures[17])
    rows = b.shape[0]
    out = np.empty((8, rows))
    for i in range(rows):
        tp_i, pp_i, flash_i = tp[i], pp[i], flash[i]
        full, selective = rc[i] == 2, rc[i] == 1
        t_sp = tp_i if sp[i] else 1.0
        tokens = b[i] * s / cp[i]
        mp = tp_i * pp_i
        layers_here = paced_layers[i]
        layer_share = layers_here / layers
        output = paced_output[i]
        linear_fwd = linear_per_token * tokens / tp_i * layer_share
        logits_fwd = logits_per_token * tokens / tp_i * output
        scores_full = scores_per_token * tokens / tp_i * layer_share
        attn_fwd = scores_full / 2 if flash_i and causal else scores_full
        bwd_ratio = FLASH_BACKWARD_RATIO if flash_i else 2.0
        full_re = rfrac[i] if full else 0.0
        selective_re = 1.0 if selective else 0.0
        attn_re = full_re + selective_re
        attn_total = attn_fwd * (1.0 + bwd_ratio + attn_re)
        linear_total = linear_fwd * (3.0 + full_re)
        logits_total = 3.0 * logits_fwd
        per_layer_fwd = fwd_h / t_sp + fwd_rest / tp_i
        per_layer_bwd = bwd_h / t_sp + bwd_rest / tp_i
        scores_fwd = 0.0 if flash_i else unfused_fwd / tp_i
        scores_bwd = 0.0 if flash_i else unfused_bwd / tp_i
        elementwise = per_layer_fwd * (1.0 + full_re) + per_layer_bwd
        scores = scores_fwd * (1.0 + full_re + selective_re) + scores_bwd
        ce = 0.0 if fused_ce[i] else ce_bytes / tp_i * output
        nongemm_bytes = tokens * layers_here * elementwise
        fixed_bytes = tokens * (layers_here * scores + ce)
        nongemm_fwd_bytes = tokens * layers_here * per_layer_fwd
        fixed_fwd_bytes = tokens * (layers_here * scores_fwd + ce * 26 / 40)
        gemm16_flops = (logits_total + (0.0 if fp8 else linear_total)
                        + (0.0 if flash_i else attn_total))
        gemm8_flops = linear_total if fp8 else 0.0
        attention_flops = attn_total if flash_i else 0.0
        gemm16_fwd = logits_fwd + (0.0 if fp8 else linear_fwd) + (0.0 if flash_i else attn_fwd)
        gemm8_fwd = linear_fwd if fp8 else 0.0
        attention_fwd = attn_fwd if flash_i else 0.0
        # gemm_efficiency at the typical GEMM's size (per_gpu_gemm_flops)
        w = 2.0 * (b[i] * s / cp[i]) * h * h / tp_i
        knee = knee_s * peak16[i] * emax[i]
        eff = emax[i] * w / (w + knee)
        gemm16 = peak16[i] * eff
        gemm8 = gemm16 * fp8_speedup[i]
        # compute_time
        t_gemm = gemm16_flops / gemm16 + gemm8_flops / gemm8
        t_fwd_gemm = gemm16_fwd / gemm16 + gemm8_fwd / gemm8
        t_attn = attention_flops / attention[i]
        t_attn_fwd = attention_fwd / attention[i]
        t_mem = nongemm_bytes / hbm[i] + fixed_bytes / hbm_raw[i]
        t_mem_fwd = nongemm_fwd_bytes / hbm[i] + fixed_fwd_bytes / hbm_raw[i]
        out[0, i] = t_gemm + t_attn + t_mem
        out[1, i] = t_fwd_gemm + t_attn_fwd + t_mem_fwd
        out[2, i] = eff
        out[3, i] = t_attn
        out[4, i] = full_per_token * tokens / mp
        out[5, i] = causal_per_token * tokens / mp
        out[6, i] = (training_per_token * tokens + full_re * layer_per_token * tokens
                     + (3.0 if selective else 0.0) * scores_per_token * tokens) / mp
        out[7, i] = gemm16_flops + gemm8_flops + attention_flops
    return out


@functools.lru_cache(maxsize=64)
def _model_figures(model: Transformer) -> tuple:
    """The model's figures as transformer_work forms them (Python floats, in the kernel's order
    but for the knee, a constant, after the first three), worked out once per model value
    (a frozen dataclass: an equal model has the same figures)."""
    h = model.hidden
    h_kv = h * model.kv_ratio
    f = model.ffn_hidden * min(model.top_k, model.experts)
    table = _NONGEMM_GATED if model.gated_mlp else _NONGEMM_PLAIN
    return (
        model.seq_len, h, model.layers, model.linear_forward_flops_per_token,
        model.logits_forward_flops_per_token, model.attention_score_flops_per_token,
        table["fwd_h"] * h, table["fwd_head"] * (h + h_kv) + table["fwd_f"] * f,
        table["bwd_h"] * h, table["bwd_head"] * (h + h_kv) + table["bwd_f"] * f,
        _UNFUSED_SCORES_FWD * model.heads * model.seq_len,
        _UNFUSED_SCORES_BWD * model.heads * model.seq_len, _CROSS_ENTROPY_BYTES * model.vocab,
        model.model_flops_per_token("full"), model.model_flops_per_token("causal"),
        model.training_flops_per_token(), model.layer_forward_flops_per_token)


@functools.lru_cache(maxsize=64)
def _figures(model: Transformer, knee_s: float) -> np.ndarray:
    """_kernel's `figures` of the model with the GEMMs' knee, once per pair (the kernel only
    reads them)."""
    seq_len, h, layers, *rest = _model_figures(model)
    return np.array([seq_len, h, layers, knee_s, *rest], float)


def transformer_times(model: Transformer, c: dict, fp8: bool, rates: dict, emax,
                      fp8_speedup) -> dict:
    """compute_side's figures of a transformer (KEYS) from the candidates' columns `c` and its
    rates (peak16, knee_s, attention, hbm, hbm_raw), the GEMMs' best efficiency `emax` and
    FP8's speed-up over 16-bit GEMMs."""
    rows = np.asarray(c["tp"]).shape[0]
    figures = _figures(model, rates["knee_s"])
    out = _kernel(*(column(c[k], rows) for k in ("micro_batch", "tp", "pp", "cp")),
                  column(c["recompute"], rows, np.int64), column(c["flash_attention"], rows, bool),
                  column(c["sequence_parallel"], rows, bool), column(c["recompute_fraction"], rows),
                  column(c["fused_cross_entropy"], rows, bool), column(c["paced_layers"], rows),
                  column(c["paced_output"], rows), column(rates["peak16"], rows),
                  column(emax, rows), column(fp8_speedup, rows), column(rates["attention"], rows),
                  column(rates["hbm"], rows), column(rates["hbm_raw"], rows), bool(fp8),
                  bool(model.causal), figures)
    return dict(zip(KEYS, out))
