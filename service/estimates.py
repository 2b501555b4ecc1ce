"""Synchronous estimates: one configuration, or one collective, through the model."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from catalog import queries
from catalog.shipped import shipped
from catalog.snapshot import Snapshot, current_snapshot
from service.failures import Invalid, Unavailable
from service.sizing_result import Memory
from service.typed import to_document
from service.workloads import layout_from, model_from, training_from
from sizing import explain, goodput, intervals
from sizing.collectives import algorithm_refusal, collective_time
from sizing.hardware import GPU, Cluster, Fabric, Server
from sizing.presets import PRESETS
from sizing.step import estimate_valid, step_time_by_constants, validate_layout
from sizing.workload import Transformer


def catalog_snapshot(session: Session, version: int | None) -> Snapshot:
    try:
        return current_snapshot(session, version)
    except queries.CatalogNotLoaded:
        raise Unavailable("No catalog is loaded yet", code="catalog_not_loaded") from None
    except queries.UnknownVersion:
        raise Invalid.at("/catalog_version", f"catalog version {version} does not exist") from None


def nearest_fabric(snap: Snapshot, kind: str, lossless: bool, rate: float) -> Fabric:
    same = [f for f in snap.fabrics.values() if f.kind == kind and f.lossless == lossless] or \
        [f for f in snap.fabrics.values() if f.kind == kind]
    return min(same, key=lambda f: abs(f.line_rate_gbps - rate))


def custom_fabric(snap: Snapshot, doc: dict[str, Any], assumptions: list[str]) -> Fabric:
    like = nearest_fabric(snap, doc["kind"], doc["lossless"], doc["line_rate_gbps"])
    taken = [k for k in ("latency_us", "achievable_fraction", "jitter_cv", "loss_rate",
                         "nodes_per_leaf") if k not in doc]
    if taken:
        assumptions.append(f"Custom fabric: {', '.join(taken)} taken from catalog fabric {like.id}.")
    return Fabric(
        id="custom", name=doc["name"], kind=doc["kind"], line_rate_gbps=doc["line_rate_gbps"],
        latency_us=doc.get("latency_us", like.latency_us),
        achievable_fraction=doc.get("achievable_fraction", like.achievable_fraction),
        rdma=doc["rdma"], lossless=doc["lossless"],
        jitter_cv=doc.get("jitter_cv", like.jitter_cv),
        loss_rate=doc.get("loss_rate", like.loss_rate),
        oversubscription=1.0, nodes_per_leaf=doc.get("nodes_per_leaf", like.nodes_per_leaf),
        sharp=doc["sharp"] and doc["rdma"], adaptive_routing=doc["adaptive_routing"],
        selective_repeat=doc["selective_repeat"],
    )


def custom_server(snap: Snapshot, doc: dict[str, Any]) -> Server:
    g = doc["gpu"]
    gpu = GPU(id=_measured_gpu_id(snap, g.get("catalog_gpu")), name=g["name"],
              bf16_tflops=g["bf16_tflops"], fp8_tflops=g["fp8_tflops"], memory_gb=g["memory_gb"], memory_bandwidth_gbs=g["memory_bandwidth_gbs"],
              intra_link=g["intra_link"], intra_bandwidth_gbs=g["intra_bandwidth_gbs"],
              nvlink_sharp=g["nvlink_sharp"])
    return Server(id="custom", name=doc["name"], gpu=gpu, gpus_per_node=doc["gpus_per_node"],
                  nics_per_node=doc["nics_per_node"], nic_rate_gbps=doc["nic_rate_gbps"],
                  pcie_gen=doc["pcie_gen"], gpudirect_rdma=doc["gpudirect_rdma"],
                  host_memory_gb=doc.get("host_memory_gb"))


def _measured_gpu_id(snap: Snapshot, gpu_id: str | None) -> str:
    """The id a custom GPU's per-model figures are looked up by: a known GPU's, or 'custom'
    (no figure of the model is keyed by it, so its defaults apply)."""
    if gpu_id is None:
        return "custom"
    known = {*shipped().all_gpus, *(s.gpu.id for s in snap.servers.values())}
    if gpu_id not in known:
        raise Invalid.at("/cluster/custom_server/gpu/catalog_gpu",
                         f"no GPU {gpu_id!r} (known: {', '.join(sorted(known))})")
    return gpu_id


def reference_cluster(snap: Snapshot, doc: dict[str, Any], assumptions: list[str]) -> Cluster:
    """A reference system of published measurements (not sold), on its own or a named fabric."""
    reference = shipped()
    system = reference.systems.get(doc["system"])
    if system is None:
        known = ", ".join(sorted(reference.systems))
        raise Invalid.at("/cluster/system", f"no reference system {doc['system']!r} (known: {known})")
    fabrics = {**reference.all_fabrics, **snap.fabrics}
    fabric_id = doc.get("fabric", system["fabric"])
    if fabric_id not in fabrics:
        raise Invalid.at("/cluster/fabric", f"no fabric {fabric_id!r}")
    fabric = fabrics[fabric_id] if "custom_fabric" not in doc else \
        custom_fabric(snap, doc["custom_fabric"], assumptions)
    if "oversubscription" in doc:
        fabric = dataclasses.replace(fabric, oversubscription=doc["oversubscription"])
    gpu = reference.all_gpus[system["gpu"]]
    gpus_per_node = doc.get("gpus_per_node", int(system["gpus_per_node"]))
    if gpus_per_node > int(system["gpus_per_node"]):
        raise Invalid.at("/cluster/gpus_per_node", (f"{system['name']} has "
                                                    f"{system['gpus_per_node']} GPUs per node"))
    nics_per_node = doc.get("nics_per_node", int(system["nics_per_node"]))
    if nics_per_node > int(system["nics_per_node"]):
        raise Invalid.at("/cluster/nics_per_node", (f"{system['name']} has "
                                                    f"{system['nics_per_node']} network adapters "
                                                    "per node"))
    server = Server(id=system["id"], name=system["name"], gpu=gpu,
                    gpus_per_node=gpus_per_node, nics_per_node=nics_per_node,
                    nic_rate_gbps=float(system["nic_rate_gbps"]), pcie_gen=int(system["pcie_gen"]),
                    gpudirect_rdma=bool(system["gpudirect_rdma"]))
    assumptions.append(f"Reference system {system['name']}: hardware of published measurements, "
                       "not sold by the provider; this estimate cannot be quoted.")
    return Cluster(server=server, fabric=fabric, nodes=doc["nodes"],
                   gpudirect=server.gpudirect_rdma and fabric.rdma)


def resolve_cluster(snap: Snapshot, doc: dict[str, Any], assumptions: list[str]) -> Cluster:
    """The cluster a request describes, by catalog ids, a reference system or inline hardware."""
    if "system" in doc:
        return reference_cluster(snap, doc, assumptions)
    server_id, fabric_id = doc.get("server"), doc.get("fabric")
    if server_id is not None and server_id not in snap.servers:
        raise Invalid.at("/cluster/server", f"no server {server_id!r} in catalog version {snap.version_id}")
    if fabric_id is not None and fabric_id not in snap.fabrics:
        raise Invalid.at("/cluster/fabric", f"no fabric {fabric_id!r} in catalog version {snap.version_id}")
    if server_id and fabric_id:
        pairing = snap.pairings[(server_id, fabric_id)]
        if not pairing.supported:
            raise Invalid.at("/cluster/fabric", f"{server_id} cannot join {fabric_id}: {pairing.reason}")
        cluster = snap.cluster(server_id, fabric_id, doc["nodes"], doc.get("oversubscription"))
        return cluster
    server = snap.servers[server_id] if server_id else custom_server(snap, doc["custom_server"])
    if not server_id and server.gpu.id != "custom":
        assumptions.append(f"Custom GPU {server.gpu.name}: the model's figures measured on "
                           f"{server.gpu.id} apply to it.")
    fabric = snap.fabrics[fabric_id] if fabric_id else custom_fabric(snap, doc["custom_fabric"], assumptions)
    if "oversubscription" in doc:
        fabric = dataclasses.replace(fabric, oversubscription=doc["oversubscription"])
    gpudirect = server.gpudirect_rdma and fabric.rdma
    return Cluster(server=server, fabric=fabric, nodes=doc["nodes"], gpudirect=gpudirect)


LAYOUT_POINTERS = {"nodes": "/cluster/nodes", "global_batch": "/training/global_batch",
                   "micro_batch": "/training/micro_batch", "precision": "/training/precision"}


def run_estimate(session: Session, doc: dict[str, Any]) -> dict[str, Any]:
    snap = catalog_snapshot(session, doc.get("catalog_version"))
    assumptions: list[str] = []
    cluster = resolve_cluster(snap, doc["cluster"], assumptions)
    model = model_from(doc["workload"])
    training = training_from(doc["training"], cluster.gpu)
    layout = layout_from(doc["layout"], model, cluster.gpu)
    problems = validate_layout(cluster, model, training, layout)
    if problems:
        raise Invalid.of([(LAYOUT_POINTERS.get(f, f"/layout/{f}"), reason) for f, reason in problems],
                         code="invalid_layout")
    result = estimate_valid(cluster, model, training, layout, snap.constants)
    memory = result.memory
    if memory["total_gb"] > memory["capacity_gb"]:
        detail = (f"needs {memory['total_gb']:.1f} GB per GPU (weights {memory['weights_gb']:.1f}, "
                  f"gradients {memory['gradients_gb']:.1f}, optimizer {memory['optimizer_gb']:.1f}, "
                  f"activations {memory['activations_gb']:.1f}, logits {memory['logits_gb']:.1f}, "
                  f"gather buffers {memory['buffers_gb']:.1f}) but the GPU has "
                  f"{memory['capacity_gb']:.0f} GB, {memory['headroom_gb']:.1f} of it kept free "
                  "(catalog policy memory_headroom_share): raise zero_stage, tp, pp or cp, "
                  "recompute, or offload")
        raise Invalid(f"The model does not fit in GPU memory: {detail}", code="does_not_fit",
                      errors=[("/layout", detail)])
    host_memory = cluster.server.host_memory_gb
    if host_memory is not None and memory["host_offload_gb"] > host_memory:
        detail = (f"{explain.offloaded(layout, memory['host_offload_gb'])} but the server has "
                  f"{host_memory:.0f} GB: offload less, or raise zero_stage, tp or pp")
        raise Invalid(f"The offloaded state does not fit in host memory: {detail}",
                      code="does_not_fit", errors=[("/layout/offload", detail)])
    if memory["host_offload_gb"] > memory["host_capacity_gb"]:
        assumptions.append(f"Host memory: offload puts {memory['host_offload_gb']:.0f} GB in "
                           f"each node's, more than the {memory['host_capacity_gb']:.0f} GB the "
                           "policy lets it use (host_memory_reserve_share): not offered by a "
                           "sizing.")
    if memory["total_gb"] + memory["headroom_gb"] > memory["capacity_gb"]:
        # Within the GPU but inside the policy's headroom: the estimate stands (published runs
        # are often tuned to the edge of memory), flagged; a sizing would not offer it.
        assumptions.append(f"Memory: {memory['total_gb']:.1f} GB of {memory['capacity_gb']:.0f} "
                           f"GB per GPU, inside the {memory['headroom_gb']:.1f} GB the policy "
                           "keeps free (memory_headroom_share): not offered by a sizing.")
    # Shallow: asdict would deep-copy every figure of a result nothing else holds.
    body = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    body["assumptions"] = assumptions + body["assumptions"]
    body["memory"] = Memory.of(memory)
    body["nodes"] = cluster.nodes
    if not isinstance(model, Transformer):
        body["tokens_per_s"] = None
    body["catalog_version"] = snap.version_id
    body["intervals"], body["calibration"] = estimate_intervals(snap, cluster, model, training,
                                                                layout, body)
    body["goodput"] = (None if doc.get("duration_days") is None else
                       duration_goodput(snap, cluster, model, training, body,
                                        doc["duration_days"]))
    return to_document(body)


def calibration_of(snap: Snapshot, cluster: Cluster) -> tuple[bool, str]:
    calibrated = snap.calibration.calibrated(cluster.gpu.id, cluster.fabric.id)
    return calibrated, "calibrated" if calibrated else "extrapolated"


def as_ranges(bounds: dict[str, tuple]) -> dict[str, dict[str, float]]:
    return {name: {"p10": float(p10[0]), "p90": float(p90[0])}
            for name, (p10, p90) in bounds.items()}


def estimate_intervals(snap: Snapshot, cluster: Cluster, model, training, layout,
                       body: dict[str, Any]) -> tuple[dict[str, dict[str, float]], str]:
    """p10-p90 of the estimate's headline figures (sizing.intervals)."""
    calibrated, words = calibration_of(snap, cluster)
    spread = np.zeros(1)
    if not calibrated:
        spread = intervals.step_time_spread(
            step_time_by_constants(cluster, model, training, layout, snap.constants),
            snap.constants, snap.calibration)
    kind = "transformer" if isinstance(model, Transformer) else "generic"
    names = ["step_time_s", "samples_per_s", "mfu", "mfu_causal", "scaling_efficiency",
             "achieved_tflops_per_gpu", "model_tflops_per_gpu", "model_tflops_per_gpu_causal",
             "executed_tflops_per_gpu"]
    names += ["tokens_per_s"] if kind == "transformer" else []
    figures = {name: np.array([body[name]]) for name in names}
    bubble = np.array([body["breakdown"]["bubble_s"] / body["step_time_s"]])
    bounds = intervals.figure_intervals(intervals.headline(kind, figures), snap.calibration,
                                        spread, np.array([calibrated]), bubble)
    return as_ranges(bounds), words


