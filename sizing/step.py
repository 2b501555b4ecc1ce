"""Step time of synchronous training and everything derived from it, for one or many candidates."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sizing import compute_kernel, explain, kernels, step_kernel
from sizing.collectives import collective_cost
from sizing.compute import (
    OPTIMIZER_BYTES_PER_PARAM,
    attention_efficiency,
    compute_time,
    conv_saturation,
    gemm_efficiency,
    generic_work,
    recompute_fraction,
    transformer_work,
)
from sizing.constants import GpuCodes, ModelConstants, built_once, factor_ids, per_gpu_lookup
from sizing.hardware import Cluster
from sizing.memory import (
    activation_parts,
    gradient_bytes_per_param,
    memory_per_gpu,
)
from sizing.topology import Links, group_span, straggler_stretch, tier_reached
from sizing.workload import (
    ATTENTION_KERNELS,
    BUCKET_RULE_CODES,
    BUCKET_RULES,
    DEEPSPEED_CODES,
    DEEPSPEED_FRAMEWORKS,
    FRAMEWORK_ATTENTION_KERNEL,
    FRAMEWORK_MAX_ZERO_STAGE,
    FRAMEWORK_OVERLAPS_GRADIENTS,
    FRAMEWORK_OVERLAPS_PARAM_GATHER,
    FRAMEWORK_SYNCHRONOUS_ZERO3,
    FRAMEWORKS,
    FRAMEWORKS_TRANSFORMER_ONLY,
    MAX_ZERO_STAGE_CODES,
    MEGATRON_CODE,
    MEGATRON_FSDP_FROM_STAGE,
    OFFLOAD,
    RECOMPUTE,
    SYNCHRONOUS_ZERO3_CODES,
    TRANSFORMER_ONLY_CODES,
    ZERO_STAGES,
    GenericModel,
    Layout,
    Training,
    Transformer,
    divides,
)

LAYOUT_DEFAULTS = {"ep": 1, "virtual_stages": 1, "zero_stage": 0, "sequence_parallel": False,
                   "recompute": 1, "cp": 1, "recompute_layers": 0, "shard_group": 0,
                   "offload": 0, "framework": 0, "flash_attention": True,
                   "fused_cross_entropy": False, "fp8_param_gather": False,
                   "tp_comm_overlap": False,
                   "embedding_in_pipeline_split": False,
                   "grad_bucket_mb": 0.0}
# FP16 runs at the 16-bit tensor-core rate, the column bf16 reads (sizing.hardware.GPU).
PEAK_KEYS = {"bf16": "gpu_bf16_tflops", "fp8": "gpu_fp8_tflops", "fp32": "gpu_fp32_tflops",
             "fp16": "gpu_bf16_tflops"}
_OVERLAPS = np.array([FRAMEWORK_OVERLAPS_GRADIENTS[f] for f in FRAMEWORKS])
_PARAM_GATHER = np.array([FRAMEWORK_OVERLAPS_PARAM_GATHER[f] for f in FRAMEWORKS])
_KERNELS = np.array([ATTENTION_KERNELS.index(FRAMEWORK_ATTENTION_KERNEL[f]) for f in FRAMEWORKS])


# What scaling_efficiency is, as every document that carries it says: the share of the step
# in GPU work, (compute + optimizer) / step below. Recomputed FLOPs and the optimizer count as
# work, so it is no linear-scaling ratio; that is efficiency_vs_one_node (sizing.series).
SCALING_EFFICIENCY_MEANS = (
    "Share of the predicted step time spent on GPU work: the compute (activation recomputation "
    "included) and the optimizer step, over the step time; the rest is exposed communication, "
    "pipeline bubble, stragglers and the overlap slowdown. 1.0 is a step with no such "
    "overhead, not perfectly linear scaling: recomputed FLOPs count as work. "
    "efficiency_vs_one_node compares throughput per GPU with one node's")


@dataclass
class Estimate:
    step_time_s: float
    breakdown: dict  # seconds per step by part (exposed parts sum to step_time_s)
    tokens_per_s: float
    samples_per_s: float
    achieved_tflops_per_gpu: float
    mfu: float  # model FLOPs over the full score matrix (Korthikanti 2022 eq. 7, PaLM)
    scaling_efficiency: float
    communication_share: float
    memory: dict  # per-GPU GB by part, total_gb, capacity_gb, fits, margin_gb
    bottleneck: str
    assumptions: list = field(default_factory=list)
    gpus: int = 0
    micro_batches: float = 0.0
    inter_node_bandwidth_gbs: float = 0.0
    mfu_causal: float = 0.0  # model FLOPs with the causal half of the score matrix
    model_tflops_per_gpu: float = 0.0
    model_tflops_per_gpu_causal: float = 0.0
    # What the kernels execute: a causal fused kernel's skipped half left out, recomputation in.
    executed_tflops_per_gpu: float = 0.0


# --------------------------------------------------------------------------- validation

def layout_rules(layout: Layout) -> list:
    """The rules a layout keeps whatever it runs on, as (field, reason) pairs: names it
    knows, and the settings that need another (offload and hybrid sharding need ZeRO,
    recompute_layers full recompute). A dp of 0 means "from the GPU count", not yet known."""
    problems = []
    if layout.framework not in FRAMEWORKS:
        problems.append(("framework", f"must be one of {', '.join(FRAMEWORKS)}"))
    if layout.attention_kernel is not None and layout.attention_kernel not in ATTENTION_KERNELS:
        problems.append(("attention_kernel", f"must be one of {', '.join(ATTENTION_KERNELS)}"))
    if layout.offload not in OFFLOAD:
        problems.append(("offload", f"must be one of {', '.join(OFFLOAD)}"))
    if layout.offload != "none" and layout.zero_stage < 1:
        problems.append(("offload", ("offloading optimizer state needs ZeRO stage 1 or more "
                                    "(ZeRO-Offload shards it before moving it to the host)")))
    if layout.shard_group:
        if layout.zero_stage < 1:
            problems.append(("shard_group", "hybrid sharding needs a ZeRO stage (3 for HSDP)"))
        elif layout.dp and layout.dp % layout.shard_group:
            problems.append(("shard_group", (f"{layout.shard_group} does not divide "
                                            f"dp={layout.dp}")))
    if layout.grad_bucket_mb < 0:
        problems.append(("grad_bucket_mb", "must be 0 (the framework's buckets) or more"))
    if layout.recompute_layers < 0:
        problems.append(("recompute_layers", "must be 0 (every layer) or more"))
    elif layout.recompute_layers and layout.recompute != "full":
        problems.append(("recompute_layers", ("counts layers of full recompute; set recompute "
                                             "to full")))
    if layout.zero_stage not in ZERO_STAGES:
        problems.append(("zero_stage", "must be 0, 1, 2 or 3"))
    elif layout.zero_stage != 1:
        # Both settings belong to the distributed optimizer's all-gather of the weights.
        if layout.overlap_param_gather:
            problems.append(("overlap_param_gather", ("overlaps the distributed optimizer's "
                                                      "weight all-gather: needs zero_stage 1")))
        if layout.fp8_param_gather:
            problems.append(("fp8_param_gather", ("gathers the distributed optimizer's weights "
                                                  "in FP8: needs zero_stage 1")))
    if layout.recompute not in RECOMPUTE:
        problems.append(("recompute", f"must be one of {', '.join(RECOMPUTE)}"))
    if layout.framework in DEEPSPEED_FRAMEWORKS and layout.pp > 1 and layout.zero_stage >= 2:
        problems.append(("zero_stage", (f"{layout.framework} runs pipeline parallelism on "
                                        "DeepSpeed's pipeline engine, which takes ZeRO stage 0 "
                                        "or 1 only")))
    if layout.zero_stage > FRAMEWORK_MAX_ZERO_STAGE.get(layout.framework, ZERO_STAGES[-1]):
        # sizing.workload.FRAMEWORK_MAX_ZERO_STAGE gives the source.
        most = FRAMEWORK_MAX_ZERO_STAGE[layout.framework]
        problems.append(("zero_stage", (f"{layout.framework} shards at most the optimizer "
                                        "state (ZeRO stage 1); sharding gradients or weights "
                                        "is FSDP's: framework fsdp") if most else
                                       (f"{layout.framework} replicates the optimizer state and "
                                        "reduces gradients only: zero_stage 0, or framework "
                                        "deepspeed or fsdp to shard")))
    if (layout.framework == "megatron" and layout.zero_stage >= MEGATRON_FSDP_FROM_STAGE
            and layout.pp > 1):
        # sizing.workload.MEGATRON_FSDP_FROM_STAGE gives the source.
        problems.append(("zero_stage", ("megatron shards gradients or weights with "
                                        "Megatron-FSDP, which runs without pipeline "
                                        "parallelism: zero_stage 1 (the distributed optimizer) "
                                        "with pp > 1")))
    if layout.tp_comm_overlap:
        # Megatron-Core refuses it otherwise ('Tensor parallel communication/GEMM overlap can
        # happen only when sequence parallelism is enabled', megatron/training/arguments.py),
        # and the overlap is Transformer Engine's, which only Megatron-Core's layers run.
        if not layout.sequence_parallel:
            problems.append(("tp_comm_overlap", ("overlaps the sequence-parallel all-gathers "
                                                 "and reduce-scatters: needs "
                                                 "sequence_parallel (and tp > 1)")))
        if layout.framework != "megatron":
            problems.append(("tp_comm_overlap", ("is Transformer Engine's userbuffers overlap "
                                                 "in Megatron-Core: needs framework megatron")))
    if layout.sequence_parallel and layout.tp == 1:
        # Megatron-LM turns it off without tensor parallelism ('Disabling sequence parallelism
        # because tensor model parallelism is disabled', arguments.py @d98e8a64 line 1436):
        # stated with tp 1 it describes nothing that runs.
        problems.append(("sequence_parallel", ("splits the tensor-parallel group's activations "
                                               "along the sequence: needs tp > 1")))
    return problems


def validate_layout(cluster: Cluster, model, training: Training, layout: Layout) -> list:
    """Problems that make a configuration unphysical, as (field, reason) pairs."""
    problems = []
    if cluster.nodes < 1:
        problems.append(("nodes", "must be at least 1"))
    for name in ("dp", "tp", "pp", "ep", "virtual_stages", "cp"):
        if getattr(layout, name) < 1:
            problems.append((name, "must be at least 1"))
    if problems:
        return problems
    if layout.gpus != cluster.gpus:
        problems.append(("dp", (f"dp*tp*pp*cp = {layout.gpus} but the cluster has "
                               f"{cluster.gpus} GPUs")))
    problems += layout_rules(layout)
    if training.micro_batch < 1 or training.global_batch < 1:
        problems.append(("micro_batch", "batch sizes must be at least 1"))
    elif training.global_batch % (layout.dp * training.micro_batch):
        unit = layout.dp * training.micro_batch
        problems.append(("global_batch",
                         f"{training.global_batch} is not divisible by dp*micro_batch = {unit}"))
    if cluster.gpu.peak_tflops(training.precision) is None:
        hint = " (train in fp16)" if training.precision == "bf16" else ""
        problems.append(("precision", (f"{cluster.gpu.name} has no {training.precision} "
                                       f"support{hint}")))
    if layout.flash_attention and not cluster.gpu.fused_attention and isinstance(model,
                                                                                  Transformer):
        problems.append(("flash_attention", (f"{cluster.gpu.name} runs no FlashAttention-class "
                                             "kernel (FlashAttention-2 needs Ampere, sm80, or "
                                             "later): set flash_attention false")))
    problems += model_rules(model, training.precision, layout)
    return problems


def model_rules(model, precision: str, layout: Layout) -> list:
    """The rules a layout keeps for its model and precision, whatever it runs on, as (field,
    reason) pairs (a dp of 0 means "from the GPU count", not yet known)."""
    problems = []
    if layout.fp8_param_gather and precision != "fp8":
        problems.append(("fp8_param_gather", "only FP8 training has FP8 weights to gather"))
    if isinstance(model, Transformer):
        if not model.tp_divides_heads(layout.tp):
            problems.append(("tp", (f"tp={layout.tp} does not divide {model.heads} heads and "
                                   f"{model.kv_heads} key/value heads")))
        if layout.pp > model.layers:
            problems.append(("pp", f"pp={layout.pp} exceeds {model.layers} layers"))
        elif not model.chunks_divide_layers(layout.pp, layout.virtual_stages):
            chunks = layout.pp * layout.virtual_stages
            problems.append(("virtual_stages", (f"{model.layers} layers (with the embedding "
                                               "and the loss counted as layers or not) do not "
                                               "split evenly into pp x virtual_stages = "
                                               f"{chunks} chunks (Megatron-LM's interleaved "
                                               "schedule)")))
        elif (layout.recompute == "full" and layout.recompute_layers
              and layout.recompute_layers > model.stage_layers(layout.pp, 1)):
            most = int(model.stage_layers(layout.pp, 1))
            problems.append(("recompute_layers", (f"{layout.recompute_layers} exceeds the {most} "
                                                 "layers of a pipeline stage (Megatron-LM's "
                                                 "--recompute-num-layers: 'between 1 and "
                                                 "num_layers_per_pipeline_rank'; a model chunk "
                                                 "recomputes at most its own layers)")))
        if not model.ep_divides_experts(layout.ep):
            problems.append(("ep", f"ep={layout.ep} does not divide {model.experts} experts"))
        if layout.dp % layout.ep:
            problems.append(("ep", f"ep={layout.ep} does not divide dp={layout.dp}"))
        if layout.virtual_stages > 1 and layout.pp == 1:
            problems.append(("virtual_stages", "interleaving needs pipeline parallelism"))
        if layout.cp > 1 and model.seq_len % (2 * layout.cp):
            # Load-balanced causal CP splits the sequence into 2 x cp chunks (Transformer
            # Engine's DualChunkSwap: sequence lengths divisible by cp_size * 2).
            problems.append(("cp", (f"2 x cp = {2 * layout.cp} does not divide the sequence "
                                   f"length {model.seq_len}")))
    elif isinstance(model, GenericModel):
        # Each degree that splits the model is named where it is stated.
        problems += [(name, "a generic model supports data parallelism only")
                     for name in ("tp", "pp", "cp", "ep") if getattr(layout, name) != 1]
    if layout.framework in FRAMEWORKS_TRANSFORMER_ONLY and not isinstance(model, Transformer):
        problems.append(("framework", (f"{layout.framework} runs Megatron-LM's transformer "
                                       "code; a sample-based model runs on ddp, fsdp, "
                                       "deepspeed, horovod or mxnet")))
    if (layout.framework in FRAMEWORK_SYNCHRONOUS_ZERO3 and isinstance(model, Transformer)
            and model.experts > 1):
        problems.append(("framework", (f"{layout.framework} has no mixture-of-experts "
                                       "layers (Megatron-LM of 2021 had none, and "
                                       "DeepSpeed's ZeRO-3 refuses MoE)")))
    return problems


# --------------------------------------------------------------------------- physics

class _KeyedTables:
    """The keyed constants compute_side reads of one constants object (per GPU, framework or
    PCIe generation), each as an array the candidates' codes index, built at its first read."""

    def __init__(self, constants):
        self.constants = constants
        self.tables: dict[tuple, np.ndarray] = {}

    def table(self, name: str, names: tuple) -> np.ndarray:
        """constants.per_gpu(name, k) for each k of `names`."""
        hit = self.tables.get((name, names))
        if hit is None:  # a race builds the same table twice, which is harmless
            hit = self.tables[(name, names)] = np.array(
                [self.constants.per_gpu(name, k) for k in names])
        return hit

    def lookup(self, name: str, codes, names: tuple) -> np.ndarray:
        """A per-framework (or other keyed) constant for each candidate's code."""
        return self.table(name, names)[np.asarray(codes, int)]

    def per_gpu(self, gpu_ids, n: int):
        """constants.per_gpu_lookup, through these tables where the candidates' GPUs are
        factored already (GpuCodes, as _normalise leaves them)."""
        if isinstance(gpu_ids, GpuCodes):
            return lambda name: self.table(name, gpu_ids.ids)[gpu_ids.codes]
        return per_gpu_lookup(self.constants, gpu_ids, n)


