"""Synchronous estimates of one configuration or one collective, and the model presets."""

from __future__ import annotations

from flask.views import MethodView

from service import db
from service import estimates as core
from service.api.blueprint import Blueprint
from service.auth import requires
from service.schemas import estimates as s

blp = Blueprint("estimates", __name__, url_prefix="/v1",
                description="The performance model, one configuration at a time")


@blp.route("/estimates")
class Estimates(MethodView):
    @requires(blp, "estimates:write")
    @blp.arguments(s.EstimateRequestSchema, example={
        "cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 4},
        "workload": {"preset": "llama-3-70b"},
        "training": {"global_batch": 512, "micro_batch": 1, "precision": "bf16"},
        "layout": {"dp": 1, "tp": 8, "pp": 4, "zero_stage": 1, "sequence_parallel": True},
    })
    @blp.response(200, s.EstimateSchema)
    @blp.alt_response(422, description="Invalid or unphysical input; the problem names the field")
    @blp.doc(operationId="createEstimate",
             summary="Step time, throughput, MFU and scaling efficiency of one configuration")
    def post(self, body):
        return core.run_estimate(db.session(), body)


@blp.route("/estimates/collectives")
class Collectives(MethodView):
    @requires(blp, "estimates:write")
    @blp.arguments(s.CollectiveRequestSchema, example={
        "cluster": {"server": "hgx-h100-8", "fabric": "roce-400-lossless", "nodes": 8},
        "operation": "all_reduce", "size_bytes": 1073741824, "algorithm": "auto",
    })
    @blp.response(200, s.CollectiveSchema)
    @blp.alt_response(422, description="Invalid input; the problem names the field")
    @blp.doc(operationId="createCollectiveEstimate",
             summary="Time, algbw and busbw of one collective (nccl-tests definitions)")
    def post(self, body):
        return core.run_collective(db.session(), body)


@blp.route("/presets")
class Presets(MethodView):
    @requires(blp, "catalog:read")
    @blp.etag
    @blp.response(200, s.PresetSchema(many=True))
    @blp.doc(operationId="listPresets", summary="Model presets with the source of their dimensions")
    def get(self):
        return core.presets()
