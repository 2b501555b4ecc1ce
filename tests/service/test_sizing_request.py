"""The questionnaire as one typed request: built once, and what the catalog cannot satisfy."""

from __future__ import annotations

import dataclasses

from catalog.offer import sellable_pairs
from service.schemas.sizings import SizingRequestSchema
from service.sizing_request import SizingRequest
from sizing.presets import IMAGENET_1K_IMAGES
from sizing.search import search_size


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


def test_the_kept_search_size_and_offer_are_what_the_search_and_the_catalog_count(snap):
    # The same counts whether worked out afresh or kept from an earlier request of the shape.
    for body in ({"workload": {"preset": "llama-3-8b"}, "tokens": 1e10},
                 {"workload": {"preset": "llama-3-70b"}, "tokens": 1e12,
                  "nodes": {"min": 2, "max": 40}, "gpu_models": ["h100-sxm"]},
                 {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10,
                  "layout": {"tp": 4, "pp": 2}}):
        for _ in range(2):
            r = request(**body)
            offer = sellable_pairs(snap, r.hardware, r.region)
            assert r.offer(snap) == offer
            assert r.search_size(snap) == search_size(
                [snap.servers[s].gpus_per_node for s, _ in offer.pairs], r.node_counts,
                r.model, r.layout) > 0


def test_an_offer_is_kept_per_snapshot(snap):
    r = request(workload={"preset": "llama-3-8b"}, tokens=1e10)
    assert r.offer(snap).pairs
    # Another snapshot (a new catalog version) with nothing to sell gets an offer of its own.
    bare = dataclasses.replace(snap, pairings={})
    assert r.offer(bare).pairs == ()
    assert r.offer(snap) == sellable_pairs(snap, r.hardware, r.region)