def duration_goodput(snap: Snapshot, cluster: Cluster, model, training, body: dict[str, Any],
                     days: float) -> dict[str, Any]:
    """What survives failures of a run of `days` on this configuration (sizing.goodput)."""
    size = goodput.checkpoint_bytes(model.params, snap.constants, training.precision)
    g = goodput.of_candidates(snap.reliability, [cluster], np.zeros(1, int),
                              np.array([cluster.nodes]), np.array([cluster.gpus]), size,
                              np.array([days * 24.0]))
    fraction = float(g.goodput[0])
    rate = body["tokens_per_s"] if body["tokens_per_s"] is not None else body["samples_per_s"]
    return {"interruptions_per_day": float(g.interruptions_per_day[0]),
            "expected_interruptions": days * float(g.interruptions_per_day[0]),
            "checkpoint_size_gb": size / 1e9,
            "checkpoint_write_s": float(g.checkpoint_write_s[0]),
            "checkpoint_interval_hours": float(g.checkpoint_interval_s[0]) / 3600.0,
            "restart_s": float(g.restart_s[0]), "goodput": fraction,
            "useful_hours": fraction * days * 24.0,
            "work_done": rate * fraction * days * 86400.0}


def run_collective(session: Session, doc: dict[str, Any]) -> dict[str, Any]:
    snap = catalog_snapshot(session, doc.get("catalog_version"))
    cluster = resolve_cluster(snap, doc["cluster"], [])
    if cluster.gpus < 2:
        # One rank moves nothing: its time is 0 and its bandwidths undefined.
        raise Invalid.at("/cluster/nodes", f"a collective needs at least two GPUs; this "
                                              f"cluster has {cluster.gpus} (nodes x GPUs per node)")
    reason = algorithm_refusal(doc["operation"], doc["algorithm"], cluster)
    if reason is not None:
        raise Invalid.at("/algorithm", reason)

    def timed(constants) -> tuple[float, float, float, str]:
        # The model takes the size as a float, as it did when the API read one.
        return collective_time(doc["operation"], float(doc["size_bytes"]), cluster, constants,
                               doc["algorithm"])

    time_s, algbw, busbw, chosen = timed(snap.constants)
    ranks = 2 if doc["operation"] == "p2p" else cluster.gpus
    calibrated, words = calibration_of(snap, cluster)
    spread = np.zeros(1)
    if not calibrated:
        spread = intervals.step_time_spread(lambda c: np.array([timed(c)[0]]), snap.constants,
                                            snap.calibration)
    points = {"time_s": time_s, "algbw_gbs": algbw, "busbw_gbs": busbw}
    bounds = intervals.figure_intervals(
        {intervals.COLLECTIVE: {k: np.array([v]) for k, v in points.items()}}, snap.calibration,
        spread, np.array([calibrated]))
    figures = to_document({**points, "intervals": as_ranges(bounds)})
    return {"operation": doc["operation"], "size_bytes": doc["size_bytes"], "ranks": ranks,
            "algorithm": doc["algorithm"], "algorithm_used": chosen, "calibration": words,
            **figures}


@functools.cache
def presets() -> list[dict[str, Any]]:
    """The model presets as listed: fixed for the life of the process, so built once."""
    out = []
    for preset in PRESETS.values():
        m = preset.model
        dims = {k: v for k, v in dataclasses.asdict(m).items() if k != "name"}
        out.append({"id": preset.id, "name": m.name,
                    "kind": "transformer" if isinstance(m, Transformer) else "generic",
                    "params": float(m.params), "active_params": float(m.active_params),
                    "dimensions": dims, "source": preset.source, "note": preset.note,
                    "dataset": preset.dataset or None,
                    "samples_per_epoch": preset.samples_per_epoch})
    return out
