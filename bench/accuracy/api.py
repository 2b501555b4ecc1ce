"""A row spec as the body of POST /v1/estimates (training rows) or POST /v1/estimates/collectives
(NCCL busbw rows), and the row's metric read from the response."""
from __future__ import annotations

from bench.accuracy.predict import FRAMEWORK_PROFILES, PRECISIONS, sides, time_to_train_minutes
from bench.accuracy.specs import Spec
from sizing.presets import PRESETS

# Hardware fields a spec may set beside its system that a body cannot carry (it names the
# system, and at most how many of each node's GPUs and network adapters the run uses).
_OVERRIDES = ("gpu", "nic_rate_gbps", "node_gbps",
              "gpudirect", "fabric", "pcie_gen", "gpus", "nodes_per_leaf")
_LAYOUT = ("dp", "tp", "pp", "ep", "virtual_stages", "zero_stage", "sequence_parallel",
           "recompute", "recompute_layers", "shard_group", "offload", "flash_attention",
           "attention_kernel", "overlap_grad_reduce", "grad_reduce_in_fp32",
           "overlap_param_gather", "fp8_param_gather", "tp_comm_overlap", "fused_cross_entropy",
           "embedding_in_pipeline_split", "grad_bucket_mb")


# Server fields a collective row may state beside a catalog fabric: the body carries them as
# a custom server (the GPU's figures copied from the catalog entry the harness uses).
_CUSTOM_SERVER = ("gpu", "gpus_per_node", "nics_per_node", "nic_rate_gbps", "gpudirect",
                  "pcie_gen")


def _on_a_system(run: dict) -> bool:
    return "system" in run and not any(k in run for k in _OVERRIDES)


def expressible(spec: Spec, catalog_fabrics=()) -> bool:
    """A training row on a reference system as it is (the API takes systems by id), or a
    collective row on a reference system or on stated hardware joined by a catalog fabric."""
    if spec.skip or spec.kind not in ("training", "collective"):
        return False
    run = sides(spec)["run"]
    if spec.kind == "training" or _on_a_system(run):
        return _on_a_system(run)
    return ("system" not in run and set(_CUSTOM_SERVER) <= set(run)
            and run.get("fabric") in catalog_fabrics and "nodes" in run
            and not any(k in run for k in ("node_gbps", "gpus", "nodes_per_leaf")))


def system_cluster(run: dict) -> dict:
    """A reference system's cluster, narrowed to the GPUs and adapters per node the run used."""
    cluster = {"system": run["system"], "nodes": int(run["nodes"])}
    for narrowed in ("gpus_per_node", "nics_per_node"):
        if narrowed in run:
            cluster[narrowed] = int(run[narrowed])
    return cluster


def collective_body(spec: Spec, gpus: dict) -> dict:
    """The collective request that states the row's run: hardware, operation, size, algorithm."""
    run = sides(spec)["run"]
    if _on_a_system(run):
        cluster = system_cluster(run)
    else:
        g = gpus[run["gpu"]]
        gpu = {"name": g.name, "bf16_tflops": g.bf16_tflops, "fp8_tflops": g.fp8_tflops,
               "memory_gb": g.memory_gb, "memory_bandwidth_gbs": g.memory_bandwidth_gbs,
               "intra_link": g.intra_link, "intra_bandwidth_gbs": g.intra_bandwidth_gbs,
               "nvlink_sharp": g.nvlink_sharp, "catalog_gpu": run["gpu"]}
        server = {"gpu": gpu, "gpus_per_node": int(run["gpus_per_node"]),
                  "nics_per_node": int(run["nics_per_node"]),
                  "nic_rate_gbps": float(run["nic_rate_gbps"]),
                  "gpudirect_rdma": bool(run["gpudirect"]), "pcie_gen": int(run["pcie_gen"])}
        cluster = {"custom_server": server, "fabric": run["fabric"], "nodes": int(run["nodes"])}
    return {"cluster": cluster, "operation": run["op"], "size_bytes": float(run["message_bytes"]),
            "algorithm": run["algorithm"]}


def request_body(spec: Spec, models: dict) -> dict:
    """The estimate request that states the row's run: system, model, batch and layout."""
    run = sides(spec)["run"]
    name = run["model"]
    entry = models.get(name, {})
    if "preset" in entry or (not entry and name in PRESETS):
        workload = {"preset": entry.get("preset", name)}
        if "seq_len" in run:
            workload["seq_len"] = int(run["seq_len"])
    else:
        dims = {k: v for k, v in entry.items() if k != "source"}
        workload = {"transformer": {"name": name, **dims, "seq_len": int(run["seq_len"])}}
    mb = int(run["micro_batch"])
    gb = (mb * run["dp"] * run["gradient_accumulation"] if "gradient_accumulation" in run
          else int(run["global_batch"]))
    framework, flash = FRAMEWORK_PROFILES[run["framework"]]
    layout = {k: run[k] for k in _LAYOUT if k in run and run[k] is not None}
    layout.setdefault("flash_attention", flash)
    layout["framework"] = framework
    layout["cp"] = int(run.get("context_parallel", 1))
    return {"cluster": system_cluster(run),
            "workload": workload,
            "training": {"global_batch": gb, "micro_batch": mb,
                         "precision": PRECISIONS[run["precision"]]},
            "layout": layout}


def metric_of(spec: Spec, response: dict) -> float:
    """The row's metric from an estimate (or collective estimate) response, in the row's unit."""
    if spec.kind == "collective":
        return {"busbw_gbs": response["busbw_gbs"]}[spec.metric]
    gpus = response["gpus"]
    if spec.metric == "time_to_train_minutes":
        # The estimate gives a throughput; the work and the evaluations are the row's own.
        return time_to_train_minutes(sides(spec)["run"], response["tokens_per_s"])
    return {
        "tflops_per_gpu": response["achieved_tflops_per_gpu"],
        "model_tflops_per_gpu": response["model_tflops_per_gpu"],
        "model_tflops_per_gpu_causal": response["model_tflops_per_gpu_causal"],
        "mfu_pct": 100 * response["mfu"],
        "mfu_causal_pct": 100 * response["mfu_causal"],
        "samples_per_s": response["samples_per_s"],
        "samples_per_s_per_gpu": response["samples_per_s"] / gpus,
        "step_time_s": response["step_time_s"],
        "tokens_per_s_per_gpu": (response["tokens_per_s"] or 0.0) / gpus,
    }[spec.metric]
