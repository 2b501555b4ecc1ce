"""The questionnaire as one typed request: built once, and what the catalog cannot satisfy."""

from __future__ import annotations

from service.schemas.sizings import SizingRequestSchema
from service.sizing_request import SizingRequest
from sizing.presets import IMAGENET_1K_IMAGES


def request(**body) -> SizingRequest:
    schema = SizingRequestSchema()
    return SizingRequest.from_document(schema.dump(schema.load(body)))


def test_a_cnn_preset_sized_by_epochs_trains_its_dataset():
    r = request(workload={"preset": "resnet-50"}, epochs=90)
    assert r.work.units == 90 * IMAGENET_1K_IMAGES


def test_a_duration_alone_is_a_duration_not_an_epoch():
    r = request(workload={"preset": "resnet-50"}, duration_days=3)
    assert r.work.units is None and r.work.duration_days == 3


def test_the_stored_document_rebuilds_the_same_request():
    schema = SizingRequestSchema()
    doc = schema.dump(schema.load({"workload": {"preset": "llama-3-70b"}, "tokens": 1e12,
                                   "layout": {"tp": 8, "pp": 2}, "budget_total": "1000000.00"}))
    assert SizingRequest.from_document(doc) == SizingRequest.from_document(doc)
    r = SizingRequest.from_document(doc)
    assert r.layout.fixed.tp == 8 and r.layout.fixed.dp == 0 and str(r.budget_total) == "1000000.00"


def test_problems_name_every_field_to_change(snap):
    r = request(workload={"preset": "llama-3-8b"}, tokens=1e10, region="mars-1", currency="XYZ",
                gpu_models=["h100-sxm", "h100-sxmm"], layout={"tp": 3})
    pointers = [p for p, _ in r.problems(snap)]
    assert pointers == ["/region", "/currency", "/gpu_models/1", "/layout/tp"]
    assert request(workload={"preset": "llama-3-8b"}, tokens=1e10).problems(snap) == []
