"""Schemas of the sizing questionnaire and of the ranked configurations it returns."""

from __future__ import annotations

import re

import marshmallow as ma
from marshmallow import validate as v

from catalog.pricing import TERMS
from service.records import SIZING_STATES
from service.schemas.results import SizingErrorSchema, SizingResultSchema
from service.schemas.workload import Strict, WorkloadSchema
from sizing.presets import PRESETS
from sizing.ranking import OBJECTIVES
from sizing.workload import OFFERED_PRECISIONS, RECOMPUTE, ZERO_STAGES

# Money travels as a decimal string, never a JSON number (which a client may have rounded
# through a float); at least one non-zero digit, so the amount is above 0.
AMOUNT = r"^(?=[0-9.]*[1-9])[0-9]{1,15}(\.[0-9]{1,6})?$"


class Amount(ma.fields.Decimal):
    """A positive decimal string in, the same string out."""

    def __init__(self, **kwargs):
        super().__init__(
            as_string=True,
            metadata={"description": "An amount in the request's currency, as a decimal string",
                      "type": "string", "pattern": AMOUNT, "example": "250000.00"},
            **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        # The text as given is checked, before it becomes a Decimal.
        if not isinstance(value, str) or not re.match(AMOUNT, value):
            raise ma.ValidationError('must be a decimal string greater than 0, like "250000.00"')
        return super()._deserialize(value, attr, data, **kwargs)


class NodeRangeSchema(Strict):
    min = ma.fields.Integer(load_default=1, validate=v.Range(min=1, max=512))
    max = ma.fields.Integer(load_default=16, validate=v.Range(min=1, max=512))

    @ma.validates_schema
    def _ordered(self, data, **_):
        if data["min"] > data["max"]:
            raise ma.ValidationError("must not exceed max", "min")


class FixedLayoutSchema(Strict):
    """Pin the parallel degrees; dp follows from the GPU count unless given."""

    dp = ma.fields.Integer(validate=v.Range(min=1, max=1_000_000))
    tp = ma.fields.Integer(load_default=1, validate=v.Range(min=1, max=512))
    pp = ma.fields.Integer(load_default=1, validate=v.Range(min=1, max=512))
    ep = ma.fields.Integer(load_default=1, validate=v.Range(min=1, max=1024))
    virtual_stages = ma.fields.Integer(load_default=1, validate=v.Range(min=1, max=64))
    zero_stage = ma.fields.Integer(load_default=1, validate=v.OneOf(ZERO_STAGES))
    sequence_parallel = ma.fields.Boolean(load_default=False)
    recompute = ma.fields.String(load_default="selective",
                                 validate=v.OneOf(RECOMPUTE))
    micro_batch = ma.fields.Integer(load_default=1, validate=v.Range(min=1, max=4096))


class SizingRequestSchema(Strict):
    workload = ma.fields.Nested(WorkloadSchema, required=True)
    tokens = ma.fields.Float(validate=v.Range(min=1e3, max=1e16),
                             metadata={"description": "Tokens to train (transformers)",
                                       "example": 1e12})
    samples = ma.fields.Float(validate=v.Range(min=1, max=1e15),
                              metadata={"description": "Samples per epoch (generic models)"})
    epochs = ma.fields.Float(
        validate=v.Range(min=0.01, max=10_000),
        metadata={"description": "Passes over the samples (default 1), or alone over a CNN "
                                 "preset's dataset (GET /v1/presets: samples_per_epoch)"})
    duration_days = ma.fields.Float(
        validate=v.Range(min=0.01, max=3650),
        metadata={"description": "Deadline; alone, size for the most work done in this time"})
    precision = ma.fields.String(load_default="bf16", validate=v.OneOf(OFFERED_PRECISIONS))
    global_batch = ma.fields.Integer(
        validate=v.Range(min=1, max=10_000_000),
        metadata={"description": "Samples per optimizer step; default about 4M tokens "
                                 "(transformers) or 1024 samples, rounded per layout up "
                                 "to 4x that (catalog policy max_batch_growth); a given batch "
                                 "is kept exactly"})
    nodes = ma.fields.Nested(NodeRangeSchema, load_default=lambda: {"min": 1, "max": 16})
    gpus_per_node = ma.fields.Integer(validate=v.Range(min=1, max=72))
    gpu_models = ma.fields.List(ma.fields.String(), validate=v.Length(min=1, max=20),
                                metadata={"description": "GPU ids to consider; default any"})
    layout = ma.fields.Nested(FixedLayoutSchema, allow_none=True, load_default=None,
                              metadata={"description": "Fixed parallel degrees; null searches"})
    region = ma.fields.String(load_default="us-east")
    budget_per_month = Amount()
    budget_total = Amount()
    term = ma.fields.String(load_default="monthly", validate=v.OneOf(TERMS))
    currency = ma.fields.String(load_default="USD", validate=v.Regexp(r"^[A-Z]{3}$"))
    rdma_required = ma.fields.Boolean(load_default=False)
    fabrics_include = ma.fields.List(ma.fields.String(), validate=v.Length(min=1, max=50))
    fabrics_exclude = ma.fields.List(ma.fields.String(), validate=v.Length(max=50))
    objective = ma.fields.String(load_default="balanced", validate=v.OneOf(OBJECTIVES))
    max_lead_time_days = ma.fields.Integer(
        load_default=30, validate=v.Range(min=0, max=365),
        metadata={"description": "Rule out servers the region cannot deliver within this"})
    max_results = ma.fields.Integer(load_default=10, validate=v.Range(min=1, max=50))

    @ma.validates_schema
    def _work(self, data, **_):
        preset = PRESETS.get(data.get("workload", {}).get("preset"))
        epochs_of_dataset = "epochs" in data and preset is not None and preset.samples_per_epoch
        if not any(k in data for k in ("tokens", "samples", "duration_days")) and not epochs_of_dataset:
            raise ma.ValidationError("give tokens, samples (with epochs), epochs of a CNN "
                                     "preset's dataset, or duration_days", "tokens")
        if "tokens" in data and "samples" in data:
            raise ma.ValidationError("give tokens or samples, not both", "samples")
        if "tokens" in data and "generic" in data.get("workload", {}):
            raise ma.ValidationError("a generic model trains on samples; give samples", "tokens")


class SizingQuerySchema(Strict):
    limit = ma.fields.Integer(load_default=20, validate=v.Range(min=1, max=100))
    cursor = ma.fields.String(validate=v.Length(max=200))
    status = ma.fields.String(validate=v.OneOf(SIZING_STATES))


class PreferHeaderSchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    prefer = ma.fields.String(
        data_key="Prefer",
        metadata={"description": "RFC 7240 `wait=N`: wait up to N seconds (max 60) for the result"})


class SizingSummarySchema(ma.Schema):
    """A sizing without its result, as listed."""

    id = ma.fields.String(required=True)
    status = ma.fields.String(required=True, validate=v.OneOf(SIZING_STATES))
    progress = ma.fields.Float(required=True, metadata={"description": "0 to 1"})
    created_at = ma.fields.DateTime(required=True)
    started_at = ma.fields.DateTime(allow_none=True)
    finished_at = ma.fields.DateTime(allow_none=True)
    catalog_version = ma.fields.Integer(allow_none=True, attribute="catalog_version_id")
    request = ma.fields.Nested(SizingRequestSchema, required=True,
                               metadata={"description": "The questionnaire as accepted, defaults filled in"})
    error = ma.fields.Nested(SizingErrorSchema, allow_none=True,
                             metadata={"description": "Why it failed (when failed)"})


class SizingSchema(SizingSummarySchema):
    result = ma.fields.Nested(SizingResultSchema, allow_none=True,
                              metadata={"description": "Ranked configurations, network advice, "
                                                       "efficiency series (when succeeded)"})


class SizingPageSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(SizingSummarySchema), required=True)
    next_cursor = ma.fields.String(allow_none=True, required=True)
