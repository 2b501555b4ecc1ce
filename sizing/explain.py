"""The model's numbers in words: a configuration's bottleneck, its assumptions, why it ranks."""
from __future__ import annotations

import math

from sizing.collectives import CHOSEN
from sizing.compute import conv_saturation
from sizing.hardware import Cluster
from sizing.topology import TIERS
from sizing.workload import (
    FRAMEWORK_BUCKETS,
    FRAMEWORK_SYNCHRONOUS_ZERO3,
    FRAMEWORKS,
    GenericModel,
    Layout,
    Transformer,
)

# Every term of the step's breakdown but the compute itself (sizing.step.BREAKDOWN_KEYS, the
# hidden times aside: they cost nothing but the overlap slowdown), with its words.
_OVERHEADS = (("tp", "tp_exposed_s"), ("ep", "ep_exposed_s"), ("cp", "cp_exposed_s"),
              ("pp", "pp_exposed_s"), ("dp", "dp_exposed_s"), ("zero", "zero_exposed_s"),
              ("bubble", "bubble_s"), ("straggler", "straggler_s"),
              ("compute_straggler", "compute_straggler_s"), ("overlap", "overlap_slowdown_s"),
              ("offload", "offload_exposed_s"), ("optimizer", "optimizer_s"))
_WORDS = {"tp": "tensor-parallel communication", "ep": "expert-parallel all-to-all",
          "cp": "the context-parallel exchange of keys and values",
          "pp": "pipeline sends", "bubble": "the pipeline bubble",
          "straggler": "waiting for the slowest rank's transfers",
          "compute_straggler": "waiting for the slowest GPU's compute",
          "overlap": "compute slowed by the communication hidden under it",
          "offload": "activation offload to host memory",
          "optimizer": "the optimizer step"}

# The step's dp and zero terms by ZeRO stage (sizing.step assemble): without ZeRO dp is the
# gradients' all-reduce; from ZeRO-1 on it is their reduce-scatter, and zero is the weights'
# all-gather (after the optimizer step or, overlapped, under the next forward) at ZeRO-1 and
# ZeRO-2, the layer-by-layer parameter gathers at ZeRO-3.
_DP_COLLECTIVE = {0: "all-reduce", 1: "reduce-scatter", 2: "reduce-scatter", 3: "reduce-scatter"}
_ZERO_WORDS = {0: "the weights' all-gather",
               1: "the distributed optimizer's all-gather of the updated weights",
               2: "the all-gather of the updated weights after the optimizer step",
               3: "ZeRO-3/FSDP parameter gathers"}

# A step is called compute-bound only when its overheads together take at most half as long as
# its compute: removing every one of them would then speed it up by at most 1.5x. Past that,
# the largest overhead is what limits it. A choice of words, not a fitted constant.
COMPUTE_BOUND_OVERHEAD_RATIO = 0.5


def _overhead_words(layout: Layout) -> dict:
    """Each overhead of the step in words, its data-parallel terms as the layout's ZeRO stage
    runs them."""
    return {**_WORDS, "dp": f"the exposed gradient {_DP_COLLECTIVE[layout.zero_stage]}",
            "zero": _ZERO_WORDS[layout.zero_stage]}


def _pct(x, step):
    return f"{100 * x / step:.0f}%"


def offloaded(layout: Layout, gb: float) -> str:
    """What offload puts on a node's host, in words."""
    what = "optimizer state and activations" if layout.offload == "optimizer+activations" \
        else "optimizer state"
    return f"offload puts {gb:.0f} GB of {what} in each node's host memory"


