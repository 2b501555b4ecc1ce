"""Calibration constants of the performance model, from catalog/data/model.yaml (and policy.yaml)."""
from __future__ import annotations

import functools
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

import numpy as np


def _frozen(mapping: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType({str(k): float(v) for k, v in mapping.items()})


# Fields of ModelConstants that policy.yaml, not model.yaml, holds.
POLICY_FIELDS = ("memory_headroom_share", "host_memory_reserve_share")
# Per-GPU tables that list only the GPUs they apply to: any other GPU takes the figure of the
# table named here (a GPU without a Hopper-generation attention kernel runs FlashAttention-2).
FALLBACKS = {"flash3_attention_efficiency": "flash2_attention_efficiency"}


@dataclass(frozen=True)
class ModelConstants:
    """Every number of the model that is not arithmetic; each comes with a source in model.yaml.

    Per-GPU figures are mappings keyed by GPU id with a ``default`` entry (likewise per
    framework, per precision class or per PCIe generation for the constants keyed so).
    """

    matmul_efficiency: Mapping[str, float]
    gemm_shape_efficiency: float
    matmul_knee_us: float
    flash2_attention_efficiency: Mapping[str, float]
    flash3_attention_efficiency: Mapping[str, float]
    triton_attention_efficiency: Mapping[str, float]
    flash2_attention_sequence_share: Mapping[str, float]
    flash3_attention_sequence_share: Mapping[str, float]
    triton_attention_sequence_share: Mapping[str, float]
    hbm_efficiency: Mapping[str, float]
    fp8_gemm_speedup: Mapping[str, float]
    conv_efficiency: Mapping[str, float]
    framework_conv_efficiency: Mapping[str, float]
    winograd_fp32_speedup: float
    framework_nongemm_bytes_factor: Mapping[str, float]
    framework_gemm_efficiency: Mapping[str, float]
    host_link_gbs: Mapping[str, float]
    cpu_adam_params_per_s: float
    intra_link_efficiency: Mapping[str, float]
    nvls_algbw_share: Mapping[str, float]
    nccl_nvls_pipeline: Mapping[str, float]
    intra_latency_us: float
    tcp_host_ceiling_gbs: float
    nccl_base_latency_us: Mapping[str, float]
    nccl_hw_latency_us: Mapping[str, float]
    nccl_net_reference_latency_us: float
    nccl_net_overhead_us: float
    nccl_collnet_arity_latency_us: float
    nccl_protocol_bandwidth_factor: Mapping[str, float]
    nccl_compute_capability: Mapping[str, float]  # per GPU, x 10 (NCCL's ccMin)
    # NCCL's per-channel ceilings (GB/s per channel), per GPU
    nccl_ring_ll128_channel_gbs: Mapping[str, float]
    nccl_tree_channel_gbs: Mapping[str, float]
    nccl_tree_channel_gbs_beyond_two_nodes: Mapping[str, float]
    nccl_tree_ll128_channel_gbs: Mapping[str, float]
    nccl_tree_ll128_channel_gbs_beyond_two_nodes: Mapping[str, float]
    nccl_ring_plateau_factor: float
    nccl_tree_correction: Mapping[str, float]
    pfc_incast_penalty: float
    ecmp_flows_per_nic: float
    host_staging_bandwidth_factor: float
    host_staging_latency_us: float
    go_back_n_window_us: float
    roce_packet_bytes: float
    dp_bucket_mb: float
    megatron_bucket_params_min: float
    megatron_bucket_params_per_rank: float
    overlap_efficiency: float
    overlap_compute_slowdown: float
    compute_jitter_cv: float
    tp_overlap_fraction: float
    tp_comm_overlap_exposed_share: float
    ep_overlap_fraction: float
    bytes_per_param_weights: float
    bytes_per_param_gradients: float
    bytes_per_param_optimizer: float
    bytes_per_param_weights_fp32: float
    bytes_per_param_weights_fp8: float
    fp8_weight_transpose_bytes_per_param: Mapping[str, float]  # per GPU
    bytes_per_param_gradients_fp32: float
    bytes_per_param_optimizer_fp32: float
    runtime_reserved_gb: float
    deepspeed_max_live_params: float
    deepspeed_reduce_bucket_params: float
    deepspeed_max_reuse_params: float
    tensor_list_collective_us_per_rank: float
    # Policy, not physics: the share of each GPU's memory a configuration must leave free to
    # "fit". It lives in policy.yaml; every memory figure of the model reads it from here.
    memory_headroom_share: float
    # Likewise the share of a node's host memory offload may not use (the OS, the data loader).
    host_memory_reserve_share: float
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], policy: Mapping[str, Any]) -> ModelConstants:
        """Build from the parsed model.yaml and policy.yaml (whole files or their ``constants``)."""
        policy_table = policy.get("constants", policy)
        table = {**data.get("constants", data),
                 **{k: policy_table[k] for k in POLICY_FIELDS if k in policy_table}}
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        missing = []
        for f in fields(cls):
            if f.name == "sources":
                continue
            if f.name not in table:
                missing.append(f.name)
                continue
            entry = table[f.name]
            value = entry["value"] if isinstance(entry, Mapping) and "value" in entry else entry
            if isinstance(value, Mapping):
                value = _frozen(value)
                if "default" not in value and f.name not in FALLBACKS:
                    raise ValueError(f"constant {f.name!r} is per GPU and needs a 'default' entry")
            else:
                value = float(value)
            values[f.name] = value
            if isinstance(entry, Mapping):
                sources[f.name] = str(entry.get("source", ""))
        if missing:
            raise ValueError(f"model constants missing: {', '.join(missing)}")
        return cls(**values, sources=MappingProxyType(sources))

    def per_gpu_source(self, name: str, gpu_id: str) -> tuple[str, str | None]:
        """The table a per-GPU constant is read from for `gpu_id` (FALLBACKS followed) and,
        where its source calls that GPU's figure an estimate, the reason it gives: model.yaml
        writes estimates per GPU as '<id>[, <id>][ and <id>]: estimate, <why>' (default for a
        GPU the table does not list)."""
        table = getattr(self, name)
        if gpu_id not in table and name in FALLBACKS:
            return self.per_gpu_source(FALLBACKS[name], gpu_id)
        key = gpu_id if gpu_id in table else "default"
        return name, _estimated(self.sources.get(name, "")).get(key)

    def per_gpu(self, name: str, gpu_id: str) -> float:
        """Look up a per-GPU constant, falling back to its ``default`` entry (or, for the
        tables of FALLBACKS, to the table they fall back to)."""
        table = getattr(self, name)
        if gpu_id in table:
            return float(table[gpu_id])
        if name in FALLBACKS:
            return self.per_gpu(FALLBACKS[name], gpu_id)
        return float(table["default"])


