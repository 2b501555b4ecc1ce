"""Schemas of a sizing's result: ranked configurations, network advice, efficiency series."""

from __future__ import annotations

import marshmallow as ma

from service.schemas.estimates import BreakdownSchema, MemorySchema

F, S, I, B = ma.fields.Float, ma.fields.String, ma.fields.Integer, ma.fields.Boolean
Money = ma.fields.String  # decimal strings


class NamedRefSchema(ma.Schema):
    id = S(required=True)
    name = S(required=True)


class FabricRefSchema(NamedRefSchema):
    kind = S(required=True)
    rdma = B(required=True)
    gpudirect_rdma = B(required=True)


class ResultLayoutSchema(ma.Schema):
    dp = I(required=True)
    tp = I(required=True)
    pp = I(required=True)
    ep = I(required=True)
    zero_stage = I(required=True)
    virtual_stages = I(required=True)
    micro_batch = I(required=True)
    sequence_parallel = B(required=True)
    recompute = S(required=True)


class PriceSchema(ma.Schema):
    currency = S(required=True)
    term = S(required=True)
    monthly = Money(required=True, metadata={"description": "Net per month after the term discount"})
    total = Money(required=True, metadata={"description": "For the whole training, with one-time fees"})
    months_billed = F(required=True)
    per_million_tokens = Money(allow_none=True, required=True)


class ResultStockSchema(ma.Schema):
    available_nodes = I(required=True)
    lead_time_days = I(required=True)
    warning = S(allow_none=True, required=True)


class RankedConfigurationSchema(ma.Schema):
    rank = I(required=True)
    server = ma.fields.Nested(NamedRefSchema, required=True)
    fabric = ma.fields.Nested(FabricRefSchema, required=True)
    gpu = S(required=True)
    nodes = I(required=True)
    gpus = I(required=True)
    layout = ma.fields.Nested(ResultLayoutSchema, required=True)
    global_batch = I(required=True)
    step_time_s = F(required=True)
    breakdown = ma.fields.Nested(BreakdownSchema, required=True)
    tokens_per_s = F(allow_none=True, required=True)
    samples_per_s = F(required=True)
    mfu = F(required=True)
    scaling_efficiency = F(required=True)
    communication_share = F(required=True)
    time_to_train_hours = F(required=True)
    price = ma.fields.Nested(PriceSchema, required=True)
    memory = ma.fields.Nested(MemorySchema, required=True)
    bottleneck = S(required=True)
    assumptions = ma.fields.List(S(), required=True)
    stock = ma.fields.Nested(ResultStockSchema, required=True)
    why = S(required=True, metadata={"description": "Why it ranks where it does"})


class FabricComparisonSchema(ma.Schema):
    fabric = S(required=True)
    fabric_name = S(required=True)
    scaling_efficiency = F(required=True)
    throughput = F(required=True)
    throughput_unit = S(required=True)
    communication_share = F(required=True)
    monthly = Money(required=True)


class FabricVsGpusSchema(ma.Schema):
    upgrade_to = S(required=True)
    more_nodes = I(required=True)
    sentence = S(required=True)
    upgrade_throughput_gain = F(required=True)
    more_nodes_throughput_gain = F(required=True)
    upgrade_extra_monthly = Money(required=True)
    more_nodes_extra_monthly = Money(required=True)


class ChecklistItemSchema(ma.Schema):
    item = S(required=True)
    why = S(required=True)
    source = S(required=True)


class NetworkAdviceSchema(ma.Schema):
    nodes = I()
    server = S()
    recommended_fabric = S(allow_none=True, required=True, metadata={"description": (
        "The cheapest fabric within the policy's tolerance of the fastest fabric's throughput "
        "for the top server and node count; RoCEv2 without PFC/ECN only when no lossless fabric "
        "keeps up, and InfiniBand first for a large, long run (catalog policy)")})
    fabric_class = S(allow_none=True, required=True)
    reason = S(required=True)
    comparison = ma.fields.List(ma.fields.Nested(FabricComparisonSchema), required=True)
    fabric_vs_more_gpus = ma.fields.Nested(FabricVsGpusSchema, allow_none=True, required=True)
    roce_checklist = ma.fields.List(ma.fields.Nested(ChecklistItemSchema), required=True)


class SeriesPointSchema(ma.Schema):
    nodes = I(required=True)
    scaling_efficiency = F(required=True)
    throughput = F(required=True)
    communication_share = F(required=True)


class EfficiencySeriesSchema(ma.Schema):
    fabric = S(required=True)
    fabric_name = S(required=True)
    server = S(required=True)
    points = ma.fields.List(ma.fields.Nested(SeriesPointSchema), required=True)


class SizingResultSchema(ma.Schema):
    catalog_version = I(required=True)
    objective = S(required=True)
    currency = S(required=True)
    term = S(required=True)
    candidates_evaluated = I(required=True)
    candidates_eligible = I(required=True)
    excluded = ma.fields.Dict(keys=S(), values=I(), required=True,
                              metadata={"description": "Candidates ruled out, by reason"})
    configurations = ma.fields.List(ma.fields.Nested(RankedConfigurationSchema), required=True)
    network_advice = ma.fields.Nested(NetworkAdviceSchema, allow_none=True, required=True)
    efficiency_series = ma.fields.List(ma.fields.Nested(EfficiencySeriesSchema), required=True)
    notes = ma.fields.List(S(), required=True)


class FieldErrorSchema(ma.Schema):
    pointer = S(required=True)
    detail = S(required=True)


class SizingErrorSchema(ma.Schema):
    code = S(required=True)
    detail = S(required=True)
    errors = ma.fields.List(ma.fields.Nested(FieldErrorSchema), required=True)


class PerformanceSchema(ma.Schema):
    """A quote's frozen performance summary, from the sizing it came from."""

    scaling_efficiency = F(required=True)
    tokens_per_s = F(allow_none=True, required=True)
    samples_per_s = F(required=True)
    mfu = F(required=True)
    step_time_s = F(required=True)
    communication_share = F(required=True)
    time_to_train_hours = F(required=True)
    bottleneck = S(required=True)
    layout = ma.fields.Nested(ResultLayoutSchema, required=True)
    workload = ma.fields.Dict(required=True)
    sizing_catalog_version = I(allow_none=True, required=True)