def bottleneck(cluster: Cluster, layout: Layout, r: dict, memory: dict) -> str:
    """The one thing that limits the step, and what would help."""
    step = float(r["step_time_s"])
    fabric = cluster.fabric.name
    if not memory["fits"] and memory["host_offload_gb"] > memory["host_capacity_gb"]:
        return (f"Does not fit: {offloaded(layout, memory['host_offload_gb'])} but "
                f"{memory['host_capacity_gb']:.0f} GB of it may hold them, the rest kept for the "
                "OS and the data loader; offload less or shard more (ZeRO, tensor or pipeline "
                "parallelism).")
    if not memory["fits"]:
        usable = memory["capacity_gb"] - memory["headroom_gb"]
        return (f"Does not fit: needs {memory['total_gb']:.0f} GB per GPU but the "
                f"{cluster.gpu.name} has {memory['capacity_gb']:.0f} GB, {usable:.0f} GB of it "
                f"usable with {memory['headroom_gb']:.0f} GB kept free; shard more "
                f"(ZeRO/FSDP, tensor or pipeline parallelism) or recompute activations.")
    if r["tp_cross_node"]:
        return (f"Tensor parallelism of {layout.tp} spans nodes of {cluster.gpus_per_node} GPUs, "
                f"so its per-layer all-reduces cross the {fabric} instead of staying on "
                f"{cluster.gpu.intra_link}: {_pct(r['tp_exposed_s'], step)} of the step; keep "
                f"tp within a node.")
    compute = float(r["compute_s"])
    overhead = {p: float(r[k]) for p, k in _OVERHEADS}
    part = max(overhead, key=overhead.get)
    waiting = sum(overhead.values())
    share = float(r["communication_share"])
    words = _overhead_words(layout)
    if waiting <= COMPUTE_BOUND_OVERHEAD_RATIO * compute:
        return (f"Compute-bound: {_pct(compute, step)} of the step is GPU math; the largest "
                f"overhead is {words[part]} at {_pct(overhead[part], step)} (communication "
                f"{100 * share:.0f}% in all).")
    collective = _DP_COLLECTIVE[layout.zero_stage]
    sentences = {
        "tp": (f"Tensor-parallel all-reduces take {_pct(overhead['tp'], step)} of the step; "
               f"a smaller tp or faster intra-node links would help."),
        "ep": (f"Expert-parallel all-to-all over the {fabric} takes "
               f"{_pct(overhead['ep'], step)} of the step: GPUs wait on the network."),
        "pp": (f"Pipeline sends between stages take {_pct(overhead['pp'], step)} of the step: "
               f"GPUs wait on the {fabric}."),
        "dp": (f"Network-bound: the gradient {collective} over the {fabric} is exposed for "
               f"{_pct(overhead['dp'], step)} of the step while GPUs wait; more inter-node "
               f"bandwidth, fewer nodes or a larger batch per GPU would help."),
        "zero": (f"Network-bound: GPUs wait on {words['zero']} over the {fabric}, exposed "
                 f"for {_pct(overhead['zero'], step)} of the step."),
        "bubble": (f"The pipeline bubble idles GPUs for {_pct(overhead['bubble'], step)} of the "
                   f"step; more micro-batches or interleaved stages would shrink it."),
        "cp": (f"Context-parallel exchanges of keys and values take "
               f"{_pct(overhead['cp'], step)} of the step; a smaller cp would help."),
        "straggler": (f"Waiting for the slowest rank on the {fabric} costs "
                      f"{_pct(overhead['straggler'], step)} of the step; a more stable fabric "
                      f"would help."),
        "compute_straggler": (f"Waiting for the slowest of {cluster.gpus} GPUs, whose speeds "
                              f"differ, costs {_pct(overhead['compute_straggler'], step)} of "
                              f"the step; fewer GPUs in lockstep would help."),
        "overlap": (f"Communication hidden under compute shares its SMs and memory bandwidth "
                    f"and slows it by {_pct(overhead['overlap'], step)} of the step; less "
                    f"traffic per step (a larger batch per GPU) would help."),
        "offload": (f"Activation offload to host memory is exposed for "
                    f"{_pct(overhead['offload'], step)} of the step; offloading less would "
                    f"help."),
        "optimizer": (f"The optimizer step takes {_pct(overhead['optimizer'], step)} of the "
                      f"step; a larger batch per step spreads it over more tokens."),
    }
    # Past the compute-bound line the compute's and the communication's shares still say how
    # far from balanced the step is.
    return (f"{sentences[part]} GPU math takes {_pct(compute, step)} of the step, "
            f"communication {100 * share:.0f}% in all.")


# The fused attention kernels in words (sizing.workload.ATTENTION_KERNELS), and the constant
# each one's efficiency is read from (a GPU without its own kernel generation falls back to
# FlashAttention-2's, sizing.constants.FALLBACKS).
_ATTENTION_WORDS = {"flash2": "fused attention as FlashAttention-2",
                    "flash3": "fused attention at the GPU's own kernel (FlashAttention-3 or "
                              "cuDNN on Hopper, FlashAttention-4 on Blackwell)",
                    "triton": "fused attention as FlashAttention in Triton"}
