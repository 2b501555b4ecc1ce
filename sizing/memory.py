"""Memory per GPU: weights, gradients, optimizer state and activations under the layout."""
from __future__ import annotations

import numpy as np

from sizing import kernels, memory_kernel
from sizing.constants import per_gpu_lookup
from sizing.workload import (
    DEEPSPEED_16BIT_GRADIENTS_FROM_STAGE,
    DEEPSPEED_CODES,
    SYNCHRONOUS_ZERO3_CODES,
    Transformer,
    default_fp32_gradients,
)


def gradient_bytes_per_param(c: dict, constants, precision: str) -> np.ndarray:
    """Bytes of each gradient held and reduced: FP32 main gradients under Megatron's code
    (below DeepSpeed's ZeRO-2 for Megatron-DeepSpeed), unless the layout states
    grad_reduce_in_fp32."""
    if precision == "fp32":
        return np.full(np.shape(c["dp"]), constants.bytes_per_param_gradients_fp32)
    if "grad_reduce_in_fp32" in c:
        fp32 = np.asarray(c["grad_reduce_in_fp32"], bool)
    else:
        fp32 = default_fp32_gradients(np.asarray(c.get("framework", 0), int),
                                      np.asarray(c["zero_stage"], int))
    return np.where(fp32, 4.0, constants.bytes_per_param_gradients)

GB = 1e9


def activation_bytes_by_recompute(model: Transformer, micro_batch, tp, sequence_parallel,
                                  cp=1, flash_attention=True, fp8=False) -> tuple:
    """Bytes one layer saves for its backward without recompute, with selective and with full
    recompute (RECOMPUTE's order): Korthikanti et al. 2022 eqs. 1-4 (16-bit activations),
    generalised for GQA, FFN size, gated MLPs, dropout and FP8 linear inputs.

    Per layer: sbh x (10/t_sp + (4 + 4 kv/heads + 4 ffn/h x k)/t + 5 a s /(h t)), which is
    sbh(10 + 24/t + 5as/(ht)) for a plain GPT layer; selective recompute and fused (flash)
    attention drop the 5as/h term, full recompute keeps only the layer input 2sbh (/t with
    sequence parallel). Context parallelism splits s over cp ranks. The 10 are two norm
    inputs (4), the QKV and MLP inputs (2 + 2) and two dropout masks (2); the 24/t are Q and
    K (4), V (2), the output projection's input (2) and the MLP's inner activations (16).
    Without dropout the masks are not saved and the unfused score term is the softmax output
    alone (2as/h). In FP8, Transformer Engine saves each linear layer's input as its FP8 cast
    for the weight gradient (transformer_engine/pytorch/module/linear.py and
    layernorm_linear.py keep the FP8 input, one byte, when wgrad runs in FP8): the QKV, MLP,
    projection and second MLP inputs take half.
    """
    s, h, a = model.seq_len, model.hidden, model.heads
    b = np.asarray(micro_batch, float)
    t = np.asarray(tp, float)
    t_sp = np.where(np.asarray(sequence_parallel, bool), t, 1.0)
    lin = 0.5 if fp8 else 1.0  # bytes of a saved linear input per 16-bit byte
    k = min(model.top_k, model.experts)
    f = model.ffn_hidden / h * k
    # Gated: the two h->f outputs (4f) and the f-wide second input (2f); plain: the
    # activation's input (2f) and the second input (2f).
    ffn_units = (4.0 if model.gated_mlp else 2.0) * f + 2.0 * f * lin
    masks = 2.0 if model.dropout else 0.0
    replicated = 4.0 + 4.0 * lin + masks
    sharded = 2.0 + 4.0 * model.kv_ratio + 2.0 * lin + ffn_units
    scores = np.where(np.asarray(flash_attention, bool), 0.0,
                      (5.0 if model.dropout else 2.0) * a * s / h)
    sbh = s * b * h / np.asarray(cp, float)
    none = sbh * (replicated / t_sp + sharded / t + scores / t)
    selective = sbh * (replicated / t_sp + sharded / t)
    full = sbh * 2.0 / t_sp
    return none, selective, full


