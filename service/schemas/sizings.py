"""Schemas of the sizing questionnaire and of the ranked configurations it returns."""

from __future__ import annotations

from typing import ClassVar

import marshmallow as ma
from marshmallow import validate as v

from catalog.pricing import TERMS
from service.records import SIZING_STATES
from service.schemas import fields as f
from service.schemas.fast_dump import FastDump
from service.schemas.fields import Amount
from service.schemas.results import SizingErrorSchema, SizingResultSchema
from service.schemas.workload import LayoutSchema, Strict, WorkloadSchema
from sizing.presets import PRESETS
from sizing.ranking import OBJECTIVES
from sizing.workload import OFFERED_PRECISIONS, Transformer


class NodeRangeSchema(Strict):
    min = f.Integer(load_default=1, validate=v.Range(min=1, max=512))
    max = f.Integer(load_default=16, validate=v.Range(min=1, max=512))

    @ma.validates_schema
    def _ordered(self, data, **_):
        if data["min"] > data["max"]:
            raise ma.ValidationError("must not exceed max", "min")


class FixedLayoutSchema(LayoutSchema):
    """The layout of POST /v1/estimates, pinned for a sizing: the same fields and defaults,
    but dp follows from each candidate's GPU count unless given, and the micro-batch (a
    training figure in an estimate) is part of the layout searched."""

    dp = f.Integer(validate=v.Range(min=1, max=1_000_000),
                   metadata={"description": "Data parallel; default: the GPU count over "
                                            "tp x pp x cp"})
    micro_batch = f.Integer(load_default=1, validate=v.Range(min=1, max=4096))


TRANSFORMER_PRESETS = sorted(p for p, preset in PRESETS.items()
                             if isinstance(preset.model, Transformer))
DATASET_PRESETS = sorted(p for p, preset in PRESETS.items() if preset.samples_per_epoch)


def has(name: str) -> dict:
    return {"required": [name]}