_ATTENTION_TABLES = {"flash2": "flash2_attention_efficiency",
                     "flash3": "flash3_attention_efficiency",
                     "triton": "triton_attention_efficiency"}


def attention_words(kernel: str, gpu, constants) -> str:
    """The fused attention the estimate assumes on this GPU, and whether its efficiency is
    measured or an estimate, as catalog model.yaml says."""
    table, estimated = constants.per_gpu_source(_ATTENTION_TABLES[kernel], gpu.id)
    words = _ATTENTION_WORDS[kernel]
    if kernel == "flash3" and table != _ATTENTION_TABLES["flash3"]:
        words = "fused attention as FlashAttention-2 (the model has no later kernel for this GPU)"
    if estimated:
        share = constants.per_gpu(table, gpu.id)
        words += (f" at {share:.0%} of its 16-bit peak, an estimate ({estimated}; catalog "
                  f"model.yaml {table})")
    return words


def collective_library(gpu) -> str:
    """What the collectives sentence assumes: AMD's GPUs (xGMI inside the node) run RCCL, which
    the model prices with NCCL's algorithms and tuning tables, as no RCCL tables are read."""
    if gpu.intra_link == "xgmi":
        return "RCCL, modelled with NCCL 2.20's algorithms and tuning tables"
    return "NCCL 2.20's algorithms"

# What each kind of collective of a step is, for the words.
_COLLECTIVES = (("tp", "tensor-parallel all-reduce"), ("ep", "expert all-to-all"),
                ("dp", "gradient all-reduce"), ("zero", "gradient reduce-scatter"))
_TIER_WORDS = {"nvlink": "inside the node", "leaf": "through the leaf switches",
               "spine": "across the spine", "core": "across the core"}


def collective_routes(layout, r) -> str:
    """Which algorithm each collective of the step ran and which network tier it crossed."""
    parts = []
    for key, words in _COLLECTIVES:
        tier = TIERS[int(r[f"{key}_tier"])]
        sharded = layout.zero_stage >= 1  # the gradients are reduce-scattered, not all-reduced
        if tier == "none" or (key == "zero" and not sharded) or (key == "dp" and sharded):
            continue
        parts.append(f"{words} {CHOSEN[int(r[f'{key}_algorithm'])]} {_TIER_WORDS[tier]}")
    return "; ".join(parts) if parts else "no collective crosses a GPU boundary"


def _buckets(layout: Layout, constants) -> str:
    """The gradient buckets of the layout's framework, in words (sizing.step._bucket_bytes)."""
    rule = FRAMEWORK_BUCKETS[layout.framework]
    if layout.grad_bucket_mb > 0:
        return f"{layout.grad_bucket_mb:g} MB buckets (as stated)"
    if rule == "megatron-core" and not layout.overlaps_gradients:
        return "one bucket (Megatron-Core without overlap_grad_reduce)"
    if rule == "megatron-core":
        params = max(constants.megatron_bucket_params_min,
                     constants.megatron_bucket_params_per_rank * layout.dp)
        return f"buckets of {params / 1e6:g}M parameters (Megatron-Core: max(40M, 1M x dp))"
    if rule == "deepspeed":
        return f"buckets of {constants.deepspeed_reduce_bucket_params:g} elements (DeepSpeed)"
    return f"{constants.dp_bucket_mb:g} MB buckets"


def _backward_window(layout: Layout) -> str:
    """What the step's gradient reduction hides behind (sizing.step._interleaved_windows)."""
    if layout.virtual_stages > 1:
        return ("the backwards still to run, chunk by chunk (each of the "
                f"{layout.virtual_stages} interleaved chunks reduced after its last backward)")
    return "the last micro-batch's backward"


def pipeline_pace(model: Transformer, layout: Layout) -> str:
    """Which pipeline stage paces the step, and by how much more forward work than the average
    stage (Transformer.pacing_stage), as a clause."""
    layers, output = (float(x) for x in model.pacing_stage(layout.pp,
                                                           layout.embedding_in_pipeline_split))
    layer = model.layer_forward_flops_per_token / model.layers
    logits = model.logits_forward_flops_per_token
    paced = layers * layer + (logits if output else 0.0)
    average = (model.layers * layer + logits) / layout.pp
    stage = (f"the last: its {layers:g} layers and the output layer with the loss" if output
             else f"one of {layers:g} layers")
    split = ("the embedding and the loss counted as a layer each in the split "
             "(embedding_in_pipeline_split)" if layout.embedding_in_pipeline_split
             else "the layers split without the embedding and the loss "
                  "(embedding_in_pipeline_split false)")
    return (f"{split}, every micro-batch waits on the busiest of the {layout.pp} stages, "
            f"{stage}, {100 * (paced / average - 1):.0f}% more forward work than the average "
            "stage")


