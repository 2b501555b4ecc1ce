"""A transformer's memory per GPU and the activations it saves, compiled, one candidate at a time:
the same operations in the same order as sizing.memory's memory_per_gpu and activation_parts
(the numpy reference; sizing.kernels)."""
from __future__ import annotations

import functools

import numpy as np

from sizing.kernels import column, kernel
from sizing.workload import DEEPSPEED_CODES, SYNCHRONOUS_ZERO3_CODES, Transformer

GB = 1e9
# The float columns _kernel returns, in its order (then `fits`).
KEYS = ("weights_gb", "gradients_gb", "optimizer_gb", "activations_gb", "logits_gb",
        "buffers_gb", "reserved_gb", "total_gb", "capacity_gb", "headroom_gb", "margin_gb")


@kernel
def _kernel(dp, tp, pp, ep, cp, zero, offload, shard_group, gb, fp8_bytes, b, code, v, m,
            fused_ce, split, framework, capacity, stage, kept, deepspeed_codes,
            synchronous_codes, figures):
    (wb, ob, expert_per_layer, per_layer, layers, logits_per_cp, vocab, matrix, embedding,
     largest_per_tp, max_live, reduce_bucket, reserved, headroom_share, fp8_dense,
     fp8_expert) = (
        figures[0], figures[1], figures[2], figures[3], figures[4], figures[5], figures[6],
        figures[7], figures[8], figures[9], figures[10], figures[11], figures[12],
        figures[13], figures[14], figures[15])
    rows = dp.shape[0]
    out = np.empty((11, rows))
    fits = np.empty(rows, np.bool_)
    totals = np.empty(3)
    parts = np.empty((3, 4))  # per stage: weights, gradients, optimizer, activations (bytes)
    for i in range(rows):
        tp_i, pp_i, cp_i, zero_i, gb_i = tp[i], pp[i], cp[i], zero[i], gb[i]
        shard = shard_group[i] * cp_i if shard_group[i] > 0 else dp[i] * cp_i
        expert_dp = np.maximum(shard / ep[i], 1.0)
        # Transformer.pipeline_stage_layers
        one = pp_i == 1
        split_i = split[i] and not one
        places = np.ceil((layers + (2.0 if split_i else 0.0)) / pp_i)
        ends = np.maximum(places - (1.0 if split_i else 0.0), 0.0)
        ends_embedding = embedding if one else matrix
        layer_acts = stage[i] * pp_i / layers
        interleave = 1.0 + (pp_i - 1) / (pp_i * v[i]) if v[i] > 1 else 1.0
        working = kept[i] if code[i] == 2 else 0.0
        host_acts = offload[i] == 2
        logits_b = 0.0 if fused_ce[i] else logits_per_cp / cp_i * b[i] * vocab / tp_i
        for k in range(3):  # the first, a middle and the last stage
            # One stage at pp 1 (the last), none in the middle below pp 3: not there, never
            # the most (the choice below is _transformer_peak_stage's either way).
            if (one and k != 2) or (k == 1 and pp_i < 3):
                totals[k] = -np.inf
                continue
            if k == 0:
                n, emb = ends, ends_embedding
                acts = layer_acts * n * np.minimum(pp_i, m[i]) * interleave
            elif k == 1:
                n, emb = places, 0.0
                acts = layer_acts * n * np.minimum(pp_i - 1, m[i]) * interleave
            else:
                n, emb = ends, ends_embedding
                acts = layer_acts * n
            if host_acts:
                acts = 2.0 * layer_acts
            acts = acts + (np.maximum(working, logits_b) if k == 2 else working)
            d = (n * per_layer + emb) / tp_i
            e = n * expert_per_layer / (tp_i * ep[i])
            # ZeRO stage 3 shards the weights, 2 the gradients, 1 the optimizer state
            w = ((d / shard if zero_i >= 3 else d) + (e / expert_dp if zero_i >= 3 else e)) * wb
            if fp8_bytes[i] != 0.0 and zero_i < 3:  # FP8 weight copies
                w = w + n * (fp8_dense + fp8_expert / ep[i]) / (layers * tp_i) * fp8_bytes[i]
            g = ((d / shard if zero_i >= 2 else d) + (e / expert_dp if zero_i >= 2 else e)) * gb_i
            o = ((d / shard if zero_i >= 1 else d) + (e / expert_dp if zero_i >= 1 else e)) * ob
            if offload[i] >= 1:
                o = 0.0
            parts[k, 0], parts[k, 1], parts[k, 2], parts[k, 3] = w / GB, g / GB, o / GB, acts
            totals[k] = w / GB + g / GB + o / GB + acts / GB
        # _transformer_peak_stage's choice: the last on a tie, then the first
        if one or (totals[2] >= totals[0] and (pp_i < 3 or totals[2] >= totals[1])):
            k = 2
        elif pp_i >= 3 and totals[1] > totals[0]:
            k = 1
        else:
            k = 0
        logits_peak = logits_b if k == 2 and logits_b >= working else 0.0
        weights, grads, optim = parts[k, 0], parts[k, 1], parts[k, 2]
        acts_gb = (parts[k, 3] - logits_peak) / GB
        logits = logits_peak / GB
        unit = per_layer / tp_i
        largest = largest_per_tp / tp_i
        live = np.minimum(2.0 * unit, np.maximum(largest, max_live))
        reducing = np.minimum(unit, np.maximum(largest, reduce_bucket))
        listed = np.minimum(unit, largest) if synchronous_codes[framework[i]] else 0.0
        gathered = (wb * (live + listed) + gb_i * reducing if deepspeed_codes[framework[i]]
                    else (2.0 * wb + gb_i) * unit)
        buffers = (gathered if zero_i == 3 else 0.0) / GB
        total = weights + grads + optim + acts_gb + logits + buffers + reserved
        headroom = capacity[i] * headroom_share
        out[0, i], out[1, i], out[2, i], out[3, i] = weights, grads, optim, acts_gb
        out[4, i], out[5, i], out[6, i], out[7, i] = logits, buffers, reserved, total
        out[8, i], out[9, i], out[10, i] = capacity[i], headroom, capacity[i] - headroom - total
        fits[i] = total + headroom <= capacity[i]
    return out, fits


