"""Schemas of the catalog's read endpoints."""

from __future__ import annotations

from typing import ClassVar

import marshmallow as ma

from service.schemas import fields as f
from service.schemas.fields import Strict

Sources = ma.fields.Dict(
    keys=ma.fields.String(), values=ma.fields.String(),
    metadata={"description": "Field name -> where its figure came from, or 'estimate: why'"},
)


# Catalog versions are database integer keys: larger numbers cannot name one.
VERSION_RANGE = ma.validate.Range(min=1, max=2**31 - 1)


class VersionQuery(Strict):
    version = f.QueryInteger(
        validate=VERSION_RANGE,
        metadata={"description": "Catalog version to read (default: the current one)"},
    )


class GpuQuery(VersionQuery):
    vendor = f.Text(max_length=64, metadata={"description": "Only GPUs of this vendor, e.g. "
                                                           "nvidia; a vendor the version has no "
                                                           "GPU of is a 422"})


class ServerQuery(VersionQuery):
    gpu = f.Identifier(metadata={"description": "Only servers with this GPU id, e.g. h100-sxm; "
                                                "an id the version does not have is a 422"})
    min_gpus = f.QueryInteger(validate=ma.validate.Range(min=1, max=1024),
                              metadata={"description": "At least this many GPUs per node"})


class FabricQuery(VersionQuery):
    kind = ma.fields.String(validate=ma.validate.OneOf(["infiniband", "roce", "ethernet"]))
    rdma = f.QueryBoolean(metadata={"description": "Only fabrics with (true) or without RDMA"})


class RdmaQuery(VersionQuery):
    server = f.Identifier(metadata={"description": "Only this server id's pairs; an id the "
                                                   "version does not have is a 422"})
    fabric = f.Identifier(metadata={"description": "Only this fabric id's pairs; an id the "
                                                   "version does not have is a 422"})
    supported = f.QueryBoolean()


class RegionQuery(VersionQuery):
    server = f.Identifier(metadata={"description": "Show stock of this server only; an id the "
                                                   "version does not have is a 422"})


class GpuSchema(ma.Schema):
    id = ma.fields.String(required=True, metadata={"example": "h100-sxm"})
    name = ma.fields.String(required=True)
    vendor = ma.fields.String(required=True)
    bf16_tflops = ma.fields.Float(required=True, metadata={"description": "Dense BF16 tensor TFLOPS"})
    fp8_tflops = ma.fields.Float(allow_none=True, metadata={"description": "Dense FP8 TFLOPS; null where none"})
    memory_gb = ma.fields.Float(required=True)
    memory_bandwidth_gbs = ma.fields.Float(required=True, metadata={"description": "GB/s (bytes)"})
    intra_link = ma.fields.String(required=True, metadata={"description": "nvlink, xgmi or pcie"})
    intra_bandwidth_gbs = ma.fields.Float(
        required=True, metadata={"description": "Per GPU, one direction, GB/s (bytes)"})
    gpudirect_rdma = ma.fields.Boolean(required=True)
    nvlink_sharp = ma.fields.Boolean(load_default=False, dump_default=False, metadata={
        "description": "NVSwitch with in-switch reduction (NCCL NVLS)"})
    tdp_w = ma.fields.Float()
    sources = Sources


class NicSchema(ma.Schema):
    model = ma.fields.String(required=True)
    count = ma.fields.Integer(required=True)
    rate_gbps = ma.fields.Float(required=True, metadata={"description": "Line rate per NIC, Gb/s (bits)"})
    protocols = ma.fields.List(ma.fields.String(), required=True)


class ServerSchema(ma.Schema):
    id = ma.fields.String(required=True, metadata={"example": "hgx-h100"})
    name = ma.fields.String(required=True)
    gpu = ma.fields.String(required=True)
    gpus_per_node = ma.fields.Integer(required=True)
    nics = ma.fields.List(ma.fields.Nested(NicSchema), required=True)
    pcie_gen = ma.fields.Integer(required=True)
    nic_gpu_same_switch = ma.fields.Boolean(
        required=True, metadata={"description": "Each NIC under its GPUs' PCIe switch (GPUDirect RDMA)"})
    cpu = ma.fields.String()
    host_memory_gb = ma.fields.Float()
    power_kw = ma.fields.Float()
    sources = Sources


class FabricSchema(ma.Schema):
    id = ma.fields.String(required=True, metadata={"example": "ib-ndr-400"})
    name = ma.fields.String(required=True)
    kind = ma.fields.String(required=True, metadata={"description": "infiniband, roce or ethernet"})
    line_rate_gbps = ma.fields.Float(required=True, metadata={"description": "Per port, Gb/s (bits)"})
    latency_us = ma.fields.Float(required=True, metadata={"description": "Per-message latency (alpha), µs"})
    achievable_fraction = ma.fields.Float(required=True,
                                          metadata={"description": "Achievable fraction of line rate"})
    rdma = ma.fields.Boolean(required=True)
    lossless = ma.fields.Boolean(required=True, metadata={"description": "PFC + ECN configured"})
    jitter_cv = ma.fields.Float(required=True,
                                metadata={"description": "Coefficient of variation of communication time"})
    loss_rate = ma.fields.Float(required=True, metadata={"description": "Packet loss rate assumed"})
    oversubscription_options = ma.fields.List(ma.fields.Float(), required=True)
    nodes_per_leaf = ma.fields.Integer(required=True)
    topology = ma.fields.String(dump_default="leaf-spine", metadata={
        "description": "leaf-spine, or rail-optimised (a leaf per rail in each scalable unit)"})
    nodes_per_unit = ma.fields.Integer(metadata={
        "description": "Rail-optimised: nodes of one scalable unit, below the spine"})
    nodes_below_core = ma.fields.Integer(metadata={
        "description": "Nodes the spine joins; beyond them traffic crosses a core tier"})
    sharp = ma.fields.Boolean(dump_default=False, metadata={
        "description": "In-network reduction (SHARP) enabled for NCCL CollNet"})
    adaptive_routing = ma.fields.Boolean(dump_default=False, metadata={
        "description": "Switches spread packets over paths (no ECMP hash collisions)"})
    selective_repeat = ma.fields.Boolean(dump_default=False, metadata={
        "description": "NICs resend only lost packets (not go-back-N)"})
    switch_port_price_usd_month = ma.fields.Raw(metadata={"description": "Decimal string, USD"})
    description = ma.fields.String()
    sources = Sources