def assumptions(cluster, model, training, layout, constants, r) -> list:
    """What the estimate assumes that a customer could check or dispute."""
    f = cluster.fabric
    reduced = not f.rdma or not cluster.uses_gpudirect or not f.lossless
    state_bytes = (constants.bytes_per_param_weights + constants.bytes_per_param_gradients
                   + constants.bytes_per_param_optimizer)
    out = []
    add = out.append
    attention = (attention_words(layout.fused_attention_kernel, cluster.gpu, constants)
                 if layout.flash_attention else "unfused attention")
    if not cluster.gpu.fused_attention:
        # FlashAttention-2 needs Ampere or later; xFormers' memory-efficient kernel runs on
        # Volta, but the model has no measured efficiency for it.
        attention += (f" ({cluster.gpu.name} runs no FlashAttention-class kernel; xFormers-class "
                      "memory-efficient attention is not priced)")
    add(f"Compute ({layout.framework}): GEMMs at {100 * float(r['compute_efficiency']):.0f}% of "
        f"the {cluster.gpu.name} dense 16-bit peak for this per-GPU work size"
        f"{', linear layers in FP8' if training.precision == 'fp8' else ''}; "
        f"{attention}, "
        "norms, activations and the optimizer step priced separately (attention FLOPs as "
        "executed, memory-bound work by its bytes over achievable HBM bandwidth).")
    add(f"Inter-node bandwidth {float(r['inter_node_bandwidth_gbs']):.1f} GB/s per node "
        f"({cluster.server.nics_per_node} x {cluster.nic_rate_effective_gbps:g} Gb/s x "
        f"{f.achievable_fraction:g} achievable fraction{', then reduced' if reduced else ''}).")
    add(f"Collectives: {collective_library(cluster.gpu)} (ring, tree, NVLS, NVLS-Tree, "
        "CollNet) and protocols with its latency model, the fastest chosen per message size "
        "as NCCL does; "
        + collective_routes(layout, r) + ".")
    if layout.tp_comm_overlap and layout.tp > 1:
        # What the step priced says where the overlap applied (sizing.step._tp_exposed_share):
        # nothing hidden means the group crosses nodes.
        hidden = float(r["tp_hidden_s"])
        exposed = float(r["tp_exposed_s"]) / (float(r["tp_exposed_s"]) + hidden or 1.0)
        add("Tensor-parallel overlap (Transformer Engine userbuffers, tp_comm_overlap): "
            + (f"the all-gathers and reduce-scatters run inside the layer's GEMMs, "
               f"{100 * exposed:.1f}% of that traffic exposed (the last of "
               "four splits of the forward's reduce-scatters); the hidden rest slows the GEMMs "
               "it shares SMs with."
               if hidden > 0 else
               "not applied: the tensor-parallel group crosses nodes, where userbuffers' "
               "NVLink exchanges do not reach; its traffic is exposed."))
    if layout.overlaps_gradients and layout.zero_stage == 1 and layout.overlaps_param_gather:
        add(f"Distributed optimizer: the gradients' reduce-scatter in {_buckets(layout, constants)} "
            f"overlaps {_backward_window(layout)} and the weights' all-gather "
            f"{'(in FP8) ' if layout.fp8_param_gather and training.precision == 'fp8' else ''}"
            f"the next step's forward, at {100 * constants.overlap_efficiency:.0f}% efficiency; "
            "the last bucket of each is always exposed.")
    elif layout.zero_stage == 3 and layout.framework in FRAMEWORK_SYNCHRONOUS_ZERO3:
        add("ZeRO-3 as DeepSpeed ran it before v0.5.5: one all-gather and one reduce-scatter "
            "per weight matrix, each through lists of per-rank tensors "
            f"({constants.tensor_list_collective_us_per_rank:g} us of host time per rank); "
            "the device is synchronised before every gather, so only the network time of a "
            "prefetched gather hides behind the module before it, and the gradients' "
            "reduce-scatters are exposed.")
    elif layout.zero_stage == 1:
        add(f"ZeRO-1: the gradients' reduce-scatter in {_buckets(layout, constants)} "
            + (f"overlaps {_backward_window(layout)} at "
               f"{100 * constants.overlap_efficiency:.0f}% efficiency (the last bucket exposed)"
               if layout.overlaps_gradients else "runs after the backward pass")
            + "; the weights' all-gather runs after the optimizer step, exposed.")
    elif layout.zero_stage == 2:
        add(f"ZeRO-2: each micro-batch's gradients are reduce-scattered in "
            f"{_buckets(layout, constants)} "
            + (f"as its backward produces them, at {100 * constants.overlap_efficiency:.0f}% "
               "efficiency (the last bucket exposed)" if layout.overlaps_gradients
               else "after its backward")
            + "; the weights' all-gather runs after the optimizer step, exposed.")
    elif layout.zero_stage == 3:
        add("ZeRO-3/FSDP: the weights are all-gathered layer by layer ahead of the forward and "
            "again of the backward, the gradients reduce-scattered layer by layer behind it, "
            f"hidden at {100 * constants.overlap_efficiency:.0f}% efficiency; the first "
            "layer's gather and the last layer's reduce-scatter wait.")
    elif layout.overlaps_gradients:
        add(f"Gradient all-reduce in {_buckets(layout, constants)} overlaps "
            f"{_backward_window(layout)} at {100 * constants.overlap_efficiency:.0f}% efficiency; "
            "the last bucket is always exposed.")
    else:
        add("Gradient all-reduce after the backward pass, not overlapped "
            f"({layout.framework}'s usual setting or overlap_grad_reduce false).")
    add("Stragglers: each inter-node collective waits for the slowest rank of its own group "
        f"(jitter cv {f.jitter_cv:g}, stretch 1 + cv*sqrt(2 ln N) for N ranks in the group).")
    add(f"Compute stragglers: GPUs of one model differ in speed (cv "
        f"{constants.compute_jitter_cv:g}); each step waits for the slowest of {cluster.gpus}.")
    add(f"Overlap is not free: compute runs {100 * constants.overlap_compute_slowdown:.1f}% "
        "slower while hidden communication runs under it (SM and HBM contention).")
    add(f"Optimizer: mixed-precision Adam, {state_bytes:g} bytes per parameter before ZeRO "
        f"sharding{', optimizer state in host memory' if layout.offload != 'none' else ''}; "
        f"{constants.runtime_reserved_gb:g} GB reserved per GPU for the runtime (CUDA "
        "context, NCCL buffers); FP32 logits on the last stage and ZeRO-3/FSDP gather "
        "buffers counted.")
    if not f.rdma:
        add(f"No RDMA: NCCL socket transport copies through the host's CPUs, capped at "
            f"{constants.tcp_host_ceiling_gbs:g} GB/s per host whatever the NIC count.")
    elif not cluster.uses_gpudirect:
        add("RDMA without GPUDirect: traffic staged through host memory "
            f"(x{constants.host_staging_bandwidth_factor:g} bandwidth, "
            f"+{constants.host_staging_latency_us:g} us per message).")
    if f.rdma and not f.lossless:
        resend = "selective repeat" if f.selective_repeat else "go-back-N"
        add(f"Lossy RDMA fabric: {resend} recovery, drops at {f.loss_rate:g} per packet for "
            "each sender beyond the first converging on a receiver (and for an uplink's load "
            "beyond its rate), at each switch tier crossed: all-to-all suffers most, a ring "
            "inside a leaf not at all.")
    if f.topology == "rail-optimised":
        add(f"Topology: rail-optimised units of {f.nodes_per_unit} nodes (a leaf per rail, NCCL's "
            "rail-aligned traffic stays below the spine inside a unit); the job fills units "
            "first" + (f", a core tier beyond {f.nodes_below_core} nodes." if f.nodes_below_core
                       else "."))
    if cluster.nodes > f.nodes_below_spine and f.oversubscription > 1:
        add(f"{cluster.nodes} nodes exceed the {f.nodes_below_spine} below one spine hop: the "
            f"{f.oversubscription:g}:1 spine slows only the bytes that cross it (all-to-all "
            "sends most of its bytes up; a topology-ordered ring or tree leaves each leaf "
            "once per channel).")
    if r["tp_cross_node"]:
        add(f"Tensor parallelism {layout.tp} exceeds {cluster.gpus_per_node} GPUs per node: "
            "its all-reduces cross the inter-node fabric.")
    if layout.pp > 1:
        pace = f"; {pipeline_pace(model, layout)}" if isinstance(model, Transformer) else ""
        add(f"Pipeline: 1F1B with {float(r['micro_batches']):g} micro-batches, bubble "
            f"(p-1)/(v m) of the ideal time{pace}.")
    if isinstance(model, GenericModel):
        conv = float(conv_saturation(constants, FRAMEWORKS.index(layout.framework),
                                     training.precision == "fp32"))
        add(f"Sample-based model: convolutions at up to {100 * conv:.0f}% of peak "
            f"({layout.framework}'s kernels)"
            + (" layer by layer, each no faster than its own activations stream, batch norm"
               " and activations by their bytes."
               if model.net is not None else " (FLOPs per sample given)."))
    if layout.cp > 1:
        add(f"Context parallelism {layout.cp}: K/V passed around the ring, hidden behind the "
            "attention kernels where they are long enough.")
    return out