def _by_code(code: np.ndarray, choices: tuple) -> np.ndarray:
    """np.choose(code, choices) for three choices (and its error on a code out of range) by
    two np.where: a few times cheaper than np.choose's general iteration."""
    if code.size and (code.min() < 0 or code.max() >= len(choices)):
        return np.choose(code, choices)  # raises, as the choice alone would
    none, selective, full = choices
    return np.where(code == 0, none, np.where(code == 1, selective, full))


def activation_parts(model, c: dict, precision: str) -> tuple[np.ndarray, np.ndarray]:
    """(bytes one micro-batch saves for its backward on this GPU, which is what activation
    offload moves; bytes of one layer's whole activation set, the working set of a recomputed
    layer). Computed once per evaluation and shared by the time and memory models."""
    b = np.asarray(c["micro_batch"], float)
    if not isinstance(model, Transformer):
        acts = model.activation_bytes_per_sample * b
        return (acts if precision == "fp32" else acts / 2), np.zeros_like(b)
    code = np.asarray(c["recompute"], int)
    fp8 = precision == "fp8"
    if kernels.ENABLED and code.size and code.min() >= 0 and code.max() <= 2:
        # compiled (the reference: below, which also refuses a mode out of range)
        return memory_kernel.transformer_activations(model, c, fp8, code)
    by_recompute = activation_bytes_by_recompute(model, c["micro_batch"], c["tp"],
                                                 c["sequence_parallel"], c.get("cp", 1),
                                                 c.get("flash_attention", True), fp8)
    kept = by_recompute[0]
    per_layer = _by_code(code, by_recompute)
    rfrac = np.asarray(c.get("recompute_fraction", 1.0), float)
    per_layer = np.where(code == 2, rfrac * per_layer + (1 - rfrac) * kept, per_layer)
    return per_layer * model.layers / np.asarray(c["pp"], float), kept


def fp8_weight_bytes_per_param(c: dict, constants) -> np.ndarray:
    """Bytes each FP8-linear weight adds in FP8 training, per candidate: Transformer Engine
    keeps its FP8 cast across micro-batches, with a transposed copy where the GPU's FP8 GEMMs
    take only the TN layout (catalog fp8_weight_transpose_bytes_per_param); with
    fp8_param_gather that FP8 weight is the parameter itself, in place of the 16-bit one."""
    rows = np.atleast_1d(c["dp"]).shape[0]
    transpose = per_gpu_lookup(constants, c.get("gpu_id"), rows)(
        "fp8_weight_transpose_bytes_per_param")
    primary = np.asarray(c.get("fp8_param_gather", False), bool)
    return (constants.bytes_per_param_weights_fp8 + transpose
            - np.where(primary, constants.bytes_per_param_weights, 0.0))


def _sharded_gb(model, c: dict, nbytes: float, from_stage: int) -> np.ndarray:
    """GB per GPU of a state of `nbytes` per parameter, sharded from ZeRO stage `from_stage`
    on: the distributed optimizer / ZeRO shards over data x context parallel ranks, or over the
    hybrid-sharding group; expert parameters over the expert-data-parallel ranks."""
    tp, pp, ep = (np.asarray(c[k], float) for k in ("tp", "pp", "ep"))
    dp, cp = np.asarray(c["dp"], float), np.asarray(c.get("cp", 1), float)
    shard_group = np.asarray(c.get("shard_group", 0), float)
    expert = model.expert_params if isinstance(model, Transformer) else 0.0
    dense_local = (model.params - expert) / (tp * pp)
    expert_local = expert / (tp * pp * ep)
    shard = np.where(shard_group > 0, shard_group * cp, dp * cp)
    on = np.asarray(c["zero_stage"], int) >= from_stage
    return (np.where(on, dense_local / shard, dense_local)
            + np.where(on, expert_local / np.maximum(shard / ep, 1.0), expert_local)) * nbytes / GB