@functools.lru_cache(maxsize=256)
def _estimated(source: str) -> Mapping[str, str]:
    """{GPU id: the reason a source gives for calling its figure an estimate}, the first a
    source gives for an id (model.yaml's '<id>[, <id>][ and <id>]: estimate, <why>'); parsed
    once per source text, since the words of every estimate read it."""
    reasons: dict[str, str] = {}
    for ids, why in re.findall(r"(?:^|[.;]\s)\s*([\w./-]+(?:(?:,| and) [\w./-]+)*): "
                               r"estimate\b[,:]?\s*((?:[^.;]|\.(?!\s|$))*)", source):
        for gpu in re.split(r",\s*|\s+and\s+", ids):
            reasons.setdefault(gpu, why.strip() or "no reason given")
    return MappingProxyType(reasons)


@dataclass(frozen=True)
class GpuCodes:
    """Each candidate's GPU as an index into `ids`, so that a search factors its GPU ids once
    for all its chunks instead of sorting strings per candidate."""

    codes: np.ndarray
    ids: tuple[str, ...]


def per_gpu_lookup(constants: ModelConstants, gpu_ids, n: int):
    """A lookup of per-GPU constants for each candidate (the GPU ids are factored once)."""
    if gpu_ids is None:
        return lambda name: np.full(n, constants.per_gpu(name, "default"))
    if isinstance(gpu_ids, GpuCodes):
        return lambda name: np.array([constants.per_gpu(name, u) for u in gpu_ids.ids])[gpu_ids.codes]
    factored = factor_ids(np.asarray(gpu_ids, str).reshape(-1))
    return per_gpu_lookup(constants, factored, n)


_PEELED_IDS = 8  # distinct ids found by comparison before sorting the rest


def factor_ids(ids: np.ndarray) -> GpuCodes:
    """The candidates' GPU ids as codes. A batch holds a few GPUs: comparing the column with
    each id in turn is several times cheaper than sorting the strings (np.unique); past a
    handful of ids the rest are sorted."""
    codes = np.full(ids.shape[0], -1)
    names: list[str] = []
    while codes.size and len(names) < _PEELED_IDS:
        first = int(np.argmin(codes))  # the first row without a code, if any is left
        if codes[first] >= 0:
            return GpuCodes(codes, tuple(names))
        np.putmask(codes, ids == ids[first], len(names))  # a third cheaper than codes[mask] =
        names.append(str(ids[first]))
    rest = np.flatnonzero(codes < 0)
    if rest.size:
        uniq, inv = np.unique(ids[rest], return_inverse=True)
        codes[rest] = len(names) + inv.reshape(-1)
        names += [str(u) for u in uniq]
    return GpuCodes(codes, tuple(names))


# Tables read from constants, built once per constants object. The prediction intervals' prior
# draws make new constants for every sizing, so only the latest few objects' tables are kept.
_TABLES_KEPT = 16
# API threads price collectives at once: one lock for a cache's lookup, insert and eviction.
_TABLES_LOCK = threading.Lock()


def built_once(cache: dict, owner, part, build):
    """build() for `part` of `owner`, kept in `cache` beside `owner` (so that its id is not
    reused while the entry lives) for the _TABLES_KEPT owners used last."""
    with _TABLES_LOCK:
        hit = cache.pop(id(owner), None)
        if hit is None or hit[0] is not owner:
            hit = (owner, {})
        cache[id(owner)] = hit  # (re)inserted last: the least recently used goes first
        while len(cache) > _TABLES_KEPT:
            del cache[next(iter(cache))]
        parts = hit[1]
    if part not in parts:
        # Built outside the lock (a race builds the same table twice, which is harmless).
        parts[part] = build()
    return parts[part]