OBJECTIVE_FIRST = {
    "fastest": "Shortest time to train of all eligible configurations",
    "cheapest": "Lowest cost to train of all eligible configurations",
    "balanced": "Best product of time to train and cost among eligible configurations",
}
OBJECTIVE_FIRST_FOR_DURATION = {
    "fastest": "The most work done in the time given of all eligible configurations",
    "cheapest": "The least cost per unit of work of all eligible configurations",
    "balanced": "Best product of time and cost per unit of work among eligible configurations",
}


def why_rank(rank: int, objective: str, by_work: bool, time: float, cost: float,
             first_time: float, first_cost: float, scaling_efficiency: float,
             preferred: str | None = None) -> str:
    """Why a configuration ranks where it does, against rank 1.

    time and cost are per unit of work (the whole training when its amount is known); with
    only a duration, time per unit is the inverse of throughput.
    """
    if rank == 1:
        words = (OBJECTIVE_FIRST if by_work else OBJECTIVE_FIRST_FOR_DURATION)[objective]
        return f"{words}{'; ' + preferred if preferred else ''}."
    cost_delta = cost / first_cost - 1
    if by_work:
        # Listed as its server and fabric's best, yet worse than rank 1 on both counts.
        dominated = "Slower and dearer than rank 1: " if time > first_time and cost > first_cost else ""
        return (f"{dominated}{time / first_time - 1:+.0%} time to train and {cost_delta:+.0%} "
                f"cost against rank 1 (scaling efficiency {scaling_efficiency:.0%}).")
    return (f"{first_time / time - 1:+.0%} work done and {cost_delta:+.0%} cost per unit of work "
            f"against rank 1 (scaling efficiency {scaling_efficiency:.0%}).")