_KEYED_TABLES: dict[int, tuple[object, dict]] = {}


def _keyed_tables(constants) -> _KeyedTables:
    """The constants object's _KeyedTables, kept for the last few objects (collectives'
    tables' rule: the prediction intervals' prior draws make new ones at every sizing)."""
    return built_once(_KEYED_TABLES, constants, None, lambda: _KeyedTables(constants))


def hardware_rates(c: dict, transformer: bool, precision: str, constants) -> dict:
    """What compute_side reads of the candidates' hardware alone at `precision` (no layout
    column): the peaks (FLOP/s), achievable HBM bandwidth and host link (bytes/s) and, for a
    `transformer`, the per-GPU efficiencies of its GEMMs and fused attention. An estimate keeps
    them with its cluster's columns (_Hardware)."""
    f = np.float64
    n = np.asarray(c["gpus_per_node"]).shape[0]
    keyed = _keyed_tables(constants)
    per_gpu = keyed.per_gpu(c.get("gpu_id"), n)
    fp32 = precision == "fp32"
    # np.clip's own definition, minimum(maximum(x, 3), 5), at a fraction of its cost
    host_gbs = keyed.lookup("host_link_gbs", np.minimum(np.maximum(c["pcie_gen"], 3), 5) - 3,
                            ("3", "4", "5"))
    rates = {
        "peak": c[PEAK_KEYS[precision]].astype(f) * 1e12,
        "peak16": (c["gpu_fp32_tflops"] if fp32 else c["gpu_bf16_tflops"]).astype(f) * 1e12,
        "hbm_raw": c["gpu_memory_bandwidth_gbs"].astype(f) * 1e9 * per_gpu("hbm_efficiency"),
        "host_link_Bps": host_gbs * 1e9,
    }
    if transformer:
        # the GEMMs' best share before the framework's (compute_side multiplies it in)
        rates["gemm_best"] = per_gpu("matmul_efficiency") * constants.gemm_shape_efficiency
        rates["attention"] = {k: per_gpu(f"{k}_attention_efficiency") for k in ATTENTION_KERNELS}
        rates["fp8_gemm_speedup"] = per_gpu("fp8_gemm_speedup")
    return rates


def compute_side(c: dict, model, training: Training, constants, hardware: dict | None = None
                 ) -> dict:
    """Compute time per micro-batch (and its forward) of each candidate, with the rates behind it.

    GEMMs at the curve of `gemm_efficiency` (the GPU's best-shape matmul rate, the share real
    layer GEMMs reach, the knee), FP8 only for the linear layers, fused attention at its own
    measured efficiency, memory-bound work (norms, activations, residuals, cross entropy,
    unfused softmax, FP8 casts, batch norm) by its bytes over the achievable HBM bandwidth
    and the framework's kernel fusion. No communication: a compute-only lower bound.
    `hardware`: hardware_rates of `c` at training's precision, when known.
    """
    n = np.asarray(c["gpus_per_node"]).shape[0]
    keyed = _keyed_tables(constants)
    fp32 = training.precision == "fp32"
    hw = hardware if hardware is not None else hardware_rates(
        c, isinstance(model, Transformer), training.precision, constants)
    peak, peak16, hbm_raw = hw["peak"], hw["peak16"], hw["hbm_raw"]
    fusion = keyed.lookup("framework_nongemm_bytes_factor", c["framework"], FRAMEWORKS)
    knee_s = constants.matmul_knee_us * 1e-6
    rates = {"peak16": peak16, "knee_s": knee_s, "hbm": hbm_raw / fusion, "hbm_raw": hbm_raw}
    side = {"peak": peak, "hbm_raw_Bps": hbm_raw, "host_link_Bps": hw["host_link_Bps"],
            "activation_parts": activation_parts(model, c, training.precision)}
    if isinstance(model, Transformer):
        emax = hw["gemm_best"] * keyed.lookup("framework_gemm_efficiency", c["framework"],
                                              FRAMEWORKS)
        # Each candidate's fused kernel at the efficiency its benchmark gives the GPU, at its
        # sequence length per rank (context parallelism splits the sequence).
        rates["attention"] = peak16 * attention_efficiency(
            c["attention_kernel"], model.seq_len / np.asarray(c["cp"], float), hw["attention"],
            {k: getattr(constants, f"{k}_attention_sequence_share") for k in ATTENTION_KERNELS})
        if kernels.ENABLED:  # the work, the GEMMs' rate and the times compiled (the reference:
            # transformer_work, gemm_efficiency and compute_time below)
            return side | compute_kernel.transformer_times(
                model, c, training.precision == "fp8", rates, emax, hw["fp8_gemm_speedup"])
        work = transformer_work(model, c, training.precision == "fp8")
        eff = gemm_efficiency(work["gemm_size"], peak16, emax, knee_s)
        rates["gemm16"] = peak16 * eff
        rates["gemm8"] = rates["gemm16"] * hw["fp8_gemm_speedup"]
    elif isinstance(model, GenericModel):
        work = generic_work(model, c, fp32)
        conv = np.broadcast_to(conv_saturation(constants, c["framework"], fp32), (n,))
        eff = conv
        rates.update(gemm16=peak16 * conv, gemm8=peak16 * conv, attention=peak16 * conv,
                     conv_max=conv,
                     winograd=np.full(n, constants.winograd_fp32_speedup if fp32 else 1.0))
    else:
        raise TypeError(f"unsupported model type {type(model).__name__}")
    t_mb, t_fwd_mb = compute_time(work, rates)
    return side | {
        "t_mb": t_mb, "t_fwd_mb": t_fwd_mb, "gemm_efficiency": eff,
        "t_attention_mb": work["attention_flops"] / rates["attention"],
        "model_flops": work["model_flops"], "model_flops_causal": work["model_flops_causal"],
        "counted_flops": work["counted_flops"],
        # what the kernels run: a causal fused kernel's masked half left out, recomputation in
        "executed_flops": work["gemm16_flops"] + work["gemm8_flops"] + work["attention_flops"],
    }


def _normalise(batch: dict, training: Training) -> dict:
    c = dict(batch)
    for k, v in LAYOUT_DEFAULTS.items():
        c.setdefault(k, v)
    c.setdefault("micro_batch", training.micro_batch)
    c.setdefault("global_batch", training.global_batch)
    if "overlap_grad_reduce" not in c:
        c["overlap_grad_reduce"] = _OVERLAPS[np.asarray(c["framework"], int)]
    if "overlap_param_gather" not in c:
        c["overlap_param_gather"] = (_PARAM_GATHER[np.asarray(c["framework"], int)]
                                     & (np.asarray(c["zero_stage"]) == 1))
    if "attention_kernel" not in c:
        c["attention_kernel"] = _KERNELS[np.asarray(c["framework"], int)]
    keys = [k for k in c if k != "gpu_id"]
    # A column given as a 1-d array is its own atleast_1d(asarray(...)): taken as it is, at a
    # tenth of the cost of the two calls (a one-row estimate has some fifty columns).
    arrays = [v if type(v) is np.ndarray and v.ndim == 1 else np.atleast_1d(np.asarray(v))
              for v in (c[k] for k in keys)]
    if len({a.shape for a in arrays}) > 1:  # columns of one length need no broadcasting
        # Only the shorter columns are spread (read-only views): the others stay the caller's
        # arrays, which the compiled kernels take as they are (sizing.kernels.column).
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
        arrays = [a if a.shape == shape else np.broadcast_to(a, shape) for a in arrays]
    out = dict(zip(keys, arrays))
    if isinstance(c.get("gpu_id"), GpuCodes):
        out["gpu_id"] = c["gpu_id"]
    elif "gpu_id" in c:
        # Factored here, once, for every per-GPU lookup of the evaluation (compute, NVLS).
        ids = np.broadcast_to(np.atleast_1d(np.asarray(c["gpu_id"], str)), arrays[0].shape)
        out["gpu_id"] = factor_ids(ids.reshape(-1))
    return out


# Counts the model only computes with in floating point: converted once per evaluation, not
# by each formula that reads them.
_FLOAT_COLUMNS = ("dp", "tp", "pp", "ep", "cp", "virtual_stages", "micro_batch", "global_batch",
                  "nodes", "gpus_per_node", "shard_group", "recompute_layers")


def _prepared(batch: dict, training: Training, model) -> dict:
    """The candidates' columns with the defaults (the counts as floats), micro-batches per step
    and recompute share."""
    return _derived(_normalise(batch, training), model)


def _derived(c: dict, model) -> dict:
    """_prepared's columns of normalised ones `c` (written into it): the counts as floats,
    micro-batches per step and recompute share."""
    for k in _FLOAT_COLUMNS:
        c[k] = c[k].astype(np.float64, copy=False)
    c["micro_batches"] = c["global_batch"] / (c["dp"] * c["micro_batch"])
    if isinstance(model, Transformer):
        c["recompute_fraction"] = recompute_fraction(model, c["recompute_layers"], c["pp"],
                                                     c["virtual_stages"])
        # The stage whose micro-batch time paces the pipeline: its layers' and, where it is the
        # last, the output layer's work and per-layer collectives are the step's.
        c["paced_layers"], c["paced_output"] = model.pacing_stage(
            c["pp"], c["embedding_in_pipeline_split"])
    return c