def host_offload(model, c: dict, constants, ob: float, stage: np.ndarray) -> dict:
    """What offload puts in one node's host memory, GB, and what it may use of it.

    Every GPU of the node offloads its own share: ZeRO-Offload's optimizer state (the FP32
    master weights and Adam moments, as sharded on the GPU), and with activation offload the
    saved activations the first pipeline stage keeps in flight beyond the two layers that stay
    resident (memory_per_gpu's `resident`); the first stage's is the most any stage offloads
    and fills whole nodes (pipeline stages are the outermost ranks). The host keeps the
    policy's share free for the OS and the data loader; a server that does not state its host
    memory (inf) is not checked.
    """
    offload = np.asarray(c.get("offload", 0), int)
    gpn = np.asarray(c.get("gpus_per_node", 1), float)
    host = np.asarray(c.get("host_memory_gb", np.inf), float)
    capacity = host * (1.0 - constants.host_memory_reserve_share)
    if capacity.shape != offload.shape:  # mostly a column already: broadcast_to costs more
        capacity = np.broadcast_to(capacity, offload.shape)
    # offload is rare: most batches put nothing on the host (count_nonzero: cheaper than
    # .any() on a one-row batch)
    if not np.count_nonzero(offload >= 1):
        return {"host_offload_gb": np.zeros(offload.shape), "host_capacity_gb": capacity}
    optim = np.where(offload >= 1, _sharded_gb(model, c, ob, 1), 0.0)
    acts = np.zeros(offload.shape)
    if isinstance(model, Transformer) and np.count_nonzero(offload == 2):
        pp = np.asarray(c["pp"], float)
        v = np.asarray(c["virtual_stages"], float)
        in_flight = np.minimum(pp, np.asarray(c["micro_batches"], float))
        interleave = np.where(v > 1, 1.0 + (pp - 1) / (pp * v), 1.0)
        kept = stage * in_flight * interleave - 2.0 * stage * pp / model.layers
        acts = np.where(offload == 2, np.maximum(kept, 0.0), 0.0) / GB
    return {"host_offload_gb": gpn * (optim + acts), "host_capacity_gb": capacity}


def held_gradient_bytes_per_param(c: dict, constants, grad_bytes, precision: str) -> np.ndarray:
    """Bytes of gradient each parameter holds: those it reduces (gradient_bytes_per_param)
    and, under DeepSpeed's BF16 optimizer (16-bit weights, FP32 gradients: DeepSpeed's
    engine below ZeRO-2, default_fp32_gradients), the 16-bit gradients autograd writes too.
    It adds them into the FP32 ones after each micro-batch and keeps them
    (deepspeed/runtime/bf16_optimizer.py, BF16_Optimizer.backward(..., clear_lp_grads=False);
    the pipeline engine's _exec_backward_pass calls update_hp_grads(clear_lp_grads=False)):
    BLOOM's prequel, of that optimizer, 'the additional memory usage is 4bytes x params and
    it's not sharded across gpus'."""
    if precision == "fp32":
        return grad_bytes
    framework = np.asarray(c.get("framework", 0), int)
    sixteen = constants.bytes_per_param_gradients
    bf16_optimizer = (DEEPSPEED_CODES[framework] & (np.asarray(grad_bytes) > sixteen)
                      & (np.asarray(c["zero_stage"]) < DEEPSPEED_16BIT_GRADIENTS_FROM_STAGE))
    return np.where(bf16_optimizer, np.asarray(grad_bytes, float) + sixteen, grad_bytes)