def _counted(text: str, unit: str) -> str:
    """A number as written and its unit, singular only for one (1 or 1.0) as written."""
    return f"{text} {unit}" if float(text.replace(",", "")) == 1 else f"{text} {unit}s"


def duration(hours: float) -> str:
    """A time to train as a person says it."""
    if hours < 1:
        minutes = f"{hours * 60:,.0f}"
        return "under a minute" if minutes == "0" else _counted(minutes, "minute")
    if hours < 48:
        return _counted(f"{hours:,.0f}", "hour")
    return _counted(f"{hours / 24:,.0f}", "day")


def significant_text(value: float, digits: int = 3) -> str:
    """`value` to `digits` significant digits in words, without an exponent (0.046, 12.3, 1,230)."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{float(f'{value:.{digits}g}'):,.{decimals}f}"


# Units a time is said in, with the length of one in hours, from the longest; a time takes the
# first whose threshold (in hours) it reaches (days from two of them, as `duration` says them).
_TIME_UNITS = (("day", 24.0, 48.0), ("hour", 1.0, 1.0), ("minute", 1 / 60, 1 / 60),
               ("second", 1 / 3600, 0.0))


def _time_unit(hours: float) -> tuple[str, float]:
    return next((name, size) for name, size, threshold in _TIME_UNITS if hours >= threshold)


def time_saved(hours: float) -> str:
    """A difference between two times to train, in the unit a person says it and to two
    significant figures, so that half an hour reads 30 minutes and 5.04 hours 5.0 hours."""
    if hours <= 0:
        return "nothing"
    if hours * 3600 < 1e-3:
        return "less than a millisecond"
    name, size = _time_unit(hours)
    return _counted(significant_text(hours / size, 2), name)


def before_and_after(before: float, after: float) -> tuple[str, str]:
    """Two times to train in one unit, to the fewest decimals (from a tenth, or from three
    significant figures below one of the unit) that tell them apart: half an hour saved on 71
    days reads 71.52 to 71.50 days, not 71.5 to 71.5."""
    name, size = _time_unit(min(before, after))
    values = (before / size, after / size)
    low = min(values)
    first = 1 if low <= 0 or low >= 1 else max(1, 2 - math.floor(math.log10(low)))
    for decimals in range(first, first + 4):
        texts = tuple(f"{v:,.{decimals}f}" for v in values)
        if texts[0] != texts[1]:
            break
    return f"{texts[0]} {name}s", f"{texts[1]} {name}s"


# What each objective weighs, as the hot-spare verdict says it (by the amount of work; for a
# duration, per unit of the work done in it).
_SPARE_GOALS = {"fastest": "time to train", "cheapest": "cost", "balanced": "time and cost"}


def hot_spare_advice(*, taken: bool, spares: int, reschedule_minutes: tuple[float, float],
                     goodput: tuple[float, float], hours: tuple[float, float] | None,
                     work_gain: float | None, unit: str, extra_monthly: str, difference: str,
                     cheaper: bool, objective: str, objective_gain: float,
                     tolerance: float) -> str:
    """What keeping spare nodes ready buys a configuration: goodput, then time or work, for
    their price, and whether the ranking took them, judged as the ranking judges them. `hours`
    (without, with) for an amount of work; `work_gain` for a duration. `difference` is
    unsigned, `cheaper` its sign; `objective_gain`: the share by which the spares better the
    objective's score (negative: they worsen it)."""
    nodes = f"{spares} spare node{'s' if spares != 1 else ''}"
    before, after = goodput
    if hours is not None:
        shown = before_and_after(*hours)
        bought = (f"cuts the time to train by {time_saved(hours[0] - hours[1])} "
                  f"({shown[0]} to {shown[1]})")
    else:
        bought = f"trains {work_gain:+.2%} more {unit} in the time given"
    goal = _SPARE_GOALS[objective]
    if hours is None and objective == "fastest":
        goal = f"{unit} trained in the time given"
    if taken:
        verdict = (f"the ranking keeps them, priced in (they better the objective by more than "
                   f"{tolerance:.0%}, or the configuration meets the rules only with them)")
    elif objective_gain > tolerance:
        # worth_adding takes a better option unless a rule refuses it; with the stock checked
        # before, only a budget can (spares shorten the run, so a deadline never refuses them)
        verdict = (f"they would better the {goal} by {objective_gain:.1%}, but the budget does "
                   "not allow them")
    elif objective_gain > 0:
        verdict = (f"they better the {goal} by {objective_gain:.2%}, within the policy's "
                   f"{tolerance:.0%} tolerance (below the model's error), so the ranking leaves "
                   "them out")
    elif objective == "fastest":
        verdict = "they gain no time"
    elif hours is None:
        verdict = f"each of its {unit} costs more with them"
    elif objective == "cheapest":
        verdict = "they cost more than the time they save"
    else:
        verdict = "they cost more than the time they save is worth on the time-and-cost score"
    total = f"{difference} {'less' if cheaper else 'more'} in all"
    return (f"Hot spares for rank 1: keeping {nodes} ready cuts each restart's rescheduling "
            f"from {reschedule_minutes[0]:.0f} to {reschedule_minutes[1]:.0f} minutes, lifts "
            f"goodput from {before:.2%} to {after:.2%} and {bought}, for {extra_monthly} more "
            f"per month ({total}): {verdict}.")