class SizingRequestSchema(FastDump, Strict):
    """The questionnaire. Dumped twice per submission (the stored request, and the answer's
    copy of it), so through FastDump's plan."""

    # The work in the model's own unit (see _work), as JSON Schema states it.
    spec_rules: ClassVar[dict] = {
        "if": {"properties": {"workload": {"anyOf": [
            has("transformer"),
            {**has("preset"), "properties": {"preset": {"enum": TRANSFORMER_PRESETS}}}]}}},
        "then": {"not": {"anyOf": [has("samples"), has("epochs")]},
                 "anyOf": [has("tokens"), has("duration_days")]},
        "else": {"not": has("tokens"), "anyOf": [
            has("samples"), has("duration_days"),
            {**has("epochs"), "properties": {"workload": {
                **has("preset"), "properties": {"preset": {"enum": DATASET_PRESETS}}}}}]},
    }
    workload = ma.fields.Nested(WorkloadSchema, required=True)
    tokens = f.Number(validate=v.Range(min=1e3, max=1e16),
                      metadata={"description": "Tokens to train (transformers only)",
                                "example": 1e12})
    samples = f.Number(validate=v.Range(min=1, max=1e15), metadata={
        "description": "Samples per epoch (sample-based models only: generic models and CNN "
                       "presets); a CNN preset given only epochs trains on its dataset "
                       "(GET /v1/presets: samples_per_epoch)"})
    epochs = f.Number(validate=v.Range(min=0.01, max=10_000), metadata={
        "description": "Passes over the samples (sample-based models only); default 1"})
    duration_days = f.Number(
        validate=v.Range(min=0.01, max=3650),
        metadata={"description": "Deadline; alone, size for the most work done in this time"})
    precision = ma.fields.String(load_default="bf16", validate=v.OneOf(OFFERED_PRECISIONS))
    global_batch = f.Integer(
        validate=v.Range(min=1, max=10_000_000),
        metadata={"description": "Samples per optimizer step; default about 4M tokens "
                                 "(transformers) or 1024 samples, rounded per layout up "
                                 "to 4x that (catalog policy max_batch_growth); a given batch "
                                 "is kept exactly"})
    nodes = ma.fields.Nested(NodeRangeSchema, load_default=lambda: {"min": 1, "max": 16})
    gpus_per_node = f.Integer(validate=v.Range(min=1, max=72))
    gpu_models = f.List(f.Identifier(), min_items=1, max_items=20,
                        metadata={"description": "GPU ids to consider; default any"})
    layout = ma.fields.Nested(FixedLayoutSchema, allow_none=True, load_default=None,
                              metadata={"description": "Fixed parallel degrees; null searches"})
    region = f.Identifier(load_default="us-east")
    budget_per_month = Amount()
    budget_total = Amount()
    term = ma.fields.String(load_default="monthly", validate=v.OneOf(TERMS))
    currency = f.Code("[A-Z]{3}", "ISO 4217, e.g. EUR", load_default="USD")
    rdma_required = f.Boolean(load_default=False)
    fabrics_include = f.List(f.Identifier(), min_items=1, max_items=50)
    fabrics_exclude = f.List(f.Identifier(), max_items=50)
    objective = ma.fields.String(load_default="balanced", validate=v.OneOf(OBJECTIVES))
    max_lead_time_days = f.Integer(
        load_default=30, validate=v.Range(min=0, max=365),
        metadata={"description": "Rule out servers the region cannot deliver within this"})
    max_results = f.Integer(load_default=10, validate=v.Range(min=1, max=50))

    @ma.validates_schema
    def _work(self, data, **_):
        """The amount of work in the unit of the model: tokens, or samples and epochs."""
        if work_unit(data["workload"]) == "tokens":
            for name in ("samples", "epochs"):
                if name in data:
                    raise ma.ValidationError(f"a transformer's work is tokens, not {name}; "
                                             "give tokens or duration_days", name)
            if "tokens" not in data and "duration_days" not in data:
                raise ma.ValidationError("give tokens or duration_days", "tokens")
            return
        if "tokens" in data:
            raise ma.ValidationError("this model trains on samples, not tokens; give samples "
                                     "(with epochs), epochs of a CNN preset, or duration_days",
                                     "tokens")
        if "samples" not in data and "duration_days" not in data and not (
                "epochs" in data and dataset_size(data["workload"])):
            raise ma.ValidationError("give samples (with epochs), or duration_days; only a CNN "
                                     "preset knows its dataset from epochs alone", "samples")

    @ma.post_load
    def _samples_from_the_dataset(self, data, **_):
        if work_unit(data["workload"]) == "samples":
            data.setdefault("epochs", 1.0)
            if "samples" not in data and "duration_days" not in data:
                data["samples"] = float(dataset_size(data["workload"]))
        return data


def work_unit(workload: dict) -> str:
    """`tokens` for transformers, `samples` for generic models and CNN presets."""
    if "preset" in workload:
        return "tokens" if isinstance(PRESETS[workload["preset"]].model, Transformer) else "samples"
    return "tokens" if "transformer" in workload else "samples"


def dataset_size(workload: dict) -> int | None:
    return PRESETS[workload["preset"]].samples_per_epoch if "preset" in workload else None


class SizingQuerySchema(Strict):
    limit = f.QueryInteger(load_default=20, validate=v.Range(min=1, max=100))
    cursor = ma.fields.String(validate=v.Length(min=1, max=200), metadata={
        "description": "next_cursor of the previous page, with the same filters"})
    status = ma.fields.String(validate=v.OneOf(SIZING_STATES))
    origin = f.Origin()


class SizingSummarySchema(ma.Schema):
    """A sizing without its result, as listed."""

    id = ma.fields.String(required=True)
    origin = f.OriginField()
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
    client_secret = f.ClientSecretField()
    result = ma.fields.Nested(SizingResultSchema, allow_none=True,
                              metadata={"description": "Ranked configurations, network advice, "
                                                       "efficiency series (when succeeded)"})


class SizingPageSchema(ma.Schema):
    items = ma.fields.List(ma.fields.Nested(SizingSummarySchema), required=True)
    next_cursor = ma.fields.String(allow_none=True, required=True)
