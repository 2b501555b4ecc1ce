"""Schemas of the synchronous estimate endpoints."""

from __future__ import annotations

from typing import ClassVar

import marshmallow as ma
from marshmallow import validate as v

from service.schemas import fields as f
from service.schemas.catalog import VERSION_RANGE
from service.schemas.fast_dump import FastDump
from service.schemas.workload import LayoutSchema, Strict, TrainingSchema, WorkloadSchema
from service.sizing_result import INTERVALS_TEXT, Breakdown, Interval, Memory
from service.typed import schema_for
from sizing.collectives import ALGORITHMS, CHOSEN, COLLECTIVES
from sizing.hardware import FABRIC_KINDS, INTRA_LINKS
from sizing.step import SCALING_EFFICIENCY_MEANS


class CustomGpuSchema(Strict):
    name = f.Text(load_default="custom GPU", max_length=100)
    bf16_tflops = f.Number(required=True, validate=v.Range(min=1, max=100_000),
                                  metadata={"description": "Dense BF16 TFLOPS"})
    fp8_tflops = f.Number(allow_none=True, load_default=None,
                                 validate=v.Range(min=1, max=200_000))
    memory_gb = f.Number(required=True, validate=v.Range(min=1, max=10_000))
    memory_bandwidth_gbs = f.Number(load_default=2000.0, validate=v.Range(min=1, max=100_000),
                                           metadata={"description": "GB/s (bytes)"})
    intra_link = ma.fields.String(required=True, validate=v.OneOf(INTRA_LINKS))
    intra_bandwidth_gbs = f.Number(
        required=True, validate=v.Range(min=1, max=10_000),
        metadata={"description": "Per GPU, one direction, GB/s (bytes)"})
    nvlink_sharp = f.Boolean(load_default=False, metadata={
        "description": "NVSwitch with in-switch reduction (NCCL NVLS)"})
    catalog_gpu = f.Identifier(metadata={
        "description": "A GPU of the catalog or of a reference system (its id, as in "
                       "catalog/data) that this one is: the model's figures measured per GPU "
                       "model then apply (kernel and convolution rates, NVLink SHARP share, "
                       "the calibration of the p10-p90 interval); the figures above still "
                       "describe the hardware. Default: the model's figures for a GPU it has "
                       "no measurement of",
        "example": "h100-sxm"})


class CustomServerSchema(Strict):
    name = f.Text(load_default="custom server", max_length=100)
    gpu = ma.fields.Nested(CustomGpuSchema, required=True)
    gpus_per_node = f.Integer(required=True, validate=v.Range(min=1, max=72))
    nics_per_node = f.Integer(required=True, validate=v.Range(min=1, max=64))
    nic_rate_gbps = f.Number(required=True, validate=v.Range(min=1, max=3200),
                                    metadata={"description": "Per NIC, Gb/s (bits)"})
    gpudirect_rdma = f.Boolean(load_default=True,
                                       metadata={"description": "NICs under the GPUs' PCIe switch"})
    pcie_gen = f.Integer(load_default=5, validate=v.Range(min=3, max=6), metadata={
        "description": "PCIe generation of the x16 links between GPUs, NICs and host"})
    host_memory_gb = f.Number(validate=v.Range(min=1, max=100_000), metadata={
        "description": "Host memory of one node, GB: what offload must fit in (not checked "
                       "when left out)"})