def no_hot_spares(*, nodes: int, spares: int, usable: int, lead_time_days: int,
                  spare_share: float) -> str:
    """Why no hot-spare option is offered: the stock has fewer nodes left than the policy's rule
    (sizing.goodput.hot_spares) asks for."""
    where = ("in stock" if lead_time_days == 0
             else f"in stock or arriving within {lead_time_days} days")
    left = max(usable - nodes, 0)
    return (f"none can be offered, no stock: it uses {nodes} of the "
            f"{usable} nodes {where}, leaving {left}; the policy keeps {spare_share:.0%} of a "
            f"job's nodes as spares, rounded up and at least one (catalog reliability.yaml "
            f"hot_spare_share), so {spares} spare node{'s' if spares != 1 else ''}, which would "
            f"need {nodes + spares}.")


def term_warning(term: str, months_billed: int, training_hours: float, hours_per_month: int,
                 idle_share_limit: float, monthly_term_total: str | None) -> str | None:
    """A committed term that bills well beyond the work, said with the alternative's price."""
    billed_hours = months_billed * hours_per_month
    if term == "monthly" or billed_hours <= 0:
        return None
    idle = 1 - training_hours / billed_hours
    if idle < idle_share_limit:
        return None
    alternative = (f"; on the monthly term the same run costs {monthly_term_total}"
                   if monthly_term_total else "")
    return (f"The training takes {duration(training_hours)} but the {term} term bills "
            f"{months_billed} months: {idle:.0%} of the billed time comes after the training "
            f"ends{alternative}.")


