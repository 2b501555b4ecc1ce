"""Run one row spec through the performance model: the cluster, model and layout its source states."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields

from bench.accuracy.specs import Spec
from bench.accuracy.world import World
from sizing.collectives import ALGORITHMS, collective_time
from sizing.hardware import Cluster, Server
from sizing.presets import PRESETS
from sizing.step import estimate, validate_layout
from sizing.workload import GenericModel, Layout, Training, Transformer

# The source's precision -> the model's: FP16 and BF16 mixed precision run at one 16-bit
# tensor-core rate on every GPU that has both; V100 and P100 have FP16 only and refuse bf16.
PRECISIONS = {"fp16": "fp16", "bf16": "bf16", "fp8": "fp8", "fp32": "fp32"}
LAYOUT_FIELDS = {f.name for f in fields(Layout)}
# The framework a spec cites -> the model's profile and whether its attention is fused
# (FlashAttention-class kernels). Megatron-LM of 2020-2022 (Narayanan 2021, Korthikanti 2022,
# the BLOOM fork) predates FlashAttention (Dao et al., May 2022) and materialises the score
# matrix behind its fused softmax; Megatron-Bridge and NeMo 2 run Transformer Engine's fused
# attention; llm-foundry's MPT configs and torchtitan use FlashAttention / SDPA; BERT in
# DeepLearningExamples (2019-2021) uses unfused attention. A spec may state flash_attention.
# Narayanan et al. 2021 ran DeepSpeed's ZeRO-3 inside Megatron-LM's code (section 5.2) in the
# first half of 2021 (arXiv:2104.04473v1 of April, SC21): DeepSpeed releases before v0.5.5
# (November 2021), whose ZeRO-3 gathers are synchronous (sizing/workload.py).
FRAMEWORK_PROFILES = {
    "megatron-lm": ("megatron", False),
    "megatron-bridge": ("megatron", True),
    "nemo": ("megatron", True),
    "megatron-core": ("megatron", True),
    "megatron-deepspeed": ("megatron-deepspeed", False),
    "deepspeed-zero3": ("megatron-deepspeed-2021", False),
    "deepspeed-hf": ("deepspeed", True),
    "composer-fsdp": ("fsdp", True),
    "torchtitan": ("fsdp", True),
    "pytorch-ddp": ("ddp", False),
    "pytorch-ddp-lamb": ("ddp", False),
    "pytorch-lamb": ("ddp", False),
    "horovod-tensorflow": ("horovod", False),
    "tensorflow2-horovod-lamb": ("horovod", False),
    "mxnet-horovod": ("mxnet", False),
    "tensorflow": ("horovod", False),
}


class Inexpressible(ValueError):
    """The model cannot run the row as its source states it; the message says why."""


@dataclass
class Outcome:
    value: float
    notes: list[str] = field(default_factory=list)
    what: str = ""
    capacity_gb: float | None = None  # a training run's GPU memory
    # Whether a sizing would offer the run: its memory within the GPU less the policy's headroom.
    fits_policy: bool | None = None


def sides(spec: Spec, override: tuple[str, str, object] | None = None) -> dict[str, dict]:
    """The plain values of each run of the spec, with one value replaced by `override`."""
    plain = {g: {n: v.value for n, v in values.items()} for g, values in spec.groups.items()}
    if override is not None:
        group, name, value = override
        plain[group][name] = value
    if spec.kind != "ratio":
        return {"run": plain["run"]}
    return {side: {**plain["run"], **plain[side]} for side in ("numerator", "denominator")}


def _cluster(world: World, f: dict) -> Cluster:
    system = world.systems[f["system"]] if "system" in f else {}

    def pick(name: str, system_name: str):
        if name in f:
            return f[name]
        if system_name not in system:
            raise Inexpressible(f"no {name} stated and no system named")
        return system[system_name]

    gpu = world.gpus[pick("gpu", "gpu")]
    gpus_per_node = int(pick("gpus_per_node", "gpus_per_node"))
    nics = int(pick("nics_per_node", "nics_per_node"))
    if "nic_rate_gbps" in f:
        rate = float(f["nic_rate_gbps"])
    elif "node_gbps" in f:
        rate = float(f["node_gbps"]) / nics
    else:
        rate = float(pick("nic_rate_gbps", "nic_rate_gbps"))
    gpudirect = bool(pick("gpudirect", "gpudirect_rdma"))
    fabric = world.fabrics[pick("fabric", "fabric")]
    if "nodes_per_leaf" in f:  # a leaf-spine fabric whose leaf the row's source sizes
        fabric = dataclasses.replace(fabric, topology="leaf-spine",
                                     nodes_per_leaf=int(f["nodes_per_leaf"]))
    if "nodes" in f:
        nodes = int(f["nodes"])
    else:
        if "gpus" not in f or f["gpus"] % gpus_per_node:
            raise Inexpressible(f"{f.get('gpus')} GPUs are not whole nodes of {gpus_per_node}")
        nodes = f["gpus"] // gpus_per_node
    server = Server(f.get("system", "row-system"), f"{gpus_per_node}x {gpu.name}", gpu,
                    gpus_per_node, nics, rate, int(pick("pcie_gen", "pcie_gen")), gpudirect)
    return Cluster(server, fabric, nodes, gpudirect)


def _hardware_words(c: Cluster) -> str:
    return (f"{c.nodes}x{c.gpus_per_node} {c.gpu.id}, {c.server.nics_per_node}x"
            f"{c.server.nic_rate_gbps:g}G {c.fabric.id}")


def _model(name: str, seq_len, models: dict):
    if name in models:
        m = models[name]
        if "preset" in m:
            base = PRESETS[m["preset"]].model
        else:
            heads = m["heads"]
            base = Transformer(name, m["layers"], m["hidden"], heads, m.get("kv_heads", heads),
                               m.get("ffn_hidden", 4 * m["hidden"]), m["vocab"], seq_len or 0,
                               experts=m.get("experts", 1), top_k=m.get("top_k", 1),
                               gated_mlp=m.get("gated_mlp", False),
                               tied_embeddings=m.get("tied_embeddings", True),
                               dropout=m.get("dropout", True))
    elif name in PRESETS:
        base = PRESETS[name].model
    else:
        raise Inexpressible(f"unknown model {name!r}")
    if isinstance(base, Transformer):
        if seq_len is None:
            raise Inexpressible("a transformer row needs its sequence length")
        return dataclasses.replace(base, seq_len=int(seq_len))
    return base


def _collective(world: World, f: dict) -> Outcome:
    if f["algorithm"] not in ALGORITHMS:
        raise Inexpressible(f"the model has no {f['algorithm']!r} algorithm "
                            f"(sizing.collectives.ALGORITHMS: {', '.join(ALGORITHMS)})")
    cluster = _cluster(world, f)
    _, _, busbw, chosen = collective_time(f["op"], f["message_bytes"], cluster, world.constants,
                                          f["algorithm"])
    if busbw == 0:
        raise Inexpressible(f"NCCL cannot run {f['algorithm']!r} for {f['op']} on "
                            f"{_hardware_words(cluster)}")
    size = f["message_bytes"]
    words = (f"{size / 2**30:g} GiB" if size >= 2**30 else
             f"{size / 2**20:g} MiB" if size >= 2**20 else f"{size / 2**10:g} KiB")
    ran = chosen if f["algorithm"] == "auto" else f["algorithm"]
    return Outcome(busbw, what=f"{f['op']} {f['algorithm']} ({ran}) {words}, "
                               f"{_hardware_words(cluster)}")


def time_to_train_minutes(f: dict, tokens_per_s: float) -> float:
    """The source's tokens at the modelled throughput, plus the seconds the source gives for
    the rest of its timed region (evaluations), which the model does not price."""
    return (float(f["train_tokens"]) / tokens_per_s + float(f.get("evaluation_s", 0.0))) / 60


def _training(world: World, f: dict, models: dict):
    cluster = _cluster(world, f)
    model = _model(f["model"], f.get("seq_len"), models)
    if f["precision"] not in PRECISIONS:
        raise Inexpressible(f"precision {f['precision']!r} is not modelled")
    ep = f.get("ep", 1)
    if isinstance(model, Transformer) and model.experts > 1 and "ep" not in f:
        raise Inexpressible("an MoE row must state its expert parallelism")
    mb = int(f["micro_batch"])
    if "gradient_accumulation" in f:
        gb = mb * f["dp"] * f["gradient_accumulation"]
        if "global_batch" in f and f["global_batch"] != gb:
            raise Inexpressible(f"the source's global batch {f['global_batch']} is not micro "
                                f"{mb} x dp {f['dp']} x accumulation "
                                f"{f['gradient_accumulation']} = {gb}")
    else:
        gb = int(f["global_batch"])
    if f.get("framework") not in FRAMEWORK_PROFILES:
        raise Inexpressible(f"framework {f.get('framework')!r} has no profile "
                            f"(bench/accuracy/predict.py FRAMEWORK_PROFILES)")
    framework, flash = FRAMEWORK_PROFILES[f["framework"]]
    layout = Layout(dp=f["dp"], tp=f["tp"], pp=f["pp"], ep=ep,
                    virtual_stages=f["virtual_stages"], zero_stage=f["zero_stage"],
                    sequence_parallel=bool(f["sequence_parallel"]), recompute=f["recompute"],
                    cp=int(f.get("context_parallel", 1)),
                    recompute_layers=int(f.get("recompute_layers", 0)),
                    shard_group=int(f.get("shard_group", 0)),
                    offload=f.get("offload", "none"), framework=framework,
                    flash_attention=bool(f.get("flash_attention", flash)),
                    attention_kernel=f.get("attention_kernel"),
                    overlap_grad_reduce=f.get("overlap_grad_reduce"),
                    grad_reduce_in_fp32=f.get("grad_reduce_in_fp32"),
                    overlap_param_gather=f.get("overlap_param_gather"),
                    fp8_param_gather=bool(f.get("fp8_param_gather", False)),
                    tp_comm_overlap=bool(f.get("tp_comm_overlap", False)),
                    fused_cross_entropy=bool(f.get("fused_cross_entropy", False)),
                    embedding_in_pipeline_split=bool(f.get("embedding_in_pipeline_split",
                                                           False)),
                    grad_bucket_mb=float(f.get("grad_bucket_mb", 0.0)))
    training = Training(gb, mb, PRECISIONS[f["precision"]])
    problems = validate_layout(cluster, model, training, layout)
    if problems:
        raise Inexpressible("; ".join(f"{name}: {reason}" for name, reason in problems))
    e = estimate(cluster, model, training, layout, world.constants)
    notes = []
    # A published run did run: the memory estimate must keep it within the GPU's capacity.
    # The policy's headroom is a selling margin, so a run inside it is noted apart.
    total, capacity = e.memory["total_gb"], e.memory["capacity_gb"]
    if total > capacity:
        notes.append(f"model: over capacity ({total:.0f} GB > {capacity:.0f} GB per GPU)")
    elif not e.memory["fits"]:
        notes.append(f"model: inside the policy's headroom ({total:.0f} GB + "
                     f"{e.memory['headroom_gb']:.0f} GB > {capacity:.0f} GB per GPU)")
    cluster.gpu.peak_tflops(training.precision)
    metrics = {"tflops_per_gpu": e.achieved_tflops_per_gpu,
               "model_tflops_per_gpu": e.model_tflops_per_gpu,
               "model_tflops_per_gpu_causal": e.model_tflops_per_gpu_causal,
               "mfu_pct": 100 * e.mfu, "mfu_causal_pct": 100 * e.mfu_causal,
               "samples_per_s": e.samples_per_s, "step_time_s": e.step_time_s,
               "tokens_per_s_per_gpu": e.tokens_per_s / cluster.gpus,
               "samples_per_s_per_gpu": e.samples_per_s / cluster.gpus,
               "peak_memory_gb": total}
    if "train_tokens" in f:
        metrics["time_to_train_minutes"] = time_to_train_minutes(f, e.tokens_per_s)
    name = model.name if isinstance(model, GenericModel) else f["model"]
    extra = "".join(f" {k}{getattr(layout, k)}" for k in ("cp", "shard_group")
                    if getattr(layout, k) not in (0, 1))
    extra += f" off-{layout.offload}" if layout.offload != "none" else ""
    what = (f"{name} tp{layout.tp} pp{layout.pp} v{layout.virtual_stages} dp{layout.dp}{extra} "
            f"z{layout.zero_stage} mb{mb} gb{gb} {layout.recompute[:3]} {f['precision']} "
            f"{layout.framework} "
            f"{layout.fused_attention_kernel if layout.flash_attention else 'unfused-attn'}, "
            f"{_hardware_words(cluster)}")
    if "train_tokens" in f:
        what += (f"; {float(f['train_tokens']) / 1e9:.4g}B tokens"
                 f" + {float(f.get('evaluation_s', 0.0)):g} s of evaluation as measured")
    return metrics, cluster.gpus, Outcome(0.0, notes, what, capacity, bool(e.memory["fits"]))


def predict(spec: Spec, world: World, models: dict,
            override: tuple[str, str, object] | None = None) -> Outcome:
    """The model's value for the row, in the row's unit; Inexpressible when it cannot run it."""
    runs = sides(spec, override)
    if spec.kind == "collective":
        return _collective(world, runs["run"])
    if spec.kind in ("training", "memory"):
        metrics, _, out = _training(world, runs["run"], models)
        out.value = metrics[spec.metric]
        return out
    num, gpus_num, out_num = _training(world, runs["numerator"], models)
    den, gpus_den, out_den = _training(world, runs["denominator"], models)
    a, b = num[spec.of], den[spec.of]
    value = {"ratio": a / b, "ratio_pct": 100 * a / b,
             "scaling_efficiency_pct": 100 * (a / gpus_num) / (b / gpus_den)}[spec.metric]
    notes = list(dict.fromkeys(out_num.notes + out_den.notes))
    return Outcome(value, notes,
                   f"{out_num.what} / {out_den.what.split(',')[0]}")