class CustomFabricSchema(Strict):
    """Figures left out are taken from the catalog fabric of the same kind nearest in rate."""

    # InfiniBand and RoCE are RDMA fabrics; plain Ethernet carries TCP.
    spec_rules: ClassVar[dict] = {
        "if": {"properties": {"kind": {"enum": ["infiniband", "roce"]}}},
        "then": {"properties": {"rdma": {"const": True}}},
        "else": {"properties": {"rdma": {"const": False}}},
    }

    name = f.Text(load_default="custom fabric", max_length=100)
    kind = ma.fields.String(required=True, validate=v.OneOf(FABRIC_KINDS))
    line_rate_gbps = f.Number(required=True, validate=v.Range(min=1, max=3200),
                                     metadata={"description": "Per port, Gb/s (bits)"})
    rdma = f.Boolean(required=True)
    lossless = f.Boolean(required=True, metadata={"description": "PFC + ECN configured"})
    latency_us = f.Number(validate=v.Range(min=0.05, max=100_000))
    achievable_fraction = f.Number(validate=v.Range(min=0.01, max=1))
    jitter_cv = f.Number(validate=v.Range(min=0, max=5))
    loss_rate = f.Number(validate=v.Range(min=0, max=0.5))
    nodes_per_leaf = f.Integer(validate=v.Range(min=1, max=100_000))
    sharp = f.Boolean(load_default=False, metadata={
        "description": "In-network reduction (SHARP) for NCCL CollNet; RDMA fabrics only"})
    adaptive_routing = f.Boolean(load_default=False, metadata={
        "description": "Switches spread packets over paths (no ECMP hash collisions)"})
    selective_repeat = f.Boolean(load_default=False, metadata={
        "description": "NICs resend only lost packets (not go-back-N)"})

    @ma.validates_schema
    def _rdma_kind(self, data, **_):
        if data["kind"] in ("infiniband", "roce") and not data["rdma"]:
            raise ma.ValidationError(f"{data['kind']} is an RDMA fabric", "rdma")
        if data["kind"] == "ethernet" and data["rdma"]:
            raise ma.ValidationError("plain Ethernet carries TCP; use kind roce for RDMA", "rdma")


class ClusterSchema(Strict):
    spec_rules: ClassVar[dict] = f.valid_unless(
        *f.exactly_one("server", "custom_server", "system"))

    server = f.Identifier(metadata={"description": "Catalog server id", "example": "hgx-h100-8"})
    system = f.Identifier(metadata={
        "description": "A reference system of published measurements (GET /v1/presets lists "
                       "none; see catalog/data/reference_systems.yaml): DGX A100 as Selene, "
                       "DGX H100, DGX B200, DGX-2, Jean Zay... Not sold: an estimate on it "
                       "cannot be quoted. Its fabric is the default",
        "example": "dgx-a100"})
    fabric = f.Identifier(metadata={"description": "Catalog fabric id", "example": "ib-ndr-400"})
    custom_server = ma.fields.Nested(CustomServerSchema,
                                     metadata={"description": "Hardware outside the catalog"})
    custom_fabric = ma.fields.Nested(CustomFabricSchema,
                                     metadata={"description": "A fabric outside the catalog"})
    oversubscription = f.Number(validate=v.Range(min=1, max=16),
                                       metadata={"description": "Fabric tier ratio, default 1:1"})
    nodes = f.Integer(required=True, validate=v.Range(min=1, max=4096))
    gpus_per_node = f.Integer(validate=v.Range(min=1, max=72), metadata={
        "description": "With a reference system: GPUs of each node the run uses (a one-GPU "
                       "run on a DGX); default all of them"})
    nics_per_node = f.Integer(validate=v.Range(min=1, max=64), metadata={
        "description": "With a reference system: network adapters of each node the run uses "
                       "(fewer when some are down or not visible to NCCL, as a run's log shows); "
                       "default all of them"})

    @ma.validates_schema
    def _one_of_each(self, data, **_):
        for narrowed in ("gpus_per_node", "nics_per_node"):
            if narrowed in data and "system" not in data:
                raise ma.ValidationError("only narrows a reference system's nodes", narrowed)
        if sum(k in data for k in ("server", "custom_server", "system")) != 1:
            raise ma.ValidationError("give exactly one of server, custom_server or system",
                                     "server")
        if "fabric" in data and "custom_fabric" in data:
            raise ma.ValidationError("give at most one of fabric or custom_fabric", "fabric")
        if "system" not in data and ("fabric" in data) == ("custom_fabric" in data):
            raise ma.ValidationError("give exactly one of fabric or custom_fabric", "fabric")


