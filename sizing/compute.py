"""Compute time: FLOPs per step and the achievable fraction of the GPU's dense peak."""
from __future__ import annotations

import numpy as np

from sizing.workload import RECOMPUTE, GenericModel, Transformer


def gemm_efficiency(gemm_flops, peak_flops, max_efficiency, knee_s) -> np.ndarray:
    """Fraction of dense peak reached by GEMMs of `gemm_flops` FLOPs each.

    A GEMM costs W / (peak x max) plus a fixed knee time (launch, tail wave, memory-bound
    epilogues), so the fraction saturates: max x W / (W + knee x peak x max).
    """
    w = np.asarray(gemm_flops, float)
    knee = np.asarray(knee_s, float) * np.asarray(peak_flops, float) * max_efficiency
    return max_efficiency * w / (w + knee)


def per_gpu_gemm_flops(model: Transformer, micro_batch, tp) -> np.ndarray:
    """Size of the typical per-GPU GEMM: (b*s) x h by h x (h/tp), in FLOPs."""
    tokens = np.asarray(micro_batch, float) * model.seq_len
    return 2.0 * tokens * model.hidden * model.hidden / np.asarray(tp, float)


def flops_per_microbatch(model, micro_batch, recompute_code, model_parallel):
    """(model FLOPs, hardware FLOPs, forward hardware FLOPs) per GPU per micro-batch.

    `model_parallel` is tp x pp: the GPUs that share one micro-batch's work.
    """
    b = np.asarray(micro_batch, float)
    mp = np.asarray(model_parallel, float)
    code = np.asarray(recompute_code, int)
    if isinstance(model, Transformer):
        tokens = b * model.seq_len
        hw = np.choose(code, [model.hardware_flops_per_token(r) for r in RECOMPUTE])
        model_f = model.training_flops_per_token() * tokens / mp
        hw_f = hw * tokens / mp
        fwd_f = model.forward_flops_per_token * tokens / mp
    elif isinstance(model, GenericModel):
        model_f = model.training_flops_per_sample() * b / mp
        hw_f = np.where(code == 2, 4 * model.flops_per_sample, 3 * model.flops_per_sample) * b / mp
        fwd_f = model.flops_per_sample * b / mp
    else:
        raise TypeError(f"unsupported model type {type(model).__name__}")
    return model_f, hw_f, fwd_f