def _valid(c: dict, model, has_peak: np.ndarray) -> np.ndarray:
    """Which candidates are physical layouts (validate_layout's rules, on arrays)."""
    dp, tp, pp, ep, cp, v, m = (c[k] for k in ("dp", "tp", "pp", "ep", "cp", "virtual_stages",
                                                "micro_batches"))
    nodes, zero, offload = c["nodes"], c["zero_stage"].astype(int), c["offload"]
    valid = (
        (nodes >= 1) & (dp * tp * pp * cp == c["gpus_per_node"] * nodes)
        & (m == np.floor(m)) & (m >= 1) & has_peak & (ep >= 1) & (v >= 1) & (zero >= 0)
        & (zero <= 3)
    )
    if isinstance(model, Transformer):
        valid &= model.tp_divides_heads(tp) & model.ep_divides_experts(ep) & divides(ep, dp)
        # Load-balanced causal CP splits the sequence into 2 x cp chunks; cp 1 splits nothing
        # (validate_layout's rule: an odd sequence length runs without CP).
        valid &= ~((v > 1) & (pp == 1)) & ((cp == 1) | divides(2 * cp, model.seq_len))
        valid &= (pp <= model.layers) & model.chunks_divide_layers(pp, v)
        layers = c["recompute_layers"]
        if (layers != 0).any():  # rare: read where some row sets it
            valid &= (layers == 0) | (layers <= model.stage_layers(pp, 1))
    else:
        valid &= (tp == 1) & (pp == 1) & (ep == 1) & (cp == 1)
    framework = np.asarray(c["framework"], int)
    valid &= ~(DEEPSPEED_CODES[framework] & (pp > 1) & (zero >= 2))
    valid &= zero <= MAX_ZERO_STAGE_CODES[framework]
    valid &= ~((framework == MEGATRON_CODE) & (zero >= MEGATRON_FSDP_FROM_STAGE) & (pp > 1))
    valid &= ~(np.asarray(c["sequence_parallel"], bool) & (tp == 1))
    overlap = np.asarray(c["tp_comm_overlap"], bool)
    if overlap.any():  # rare: read where some row sets it (layout_rules' tp_comm_overlap)
        valid &= ~overlap | (np.asarray(c["sequence_parallel"], bool)
                             & (framework == MEGATRON_CODE))
    if not isinstance(model, Transformer):
        valid &= ~TRANSFORMER_ONLY_CODES[framework]
    elif model.experts > 1:
        valid &= ~SYNCHRONOUS_ZERO3_CODES[framework]
    # Hybrid sharding and offload are rare: their rules are read where some row sets them.
    shard_group = c["shard_group"]
    if (shard_group != 0).any():
        valid &= (shard_group == 0) | ((zero >= 1) & (np.fmod(dp, np.maximum(shard_group, 1))
                                                      == 0))
    if (offload != 0).any():
        valid &= (offload == 0) | (zero >= 1)
    if (c["grad_bucket_mb"] != 0).any():
        valid &= c["grad_bucket_mb"] >= 0
    return valid


def feasibility_batch(batch: dict, model, training: Training, constants) -> dict:
    """Whether each candidate is a valid layout and its per-GPU memory (estimate_batch's
    `valid` and memory_* columns) without the time model: a search rules out what is invalid
    or cannot fit before running the rest of the model on it."""
    c = _prepared(batch, training, model)
    peak = c[PEAK_KEYS[training.precision]].astype(np.float64)
    out = {f"memory_{k}": val for k, val in
           memory_per_gpu(model, c, constants, training.precision).items()}
    out["valid"] = _valid(c, model, np.isfinite(peak))
    return out


def _bucket_bytes(c: dict, gbytes, constants) -> np.ndarray:
    """The bytes of each candidate's gradient bucket, by its framework's rule
    (sizing.workload.FRAMEWORK_BUCKETS), capped at one model chunk's gradients: every
    framework with interleaved stages starts new buckets at each chunk (Megatron-Core keeps one
    gradient buffer per chunk; NeMo with Apex's distributed Adam calls init_params_bucket per
    chunk). Megatron-Core reduces the first chunk of the first stage, the one that finishes its
    backward last, in these buckets and every other chunk in one, a bucket of its own size; the
    model prices the first stage (the pipeline's last to finish) and takes every chunk at the
    bucket size, within one bucket per chunk of what Megatron-Core runs (the cap is applied
    by the caller)."""
    rule = BUCKET_RULE_CODES[np.asarray(c["framework"], int)]
    megatron = rule == BUCKET_RULES.index("megatron-core")
    per_bucket = np.where(
        megatron, np.maximum(constants.megatron_bucket_params_min,
                             constants.megatron_bucket_params_per_rank * c["dp"]) * gbytes,
        np.where(rule == BUCKET_RULES.index("deepspeed"),
                 constants.deepspeed_reduce_bucket_params * gbytes, constants.dp_bucket_mb * 1e6))
    # Megatron-Core without overlap_grad_reduce reduces everything in one bucket
    # (bucket_size None).
    per_bucket = np.where(megatron & ~np.asarray(c["overlap_grad_reduce"], bool), np.inf,
                          per_bucket)
    # A bucket the layout states (grad_bucket_mb) replaces the rule.
    stated = c["grad_bucket_mb"]
    if not np.count_nonzero(stated > 0):
        return per_bucket
    return np.where(stated > 0, stated * 1e6, per_bucket)


@dataclass(frozen=True)
class _Gradients:
    """What the data-parallel reduction works on, per GPU: the step's and its floor's."""

    expert: float  # the model's expert parameters (0 for a dense model)
    local_params: np.ndarray
    gbytes: np.ndarray  # bytes per gradient
    grad_bytes: np.ndarray
    dpc: np.ndarray  # the ranks holding the same weights: dp x cp
    shard: np.ndarray  # the ZeRO/FSDP shard group: dp x cp, or the HSDP group x cp
    bucket: np.ndarray
    n_buckets: np.ndarray

    @classmethod
    def of(cls, c: dict, model, constants, precision: str, is_tf: bool) -> _Gradients:
        dp, tp, pp, ep, cp = (c[k] for k in ("dp", "tp", "pp", "ep", "cp"))
        expert = model.expert_params if is_tf else 0.0
        local_params = (model.params - expert) / (tp * pp) + expert / (tp * pp * ep)
        gbytes = gradient_bytes_per_param(c, constants, precision)
        grad_bytes = local_params * gbytes
        # Context-parallel ranks hold the same weights: gradients are reduced over dp x cp.
        dpc = dp * cp
        # ZeRO/FSDP shards over all of them, or over the HSDP group (replicated across
        # groups). Without a hybrid group that is the data-parallel group itself, whose span
        # and NIC share the ZeRO-3 collectives then read as they are.
        hybrid = c["shard_group"] > 0
        shard = np.where(hybrid, c["shard_group"] * cp, dpc) if np.count_nonzero(hybrid) else dpc
        # Gradients are reduced bucket by bucket (DDP) and ZeRO-3/FSDP gathers and reduces
        # one layer (FSDP unit) at a time: each of those collectives pays its own latency, so
        # the per-step cost is units x cost(one unit), not the cost of one message of the
        # whole size.
        bucket = np.minimum(_bucket_bytes(c, gbytes, constants), grad_bytes / c["virtual_stages"])
        n_buckets = np.maximum(grad_bytes / bucket, 1.0)
        return cls(expert, local_params, gbytes, grad_bytes, dpc, shard, bucket, n_buckets)


@dataclass(frozen=True)
class _Rows:
    """The candidates a collective is priced on (a mask; None: all) and their links, picked
    out once for every collective priced on the same rows (with the compiled collectives,
    which read them in place, the batch's links and the rows they are on)."""

    mask: np.ndarray | None
    idx: np.ndarray | None  # None: every row
    links: Links | None  # None: no row
    link_rows: np.ndarray | None = None  # the rows of `links` they are on (None: links' own)

    @classmethod
    def of(cls, mask, links: Links) -> _Rows:
        if mask is None:
            return cls(mask, None, links)
        # Counted first: every row or none (a one-row estimate's only cases) then needs no
        # index, and count_nonzero costs a fraction of all() and flatnonzero.
        priced = np.count_nonzero(mask)
        if priced == mask.size:
            return cls(mask, None, links)
        if not priced:
            return cls(mask, _NO_ROWS, None)
        idx = np.flatnonzero(mask)
        if kernels.ENABLED:
            return cls(mask, idx, links, idx)
        return cls(mask, idx, links.rows(idx))


_NO_ROWS = np.zeros(0, int)  # the index of a collective priced on no row


def _collective_on(rows: _Rows, op, size, group, per_node, share, constants, shares=None):
    """collective_cost of the candidates `rows`, time and algorithm 0 on the others. The model
    is element-wise, so the rows priced get the figures they would get in a pass over all; the
    others' are never read, and not pricing them is most of the cost of a chunk whose layouts
    mostly leave a collective out (a ZeRO stage, context parallelism, a pipeline)."""
    if rows.idx is None:
        return collective_cost(op, size, group, per_node, rows.links, share, constants,
                               shares=shares)
    t, code = np.zeros(rows.mask.shape[0]), np.zeros(rows.mask.shape[0], int)
    idx = rows.idx
    if idx.size:
        def pick(x):
            return x[idx] if np.ndim(x) else x
        t[idx], code[idx] = collective_cost(op, pick(size), pick(group), pick(per_node),
                                            rows.links, pick(share), constants,
                                            shares=shares, link_rows=rows.link_rows)
    return t, code


def gathered_tensors(model: Transformer, tp) -> list:
    """Elements of the tensors of one layer DeepSpeed's ZeRO-3 gathers one by one, in the
    order the forward runs them: every parameter above stage3_param_persistence_threshold
    (1e5 elements, the default of DeepSpeed 0.3-0.4, runtime/zero/constants.py), i.e. the
    weight matrices of any model worth sharding; biases and norms stay whole on every rank.
    Megatron's layer has four (QKV, projection, the MLP's two; a gated MLP's two input halves
    are one tensor)."""
    h, f = float(model.hidden), float(model.ffn_hidden)
    t = np.asarray(tp, float)
    qkv = h * h * (1.0 + 2.0 * model.kv_ratio) / t
    mlp_in = h * f * (2.0 if model.gated_mlp else 1.0) / t
    return [qkv, h * h / t, mlp_in, h * f / t]


def kept_for_backward(model: Transformer, tp, max_reuse_params: float) -> np.ndarray:
    """How many of a layer's gathered tensors stay gathered from their recomputed forward to
    their backward: DeepSpeed releases a parameter after its module unless the parameters
    used before its next use number fewer than stage3_max_reuse_distance (stage3.py @v0.3.15
    _keep_for_later). Under full recompute a tensor's backward follows the forward and the
    backward of the tensors after it in the layer."""
    sizes = gathered_tensors(model, tp)
    kept = np.zeros(np.shape(tp))
    for i in range(len(sizes)):
        between = 2.0 * sum(sizes[i + 1:]) if i + 1 < len(sizes) else 0.0
        kept = kept + (np.asarray(between) < max_reuse_params)
    return kept


def _synchronous_zero3(cost, model, c, sync, shard, tp, pp, weight_bytes, grad_bytes, comp,
                       constants, fallback):
    """DeepSpeed's ZeRO-3 before v0.5.5 on the rows `sync` (the others keep `fallback`) of a
    transformer (the only model Megatron-LM's code trains): the per-step reduce-scatter time,
    the all-gather time of one pass over the weights, the gather passes per micro-batch, the
    gather time per micro-batch that runs under compute, and the host's and HBM's share of the
    reduce-scatter and all-gather times (no network jitter stretches them).

    partition_parameters.py @v0.3.15: _allgather_param gathers one parameter into a fresh
    torch.zeros buffer through torch.distributed.all_gather's list of per-rank views, and
    _reduce_scatter_gradient reduce-scatters each gradient from a list of per-rank slices.
    torch.distributed copies between that list and a flat buffer of its own, one copy_ per
    rank issued by the host (PyTorch c10d ProcessGroupNCCL.cpp of 2020-2021, allgather and
    reduce_scatter; DeepSpeed PR #1188: 'implicit memcpy at the end of each
    ncclAllgather'): each collective pays the group size times the host's cost of one listed
    tensor (tensor_list_collective_us_per_rank) and the copy's bytes over HBM (read and
    written once; the zero fill writes the gather's buffer once more).

    What overlaps (stage3.py @v0.3.15): a module's fetch waits for its gather and then calls
    torch.cuda.synchronize(), which drains every stream of the device (compute, the gradients'
    reduce-scatter on the reduction stream); it then prefetches the next tensor, one at a
    time (a tensor is larger than stage3_prefetch_bucket_size, 5e7; smaller ones, prefetched
    several at a time, each behind a synchronize, are not told apart) and only while the
    gathered parameters number fewer than stage3_max_live_parameters, before the module's own
    kernels are issued. So only the network time of a prefetched tensor runs under compute, under the
    preceding module's; the host's list copies, the fetches that were not prefetched and the
    reduce-scatters (which the next fetch's synchronize waits for) are on the critical path.
    Parameters are released after each module runs, so full recompute gathers them once more,
    and the backward gathers again what it released (kept_for_backward).
    """
    t_rs_fallback, t_ag_fallback = fallback
    zero = np.zeros(np.shape(sync))
    sizes = gathered_tensors(model, tp)
    layer = sum(sizes)
    layers = model.layers / np.asarray(pp, float)
    # Each tensor's bytes: the stage's weights (embeddings included) shared in proportion.
    scale = 1.0 / (layers * layer)
    listed = shard * constants.tensor_list_collective_us_per_rank * 1e-6
    hbm = comp["hbm_raw_Bps"]
    t_rs = t_ag = host_rs = host_ag = hidden_fwd = hidden_bwd = zero
    ov = constants.overlap_efficiency
    # Full recompute re-runs a layer's forward at the start of its backward: its gathers hide
    # under that forward (below), so the modules' own backward, whose compute the backward's
    # prefetches run under, is the micro-batch's time less both forwards.
    recomputed = np.where(c["recompute"].astype(int) == 2, c["recompute_fraction"], 0.0)
    # A layer's forward (and backward) compute shared among its modules by their weights.
    fwd_layer = comp["t_fwd_mb"] / layers
    bwd_layer = (comp["t_mb"] - (1.0 + recomputed) * comp["t_fwd_mb"]) / layers
    for i, size in enumerate(sizes):
        ag_bytes, rs_bytes = size * scale * weight_bytes, size * scale * grad_bytes
        net_ag, _ = cost("all_gather", ag_bytes, shard, tp, read=sync)
        net_rs, _ = cost("reduce_scatter", rs_bytes, shard, tp, read=sync)
        host_ag = host_ag + layers * (listed + 3.0 * ag_bytes / hbm)
        host_rs = host_rs + layers * (listed + 2.0 * rs_bytes / hbm)
        t_ag = t_ag + layers * net_ag
        t_rs = t_rs + layers * net_rs
        # Forward: the module before it (the previous layer's last for the first) runs while
        # it is prefetched; backward runs the modules in reverse.
        before, after = sizes[i - 1], sizes[(i + 1) % len(sizes)]
        under_fwd = np.where(before < constants.deepspeed_max_live_params,
                             np.minimum(net_ag, ov * fwd_layer * before / layer), 0.0)
        under_bwd = np.where(after < constants.deepspeed_max_live_params,
                             np.minimum(net_ag, ov * bwd_layer * after / layer), 0.0)
        hidden_fwd = hidden_fwd + layers * under_fwd
        hidden_bwd = hidden_bwd + layers * under_bwd
    # Full recompute gathers every tensor again for the recomputed forward (which hides as
    # the forward does); the backward then gathers those it released.
    kept = kept_for_backward(model, tp, constants.deepspeed_max_reuse_params)
    regathered = 1.0 - recomputed * kept / len(sizes)
    passes = 1.0 + recomputed + regathered
    hidden = (1.0 + recomputed) * hidden_fwd + regathered * hidden_bwd
    return (np.where(sync, t_rs + host_rs, t_rs_fallback),
            np.where(sync, t_ag + host_ag, t_ag_fallback),
            np.where(sync, passes, 2.0), np.where(sync, hidden, 0.0),
            np.where(sync, host_rs, 0.0), np.where(sync, host_ag, 0.0))