class EstimateRequestSchema(Strict):
    cluster = ma.fields.Nested(ClusterSchema, required=True)
    duration_days = f.Number(validate=v.Range(min=0.01, max=3650), metadata={
        "description": "A run of this many days: the answer adds its goodput (interruptions, "
                       "checkpoints, restarts)"})
    workload = ma.fields.Nested(WorkloadSchema, required=True)
    training = ma.fields.Nested(TrainingSchema, required=True)
    layout = ma.fields.Nested(LayoutSchema, required=True)
    catalog_version = f.Integer(validate=VERSION_RANGE,
                                        metadata={"description": "Default: the current version"})


# One definition of each shape: the sizing result's dataclasses.
BreakdownSchema = schema_for(Breakdown)
MemorySchema = schema_for(Memory)
IntervalSchema = schema_for(Interval)
CALIBRATIONS = ("calibrated", "extrapolated")


def intervals_field() -> ma.fields.Dict:
    return ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(IntervalSchema),
                          required=True, metadata={"description": INTERVALS_TEXT})


def calibration_field() -> ma.fields.String:
    return ma.fields.String(required=True, validate=v.OneOf(CALIBRATIONS), metadata={
        "description": "calibrated: measured rows exist for this GPU and this fabric; "
                       "extrapolated: not, and the intervals are widened"})


class EstimateGoodputSchema(ma.Schema):
    """What survives failures over the duration asked (catalog/data/reliability.yaml)."""

    interruptions_per_day = ma.fields.Float(required=True)
    expected_interruptions = ma.fields.Float(required=True)
    checkpoint_size_gb = ma.fields.Float(required=True)
    checkpoint_write_s = ma.fields.Float(required=True)
    checkpoint_interval_hours = ma.fields.Float(required=True, metadata={
        "description": "Young/Daly sqrt(2 x write time x MTBF)"})
    restart_s = ma.fields.Float(required=True)
    goodput = ma.fields.Float(required=True, metadata={
        "description": "Useful training time over wall clock, 0-1"})
    useful_hours = ma.fields.Float(required=True)
    work_done = ma.fields.Float(required=True, metadata={
        "description": "Tokens (transformers) or samples trained in the duration, failures "
                       "excluded"})


class EstimateSchema(FastDump):
    step_time_s = ma.fields.Float(required=True)
    breakdown = ma.fields.Nested(
        BreakdownSchema, required=True,
        metadata={"description": "Seconds per step; the *_exposed_s parts, compute, bubble and "
                                 "straggler add up to step_time_s; *_hidden_s overlap compute"})
    tokens_per_s = ma.fields.Float(allow_none=True, required=True)
    samples_per_s = ma.fields.Float(required=True)
    achieved_tflops_per_gpu = ma.fields.Float(required=True, metadata={
        "description": "TFLOP/s per GPU counted as Megatron-DeepSpeed and Narayanan et al. 2021 "
                       "do: model FLOPs (full score matrix) plus recomputation"})
    mfu = ma.fields.Float(required=True, metadata={
        "description": "Model FLOPs utilisation, 0-1, counting the whole s x s attention score "
                       "matrix (Korthikanti et al. 2022 eq. 7, PaLM, NeMo <= 25.04, "
                       "llm-foundry, torchtitan); recomputation not counted"})
    mfu_causal = ma.fields.Float(required=True, metadata={
        "description": "Model FLOPs utilisation counting half the score matrix of a causal "
                       "model (Megatron-LM logs since 2025-03, Megatron-Bridge)"})
    model_tflops_per_gpu = ma.fields.Float(required=True, metadata={
        "description": "Model TFLOP/s per GPU in the convention of mfu"})
    model_tflops_per_gpu_causal = ma.fields.Float(required=True, metadata={
        "description": "Model TFLOP/s per GPU in the convention of mfu_causal"})
    executed_tflops_per_gpu = ma.fields.Float(required=True, metadata={
        "description": "TFLOP/s per GPU the kernels execute: recomputation counted, the masked "
                       "half of a causal model's score matrix left out where a fused attention "
                       "kernel skips it, the fused backward's recompute of the scores counted; "
                       "the GPUs' own rate, against their dense peak"})
    scaling_efficiency = ma.fields.Float(
        required=True, metadata={"description": SCALING_EFFICIENCY_MEANS})
    communication_share = ma.fields.Float(
        required=True, metadata={"description": "Share of the step spent on exposed communication"})
    memory = ma.fields.Nested(MemorySchema, required=True, metadata={"description": "Per GPU, GB"})
    bottleneck = ma.fields.String(required=True)
    assumptions = ma.fields.List(ma.fields.String(), required=True)
    gpus = ma.fields.Integer(required=True)
    nodes = ma.fields.Integer(required=True)
    inter_node_bandwidth_gbs = ma.fields.Float(
        required=True, metadata={"description": "Achievable per node, one direction, GB/s (bytes)"})
    catalog_version = ma.fields.Integer(allow_none=True, required=True)
    intervals = intervals_field()
    calibration = calibration_field()
    goodput = ma.fields.Nested(EstimateGoodputSchema, allow_none=True, required=True,
                               metadata={"description": "null without duration_days"})