# The columns of `c` _kernel reads.
_ROW_COLUMNS = ("dp", "tp", "pp", "ep", "cp", "zero_stage", "offload", "shard_group",
                "micro_batch", "recompute", "virtual_stages", "micro_batches",
                "fused_cross_entropy", "embedding_in_pipeline_split", "framework",
                "gpu_memory_gb")


@functools.lru_cache(maxsize=64)
def _model_figures(model: Transformer) -> tuple:
    """The model's figures as memory_per_gpu forms them (Python numbers, in its order), once
    per model value (a frozen dataclass: an equal model has the same figures)."""
    expert = model.expert_params
    dense = model.params - expert
    return (expert / model.layers, (dense - model.embedding_params) / model.layers,
            model.layers, 6.0 * model.seq_len, model.vocab, model.vocab * model.hidden,
            model.embedding_params,
            max(model.hidden * model.ffn_hidden, model.hidden * model.vocab))




@functools.lru_cache(maxsize=64)
def _memory_figures(model: Transformer, wb: float, ob: float, *constants: float) -> np.ndarray:
    """_kernel's `figures`: the bytes per parameter, the model's figures and the constants
    (in its order), once per model value and figures (the kernel only reads them)."""
    return np.array([wb, ob, *_model_figures(model), *constants, *model.fp8_linear_params],
                    float)