def compute_bound_batch(batch: dict, model, training: Training, constants) -> dict:
    """Upper bounds of each candidate's throughput (tokens_per_s, samples_per_s) from its
    compute alone: the micro-batches' compute and the pipeline bubble's share of it, which
    estimate_batch's step time holds with each micro-batch's communication on top; every
    other part of it only adds, being non-negative: exposed communication (each term a max
    with 0 or a min of non-negative ones), the optimizer, the network stragglers (stretches of
    at least 1), the compute-side stragglers (base compute x (stretch - 1)) and the slowdown
    of compute under overlapped communication (a non-negative factor x the hidden time). The
    pruning of the search is exact only while this holds."""
    c = _prepared(batch, training, model)
    comp = compute_side(c, model, training, constants)
    t_mb = comp["t_mb"]
    bubble = (c["pp"] - 1) / c["virtual_stages"] * t_mb
    step = c["micro_batches"] * t_mb + bubble
    samples = c["global_batch"] / step
    tokens = samples * model.seq_len if isinstance(model, Transformer) else np.full_like(step, np.nan)
    # What layers_bound reads: the micro-batch times a step runs (its micro-batches and the
    # bubble), and how many of a layer's collectives each exposes (step_floor_batch's counts,
    # none where it counts none).
    shares = {"tp": np.zeros_like(step), "ep": np.zeros_like(step)}
    if isinstance(model, Transformer) and _physical(constants):
        counts = _layer_count(c, model)
        if constants.tp_overlap_fraction <= 1:
            shares["tp"] = np.where(c["tp"] > 1, counts, 0.0) * _tp_exposed_share(c, model, constants)
        if model.experts > 1:
            shares["ep"] = np.where(c["ep"] > 1, counts, 0.0) * (1 - constants.ep_overlap_fraction)
    return {"samples_per_s": samples, "tokens_per_s": tokens,
            **{k: comp[k] for k in FLOOR_COMPUTE},
            "micro_batch_runs": c["micro_batches"] + (c["pp"] - 1) / c["virtual_stages"],
            "tp_exposed": shares["tp"], "ep_exposed": shares["ep"]}


def layer_collectives_batch(batch: dict, model, training: Training, constants,
                            links: Links | None = None) -> dict:
    """Per candidate, one layer's tensor-parallel all-reduce and expert all-to-all of a
    micro-batch in seconds (`tp_s`, `ep_s`), as step_floor_batch prices them (0 where it
    counts none). They read the hardware pair, tp, ep, cp, the micro-batch and sequence
    parallelism alone, so a search prices them once per pair and such layout for all its
    node counts and the layouts' other degrees."""
    c = _prepared(batch, training, model)
    n = c["tp"].shape[0]
    out = {"tp_s": np.zeros(n), "ep_s": np.zeros(n)}
    if not isinstance(model, Transformer) or not _physical(constants):
        return out
    links = Links.of(c, constants) if links is None else links
    stretched_up = np.asarray(c["fabric_jitter_cv"], float) >= 0
    t_tp1, t_ep1 = _layer_collectives(c, model, training, constants, links, stretched_up)
    for key, t in (("tp_s", t_tp1), ("ep_s", t_ep1)):
        if t is not None:
            out[key] = t
    return out


def layers_bound(bound: dict, layers: dict, global_batch: np.ndarray, model) -> dict:
    """Upper bounds of throughput (tokens_per_s, samples_per_s) tighter than
    compute_bound_batch's `bound` of the same rows: each micro-batch's exposed tensor-parallel
    all-reduces and expert all-to-alls (`layers`: layer_collectives_batch's of the rows) on
    its compute, run as many times as a step runs micro-batches, bubble included. These are
    step_floor_batch's first terms, priced as it prices them (so by the same argument never
    above what the model adds), the others left out, and lowered by _FLOOR_ROUNDING as the
    floor is; the lower of it and `bound` (where no collective is exposed, `bound` itself)."""
    t_mb = (bound["t_mb"] + bound["tp_exposed"] * layers["tp_s"]
            + bound["ep_exposed"] * layers["ep_s"])
    step = bound["micro_batch_runs"] * t_mb * (1.0 - _FLOOR_ROUNDING)
    samples = np.minimum(global_batch / step, bound["samples_per_s"])
    tokens = samples * model.seq_len if isinstance(model, Transformer) else np.full_like(step, np.nan)
    return {"samples_per_s": samples, "tokens_per_s": tokens}


def _physical(constants) -> bool:
    """Whether the constants keep every term of step_floor_batch a lower bound: overlap shares
    in [0, 1], a slowdown under overlap and a compute jitter not negative."""
    return (0.0 <= constants.tp_overlap_fraction <= 1.0
            and 0.0 <= constants.tp_comm_overlap_exposed_share <= 1.0
            and 0.0 <= constants.ep_overlap_fraction <= 1.0
            and constants.overlap_compute_slowdown >= 0.0
            and constants.compute_jitter_cv >= 0.0)


# Rounding of the floor's sum of terms (each the model's own figure of its base pass, or a
# part of one) against the model's sum in its own order: a few units in the last place, far
# below this share, by which the floor is lowered so that it is never above the step it bounds.
_FLOOR_ROUNDING = 1e-12


def _collectives_per_layer(c: dict) -> np.ndarray:
    """A layer's tensor-parallel all-reduces (or expert all-to-alls) per micro-batch: 2 forward,
    2 backward, and the forward's 2 again in the backward for the share of layers full
    recompute re-runs (Megatron's --recompute-num-layers: recompute_fraction)."""
    recomputed = np.where(c["recompute"].astype(int) == 2, c["recompute_fraction"], 0.0)
    return 4.0 + 2.0 * recomputed


def _floor_cost(op, size, group, stride, gpn, links: Links, constants, read) -> np.ndarray:
    """A collective's time as estimate_batch's `cost` prices it (the same span, NIC share and
    rows: a group of two or more), on the rows `read` (0 elsewhere)."""
    per_node, _ = group_span(group, stride, gpn)
    t, _ = _collective_on(_Rows.of(read & (group > 1), links), op, size, group, per_node,
                          links.node_Bps * per_node / gpn, constants)
    return t


def _exposed_at_least(total, one, hide):
    """min(total, max(one, total - hide)): what the model exposes of a collective of `total`
    seconds hidden behind `hide` seconds of compute but for its last piece `one`, and the
    least it exposes of one (exposing all of it is more). Non-decreasing in `total` and
    `one`, so a network stretch of either (at least 1) only raises it."""
    return np.minimum(total, np.maximum(one, total - hide))


def _interleaved_windows(t_phase_mb, m, pp, v, ov):
    """The compute that hides a step's data-parallel collective of one phase (a micro-batch's
    backward for the gradients' reduction, its forward for the weights' gather), and the part
    of it under the chunk reduced last (gathered first), with v virtual stages:
    (ov x t_phase_mb x (1 + (v - 1) x group) / v, ov x t_phase_mb / v). With v = 1 both are
    one micro-batch's, as the usual pipeline schedule runs it.

    Megatron-Core's interleaved schedule (megatron/core/pipeline_parallel/schedules.py
    @core_v0.11.0 get_schedule_table, lines 725-760) runs each chunk's micro-batches in groups
    (microbatch_group_size_per_vp_stage: the pipeline size by default, model_parallel_config.py
    line 380, and at least pp and at most m, schedules.py lines 649-657), chunk after chunk.
    A chunk's gradients are reduced once its last micro-batch's backward is done
    (backward_step_helper, lines 938-969: enable_grad_sync before it, or grad_sync_func after
    it as NeMo's distributed Adam sets it), so each of the first v - 1 chunks to finish reduces
    behind the last group's backwards of the chunks still to run, and the last chunk behind its
    own last backward alone. The weights are gathered a chunk ahead (param_sync_func, lines
    718-720 and 872-884), each behind the first group's forwards of the chunk before it. With
    the default group, pp, a remainder of m / pp is refused (lines 659-665), so every group
    holds pp micro-batches; min(m, pp) keeps the window within the step where m < pp (a layout
    the model does not refuse)."""
    group = np.minimum(m, pp)
    chunk = ov * t_phase_mb / v
    return chunk * (1.0 + (v - 1.0) * group), chunk


def _tp_message_bytes(c: dict, model, training: Training) -> np.ndarray:
    """A tensor-parallel all-reduce's bytes: a micro-batch's activations of one layer."""
    act_bytes = 4.0 if training.precision == "fp32" else 2.0
    return model.seq_len / c["cp"] * c["micro_batch"] * model.hidden * act_bytes


def _tp_exposed_share(c: dict, model, constants) -> np.ndarray:
    """Share of each row's tensor-parallel traffic on the critical path: with Transformer
    Engine's userbuffers overlap (tp_comm_overlap) inside a node, what the pipelined
    reduce-scatters of the forward (and of its re-run under full recompute) leave waiting,
    tp_comm_overlap_exposed_share of each forward all-reduce's worth, the backward's hidden;
    elsewhere, and across nodes (userbuffers exchange over NVLink), 1 - tp_overlap_fraction."""
    inside = np.asarray(c["tp_comm_overlap"], bool) & (c["tp"] <= c["gpus_per_node"])
    plain = 1.0 - constants.tp_overlap_fraction
    if not isinstance(model, Transformer) or not inside.any():  # no layers' traffic to hide
        return np.full(inside.shape, plain)
    per_layer = _collectives_per_layer(c)  # 4, and 2 more for each recomputed forward
    forward = per_layer - 2.0
    return np.where(inside, constants.tp_comm_overlap_exposed_share * forward / per_layer, plain)


def _layer_count(c: dict, model) -> np.ndarray:
    """Tensor-parallel all-reduces (or expert all-to-alls) of a micro-batch on the stage that
    paces the pipeline."""
    return _collectives_per_layer(c) * c["paced_layers"]