# Sizes count in powers of 1024 (nccl-tests' -b 1G is 2^30), so the cap is 1T in that count.
MAX_COLLECTIVE_BYTES = 2**40


class CollectiveRequestSchema(Strict):
    cluster = ma.fields.Nested(ClusterSchema, required=True)
    operation = ma.fields.String(required=True, validate=v.OneOf(COLLECTIVES))
    size_bytes = f.Integer(required=True, validate=v.Range(min=1, max=MAX_COLLECTIVE_BYTES),
                           metadata={"description": "Message size S in whole bytes (nccl-tests), "
                                                    "at most 2^40 (1T as nccl-tests counts it)"})
    algorithm = ma.fields.String(
        load_default="auto", validate=v.OneOf(ALGORITHMS),
        metadata={"description": "NCCL algorithm: auto (NCCL's own choice by message size, as "
                                 "its tuning model makes it), ring, tree (all_reduce), nvls "
                                 "(NVLink SHARP, one NVSwitch node), nvls_tree (NVLink SHARP "
                                 "inside each node, a tree between nodes) or collnet (InfiniBand "
                                 "SHARP). An algorithm the hardware cannot run is refused (422)."})
    catalog_version = f.Integer(validate=VERSION_RANGE)


class CollectiveSchema(FastDump):
    operation = ma.fields.String(required=True)
    size_bytes = ma.fields.Integer(required=True)
    ranks = ma.fields.Integer(required=True)
    algorithm = ma.fields.String(required=True, metadata={"description": "The algorithm asked for"})
    algorithm_used = ma.fields.String(required=True, validate=v.OneOf(CHOSEN), metadata={
        "description": "The algorithm that ran: what auto chose (ring, tree, nvls, nvls_tree, "
                       "collnet), or "
                       "p2p for all_to_all and p2p, which NCCL sends point to point"})
    time_s = ma.fields.Float(required=True)
    algbw_gbs = ma.fields.Float(required=True, metadata={"description": "S / time, GB/s (bytes)"})
    busbw_gbs = ma.fields.Float(
        required=True, metadata={"description": "nccl-tests bus bandwidth, GB/s (bytes)"})
    intervals = intervals_field()
    calibration = calibration_field()


class PresetSchema(ma.Schema):
    id = ma.fields.String(required=True)
    name = ma.fields.String(required=True)
    kind = ma.fields.String(required=True, metadata={
        "description": "transformer (work in tokens) or generic (work in samples or epochs)"})
    params = ma.fields.Float(required=True)
    active_params = ma.fields.Float(required=True)
    dimensions = ma.fields.Dict(required=True)
    source = ma.fields.String(required=True)
    note = ma.fields.String()
    dataset = ma.fields.String(allow_none=True, required=True,
                               metadata={"description": "What an epoch passes over (sample-based "
                                                        "models); null for transformers"})
    samples_per_epoch = ma.fields.Integer(
        allow_none=True, required=True,
        metadata={"description": "Samples in that dataset: a sizing of this preset by epochs "
                                 "alone trains on this many per epoch"})