def term_overrun_warning(term: str, terms_spanned: float, months_billed: int,
                         training_hours: float, longer_term: str | None,
                         longer_term_total: str | None) -> str:
    """A training that runs past its committed term: billed month by month beyond it, where a
    longer commitment may price the same run lower."""
    alternative = (f"; a {longer_term} term prices it at {longer_term_total}"
                   if longer_term and longer_term_total else "")
    return (f"The training takes {duration(training_hours)}: the run spans "
            f"{terms_spanned:.1f} terms of {term}, billed as {months_billed} months at the "
            f"{term} rate{alternative}.")


def term_overrun_risk(term: str, training_hours: float, p90_hours: float,
                      p90_total: str | None) -> str:
    """A training that fits its committed term at the model's point but not at its p90: the
    point alone would hide the months billed beyond the term."""
    total = f", {p90_total} in all at that end" if p90_total else ""
    return (f"The training takes {duration(training_hours)}, within the {term} term, but the "
            f"model's p90 is {duration(p90_hours)}: past the term, billed month by month at the "
            f"{term} rate beyond it{total}.")


def layout_family(layout: Layout, micro_batch: int) -> str:
    """A layout's degrees in words, data parallelism left to follow the node count."""
    parts = [f"tp {layout.tp}", f"pp {layout.pp}"]
    if layout.ep > 1:
        parts.append(f"ep {layout.ep}")
    if layout.virtual_stages > 1:
        parts.append(f"{layout.virtual_stages} virtual stages")
    parts.append(f"ZeRO {layout.zero_stage}")
    if layout.sequence_parallel:
        parts.append("sequence parallel")
    parts += [f"{layout.recompute} recompute", f"micro-batch {micro_batch}"]
    return ", ".join(parts) + "; data parallelism grows with the nodes"


def one_node_layout(layout: Layout, micro_batch: int) -> str:
    """The one-node reference's layout in words (sizing.series.OneNodeReference)."""
    parts = [f"tp {layout.tp}", f"pp {layout.pp}", f"dp {layout.dp}"]
    if layout.ep > 1:
        parts.append(f"ep {layout.ep}")
    if layout.virtual_stages > 1:
        parts.append(f"{layout.virtual_stages} virtual stages")
    parts += [f"ZeRO {layout.zero_stage}", f"{layout.recompute} recompute",
              f"micro-batch {micro_batch}"]
    return ", ".join(parts)


STABILITY_WORDS = {"fastest": "fast", "cheapest": "cheap", "balanced": "good on time and cost"}
STABILITY_TEXT = {"fastest": "speed", "cheapest": "cost", "balanced": "time and cost"}


def rank_stability(stable: bool, objective: str) -> str:
    """Whether rank 1 stands within the model's p10-p90 against rank 2, in words."""
    if stable:
        return ("Rank 1 is ahead of rank 2 beyond the model's p10-p90 uncertainty on "
                f"{STABILITY_TEXT[objective]}.")
    return (f"Rank 1 and 2 overlap within the model's p10-p90: within its uncertainty they are "
            f"equally {STABILITY_WORDS[objective]}. Much of the model's error is shared by "
            "configurations of the same GPU, so the order is likelier than the overlap says.")