def _transformer_peak_stage(model, c: dict, constants, wb: float, gb, ob: float, fp8_bytes,
                            parts: tuple) -> tuple:
    """(weights, gradients, optimizer, activations, logits, buffers) GB per GPU of the
    pipeline stage that holds the most: the first (the embedding, the most micro-batches in
    flight), the second (a middle stage: with the embedding in the split it holds one layer
    more than the first) or the last (the output layer and the logits)."""
    tp, pp, ep = (np.asarray(c[k], float) for k in ("tp", "pp", "ep"))
    dp, cp = np.asarray(c["dp"], float), np.asarray(c.get("cp", 1), float)
    zero = np.asarray(c["zero_stage"], int)
    offload = np.asarray(c.get("offload", 0), int)
    shard_group = np.asarray(c.get("shard_group", 0), float)
    shard = np.where(shard_group > 0, shard_group * cp, dp * cp)
    expert_shard = np.maximum(shard / ep, 1.0)
    L = model.layers
    dense = model.params - model.expert_params
    per_layer = (dense - model.embedding_params) / L
    expert_per_layer = model.expert_params / L
    fp8_dense, fp8_expert = model.fp8_linear_params if np.any(fp8_bytes) else (0.0, 0.0)
    ends_n, middle_n = model.pipeline_stage_layers(pp, c.get("embedding_in_pipeline_split", False))
    # The first and last stages each hold one vocab x hidden matrix (the word embedding; the
    # output layer, or the tied embedding's copy Megatron keeps there); one stage, all of them.
    matrix = model.vocab * model.hidden
    one = pp == 1
    ends_embedding = np.where(one, model.embedding_params, matrix)

    def states(n, embedding):
        d = (n * per_layer + embedding) / tp
        e = n * expert_per_layer / (tp * ep)

        def sharded(nbytes, from_stage):  # bytes
            on = zero >= from_stage
            return (np.where(on, d / shard, d) + np.where(on, e / expert_shard, e)) * nbytes

        w = sharded(wb, 3)
        if np.any(fp8_bytes):
            fp8_local = n * (fp8_dense + fp8_expert / ep) / (L * tp)
            w = w + np.where(zero < 3, fp8_local * fp8_bytes, 0.0)
        # ZeRO-Offload keeps the FP32 master weights and Adam moments in host memory.
        o = np.where(offload >= 1, 0.0, sharded(ob, 1))
        return w / GB, sharded(gb, 2) / GB, o / GB

    b = np.asarray(c["micro_batch"], float)
    stage, kept = parts
    layer_acts = stage * pp / L  # one micro-batch's saved activations of one layer
    code = np.asarray(c["recompute"], int)
    v = np.asarray(c["virtual_stages"], float)
    m = np.asarray(c["micro_batches"], float)
    # 1F1B: stage i keeps min(p - i, m) micro-batches of its layers in flight; interleaving
    # adds (1 + (p-1)/(p v)) (Korthikanti section 4.2.3).
    interleave = np.where(v > 1, 1.0 + (pp - 1) / (pp * v), 1.0)
    # Full recompute re-runs one layer's forward inside its backward: that layer's whole
    # activation set is alive at once (Korthikanti section 4.3).
    working = np.where(code == 2, kept, 0.0)
    # Activation offload keeps about the layer computing and the one being fetched.
    host_acts = offload == 2

    def resident(acts):
        return np.where(host_acts, 2.0 * layer_acts, acts) if host_acts.any() else acts

    first_acts = resident(layer_acts * ends_n * np.minimum(pp, m) * interleave) + working
    middle_acts = resident(layer_acts * middle_n * np.minimum(pp - 1, m) * interleave) + working
    # The last stage holds the logits twice: the 16-bit output of the final GEMM and the
    # FP32 copy cross entropy works on (Megatron's `vocab_parallel_logits.float()`). They and
    # a recomputed layer's working set are never alive together: autograd runs the loss's and
    # the output layer's backward, which frees the logits, before the last layer's backward
    # recomputes its forward.
    logits_b = np.where(np.asarray(c.get("fused_cross_entropy", False), bool), 0.0,
                        6.0 * model.seq_len / cp * b * model.vocab / tp)
    last_acts = resident(layer_acts * ends_n) + np.maximum(working, logits_b)
    first = states(ends_n, ends_embedding)
    middle = states(middle_n, 0.0)
    last = states(ends_n, ends_embedding)
    totals = [sum(s) + a / GB for s, a in ((first, first_acts), (middle, middle_acts),
                                           (last, last_acts))]
    # A middle stage exists from pp 3; the last is the only one at pp 1. Ties go to the last,
    # then to the first.
    is_last = one | ((totals[2] >= totals[0]) & ((pp < 3) | (totals[2] >= totals[1])))
    is_middle = ~is_last & (pp >= 3) & (totals[1] > totals[0])

    def pick(f, mid, la):
        return np.where(is_last, la, np.where(is_middle, mid, f))

    weights, grads, optim = (pick(*three) for three in zip(first, middle, last))
    logits_peak = np.where(is_last & (logits_b >= working), logits_b, 0.0)
    acts = (pick(first_acts, middle_acts, last_acts) - logits_peak) / GB
    # FSDP gathers one unit (a layer) to compute and prefetches the next, and holds the
    # unit's unsharded gradients for its reduce-scatter (PyTorch FSDP notes, 'two
    # all-gather output tensors alive at once'). DeepSpeed's ZeRO-3 gathers parameter by
    # parameter as modules run and keeps at most its max-live count (or the one tensor
    # being used, when larger), and reduces gradients through a bucket of its reduce size.
    unit = per_layer / tp
    largest = max(model.hidden * model.ffn_hidden, model.hidden * model.vocab) / tp
    live = np.minimum(2.0 * unit, np.maximum(largest, constants.deepspeed_max_live_params))
    reducing = np.minimum(unit, np.maximum(largest, constants.deepspeed_reduce_bucket_params))
    framework = np.asarray(c.get("framework", 0), int)
    deepspeed = DEEPSPEED_CODES[framework]
    # torch.distributed.all_gather's tensor-list form (DeepSpeed before v0.5.5) receives
    # into a flat buffer of its own and then copies it into the list's views of
    # DeepSpeed's buffer (ProcessGroupNCCL's flatten_for_scatter_gather): the tensor being
    # gathered is held twice until the gather completes.
    listed = np.where(SYNCHRONOUS_ZERO3_CODES[framework], np.minimum(unit, largest), 0.0)
    gathered = np.where(deepspeed, wb * (live + listed) + gb * reducing, (2.0 * wb + gb) * unit)
    buffers = np.where(zero == 3, gathered, 0.0) / GB
    return weights, grads, optim, acts, logits_peak / GB, buffers