def _layer_collectives(c: dict, model, training: Training, constants, links: Links,
                       read: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """One tensor-parallel all-reduce and one expert all-to-all of a layer of a micro-batch
    as the model prices them in its base pass, on the rows `read` (0 elsewhere); None where
    step_floor_batch counts none (an exposed share below 0, a dense model). They read the
    hardware pair, tp, ep, cp, the micro-batch and sequence parallelism alone."""
    tp, ep, gpn = c["tp"], c["ep"], c["gpus_per_node"]
    t_tp1 = t_ep1 = None
    counts_tp, counts_ep = _floor_counts(model, constants)
    if counts_tp:
        t_tp1 = _floor_cost("all_reduce", _tp_message_bytes(c, model, training), tp, 1, gpn,
                            links, constants, read)
    if counts_ep:
        k = min(model.top_k, model.experts)
        sp = c["sequence_parallel"].astype(bool)
        act_bytes = 4.0 if training.precision == "fp32" else 2.0
        ep_msg = (model.seq_len / c["cp"] * c["micro_batch"] * k * model.hidden * act_bytes
                  / np.where(sp, tp, 1.0))
        t_ep1 = _floor_cost("all_to_all", ep_msg, ep, tp, gpn, links, constants, read)
    return t_tp1, t_ep1


def _floor_counts(model, constants) -> tuple[bool, bool]:
    """Whether step_floor_batch counts a layer's tensor-parallel all-reduces (not with an
    exposed share below 0) and its expert all-to-alls (a model with experts)."""
    return constants.tp_overlap_fraction <= 1, model.experts > 1


# What step_floor_batch reads of compute_side, which compute_bound_batch passes on: a search
# computes it once per set of fabrics and gives it to the floor of each row.
FLOOR_COMPUTE = ("t_mb", "t_fwd_mb", "hbm_raw_Bps")


def step_floor_batch(batch: dict, model, training: Training, constants,
                     compute: dict | None = None, links: Links | None = None,
                     layers: dict | None = None) -> dict:
    """Upper bounds of each candidate's throughput (tokens_per_s, samples_per_s), tighter than
    compute_bound_batch's: a lower bound of estimate_batch's step time from a few of its own
    terms, each priced as the model prices it in its base pass (no network stretch), the
    others left out. Per row, since what the network costs depends on the fabric.

    Why each term is at most what the model adds (the model's step is the stretched pass's
    sum plus the compute stragglers; every stretch is at least 1 where the fabric's jitter is
    not negative, and each term below is non-decreasing in the stretched times):
    - compute and bubble, with each micro-batch's tensor-parallel all-reduces and expert
      all-to-alls on top: the model's per-micro-batch time adds to compute the exposed share
      (_tp_exposed_share, 1 - ep_overlap_fraction) of them and other non-negative parts
      (context-parallel ring, offload), and runs it m + bubble times; the all-reduces counted
      only while their share is not negative.
    - the pipeline's point-to-point transfers: exposed in full by the model.
    - the data-parallel collectives: without ZeRO the gradients' all-reduce; ZeRO-1 their
      reduce-scatter (hidden behind the backward) and the weights' all-gather (behind the next
      forward); ZeRO-2 each micro-batch's reduce-scatter and, exposed in full, the weights'
      all-gather; ZeRO-3 each micro-batch's forward all-gathers and its backward's all-gathers
      and reduce-scatters (which share the NICs and the backward's window). Each exposes at
      least _exposed_at_least (min(total, max(last piece, total - the compute it hides
      behind)); the model exposes all of it where the framework does not overlap or tensor
      parallelism crosses nodes, more still, and ZeRO-3's replicas' all-reduce on top). Where
      expert gradients reduce over their own group (ep > 1, without ZeRO or with ZeRO-1), only
      the dense buckets are counted; DeepSpeed's synchronous ZeRO-3, which the model prices
      otherwise, is left out.
    - the optimizer step on the GPU (without offload) and the compute stragglers: the
      model's own figures, computed as it computes them.
    Left out: the context-parallel ring, offload, the network stragglers and the slowdown of
    compute under overlapped communication, all non-negative. The floor is lowered by
    _FLOOR_ROUNDING against the rounding of a sum taken in another order. Every term is a
    lower bound only while the constants are physical (overlap shares in [0, 1], a slowdown
    under overlap and a compute jitter not negative: a negative share or slowdown makes the
    model's hidden time or contention negative, a negative jitter its stragglers); with any
    other, the compute-only bound is returned instead.
    `compute`: the rows' FLOOR_COMPUTE columns when known (compute_bound_batch's), else
    computed here; `links`: Links.of the rows' hardware columns when known, as estimate_batch
    takes them; `layers`: the rows' layer_collectives_batch columns when known (a search
    prices them once per pair and the degrees they read, for its throughput bound).
    """
    if not _physical(constants):
        return compute_bound_batch(batch, model, training, constants)
    c = _prepared(batch, training, model)
    comp = compute if compute is not None else compute_side(c, model, training, constants)
    gpn = c["gpus_per_node"]
    gpus = gpn * c["nodes"]
    dp, tp, pp, ep, cp = (c[k] for k in ("dp", "tp", "pp", "ep", "cp"))
    v, m = c["virtual_stages"], c["micro_batches"]
    zero = c["zero_stage"].astype(int)
    n = gpus.shape[0]
    is_tf = isinstance(model, Transformer)
    t_comp_mb, t_fwd_mb = comp["t_mb"], comp["t_fwd_mb"]
    t_bwd_mb = t_comp_mb - t_fwd_mb
    if links is None:
        links = Links.of(c, constants)
    node_bw = links.node_Bps
    # Where the fabric's jitter is negative a stretch would shorten the network's terms: none
    # of them is counted there.
    stretched_up = np.asarray(c["fabric_jitter_cv"], float) >= 0
    t_mb = t_comp_mb
    pp_total = np.zeros(n)
    if is_tf:
        if layers is None:
            t_tp1, t_ep1 = _layer_collectives(c, model, training, constants, links,
                                              stretched_up)
        else:  # the same figures, where _layer_collectives counts them
            counts_tp, counts_ep = _floor_counts(model, constants)
            t_tp1 = layers["tp_s"] if counts_tp else None
            t_ep1 = layers["ep_s"] if counts_ep else None
        if t_tp1 is not None:
            tp_mb = np.where(tp > 1, _layer_count(c, model) * t_tp1, 0.0)
            t_mb = t_comp_mb + tp_mb * _tp_exposed_share(c, model, constants)
        if t_ep1 is not None:
            ep_mb = np.where(ep > 1, _layer_count(c, model) * t_ep1, 0.0)
            t_mb = t_mb + ep_mb * (1 - constants.ep_overlap_fraction)
        pp_msg = _tp_message_bytes(c, model, training) / tp
        _, spans_pp = group_span(pp, tp * dp * cp, gpn)
        t_p2p, _ = _collective_on(_Rows.of((pp > 1) & stretched_up, links), "p2p", pp_msg,
                                  np.full(n, 2.0), np.where(spans_pp > 1, 1.0, 2.0),
                                  node_bw / gpn, constants)
        pp_total = np.where(pp > 1, 2.0 * v * (m + pp - 1) * t_p2p, 0.0)
    step = m * t_mb + (pp - 1) / v * t_mb + pp_total

    # ---- the gradients' reduction
    g = _Gradients.of(c, model, constants, training.precision, is_tf)
    expert, local_params, gbytes, grad_bytes = g.expert, g.local_params, g.gbytes, g.grad_bytes
    dpc, shard, bucket, n_buckets = g.dpc, g.shard, g.bucket, g.n_buckets
    # Without ZeRO and with ZeRO-1, expert gradients reduce over their own group (ep > 1):
    # their buckets only add to the dense ones', which alone are counted there.
    buckets = n_buckets
    if expert > 0:
        expert_bytes = expert / (tp * pp * ep) * gbytes
        buckets = np.where(ep > 1, np.maximum((grad_bytes - expert_bytes) / bucket, 1.0),
                           n_buckets)
    hide_bwd = constants.overlap_efficiency * t_bwd_mb
    grad_hide, chunk_grad_hide = _interleaved_windows(t_bwd_mb, m, pp, v,
                                                      constants.overlap_efficiency)
    gather_hide, chunk_gather_hide = _interleaved_windows(t_fwd_mb, m, pp, v,
                                                          constants.overlap_efficiency)
    reduced = (dpc > 1) & stretched_up
    sync = (zero == 3) & SYNCHRONOUS_ZERO3_CODES[np.asarray(c["framework"], int)]
    reduced &= ~sync
    # Each stage's reduce-scatter and all-gather as the model prices them (ZeRO-1 and ZeRO-2 a
    # bucket at a time over the data-parallel group, ZeRO-3 a layer at a time over its shard
    # group), each op in one call for every stage's rows: the model is element-wise.
    t_bucket = _floor_cost("all_reduce", bucket, dpc, tp, gpn, links, constants,
                           reduced & (zero == 0))
    units = float(model.layers) if is_tf else 1.0
    z3 = zero == 3
    zero_group = np.where(z3, shard, dpc)
    sharded = reduced & (zero >= 1)
    t_rs1 = _floor_cost("reduce_scatter", np.where(z3, grad_bytes / units, bucket), zero_group,
                        tp, gpn, links, constants, sharded)
    wbytes = (constants.bytes_per_param_weights_fp32 if training.precision == "fp32"
              else constants.bytes_per_param_weights)
    fp8_gather = np.asarray(c["fp8_param_gather"], bool) & (training.precision == "fp8")
    w_per_g = (np.where(fp8_gather, constants.bytes_per_param_weights_fp8, wbytes)
               if fp8_gather.any() else wbytes) / gbytes
    w_bucket = np.minimum(bucket, local_params * wbytes)
    t_ag1 = _floor_cost("all_gather", np.where(z3, local_params * wbytes / units,
                                               np.where(zero == 1, bucket * w_per_g, w_bucket)),
                        zero_group, tp, gpn, links, constants, sharded)
    hide_fwd = constants.overlap_efficiency * t_fwd_mb
    t_rs, t_ag = units * t_rs1, units * t_ag1
    reduction = np.where(
        zero == 0, _exposed_at_least(buckets * t_bucket, np.maximum(
            t_bucket, buckets * t_bucket / v - chunk_grad_hide), grad_hide),
        np.where(
            zero == 1, (_exposed_at_least(buckets * t_rs1, np.maximum(
                t_rs1, buckets * t_rs1 / v - chunk_grad_hide), grad_hide)
                        + _exposed_at_least(buckets * t_ag1, np.maximum(
                            t_ag1, buckets * t_ag1 / v - chunk_gather_hide), gather_hide)),
            np.where(zero == 2, (m * _exposed_at_least(n_buckets * t_rs1, t_rs1, hide_bwd)
                                 + np.maximum(local_params * wbytes / w_bucket, 1.0) * t_ag1),
                     m * (_exposed_at_least(t_ag, t_ag / units, hide_fwd)
                          + _exposed_at_least(t_ag + t_rs, (t_ag + t_rs) / units, hide_bwd)))))
    step = step + np.where(reduced, reduction, 0.0)

    # ---- the optimizer step and the compute stragglers
    opt_params = local_params / np.where(zero >= 1, shard, 1.0)
    t_opt_gpu = OPTIMIZER_BYTES_PER_PARAM * opt_params / comp["hbm_raw_Bps"]
    step = step + np.where(c["offload"].astype(int) >= 1, 0.0, t_opt_gpu)
    step = step + m * t_comp_mb * (straggler_stretch(constants.compute_jitter_cv, gpus) - 1.0)
    step = step * (1.0 - _FLOOR_ROUNDING)
    samples = c["global_batch"] / step
    tokens = samples * model.seq_len if is_tf else np.full_like(step, np.nan)
    return {"samples_per_s": samples, "tokens_per_s": tokens}


def estimate_batch(batch: dict, model, training: Training, constants,
                   links: Links | None = None, runnable: bool = False) -> dict:
    """Evaluate every candidate in `batch` (dict of equal-length arrays) in one numpy pass.

    Cluster keys are those of Cluster.as_arrays(); layout keys are dp, tp, pp, ep,
    virtual_stages, zero_stage (0-3), sequence_parallel (bool), recompute (0 none,
    1 selective, 2 full), micro_batch and optionally global_batch (else training's).
    Returns arrays: valid, step_time_s, samples_per_s, tokens_per_s, achieved_tflops_per_gpu,
    executed_tflops_per_gpu,
    mfu, scaling_efficiency, communication_share, compute_efficiency, micro_batches, gpus,
    inter_node_bandwidth_gbs, tp/pp/dp_cross_node, the breakdown (BREAKDOWN_KEYS, seconds) and
    memory_* (weights_gb ... total_gb, capacity_gb, headroom_gb, fits, margin_gb).
    `links`: Links.of the batch's hardware columns with these constants, when known (estimate()
    keeps them per cluster); else built here. `runnable`: every candidate is known valid and
    fitting (feasibility_batch said so: a search builds only those), so its validity and
    memory are not worked out again: `valid` and `memory_fits` are true and no other memory_*
    column is given.
    """
    c = _prepared(batch, training, model)
    if runnable:
        every = np.ones(c["nodes"].shape, bool)
        return {"valid": every, "memory_fits": every,
                **_timed(c, model, training, constants, links, memory=False)}
    peak = c[PEAK_KEYS[training.precision]].astype(np.float64) * 1e12  # compute_side's
    return {"valid": _valid(c, model, np.isfinite(peak)),
            **_timed(c, model, training, constants, links)}


def _timed(c: dict, model, training: Training, constants, links: Links | None,
           hardware: dict | None = None, memory: bool = True) -> dict:
    """estimate_batch's columns but `valid`, of the prepared candidates `c`: estimate(), whose
    configuration validate_layout has checked, reads no validity. `hardware`: compute_side's
    hardware_rates of `c`, when known (estimate() keeps them per cluster). `memory`: False for
    the time's columns alone, without the memory_* ones (which the time reads none of)."""
    gpn = c["gpus_per_node"]
    nodes = c["nodes"]
    gpus = gpn * nodes
    dp, tp, pp, ep, cp = (c[k] for k in ("dp", "tp", "pp", "ep", "cp"))
    v = c["virtual_stages"]
    zero = c["zero_stage"].astype(int)
    z3 = zero == 3
    z2 = zero == 2
    sp = c["sequence_parallel"].astype(bool)
    b = c["micro_batch"]
    offload = c["offload"].astype(int)
    n = gpus.shape[0]
    global_batch = c["global_batch"]
    m = c["micro_batches"]
    is_tf = isinstance(model, Transformer)
    fp32 = training.precision == "fp32"
    comp = compute_side(c, model, training, constants, hardware)
    t_comp_mb, t_fwd_mb = comp["t_mb"], comp["t_fwd_mb"]
    t_bwd_mb = t_comp_mb - t_fwd_mb
    peak = comp["peak"]

    # ---- links
    if links is None:
        links = Links.of(c, constants)
    node_bw = links.node_Bps
    act_bytes = 4.0 if fp32 else 2.0
    zeros = np.zeros(n)
    # The algorithm (sizing.collectives.CHOSEN) and network tier (TIERS) of each kind of
    # collective, for the breakdown.
    routes: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    # A group's span and NIC share, and the rows priced, by the arrays that define them (kept
    # with them, so that their ids stay theirs): the data-parallel and ZeRO collectives of a
    # candidate share their group, and each ZeRO stage's two collectives their rows.
    spans_of: dict[tuple[int, int], tuple] = {}
    rows_of: dict[tuple[int, int], tuple] = {}
    # The network shares of a group on its rows: the same for each ZeRO stage's two collectives.
    shares_of: dict[tuple[int, int, int], dict] = {}
    # The network tier each group's traffic reaches, by the key of its span.
    tiers_of: dict[tuple[int, int], np.ndarray] = {}

    def span(group, stride) -> tuple:
        """The key of a group's span and (the group, its stride, members per node, nodes
        spanned, NIC share, whether it crosses nodes)."""
        key = (id(group), id(stride))
        if key not in spans_of:
            per_node, spans = group_span(group, stride, gpn)
            spans_of[key] = (group, stride, per_node, spans, node_bw * per_node / gpn, spans > 1)
        return key, spans_of[key]

    def tier(group, stride) -> np.ndarray:
        """The network tier a group's traffic reaches (its route's)."""
        key, (_, _, per_node, spans, _, _) = span(group, stride)
        if key not in tiers_of:  # the data-parallel group's is each ZeRO stage's
            # tier x (group > 1): the tier where the group has two GPUs or more, 0
            # ("none") elsewhere, cheaper than np.where with a scalar
            tiers_of[key] = tier_reached(spans, per_node, links) * (group > 1)
        return tiers_of[key]

    def cost(op, size, group, stride, name=None, read=None):
        """One collective of each candidate; `read`: the rows whose time and algorithm are
        read (the others get 0 for both and are not priced; the route's tier is "none" where
        the group is one GPU, and the words skip it then)."""
        _, (_, _, per_node, _, share, inter) = span(group, stride)
        key = (id(group), id(read))
        if key not in rows_of:
            rows = group > 1 if read is None else read & (group > 1)  # a group of one costs 0
            rows_of[key] = (group, read, _Rows.of(rows, links))
        rows = rows_of[key][2]
        shares = shares_of.setdefault((id(group), id(stride), id(read)), {})
        t, chosen = _collective_on(rows, op, size, group, per_node, share, constants, shares)
        if name is not None:
            routes[name] = (chosen, tier(group, stride))
        return t, inter

    # ---- tensor and expert parallelism (per micro-batch, on the critical path)
    if is_tf:
        s, h = model.seq_len, model.hidden
        tp_msg = s / cp * b * h * act_bytes
        tp_count = _collectives_per_layer(c) * c["paced_layers"]
        t_tp1, tp_inter = cost("all_reduce", tp_msg, tp, 1, "tp")
        tp_mb = np.where(tp > 1, tp_count * t_tp1, 0.0)
        if model.experts > 1:
            k = min(model.top_k, model.experts)
            ep_msg = s / cp * b * k * h * act_bytes / np.where(sp, tp, 1.0)
            t_ep1, ep_inter = cost("all_to_all", ep_msg, ep, tp, "ep")
            # Dispatch and combine forward, their gradients backward: 4 per layer. Full
            # recompute re-runs them too (6 in the layers it re-runs): Megatron-Core checkpoints whole transformer
            # layers, MoE layer and token dispatcher included (core_v0.14.0,
            # transformer/transformer_block.py _checkpointed_forward runs each layer's
            # forward under tensor_parallel.checkpoint; moe/moe_layer.py's forward calls
            # dispatch and combine), as it re-runs the tensor-parallel all-reduces.
            ep_count = _collectives_per_layer(c) * c["paced_layers"]
            ep_mb = np.where(ep > 1, ep_count * t_ep1, 0.0)
        else:
            ep_mb, ep_inter = zeros, np.zeros(n, bool)
        pp_msg = tp_msg / tp  # one rank's share of the activations it all-reduces
        _, spans_pp = group_span(pp, tp * dp * cp, gpn)
        pp_cross = spans_pp > 1
        t_p2p, _ = _collective_on(_Rows.of(pp > 1, links), "p2p", pp_msg, np.full(n, 2.0),
                                  np.where(pp_cross, 1.0, 2.0), node_bw / gpn, constants)
        pp_total = np.where(pp > 1, 2.0 * v * (m + pp - 1) * t_p2p, 0.0)
        # Context parallelism passes each rank's K and V around the CP ring (cp - 1 steps per
        # layer forward; K/V again and their gradients backward: 3x). Megatron's p2p variant is
        # asynchronous and hides behind the attention kernels it feeds (Megatron-LM
        # docs/user-guide/features/context_parallel.md).
        has_cp = cp > 1
        if np.count_nonzero(has_cp):
            kv_msg = s / cp * b * 2 * h * model.kv_ratio * act_bytes / tp
            t_kv1, cp_inter = cost("p2p", kv_msg, np.minimum(cp, 2.0), tp, read=has_cp)
            cp_comm = np.where(has_cp, 3.0 * (cp - 1) * t_kv1 * c["paced_layers"], 0.0)
        else:  # no ring to pass K and V around, no group of two to span nodes
            cp_comm, cp_inter = zeros, np.zeros(n, bool)
        cp_mb = np.maximum(cp_comm - comp["t_attention_mb"], 0.0)
    else:
        tp_mb = ep_mb = pp_total = cp_mb = zeros
        tp_inter = ep_inter = pp_cross = cp_inter = np.zeros(n, bool)

    # ---- data parallelism / ZeRO (per step)
    g = _Gradients.of(c, model, constants, training.precision, is_tf)
    expert, local_params, gbytes, grad_bytes = g.expert, g.local_params, g.gbytes, g.grad_bytes
    dpc, shard, bucket, n_buckets = g.dpc, g.shard, g.bucket, g.n_buckets
    wbytes = constants.bytes_per_param_weights_fp32 if fp32 else constants.bytes_per_param_weights
    # Read without ZeRO (ZeRO-1 and ZeRO-2 reduce-scatter and all-gather, ZeRO-3 per layer).
    t_bucket, dp_inter = cost("all_reduce", bucket, dpc, tp, "dp", read=zero == 0)
    # Expert weights are replicated only over the dp / ep ranks holding the same experts (ep x
    # tp apart): their gradients reduce over that smaller group, the dense ones over dp x cp.
    t_ar = n_buckets * t_bucket
    # ZeRO-1 (Megatron's distributed optimizer, DeepSpeed's stage 1) reduce-scatters the
    # gradients and all-gathers the updated 16-bit weights (FP8 with fp8_param_gather): two
    # collectives of their own, which NCCL runs as rings whatever the all-reduce would take
    # (Megatron-LM docs/source/api-guide/dist_optimizer.md 'Key steps'; tuning.cc prices tree,
    # NVLS and CollNet for all-reduce only).
    z1 = (zero == 1) & (dpc > 1)
    fp8_gather = np.asarray(c["fp8_param_gather"], bool) & (training.precision == "fp8")
    w_per_g = (np.where(fp8_gather, constants.bytes_per_param_weights_fp8, wbytes)
               if np.count_nonzero(fp8_gather) else wbytes) / gbytes
    t_z1_rsb, _ = cost("reduce_scatter", bucket, dpc, tp, "zero1", read=z1)
    t_z1_agb, _ = cost("all_gather", bucket * w_per_g, dpc, tp, read=z1)
    t_z1_rs, t_z1_ag = n_buckets * t_z1_rsb, n_buckets * t_z1_agb
    if expert > 0:
        expert_bytes = expert / (tp * pp * ep) * gbytes
        dense_buckets = np.maximum((grad_bytes - expert_bytes) / bucket, 1.0)
        expert_dp, expert_stride = np.maximum(dpc / ep, 1.0), tp * ep
        t_ebucket, _ = cost("all_reduce", bucket, expert_dp, expert_stride,
                            read=(ep > 1) & (zero == 0))
        t_ar = np.where(ep > 1, dense_buckets * t_bucket + expert_bytes / bucket * t_ebucket,
                        t_ar)
        z1_ep = z1 & (ep > 1)
        t_ers, _ = cost("reduce_scatter", bucket, expert_dp, expert_stride, read=z1_ep)
        t_eag, _ = cost("all_gather", bucket * w_per_g, expert_dp, expert_stride, read=z1_ep)
        t_z1_rs = np.where(ep > 1, dense_buckets * t_z1_rsb + expert_bytes / bucket * t_ers,
                           t_z1_rs)
        t_z1_ag = np.where(ep > 1, dense_buckets * t_z1_agb + expert_bytes / bucket * t_eag,
                           t_z1_ag)
    # ZeRO-2 keeps only its shard of the gradients (sizing/memory.py): with accumulation each
    # micro-batch's gradients are reduce-scattered as they are produced, and the updated
    # 16-bit weights are all-gathered once after the optimizer step.
    # The ZeRO-2 and ZeRO-3 collectives are read only on candidates of that stage: without
    # one (a one-row estimate has one stage) they are not priced, their times and algorithm 0
    # as a pass on no row gives them. ZeRO-2's route is then ZeRO-1's (the same group's tier;
    # the routes' merge below reads neither algorithm where no row is of ZeRO-2); ZeRO-3's
    # keeps its own group's tier, which the rows without ZeRO read.
    if np.count_nonzero(z2):
        t_rsb, _ = cost("reduce_scatter", bucket, dpc, tp, "zero2", read=z2)
        t_z2_rs = n_buckets * t_rsb
        w_bucket = np.minimum(bucket, local_params * wbytes)
        t_agb, _ = cost("all_gather", w_bucket, dpc, tp, read=z2)
        t_z2_ag = np.maximum(local_params * wbytes / w_bucket, 1.0) * t_agb
    else:
        t_rsb = t_z2_rs = t_agb = t_z2_ag = zeros
        routes["zero2"] = routes["zero1"]
    units = float(model.layers) if is_tf else 1.0
    if np.count_nonzero(z3):
        t_rs1, _ = cost("reduce_scatter", grad_bytes / units, shard, tp, "zero", read=z3)
        t_ag1, _ = cost("all_gather", local_params * wbytes / units, shard, tp, read=z3)
        t_rs, t_ag = units * t_rs1, units * t_ag1
    else:
        t_rs = t_ag = zeros
        routes["zero"] = (np.zeros(n, int), tier(shard, tp))
    # DeepSpeed's ZeRO-3 before v0.5.5 (sizing/workload.py FRAMEWORK_SYNCHRONOUS_ZERO3) runs
    # one collective per parameter, not per layer, and only its prefetched gathers overlap.
    sync = z3 & SYNCHRONOUS_ZERO3_CODES[np.asarray(c["framework"], int)]
    gather_passes = np.full(n, 2.0)  # forward and backward, per micro-batch
    sync_hidden = zeros  # of the gathers, per micro-batch
    host_rs = host_ag = zeros  # of t_rs and t_ag: the host's list copies and HBM's
    if is_tf and np.count_nonzero(sync):  # elsewhere the rows are invalid (_valid)
        t_rs, t_ag, gather_passes, sync_hidden, host_rs, host_ag = _synchronous_zero3(
            cost, model, c, sync, shard, tp, pp, local_params * wbytes, grad_bytes, comp,
            constants, (t_rs, t_ag))
    # HSDP: the shards of each group are all-reduced across the replicas, once per step.
    if shard is not dpc:
        replicas = dpc / shard
        t_rep1, rep_inter = cost("all_reduce", np.minimum(bucket, grad_bytes / shard), replicas,
                                 tp * shard, read=z3)
        t_replica = np.where(z3 & (replicas > 1),
                             np.maximum(grad_bytes / shard / bucket, 1.0) * t_rep1, 0.0)
    else:  # no hybrid group: one replica of every shard, nothing to all-reduce across them
        replicas, t_rep1, t_replica, rep_inter = 1.0, zeros, zeros, np.zeros(n, bool)
    has_dp = dpc > 1
    dp_overlap = np.asarray(c["overlap_grad_reduce"], bool)
    # Megatron's distributed optimizer with overlap_param_gather dispatches the weights'
    # all-gather at the next step's forward and waits for it bucket by bucket in each module's
    # forward pre-hook (megatron/core/distributed/distributed_data_parallel.py @core_v0.11.0
    # _make_forward_pre_hook); without it the all-gather runs after the optimizer step.
    gather_hidden = dp_overlap & np.asarray(c["overlap_param_gather"], bool)

    # ---- optimizer step and offload (per step, exposed)
    opt_params = local_params / np.where(zero >= 1, shard, 1.0)
    t_opt_gpu = OPTIMIZER_BYTES_PER_PARAM * opt_params / comp["hbm_raw_Bps"]
    host_Bps = comp["host_link_Bps"]
    # ZeRO-Offload: 16-bit gradients down and parameters up over the host link, the Adam
    # step on the CPU cores (DeepSpeed CPU-Adam).
    # Offload is rare: a batch without it prices neither the host step nor the transfers.
    t_opt = t_opt_gpu
    if np.count_nonzero(offload >= 1):
        t_opt_host = (2.0 * gbytes * opt_params / host_Bps
                      + opt_params / constants.cpu_adam_params_per_s)
        t_opt = np.where(offload >= 1, t_opt_host, t_opt_gpu)
    # Activation offload sends each micro-batch's saved activations down in the forward and
    # back up in the backward; only what the compute cannot cover is exposed.
    offload_mb = zeros
    if np.count_nonzero(offload == 2):
        act_mb_bytes = comp["activation_parts"][0]
        offload_mb = np.where(offload == 2,
                              np.maximum(2.0 * act_mb_bytes / host_Bps - t_comp_mb, 0.0), 0.0)

    # Each inter-node collective waits for the slowest rank of its own group.
    jitter = c["fabric_jitter_cv"]
    # Each kind's stretch where its traffic crosses nodes (1 elsewhere), built once for all the
    # terms of that kind; None where no candidate's traffic of that kind crosses nodes.
    stretched = {"tp": (tp_inter, tp), "ep": (ep_inter, ep), "pp": (pp_cross, 2.0),
                 "cp": (cp_inter, cp), "dp": (dp_inter, dpc), "zero": (dp_inter, shard),
                 "rep": (rep_inter, replicas)}
    # Kinds of one group and rank count (ZeRO's and the data-parallel all-reduce's, without a
    # hybrid group) share theirs.
    by_group: dict[tuple[int, int], np.ndarray | None] = {}
    for inter, ranks in stretched.values():
        key = (id(inter), id(ranks))
        if key not in by_group:
            by_group[key] = (np.where(inter, straggler_stretch(jitter, ranks), 1.0)
                             if np.count_nonzero(inter) else None)
    stretches = {kind: by_group[(id(inter), id(ranks))]
                 for kind, (inter, ranks) in stretched.items()}

    # The compute an overlapped collective can hide behind, alike in both passes.
    ov = constants.overlap_efficiency
    hide_bwd, hide_fwd = ov * t_bwd_mb, ov * t_fwd_mb
    # The step's gradient reduction and weight gather (without ZeRO and with ZeRO-1) hide
    # behind more than one micro-batch with interleaved stages, each chunk's in its own window.
    grad_hide, chunk_grad_hide = _interleaved_windows(t_bwd_mb, m, pp, v, ov)
    gather_hide, chunk_gather_hide = _interleaved_windows(t_fwd_mb, m, pp, v, ov)
    bubble_share = (pp - 1) / v  # of a micro-batch's time
    # most batches have no synchronous ZeRO-3 row to pick out
    any_sync = bool(np.count_nonzero(sync))
    # The network's jitter stretches the network's part of ZeRO-3's collectives alone, not the
    # host's copies of DeepSpeed's 2021 engine.
    net_rs, net_ag = (t_rs - host_rs, t_ag - host_ag) if any_sync else (t_rs, t_ag)
    tp_kept = _tp_exposed_share(c, model, constants)

    def assemble(stretch):
        def s_(t, kind):
            # Without a stretch (the base pass, or no crossing of that kind) a term is its own
            # time: t x 1 is t.
            return t if stretch is None or stretch[kind] is None else t * stretch[kind]

        tp_t = s_(tp_mb, "tp")
        ep_t = s_(ep_mb, "ep")
        tp_exp = tp_t * tp_kept
        ep_exp = ep_t * (1 - constants.ep_overlap_fraction)
        cp_t = s_(cp_mb, "cp")
        t_mb = t_comp_mb + tp_exp + ep_exp + cp_t + offload_mb
        pipeline = m * t_mb
        bubble = bubble_share * t_mb
        pp_exp = s_(pp_total, "pp")
        # DP all-reduce overlaps the last micro-batch's backward, bucket by bucket (with
        # interleaving each chunk's after its last backward, _interleaved_windows): the last
        # bucket, and what the last chunk's own backward does not cover, is always exposed.
        ar = s_(t_ar, "dp")
        last = s_(t_bucket, "dp")
        # A framework that reduces after the backward (no overlap_comm, DeepSpeed's pipeline
        # engine) exposes the whole all-reduce.
        exp_ar = np.where(dp_overlap, np.minimum(ar, np.maximum(last, np.maximum(
            ar / v - chunk_grad_hide, ar - grad_hide))), ar)
        # ZeRO-1: the gradients' reduce-scatter hides as the all-reduce would; the weights'
        # all-gather (counted with ZeRO's traffic below) behind the next forward where it is
        # overlapped, else it waits.
        z1_rs, z1_ag = s_(t_z1_rs, "dp"), s_(t_z1_ag, "dp")
        exp_ar = np.where(z1, np.where(dp_overlap, np.minimum(z1_rs, np.maximum(
            s_(t_z1_rsb, "dp"), np.maximum(z1_rs / v - chunk_grad_hide, z1_rs - grad_hide))),
            z1_rs), exp_ar)
        ar = np.where(z1, z1_rs, ar)
        z1_exp = np.where(gather_hidden & ~tp_inter, np.minimum(z1_ag, np.maximum(
            s_(t_z1_agb, "dp"), np.maximum(z1_ag / v - chunk_gather_hide, z1_ag - gather_hide))),
            z1_ag)
        # ZeRO-3/FSDP, per micro-batch and per phase: the forward all-gather can hide only
        # behind forward compute; the backward all-gather and the gradient reduce-scatter share
        # the same NICs (their times add) and hide only behind backward compute (with any
        # recomputation). The first layer's gather and the last layer's reduce-scatter wait.
        rs1, ag1 = s_(net_rs, "zero"), s_(net_ag, "zero")
        if any_sync:
            rs1, ag1 = rs1 + host_rs, ag1 + host_ag
        exp_fwd = np.minimum(ag1, np.maximum(ag1 / units, ag1 - hide_fwd))
        bwd_comm = ag1 + rs1
        exp_bwd = np.minimum(bwd_comm, np.maximum(bwd_comm / units, bwd_comm - hide_bwd))
        rep = s_(t_replica, "rep")
        rs = m * rs1 + rep
        ag = m * gather_passes * ag1
        z_total = rs + ag
        exp_z = m * (exp_fwd + exp_bwd) + np.where(dp_overlap, np.maximum(
            rep - hide_bwd, np.minimum(rep, s_(t_rep1, "rep"))), rep)
        # DeepSpeed's synchronous ZeRO-3: only its prefetched gathers' network time runs under
        # compute (_synchronous_zero3); the rest is on the critical path.
        if any_sync:
            exp_z = np.where(sync, np.maximum(z_total - m * sync_hidden, 0.0), exp_z)
        # Tensor parallelism across nodes keeps the NICs busy on the critical path: data-parallel
        # traffic then has no idle NIC time to hide in and is exposed in full.
        exp_ar = np.where(tp_inter, ar, exp_ar)
        exp_z = np.where(tp_inter, z_total, exp_z)
        z_safe = np.where(z_total > 0, z_total, 1.0)
        # ZeRO-2: each micro-batch's reduce-scatter hides behind its own backward (the last
        # bucket waits); the weight all-gather after the optimizer step is exposed.
        z2_rs = s_(t_z2_rs, "dp")
        z2_exp = np.where(dp_overlap & ~tp_inter, np.minimum(z2_rs, np.maximum(
            s_(t_rsb, "dp"), z2_rs - hide_bwd)), z2_rs)
        z2_ag = s_(t_z2_ag, "dp")
        dp_total = np.where(has_dp, np.where(z3, rs, np.where(z2, m * z2_rs, ar)), 0.0)
        # What hides of DeepSpeed's synchronous ZeRO-3 is gather time alone: its reduce-scatters
        # are exposed in full.
        z3_dp_exp = exp_z * rs / z_safe
        if any_sync:
            z3_dp_exp = np.where(sync, rs, z3_dp_exp)
        dp_exp = np.where(has_dp, np.where(z3, z3_dp_exp,
                                           np.where(z2, m * z2_exp, exp_ar)), 0.0)
        zero_total = np.where(has_dp & z3, ag, np.where(has_dp & z2, z2_ag,
                                                        np.where(z1, z1_ag, 0.0)))
        zero_exp = np.where(has_dp & z3, exp_z - z3_dp_exp,
                            np.where(has_dp & z2, z2_ag, np.where(z1, z1_exp, 0.0)))
        # Overlap is not free: communication kernels running under compute take SMs and HBM
        # bandwidth from it, so the compute they hide behind runs slower for as long as they
        # run (constants.overlap_compute_slowdown).
        # each kind's hidden time, summed here and reported by the base pass
        tp_hid, ep_hid = m * (tp_t - tp_exp), m * (ep_t - ep_exp)
        dp_hid, zero_hid = dp_total - dp_exp, zero_total - zero_exp
        contention = constants.overlap_compute_slowdown * (tp_hid + ep_hid + dp_hid + zero_hid)
        step = pipeline + bubble + pp_exp + dp_exp + zero_exp + t_opt + contention
        if stretch is not None:
            return {"step": step}  # the stretched pass is read for its step time alone
        return {
            "contention": contention,
            "step": step, "compute": m * t_comp_mb, "tp_exp": m * tp_exp,
            "cp_exp": m * cp_t, "offload_exp": m * offload_mb, "optimizer": t_opt,
            "tp_hid": tp_hid, "ep_exp": m * ep_exp, "ep_hid": ep_hid,
            "pp_exp": pp_exp, "dp_exp": dp_exp, "dp_hid": dp_hid,
            "zero_exp": zero_exp, "zero_hid": zero_hid, "bubble": bubble,
        }

    if kernels.ENABLED:
        # Both passes compiled, one candidate at a time (assemble is the reference).
        base, slow_step = step_kernel.assembled(
            stretches, units, any_sync, constants, t_comp_mb=t_comp_mb, tp_mb=tp_mb,
            tp_kept=tp_kept,
            ep_mb=ep_mb, cp_mb=cp_mb, offload_mb=offload_mb, m=m, bubble_share=bubble_share,
            pp_total=pp_total, t_ar=t_ar, t_bucket=t_bucket, hide_bwd=hide_bwd,
            hide_fwd=hide_fwd, grad_hide=grad_hide, chunk_grad_hide=chunk_grad_hide,
            gather_hide=gather_hide, chunk_gather_hide=chunk_gather_hide, chunks=v,
            t_z1_rs=t_z1_rs, t_z1_ag=t_z1_ag, t_z1_rsb=t_z1_rsb,
            t_z1_agb=t_z1_agb, net_rs=net_rs, net_ag=net_ag, host_rs=host_rs, host_ag=host_ag,
            t_replica=t_replica, t_rep1=t_rep1, gather_passes=gather_passes,
            sync_hidden=sync_hidden, t_z2_rs=t_z2_rs, t_rsb=t_rsb, t_z2_ag=t_z2_ag, t_opt=t_opt,
            dp_overlap=dp_overlap, z1=z1, gather_hidden=gather_hidden, tp_inter=tp_inter,
            sync=sync, has_dp=has_dp, z3=z3, z2=z2)
    else:
        base, slow_step = assemble(None), assemble(stretches)["step"]
    straggler = slow_step - base["step"]
    # Compute-side stragglers: GPUs of one SKU run at different speeds (power management,
    # manufacturing), and every synchronous step waits for the slowest of the job's GPUs.
    compute_straggler = base["compute"] * (straggler_stretch(constants.compute_jitter_cv,
                                                             gpus) - 1.0)
    step = slow_step + compute_straggler
    comm_exposed = (base["tp_exp"] + base["ep_exp"] + base["pp_exp"] + base["dp_exp"]
                    + base["zero_exp"] + base["cp_exp"] + base["offload_exp"] + straggler
                    + base["contention"])
    gb = global_batch
    out = {
        "step_time_s": step,
        "samples_per_s": gb / step,
        "tokens_per_s": gb * model.seq_len / step if is_tf else np.full(n, np.nan),
        "achieved_tflops_per_gpu": m * comp["counted_flops"] / step / 1e12,
        "executed_tflops_per_gpu": m * comp["executed_flops"] / step / 1e12,
        "mfu": m * comp["model_flops"] / (step * peak),
        "mfu_causal": m * comp["model_flops_causal"] / (step * peak),
        "model_tflops_per_gpu": m * comp["model_flops"] / step / 1e12,
        "model_tflops_per_gpu_causal": m * comp["model_flops_causal"] / step / 1e12,
        "scaling_efficiency": (base["compute"] + base["optimizer"]) / step,
        "communication_share": comm_exposed / step,
        "compute_efficiency": comp["gemm_efficiency"],
        "micro_batches": m,
        "gpus": gpus,
        "inter_node_bandwidth_gbs": node_bw / 1e9,
        "tp_cross_node": (tp > 1) & tp_inter,
        "pp_cross_node": (pp > 1) & pp_cross,
        "dp_cross_node": has_dp & dp_inter,
        "compute_s": base["compute"],
        "tp_exposed_s": base["tp_exp"], "tp_hidden_s": base["tp_hid"],
        "ep_exposed_s": base["ep_exp"], "ep_hidden_s": base["ep_hid"],
        "pp_exposed_s": base["pp_exp"],
        "dp_exposed_s": base["dp_exp"], "dp_hidden_s": base["dp_hid"],
        "zero_exposed_s": base["zero_exp"], "zero_hidden_s": base["zero_hid"],
        "bubble_s": base["bubble"], "straggler_s": straggler,
        "compute_straggler_s": compute_straggler,
        "cp_exposed_s": base["cp_exp"], "offload_exposed_s": base["offload_exp"],
        "optimizer_s": base["optimizer"], "overlap_slowdown_s": base["contention"],
    }
    if memory:
        out.update({f"memory_{k}": val for k, val in memory_per_gpu(
            model, c, constants, training.precision, comp["activation_parts"], gbytes).items()})
    none = np.zeros(n, int)
    # ZeRO-1 and ZeRO-2 reduce-scatter over the whole data-parallel group, ZeRO-3 over its
    # shard group.
    # Without a hybrid group the three stages' tiers are the one data-parallel group's.
    zero1 = zero == 1
    routes["zero"] = tuple(one if one is two is three
                           else np.where(zero1, one, np.where(z2, two, three))
                           for one, two, three in zip(routes.pop("zero1"), routes.pop("zero2"),
                                                      routes["zero"]))
    for name in ("tp", "ep", "dp", "zero"):
        chosen, tier = routes.get(name, (none, none))
        # Most are a column already; broadcast_to would cost more than the rest of this loop.
        out[f"{name}_algorithm"] = chosen if np.shape(chosen) == (n,) else np.broadcast_to(
            chosen, (n,))
        out[f"{name}_tier"] = tier if np.shape(tier) == (n,) else np.broadcast_to(tier, (n,))
    return out


BREAKDOWN_KEYS = ("compute_s", "tp_exposed_s", "tp_hidden_s", "ep_exposed_s", "ep_hidden_s",
                  "pp_exposed_s", "dp_exposed_s", "dp_hidden_s", "zero_exposed_s",
                  "zero_hidden_s", "bubble_s", "straggler_s", "cp_exposed_s",
                  "offload_exposed_s", "optimizer_s", "overlap_slowdown_s",
                  "compute_straggler_s")


def layout_arrays(layout: Layout, training: Training) -> dict:
    return {
        "dp": np.array([layout.dp]), "tp": np.array([layout.tp]), "pp": np.array([layout.pp]),
        "ep": np.array([layout.ep]), "virtual_stages": np.array([layout.virtual_stages]),
        "zero_stage": np.array([layout.zero_stage]),
        "sequence_parallel": np.array([layout.sequence_parallel]),
        "recompute": np.array([RECOMPUTE.index(layout.recompute)]),
        "micro_batch": np.array([training.micro_batch]),
        "cp": np.array([layout.cp]), "recompute_layers": np.array([layout.recompute_layers]),
        "shard_group": np.array([layout.shard_group]),
        "offload": np.array([OFFLOAD.index(layout.offload)]),
        "framework": np.array([FRAMEWORKS.index(layout.framework)]),
        "flash_attention": np.array([layout.flash_attention]),
        "attention_kernel": np.array([ATTENTION_KERNELS.index(layout.fused_attention_kernel)]),
        "overlap_grad_reduce": np.array([layout.overlaps_gradients]),
        "grad_reduce_in_fp32": np.array([layout.fp32_gradients]),
        "overlap_param_gather": np.array([layout.overlaps_param_gather]),
        "fp8_param_gather": np.array([layout.fp8_param_gather]),
        "tp_comm_overlap": np.array([layout.tp_comm_overlap]),
        "fused_cross_entropy": np.array([layout.fused_cross_entropy]),
        "embedding_in_pipeline_split": np.array([layout.embedding_in_pipeline_split]),
        "grad_bucket_mb": np.array([layout.grad_bucket_mb]),
    }


@dataclass(frozen=True)
class _Hardware:
    """What a cluster is to the model before any layout, for one set of constants: its columns
    (Cluster.as_arrays, the GPU id factored) and the links its collectives run on."""

    columns: dict
    links: Links
    # The columns as _prepared leaves them (its counts as floats): an estimate normalises its
    # layout's columns alone.
    prepared: dict
    # hardware_rates by (transformer?, precision), built at the first estimate that reads them
    rates: dict = field(default_factory=dict)

    @classmethod
    def of(cls, cluster: Cluster, constants, columns: dict | None = None) -> _Hardware:
        """`columns`: the cluster's, from its hardware with other constants (they read none),
        when known."""
        if columns is None:
            columns = cluster.as_arrays()
            columns["gpu_id"] = factor_ids(columns["gpu_id"])
        prepared = {k: v.astype(np.float64) if k in _FLOAT_COLUMNS else v
                    for k, v in columns.items()}
        return cls(columns, Links.of(columns, constants), prepared)

    def rates_of(self, model, precision: str, constants) -> dict:
        """compute_side's hardware_rates of these columns (for these constants)."""
        key = (isinstance(model, Transformer), precision)
        hit = self.rates.get(key)
        if hit is None:  # a race builds the same rates twice, which is harmless
            hit = self.rates[key] = hardware_rates(self.prepared, key[0], precision, constants)
        return hit

    def prepared_with(self, layout: Layout, training: Training, model) -> dict:
        """_prepared of these columns with the layout's (a new dict; the kept arrays are
        shared, never written)."""
        c = dict(self.prepared)
        # layout_arrays states every column _normalise defaults, each a 1-d array of one row
        # as these columns are: of its work only the global batch is left.
        c.update(layout_arrays(layout, training))
        c["global_batch"] = np.atleast_1d(np.asarray(training.global_batch))
        return _derived(c, model)


# Hardware of the clusters estimated last: the service builds the same few clusters (a catalog
# version's servers, fabrics and node counts) request after request, an extrapolated one with
# each of the prior's draws of the constants too (step_time_by_constants). Keyed by the Cluster's
# value (frozen: an equal cluster is the same hardware, and an entry cannot go stale) and the
# constants object, kept in the entry so that its id is not reused while the entry lives.
# The bound keeps a process that sees many custom clusters from growing without limit.
_HARDWARE_KEPT = 256
_HARDWARE: OrderedDict = OrderedDict()
_HARDWARE_LOCK = threading.Lock()


def _hardware(cluster: Cluster, constants, columns: dict | None = None) -> _Hardware:
    key = (id(constants), cluster)
    with _HARDWARE_LOCK:
        hit = _HARDWARE.get(key)
        if hit is not None and hit[0] is constants:
            _HARDWARE.move_to_end(key)
            return hit[1]
    built = _Hardware.of(cluster, constants, columns)  # outside the lock: a race builds it twice
    with _HARDWARE_LOCK:
        _HARDWARE[key] = (constants, built)
        while len(_HARDWARE) > _HARDWARE_KEPT:
            _HARDWARE.popitem(last=False)
    return built


def estimate(cluster: Cluster, model, training: Training, layout: Layout, constants) -> Estimate:
    """Evaluate one configuration (the same code as estimate_batch, on length-1 arrays, but
    for its `valid` column: validate_layout has refused an invalid configuration already)."""
    problems = validate_layout(cluster, model, training, layout)
    if problems:
        raise ValueError("; ".join(f"{f}: {r}" for f, r in problems))
    return estimate_valid(cluster, model, training, layout, constants)


def estimate_valid(cluster: Cluster, model, training: Training, layout: Layout,
                   constants) -> Estimate:
    """estimate() of a configuration validate_layout has found no problem with (a caller that
    checked it already, to answer with each problem, does not have it checked twice)."""
    hardware = _hardware(cluster, constants)
    r = {k: val[0] for k, val in _timed(
        hardware.prepared_with(layout, training, model), model, training, constants,
        hardware.links, hardware.rates_of(model, training.precision, constants)).items()}
    return estimate_of(r, cluster, model, training, layout, constants)


def step_time_by_constants(cluster: Cluster, model, training: Training, layout: Layout,
                           constants: ModelConstants) -> Callable[[ModelConstants], np.ndarray]:
    """One configuration's step time as a function of the model's constants, for the prior's
    passes (sizing.intervals.step_time_spread: one per draw of the estimated constants).

    What no constant changes is built once for every draw: the configuration's columns (the
    cluster's as estimate() keeps them with `constants`, the layout's), prepared. Each draw's
    links, on those columns, are kept per cluster as estimate()'s are (_hardware): a catalog
    version's draws are the same objects at every request (intervals._kept_draws), so an
    extrapolated cluster estimated again builds none. The validity is not read:
    validate_layout has settled it.
    """
    hardware = _hardware(cluster, constants)
    columns = hardware.columns
    prepared = hardware.prepared_with(layout, training, model)

    def step_time_s(drawn: ModelConstants) -> np.ndarray:
        # _timed adds no column to the prepared dict and writes into none of its arrays: every
        # draw reads the same.
        drawn_hardware = _hardware(cluster, drawn, columns)
        return _timed(prepared, model, training, drawn, drawn_hardware.links,
                      drawn_hardware.rates_of(model, training.precision, drawn),
                      memory=False)["step_time_s"]
    return step_time_s


def step_times_by_constants(batch: dict, model, training: Training,
                            links_with: Callable[[ModelConstants], Links] | None = None,
                            ) -> Callable[[ModelConstants], np.ndarray]:
    """The step times of a batch's candidates as a function of the model's constants, for the
    prior's passes over a sizing's extrapolated configurations (one per draw): estimate_batch's
    step_time_s, the columns prepared once for every draw and the validity, which no constant
    changes, not read. `links_with`: the batch's links with some constants, when kept (a
    search's HardwareTable keeps every pair's per constants object); else built per draw."""
    prepared = _prepared(batch, training, model)

    def step_time_s(drawn: ModelConstants) -> np.ndarray:
        # _timed adds no column to the prepared dict and writes into none of its arrays: every
        # draw reads the same (step_time_by_constants).
        links = None if links_with is None else links_with(drawn)
        return _timed(prepared, model, training, drawn, links, memory=False)["step_time_s"]
    return step_time_s


def estimate_of(r: dict, cluster: Cluster, model, training: Training, layout: Layout,
                constants) -> Estimate:
    """One configuration's Estimate from its row of the model's columns (`r`: each column's
    value for it), as estimate() gives it: a caller that already ran the configuration in a
    batch (the model is element-wise) reads it without a pass of its own."""
    memory = {k[len("memory_"):]: (bool(val) if k == "memory_fits" else float(val))
              for k, val in r.items() if k.startswith("memory_")}
    breakdown = {k: float(r[k]) for k in BREAKDOWN_KEYS}
    return Estimate(
        step_time_s=float(r["step_time_s"]),
        breakdown=breakdown,
        tokens_per_s=float(r["tokens_per_s"]),
        samples_per_s=float(r["samples_per_s"]),
        achieved_tflops_per_gpu=float(r["achieved_tflops_per_gpu"]),
        mfu=float(r["mfu"]),
        scaling_efficiency=float(r["scaling_efficiency"]),
        communication_share=float(r["communication_share"]),
        memory=memory,
        bottleneck=explain.bottleneck(cluster, layout, r, memory),
        assumptions=explain.assumptions(cluster, model, training, layout, constants, r),
        gpus=cluster.gpus,
        micro_batches=float(r["micro_batches"]),
        inter_node_bandwidth_gbs=float(r["inter_node_bandwidth_gbs"]),
        mfu_causal=float(r["mfu_causal"]),
        model_tflops_per_gpu=float(r["model_tflops_per_gpu"]),
        model_tflops_per_gpu_causal=float(r["model_tflops_per_gpu_causal"]),
        executed_tflops_per_gpu=float(r["executed_tflops_per_gpu"]),
    )
