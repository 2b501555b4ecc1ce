"""FastDump's compiled dump gives what marshmallow's own dump gives."""

from __future__ import annotations

import json

import marshmallow as ma

from service.schemas import estimates as s
from service.schemas import sizings
from service.schemas.fast_dump import FastDump


def marshmallow_dump(schema: ma.Schema, doc):
    return ma.Schema.dump(schema, doc)


def test_an_estimate_answer_dumps_as_marshmallow_dumps_it(client):
    body = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4},
            "workload": {"preset": "llama-3-8b"}, "training": {"global_batch": 512},
            "layout": {"dp": 32, "zero_stage": 2}, "duration_days": 3}
    answer = client.post("/v1/estimates", json=body).get_json()
    schema = s.EstimateSchema()
    # Extra keys are left out, missing ones skipped, numbers typed as the fields say.
    doc = {**answer, "unknown": 1, "gpus": 32.0, "memory": {**answer["memory"], "fits": 1}}
    del doc["bottleneck"]
    fast = schema.dump(doc)
    assert schema.__dict__["_fast_plan"], "the estimate schema takes the compiled plan"
    assert fast == marshmallow_dump(schema, doc)
    assert list(fast) == list(marshmallow_dump(schema, doc))
    assert type(fast["gpus"]) is int


class Defaults(FastDump):
    stored = ma.fields.Float(dump_default=1.5)
    named = ma.fields.String(data_key="name")
    when = ma.fields.Date()
    inner = ma.fields.Nested(s.IntervalSchema, allow_none=True)
    ranges = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(s.IntervalSchema))


def test_defaults_data_keys_nulls_and_other_fields_dump_as_marshmallow_dumps_them():
    import datetime

    schema = Defaults()
    for doc in ({}, {"named": 3, "when": datetime.date(2026, 1, 2), "inner": None},
                {"stored": None, "inner": {"p10": 1, "p90": 2.5},
                 "ranges": {"a": {"p10": 0.5, "p90": 1}}}):
        assert schema.dump(doc) == marshmallow_dump(schema, doc), doc


class Hooked(FastDump):
    x = ma.fields.Float()

    @ma.post_dump
    def doubled(self, data, **_):
        return {"x": data["x"] * 2}


def test_a_schema_with_hooks_or_an_object_that_is_not_a_dict_goes_through_marshmallow():
    assert Hooked().dump({"x": 1}) == {"x": 2.0}
    interval = type("Interval", (), {"p10": 1.0, "p90": 2.0})()
    assert Defaults().dump(interval) == marshmallow_dump(Defaults(), interval)


QUESTIONNAIRES = [
    {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 4},
     "gpu_models": ["h100-sxm"]},
    {"workload": {"preset": "llama-3-70b", "seq_len": 4096}, "duration_days": 30,
     "precision": "fp8", "global_batch": 1024, "gpus_per_node": 8, "region": "eu-west",
     "budget_per_month": "250000.00", "budget_total": "1000000", "term": "1y",
     "currency": "EUR", "rdma_required": True, "fabrics_include": ["ib-ndr-400"],
     "fabrics_exclude": [], "objective": "fastest", "max_lead_time_days": 0, "max_results": 3,
     "layout": {"tp": 8, "pp": 2, "zero_stage": 1, "sequence_parallel": True,
                "micro_batch": 2}},
    {"workload": {"transformer": {"layers": 16, "hidden": 2048, "heads": 16, "vocab": 32000,
                                  "seq_len": 2048}}, "tokens": 1e9, "layout": None},
    {"workload": {"generic": {"params": 1e6, "flops_per_sample": 1e9}}, "samples": 1e6,
     "epochs": 3},
    {"workload": {"preset": "resnet-50"}, "epochs": 2, "nodes": {"min": 1, "max": 2}},
]


def test_a_questionnaire_dumps_as_marshmallow_dumps_it():
    schema = sizings.SizingRequestSchema()
    for body in QUESTIONNAIRES:
        loaded = schema.load(body)
        fast = schema.dump(loaded)
        assert schema.__dict__["_fast_plan"], "the questionnaire takes the compiled plan"
        # As JSON: the same keys in the same order, nested ones too, each number of its type.
        assert json.dumps(fast) == json.dumps(marshmallow_dump(schema, loaded)), body


def test_a_sizing_result_dumps_as_marshmallow_dumps_it(snap):
    """A sizing's stored result (as the record reads it back from JSON) through the compiled
    plan: the same keys in the same order, nested ones too, each number of its type."""
    from datetime import date

    from service.schemas.results import SizingResultSchema
    from service.sizing_request import SizingRequest
    from service.sizing_run import run
    from service.typed import to_document

    asked, schema = sizings.SizingRequestSchema(), SizingResultSchema()
    for body in (QUESTIONNAIRES[0], QUESTIONNAIRES[-1]):
        request = SizingRequest.from_document(asked.dump(asked.load(body)))
        stored = json.loads(json.dumps(to_document(run(snap, request, lambda _f: None,
                                                       date(2026, 12, 3)))))
        fast = schema.dump(stored)
        assert schema.__dict__["_fast_plan"], "the result takes the compiled plan"
        assert json.dumps(fast) == json.dumps(marshmallow_dump(schema, stored)), body