def memory_per_gpu(model, c: dict, constants, precision: str, parts=None,
                   grad_bytes=None) -> dict:
    """Per-GPU memory in GB by part, for arrays of layouts in `c`, and what offload puts in
    its node's host memory (host_offload).

    margin_gb is what is left beyond the headroom the policy keeps free; negative: no fit.
    fits: within the GPU with its headroom, and the offloaded state within the host's share.
    `parts` (activation_parts) and `grad_bytes` (gradient_bytes_per_param): when known.
    """
    parts = parts if parts is not None else activation_parts(model, c, precision)
    columns = _gpu_memory(model, c, constants, precision, parts, grad_bytes)
    ob = (constants.bytes_per_param_optimizer_fp32 if precision == "fp32"
          else constants.bytes_per_param_optimizer)
    host = host_offload(model, c, constants, ob, parts[0])
    columns.update(host)
    columns["fits"] = columns["fits"] & (host["host_offload_gb"] <= host["host_capacity_gb"])
    return columns


def _gpu_memory(model, c: dict, constants, precision: str, parts: tuple,
                grad_bytes=None) -> dict:
    """memory_per_gpu's per-GPU columns (`parts`: activation_parts; `grad_bytes`:
    gradient_bytes_per_param, when known)."""
    if grad_bytes is None:
        grad_bytes = gradient_bytes_per_param(c, constants, precision)
    dp = np.asarray(c["dp"], float)
    tp = np.asarray(c["tp"], float)
    pp = np.asarray(c["pp"], float)
    ep = np.asarray(c["ep"], float)
    cp = np.asarray(c.get("cp", 1), float)
    zero = np.asarray(c["zero_stage"], int)
    offload = np.asarray(c.get("offload", 0), int)
    shard_group = np.asarray(c.get("shard_group", 0), float)
    if precision == "fp32":
        wb, ob = constants.bytes_per_param_weights_fp32, constants.bytes_per_param_optimizer_fp32
    else:
        wb, ob = constants.bytes_per_param_weights, constants.bytes_per_param_optimizer
    is_tf = isinstance(model, Transformer)
    grad_bytes = held_gradient_bytes_per_param(c, constants, grad_bytes, precision)
    # FP8 weight copies (fp8_weight_bytes_per_param) are held beside weights ZeRO-3 does not
    # shard: at stage 3 a unit's weights are gathered to compute and freed, and its FP8 cast
    # with them (Transformer Engine caches none under FSDP2, linear.py; Megatron-FSDP drops
    # the transpose cache unless keep_fp8_transpose_cache).
    fp8 = is_tf and precision == "fp8"
    fp8_bytes = fp8_weight_bytes_per_param(c, constants) if fp8 else 0.0
    if is_tf and kernels.ENABLED:  # compiled (the reference: the numpy below)
        columns = {"dp": dp, "tp": tp, "pp": pp, "ep": ep, "cp": cp, "zero_stage": zero,
                   "offload": offload, "shard_group": shard_group,
                   "micro_batch": c["micro_batch"], "recompute": c["recompute"],
                   "virtual_stages": c["virtual_stages"], "micro_batches": c["micro_batches"],
                   "fused_cross_entropy": c.get("fused_cross_entropy", False),
                   "embedding_in_pipeline_split": c.get("embedding_in_pipeline_split", False),
                   "framework": c.get("framework", 0), "gpu_memory_gb": c["gpu_memory_gb"]}
        return memory_kernel.transformer_memory(
            model, columns, constants, wb, grad_bytes, ob, fp8_bytes, parts)
    if not is_tf:
        weights = _sharded_gb(model, c, wb, 3)
        grads = _sharded_gb(model, c, grad_bytes, 2)
        optim = _sharded_gb(model, c, ob, 1)
        if (offload >= 1).any():  # offload is rare: most batches need no selection
            optim = np.where(offload >= 1, 0.0, optim)
        zeros = np.zeros_like(weights)
        parts_gb = (weights, grads, optim, parts[0] / GB, zeros, zeros)
    else:
        parts_gb = _transformer_peak_stage(model, c, constants, wb, grad_bytes, ob, fp8_bytes,
                                           parts)
    weights, grads, optim, acts, logits, buffers = parts_gb
    reserved = np.full_like(weights, constants.runtime_reserved_gb)
    total = weights + grads + optim + acts + logits + buffers + reserved
    capacity = np.asarray(c["gpu_memory_gb"], float)
    # "Fits" keeps the policy's share of capacity free (allocator fragmentation, buffers the
    # estimate leaves out), so a plan never rests on a few megabytes to spare.
    headroom = capacity * constants.memory_headroom_share
    return {
        "weights_gb": weights,
        "gradients_gb": grads,
        "optimizer_gb": optim,
        "activations_gb": acts,
        "logits_gb": logits,
        "buffers_gb": buffers,
        "reserved_gb": reserved,
        "total_gb": total,
        "capacity_gb": capacity,
        "headroom_gb": headroom,
        "fits": total + headroom <= capacity,
        "margin_gb": capacity - headroom - total,
    }