def transformer_memory(model: Transformer, c: dict, constants, wb: float, gb, ob: float,
                       fp8_bytes, parts: tuple) -> dict:
    """memory_per_gpu's columns for a transformer: `c` the candidates' columns it reads (with
    its defaults), `wb` and `ob` bytes per parameter of the weights and optimizer state, `gb`
    each candidate's of its gradients, `fp8_bytes` each candidate's FP8 weight copies per
    FP8-linear parameter (0 outside FP8), `parts` activation_parts."""
    # The rows of the columns it reads: broadcasting all of `c` (some sixty) costs more.
    rows = np.shape(np.broadcast(*(c[k] for k in _ROW_COLUMNS)))[0]
    figures = _memory_figures(model, wb, ob, constants.deepspeed_max_live_params,
                              constants.deepspeed_reduce_bucket_params,
                              constants.runtime_reserved_gb, constants.memory_headroom_share)
    out, fits = _kernel(
        *(column(c[k], rows) for k in ("dp", "tp", "pp", "ep", "cp")),
        column(c["zero_stage"], rows, np.int64), column(c["offload"], rows, np.int64),
        column(c["shard_group"], rows), column(gb, rows), column(fp8_bytes, rows),
        column(c["micro_batch"], rows),
        column(c["recompute"], rows, np.int64), column(c["virtual_stages"], rows),
        column(c["micro_batches"], rows), column(c["fused_cross_entropy"], rows, bool),
        column(c["embedding_in_pipeline_split"], rows, bool),
        column(c["framework"], rows, np.int64), column(c["gpu_memory_gb"], rows),
        column(parts[0], rows), column(parts[1], rows), DEEPSPEED_CODES,
        SYNCHRONOUS_ZERO3_CODES, figures)
    columns = dict(zip(KEYS, out))
    columns["fits"] = fits
    return columns


@kernel
def _activations(b, tp, sp, cp, flash, code, rfrac, pp, figures):
    s, h, replicated, sharded, scores_unfused, layers = (figures[0], figures[1], figures[2],
                                                          figures[3], figures[4], figures[5])
    rows = b.shape[0]
    stage = np.empty(rows)
    kept = np.empty(rows)
    for i in range(rows):
        t = tp[i]
        t_sp = t if sp[i] else 1.0
        scores = 0.0 if flash[i] else scores_unfused
        # activation_bytes_by_recompute
        sbh = s * b[i] * h / cp[i]
        none = sbh * (replicated / t_sp + sharded / t + scores / t)
        if code[i] == 0:
            per_layer = none
        elif code[i] == 1:
            per_layer = sbh * (replicated / t_sp + sharded / t)
        else:
            full = sbh * 2.0 / t_sp
            per_layer = rfrac[i] * full + (1 - rfrac[i]) * none
        stage[i] = per_layer * layers / pp[i]
        kept[i] = none
    return stage, kept


@functools.lru_cache(maxsize=64)
def _activation_figures(model: Transformer, fp8: bool) -> np.ndarray:
    """_activations' `figures`: activation_bytes_by_recompute's (Python floats, in its order),
    once per model value and FP8 or not (the kernel only reads them)."""
    h = model.hidden
    lin = 0.5 if fp8 else 1.0
    f = model.ffn_hidden / h * min(model.top_k, model.experts)
    ffn_units = (4.0 if model.gated_mlp else 2.0) * f + 2.0 * f * lin
    masks = 2.0 if model.dropout else 0.0
    return np.array([
        model.seq_len, h, 4.0 + 4.0 * lin + masks,
        2.0 + 4.0 * model.kv_ratio + 2.0 * lin + ffn_units,
        (5.0 if model.dropout else 2.0) * model.heads * model.seq_len / h, model.layers], float)


def transformer_activations(model: Transformer, c: dict, fp8: bool, code) -> tuple:
    """activation_parts of a transformer's candidates `c` (prepared columns), `code` their
    recompute modes, each 0, 1 or 2."""
    rows = np.asarray(c["micro_batch"]).shape[0]
    figures = _activation_figures(model, bool(fp8))
    return _activations(column(c["micro_batch"], rows), column(c["tp"], rows),
                        column(c["sequence_parallel"], rows, bool), column(c.get("cp", 1), rows),
                        column(c.get("flash_attention", True), rows, bool),
                        column(code, rows, np.int64),
                        column(c.get("recompute_fraction", 1.0), rows), column(c["pp"], rows),
                        figures)
