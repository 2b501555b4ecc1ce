"""Memory per GPU: weights, gradients, optimizer state and activations under the layout."""
from __future__ import annotations

import numpy as np

from sizing.workload import Transformer

GB = 1e9


def activation_bytes_per_layer(model: Transformer, micro_batch, tp, sequence_parallel,
                               recompute_code) -> np.ndarray:
    """Korthikanti et al. 2022 eqs. 1-4 (16-bit activations), generalised for GQA and FFN size.

    Per layer: sbh x (10/t_sp + (4 + 4 kv/heads + 4 ffn/h x k)/t + 5 a s /(h t)), which is
    sbh(10 + 24/t + 5as/(ht)) for a plain GPT layer; selective recompute drops the 5as/h
    term, full recompute keeps only the layer input 2sbh (/t with sequence parallel).
    """
    s, h, a = model.seq_len, model.hidden, model.heads
    b = np.asarray(micro_batch, float)
    t = np.asarray(tp, float)
    t_sp = np.where(np.asarray(sequence_parallel, bool), t, 1.0)
    k = min(model.top_k, model.experts)
    ffn_units = 4.0 * model.ffn_hidden / h * k * (1.5 if model.gated_mlp else 1.0)
    sharded = 4.0 + 4.0 * model.kv_ratio + ffn_units
    scores = 5.0 * a * s / h
    sbh = s * b * h
    code = np.asarray(recompute_code, int)
    none = sbh * (10.0 / t_sp + sharded / t + scores / t)
    selective = sbh * (10.0 / t_sp + sharded / t)
    full = sbh * 2.0 / t_sp
    return np.choose(code, [none, selective, full])


def memory_per_gpu(model, c: dict, constants, precision: str) -> dict:
    """Per-GPU memory in GB by part, for arrays of layouts in `c`.

    margin_gb is what is left beyond the headroom the policy keeps free; negative: no fit.
    """
    dp = np.asarray(c["dp"], float)
    tp = np.asarray(c["tp"], float)
    pp = np.asarray(c["pp"], float)
    ep = np.asarray(c["ep"], float)
    zero = np.asarray(c["zero_stage"], int)
    if precision == "fp32":
        wb, gb, ob = (constants.bytes_per_param_weights_fp32,
                      constants.bytes_per_param_gradients_fp32,
                      constants.bytes_per_param_optimizer_fp32)
    else:
        wb, gb, ob = (constants.bytes_per_param_weights, constants.bytes_per_param_gradients,
                      constants.bytes_per_param_optimizer)
    expert = model.expert_params if isinstance(model, Transformer) else 0.0
    dense = model.params - expert
    dense_local = dense / (tp * pp)
    expert_local = expert / (tp * pp * ep)
    expert_dp = np.maximum(dp / ep, 1.0)

    def sharded(nbytes, from_stage):
        on = zero >= from_stage
        return (np.where(on, dense_local / dp, dense_local)
                + np.where(on, expert_local / expert_dp, expert_local)) * nbytes / GB

    weights = sharded(wb, 3)
    grads = sharded(gb, 2)
    optim = sharded(ob, 1)
    b = np.asarray(c["micro_batch"], float)
    if isinstance(model, Transformer):
        per_layer = activation_bytes_per_layer(model, b, tp, c["sequence_parallel"],
                                               c["recompute"])
        v = np.asarray(c["virtual_stages"], float)
        m = np.asarray(c["micro_batches"], float)
        # 1F1B: the first stage keeps min(p, m) micro-batches of its L/p layers in flight;
        # interleaving adds (1 + (p-1)/(p v)) (Korthikanti section 4.2.3).
        in_flight = np.minimum(pp, m)
        interleave = np.where(v > 1, 1.0 + (pp - 1) / (pp * v), 1.0)
        acts = per_layer * model.layers / pp * in_flight * interleave / GB
    else:
        acts = model.activation_bytes_per_sample * b / GB
        if precision != "fp32":
            acts = acts / 2
    reserved = np.full_like(weights, constants.runtime_reserved_gb)
    total = weights + grads + optim + acts + reserved
    capacity = np.asarray(c["gpu_memory_gb"], float)
    # "Fits" keeps the policy's share of capacity free (allocator fragmentation, buffers the
    # estimate leaves out), so a plan never rests on a few megabytes to spare.
    headroom = capacity * constants.memory_headroom_share
    return {
        "weights_gb": weights,
        "gradients_gb": grads,
        "optimizer_gb": optim,
        "activations_gb": acts,
        "reserved_gb": reserved,
        "total_gb": total,
        "capacity_gb": capacity,
        "headroom_gb": headroom,
        "fits": total + headroom <= capacity,
        "margin_gb": capacity - headroom - total,
    }
