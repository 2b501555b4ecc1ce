"""The sizing questionnaire end to end in the embedded mode: accept, run, rank, advise."""

from __future__ import annotations

import pytest

from tests.conftest import authorised, build_app

LLAMA_70B = {"workload": {"preset": "llama-3-70b"}, "tokens": 2e11, "nodes": {"min": 4, "max": 16}}
SMALL = {"workload": {"preset": "llama-3-8b"}, "tokens": 1e10, "nodes": {"min": 1, "max": 2},
         "gpu_models": ["h100-sxm"]}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return build_app(f"sqlite:///{tmp_path_factory.mktemp('sz') / 'sizings.sqlite3'}")


@pytest.fixture(scope="module")
def seventy_b(app):
    """One 70B sizing over 4-16 nodes, as the README shows it."""
    response = authorised(app).post("/v1/sizings", json=LLAMA_70B, headers={"Prefer": "wait=60"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_accepted_with_location_and_polled_to_the_result(app):
    client = authorised(app)
    created = client.post("/v1/sizings", json=SMALL)
    assert created.status_code == 202
    location = created.headers["Location"]
    assert location == f"/v1/sizings/{created.get_json()['id']}"
    polled = client.get(location)
    assert polled.status_code == 200  # embedded: the task already ran in-process
    body = polled.get_json()
    assert body["status"] == "succeeded" and body["progress"] == 1.0
    assert body["catalog_version"] == 1 and body["result"]["catalog_version"] == 1


def test_a_70b_ranking_makes_sense_to_an_engineer(seventy_b):
    result = seventy_b["result"]
    configs = result["configurations"]
    assert 1 <= len(configs) <= 10 and [c["rank"] for c in configs] == list(range(1, len(configs) + 1))
    top = configs[0]
    assert top["fabric"]["rdma"], "at 4-16 nodes of a 70B job the best option is an RDMA fabric"
    for c in configs:
        assert c["layout"]["tp"] <= 8, "tensor parallelism stays inside an 8-GPU node"
        assert c["memory"]["fits"]
        assert 4 <= c["nodes"] <= 16
        assert c["bottleneck"] and c["why"]
        assert c["price"]["monthly"] and c["price"]["per_million_tokens"]
    assert result["excluded"]["memory"] > 0  # 70B does not fit everywhere
    assert result["candidates_evaluated"] > 10_000


def test_efficiency_falls_with_nodes_on_weak_fabrics(seventy_b):
    series = {s["fabric"]: s["points"] for s in seventy_b["result"]["efficiency_series"]}
    slow = {p["nodes"]: p["scaling_efficiency"] for p in series["eth-tcp-10"]}
    fast = {p["nodes"]: p["scaling_efficiency"] for p in series["ib-ndr-400"]}
    assert slow[64] < slow[8] < slow[2]
    assert fast[64] > slow[64] + 0.2


def test_network_advice_with_numbers_and_roce_checklist(app):
    client = authorised(app)
    response = client.post("/v1/sizings", json={**LLAMA_70B, "fabrics_include": [
        "roce-100-lossless", "roce-200-lossless", "eth-tcp-25"], "gpu_models": ["h100-sxm"]},
        headers={"Prefer": "wait=60"})
    advice = response.get_json()["result"]["network_advice"]
    assert advice["recommended_fabric"] and advice["fabric_class"] and advice["reason"]
    assert len(advice["comparison"]) >= 2
    items = " ".join(i["item"] for i in advice["roce_checklist"])
    for word in ("PFC", "ECN", "MTU", "DSCP", "link speeds"):
        assert word in items


def test_the_advice_keeps_lossy_roce_out_while_a_lossless_fabric_keeps_up(app):
    # The README's questionnaire: at 4 nodes the fabrics differ by a few percent, so price
    # decides among them, and the cheapest RDMA option is RoCEv2 without PFC/ECN.
    body = {**LLAMA_70B, "objective": "balanced", "currency": "EUR", "term": "1y",
            "region": "eu-central"}
    response = authorised(app).post("/v1/sizings", json=body, headers={"Prefer": "wait=60"})
    advice = response.get_json()["result"]["network_advice"]
    fabrics = {f["id"]: f for f in authorised(app).get("/v1/catalog/fabrics").get_json()}
    best = max(c["throughput"] for c in advice["comparison"])
    keeps_up = [c["fabric"] for c in advice["comparison"] if c["throughput"] >= 0.95 * best]
    lossless = [f for f in keeps_up if fabrics[f]["kind"] != "roce" or fabrics[f]["lossless"]]
    assert lossless and any(fabrics[f]["kind"] == "roce" and not fabrics[f]["lossless"]
                            for f in keeps_up), "the scenario no longer tests the preference"
    assert advice["recommended_fabric"] in lossless


@pytest.mark.parametrize("body, pointer", [
    ({**SMALL, "nodes": {"min": 8, "max": 2}}, "/nodes/min"),
    ({**SMALL, "precision": "fp8", "gpu_models": ["a100-80gb-sxm"]}, "/precision"),
    ({**SMALL, "rdma_required": True, "fabrics_include": ["eth-tcp-100"]}, "/rdma_required"),
    ({**SMALL, "gpu_models": ["h100-sxmm"]}, "/gpu_models/0"),
    ({**SMALL, "region": "mars-1"}, "/region"),
    ({**SMALL, "currency": "XYZ"}, "/currency"),
    ({"workload": {"preset": "llama-3-8b"}}, "/tokens"),
    ({**SMALL, "layout": {"tp": 3}}, "/layout/tp"),
    ({**SMALL, "budget_per_month": 1000}, "/budget_per_month"),
    ({**SMALL, "budget_total": "0.00"}, "/budget_total"),
    ({**SMALL, "budget_total": "1e6"}, "/budget_total"),
])
def test_impossible_requests_are_422_naming_what_to_change(app, body, pointer):
    response = authorised(app).post("/v1/sizings", json=body)
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert pointer in [e["pointer"] for e in response.get_json()["errors"]]


def test_malformed_json_is_a_400_problem(app):
    response = authorised(app).post("/v1/sizings", data="{not json", content_type="application/json")
    assert response.status_code == 400 and response.mimetype == "application/problem+json"


def test_budget_rules_out_and_counts(app):
    response = authorised(app).post("/v1/sizings", json={**SMALL, "budget_per_month": "1000"},
                                    headers={"Prefer": "wait=30"})
    result = response.get_json()["result"]
    assert result["configurations"] == [] and result["excluded"]["budget"] > 0
    assert "Widen" in result["notes"][0]
    assert response.get_json()["request"]["budget_per_month"] == "1000"


def test_cursor_pagination_lists_each_sizing_once(app):
    from tests.conftest import new_key

    client = authorised(app, new_key(app))
    ids = {client.post("/v1/sizings", json=SMALL).get_json()["id"] for _ in range(5)}
    seen, cursor = [], None
    while True:
        page = client.get("/v1/sizings?limit=2" + (f"&cursor={cursor}" if cursor else "")).get_json()
        seen += [s["id"] for s in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert sorted(seen) == sorted(ids)
    assert client.get("/v1/sizings?cursor=garbage").status_code == 422


def test_cancel_a_finished_sizing_is_409(app):
    client = authorised(app)
    location = client.post("/v1/sizings", json=SMALL).headers["Location"]
    response = client.post(location + "/cancel")
    assert response.status_code == 409 and response.get_json()["code"] == "already_finished"


def test_cancel_a_queued_sizing(app):
    from service import accounts, db
    from service.records import ApiKey, Sizing
    from tests.conftest import new_key

    key = new_key(app)
    with app.app_context():
        session = db.session()
        api_key = session.query(ApiKey).filter_by(prefix=key[:16]).one()
        principal = accounts.Principal(api_key.account_id, api_key.id, "secret", frozenset())
        # Committed but never sent, as when the broker is down.
        sizing = Sizing(request=SMALL, account_id=principal.account_id, api_key_id=api_key.id)
        session.add(sizing)
        session.commit()
        sizing_id = sizing.id
    client = authorised(app, key)
    assert client.get(f"/v1/sizings/{sizing_id}").status_code == 202
    cancelled = client.post(f"/v1/sizings/{sizing_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"


def test_the_documented_result_schema_carries_every_key_the_worker_writes(app, seventy_b):
    """The API serialises results through a typed schema; a key it did not declare would vanish."""
    from service import db
    from service.records import Sizing
    from service.schemas.results import SizingResultSchema

    with app.app_context():
        stored = db.session().get(Sizing, seventy_b["id"]).result
    assert SizingResultSchema().dump(stored) == stored
    assert seventy_b["result"] == stored


CNN = {"workload": {"preset": "resnet-50"}, "nodes": {"min": 1, "max": 2},
       "gpu_models": ["h100-sxm"]}


@pytest.mark.parametrize("body, pointer", [
    ({**CNN, "tokens": 1e10}, "/tokens"),
    ({**SMALL, "samples": 1e6}, "/samples"),
    ({**SMALL, "epochs": 3}, "/epochs"),
    ({**SMALL, "tokens": None}, "/tokens"),
    ({"workload": {"transformer": {"layers": 2, "hidden": 256, "heads": 4, "vocab": 1000,
                                   "seq_len": 128}}, "samples": 1e6}, "/samples"),
    ({"workload": {"generic": {"params": 1e6, "flops_per_sample": 1e9}}, "epochs": 3}, "/samples"),
    (CNN, "/samples"),
])
def test_work_is_measured_in_the_workload_s_own_unit(app, body, pointer):
    body = {k: v for k, v in body.items() if v is not None}
    response = authorised(app).post("/v1/sizings", json=body)
    assert response.status_code == 422, response.get_json()
    assert pointer in [e["pointer"] for e in response.get_json()["errors"]]


def test_a_cnn_preset_sized_by_epochs_trains_on_its_dataset(app):
    response = authorised(app).post("/v1/sizings", json={**CNN, "epochs": 90},
                                    headers={"Prefer": "wait=30"})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["status"] == "succeeded", body["error"]
    assert body["request"]["samples"] == 1_281_167 and body["request"]["epochs"] == 90
    top = body["result"]["configurations"][0]
    hours = 1_281_167 * 90 / top["samples_per_s"] / 3600
    assert top["time_to_train_hours"] == pytest.approx(hours, rel=1e-6)


@pytest.mark.parametrize("work", [{"samples": 5e5, "epochs": 3}, {"samples": 5e5},
                                  {"duration_days": 2}])
def test_a_cnn_preset_takes_samples_or_a_duration(app, work):
    response = authorised(app).post("/v1/sizings", json={**CNN, **work},
                                    headers={"Prefer": "wait=30"})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["status"] == "succeeded", response.get_json()["error"]


def test_presets_say_which_unit_of_work_they_take(app):
    presets = {p["id"]: p for p in authorised(app).get("/v1/presets").get_json()}
    assert presets["resnet-50"]["kind"] == "generic"
    assert presets["resnet-50"]["samples_per_epoch"] == 1_281_167
    assert "ImageNet" in presets["resnet-50"]["dataset"]
    assert presets["llama-3-8b"]["samples_per_epoch"] is None