class RdmaSupportSchema(ma.Schema):
    server = ma.fields.String(required=True)
    fabric = ma.fields.String(required=True)
    supported = ma.fields.Boolean(required=True)
    nic = ma.fields.String(allow_none=True)
    nics_used = ma.fields.Integer(allow_none=True)
    rdma = ma.fields.Boolean(required=True)
    gpudirect_rdma = ma.fields.Boolean(required=True)
    nvls = ma.fields.Boolean(required=True, metadata={
        "description": "NCCL's NVLS algorithm inside a node: the GPU's NVSwitch reduces "
                       "(NVLink SHARP)"})
    collnet = ma.fields.Boolean(required=True, metadata={
        "description": "NCCL CollNet: the fabric's switches reduce in the network (SHARP)"})
    nvls_across_nodes = ma.fields.Boolean(required=True, metadata={
        "description": "NVLS combined with CollNet across nodes"})
    reason = ma.fields.String(allow_none=True)
    sources = Sources


class StockSchema(ma.Schema):
    server = ma.fields.String(required=True)
    available_nodes = ma.fields.Integer(required=True, metadata={"description": "On hand now"})
    arriving_nodes = ma.fields.Integer(required=True, metadata={"description": "On order"})
    lead_time_days = ma.fields.Integer(
        required=True, metadata={"description": "Days from an order until the arriving nodes "
                                                "are delivered"})


class RegionSchema(ma.Schema):
    id = ma.fields.String(required=True, metadata={"example": "eu-central"})
    name = ma.fields.String(required=True)
    country = ma.fields.String(required=True, metadata={"description": "ISO 3166-1 alpha-2"})
    stock = ma.fields.List(ma.fields.Nested(StockSchema))


class CatalogVersionSchema(ma.Schema):
    id = ma.fields.Integer(required=True)
    created_at = ma.fields.DateTime(required=True)
    origin = ma.fields.String(required=True)
    note = ma.fields.String()


class PriceChangeSchema(Strict):
    server = f.Identifier(required=True)
    region = f.Identifier(required=True)
    # The catalog's own rules (catalog.files.PriceSchema): a rate above 0, a setup fee of 0 or
    # more, in cents (a rate of "0.000001" would make a server free once billed to the cent).
    hourly_usd = f.Amount(places=2)
    monthly_usd = f.Amount(places=2)
    setup_fee_usd = f.Amount(zero_allowed=True, places=2)


class StockChangeSchema(Strict):
    region = f.Identifier(required=True)
    server = f.Identifier(required=True)
    available_nodes = f.Integer(validate=ma.validate.Range(min=0, max=100_000))
    arriving_nodes = f.Integer(validate=ma.validate.Range(min=0, max=100_000))
    lead_time_days = f.Integer(validate=ma.validate.Range(min=0, max=3650))


class CatalogChangeSchema(Strict):
    # At least one price or stock entry to change.
    spec_rules: ClassVar[dict] = f.valid_unless({"allOf": [
        {"not": {"required": [name], "properties": {name: {"minItems": 1}}}}
        for name in ("server_prices", "stock")]})

    note = f.Text(required=True, min_length=1, max_length=500,
                  metadata={"description": "Why the catalog changes"})
    server_prices = f.List(ma.fields.Nested(PriceChangeSchema), max_items=500, load_default=list,
                           metadata={"description": "Each server and region at most once"})
    stock = f.List(ma.fields.Nested(StockChangeSchema), max_items=500, load_default=list,
                   metadata={"description": "Each region and server at most once"})

    @ma.validates_schema
    def _something(self, data, **_):
        if not data["server_prices"] and not data["stock"]:
            raise ma.ValidationError("change at least one price or stock entry", "server_prices")

    @ma.validates_schema
    def _each_entry_once(self, data, **_):
        # Two entries for one pair would leave the catalog with whichever came last: the
        # change says two things, so it is refused rather than half applied.
        repeats = {name: repeated_pairs(data[name]) for name in ("server_prices", "stock")}
        if any(repeats.values()):
            raise ma.ValidationError({name: found for name, found in repeats.items() if found})


def repeated_pairs(entries: list[dict]) -> dict[int, list[str]]:
    """Each entry that names a server and region an earlier one names, by its index."""
    first: dict[tuple[str, str], int] = {}
    repeats: dict[int, list[str]] = {}
    for index, entry in enumerate(entries):
        pair = (entry["server"], entry["region"])
        if pair in first:
            detail = (f"{pair[0]} in {pair[1]} is already changed at index {first[pair]}; give "
                      "each server and region once")
            repeats[index] = [detail]
        first.setdefault(pair, index)
    return repeats
