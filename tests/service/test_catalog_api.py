"""The catalog's read endpoints return sourced data, filter, and answer conditional requests."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest
import yaml

from catalog import queries, tables
from service import db
from service.schemas import catalog as s
from tests.conftest import CATALOG_DIR, authorised

ENDPOINTS = ["gpus", "servers", "fabrics", "rdma-support", "regions"]


@pytest.mark.parametrize("name", ENDPOINTS)
def test_every_list_returns_sourced_entries(client, name):
    response = client.get(f"/v1/catalog/{name}")
    assert response.status_code == 200
    entries = response.get_json()
    assert entries
    if name != "regions":
        assert all(e["sources"] for e in entries if e.get("supported", True))


def test_required_gpus_are_in_the_catalog_with_plausible_figures(client):
    gpus = {g["id"]: g for g in client.get("/v1/catalog/gpus").get_json()}
    for gpu in ("h200", "h100-sxm", "h100-pcie", "a100-80gb-sxm", "a100-80gb-pcie", "l40s",
                "rtx-6000-ada", "rtx-4090", "b200", "mi300x"):
        assert gpu in gpus
    assert gpus["h100-sxm"]["bf16_tflops"] == pytest.approx(989.4, rel=0.01)
    assert gpus["a100-80gb-sxm"]["fp8_tflops"] is None
    assert gpus["rtx-4090"]["gpudirect_rdma"] is False


def test_filters(client):
    h100 = client.get("/v1/catalog/servers?gpu=h100-sxm").get_json()
    assert h100 and all(s["gpu"] == "h100-sxm" for s in h100)
    rdma = client.get("/v1/catalog/fabrics?rdma=false").get_json()
    assert rdma and all(not f["rdma"] and f["kind"] == "ethernet" for f in rdma)
    ib = client.get("/v1/catalog/fabrics?kind=infiniband").get_json()
    assert {f["id"] for f in ib} >= {"ib-hdr-200", "ib-ndr-400"}
    unsupported = client.get("/v1/catalog/rdma-support?supported=false").get_json()
    assert unsupported and all(e["reason"] for e in unsupported)
    nvidia = client.get("/v1/catalog/gpus?vendor=nvidia").get_json()
    assert nvidia and all(g["vendor"] == "nvidia" for g in nvidia)
    pairs = client.get("/v1/catalog/rdma-support?server=hgx-h100-8&fabric=ib-ndr-400").get_json()
    assert [(e["server"], e["fabric"]) for e in pairs] == [("hgx-h100-8", "ib-ndr-400")]
    stock = client.get("/v1/catalog/regions?server=hgx-h100-8").get_json()
    assert stock and all(s["server"] == "hgx-h100-8" for r in stock for s in r["stock"])


@pytest.mark.parametrize("query, pointer", [
    ("servers?gpu=zzz", "/query/gpu"),
    ("gpus?vendor=NVIDIA", "/query/vendor"),
    ("rdma-support?server=zzz", "/query/server"),
    ("rdma-support?server=hgx-h100-8&fabric=zzz", "/query/fabric"),
    ("regions?server=zzz", "/query/server"),
])
def test_a_filter_naming_what_the_catalog_lacks_is_a_422_naming_it(client, query, pointer):
    # An empty list would say "none match" when the name is wrong.
    response = client.get(f"/v1/catalog/{query}")
    assert response.status_code == 422, response.get_json()
    (error,) = response.get_json()["errors"]
    value = query.rsplit("=", 1)[1]
    assert error["pointer"] == pointer and f"{value!r}" in error["detail"]
    assert "catalog version 1" in error["detail"]


def test_the_rdma_matrix_says_which_pairs_run_nvls_and_collnet(client):
    pairs = {(e["server"], e["fabric"]): e
             for e in client.get("/v1/catalog/rdma-support").get_json()}
    assert pairs[("hgx-h100-8", "ib-ndr-400")]["nvls"]
    assert not pairs[("hgx-h100-8", "ib-ndr-400")]["collnet"]
    sharp = pairs[("hgx-h100-8", "ib-ndr-400-sharp")]
    assert sharp["collnet"] and sharp["nvls_across_nodes"]
    a100 = pairs[("hgx-a100-80gb-8", "ib-ndr-400-sharp")]
    assert a100["collnet"] == a100["supported"] and not a100["nvls"]
    assert not any(e["collnet"] for e in pairs.values() if not e["supported"])


def test_a_filter_beyond_any_server_is_a_422_not_a_database_error(client):
    # SQLite integers are 64-bit: an unbounded filter once reached the database and failed there.
    response = client.get("/v1/catalog/servers?min_gpus=28372675796368809607036928")
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/query/min_gpus"


def test_get_one_and_404(client):
    assert client.get("/v1/catalog/fabrics/ib-ndr-400").get_json()["line_rate_gbps"] == 400
    response = client.get("/v1/catalog/fabrics/ib-xyz")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"


def test_etag_and_if_none_match_give_304(client):
    first = client.get("/v1/catalog/servers")
    etag = first.headers["ETag"]
    again = client.get("/v1/catalog/servers", headers={"If-None-Match": etag})
    assert again.status_code == 304
    other = client.get("/v1/catalog/servers?gpu=b200", headers={"If-None-Match": etag})
    assert other.status_code == 200


@pytest.mark.parametrize("path, schema, read", [
    ("/v1/catalog/servers", s.ServerSchema(many=True), lambda db_, v: queries.servers(db_, v)),
    ("/v1/catalog/servers?gpu=h100-sxm&min_gpus=8", s.ServerSchema(many=True),
     lambda db_, v: queries.servers(db_, v, "h100-sxm", 8)),
    ("/v1/catalog/rdma-support?supported=true", s.RdmaSupportSchema(many=True),
     lambda db_, v: queries.rdma_support(db_, v, supported=True)),
    ("/v1/catalog/regions/us-east", s.RegionSchema(),
     lambda db_, v: queries.entry(queries.regions(db_, v), "us-east")),
])
def test_a_read_dumped_once_answers_as_dumped_anew(client, path, schema, read):
    # The answer of a version is dumped once per process: every answer after the first is
    # the body and the ETag a dump of the entries read now gives.
    with client.application.app_context():
        session = db.session()
        document = schema.dump(read(session, queries.version_key(session)[0]))
    body = (json.dumps(document, allow_nan=False, separators=(",", ":")) + "\n").encode()
    etag = hashlib.sha1(json.dumps(document, sort_keys=True).encode()).hexdigest()
    for _ in range(2):
        response = client.get(path)
        assert response.status_code == 200 and response.mimetype == "application/json"
        assert response.get_data() == body
        assert response.headers["ETag"] == f'"{etag}"'


@pytest.mark.parametrize("path", ["/v1/catalog/gpus", "/v1/catalog/servers"])
def test_if_none_match_compares_weakly(client, path):
    etag = client.get(path).headers["ETag"]
    assert etag.startswith('"')
    for header in (f"W/{etag}", f'"other", W/{etag}', "*"):
        response = client.get(path, headers={"If-None-Match": header})
        assert response.status_code == 304, header
    assert client.get(path, headers={"If-None-Match": 'W/"other"'}).status_code == 200


def test_broken_file_is_refused_naming_the_place_and_database_unchanged(fresh_app, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(CATALOG_DIR, data)
    runner = fresh_app.test_cli_runner()
    assert runner.invoke(args=["catalog", "load", "--dir", str(data)]).exit_code == 0
    servers = yaml.safe_load((data / "servers.yaml").read_text())
    servers["servers"][1]["gpu"] = "h100-sxmm"
    (data / "servers.yaml").write_text(yaml.safe_dump(servers, sort_keys=False))
    result = runner.invoke(args=["catalog", "load", "--dir", str(data)])
    assert result.exit_code != 0
    assert "servers.yaml" in result.output and "servers[1]" in result.output
    assert "gpu" in result.output and "h100-sxmm" in result.output
    with fresh_app.app_context():
        assert db.session().query(tables.CatalogVersion).count() == 1


def test_a_change_makes_a_new_version_and_the_old_stays_readable(fresh_app, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(CATALOG_DIR, data)
    runner = fresh_app.test_cli_runner()
    runner.invoke(args=["catalog", "load", "--dir", str(data)])
    unchanged = runner.invoke(args=["catalog", "load", "--dir", str(data)])
    assert "unchanged" in unchanged.output
    regions = yaml.safe_load((data / "regions.yaml").read_text())
    regions["regions"][0]["stock"][0]["available_nodes"] += 1
    (data / "regions.yaml").write_text(yaml.safe_dump(regions, sort_keys=False))
    assert runner.invoke(args=["catalog", "load", "--dir", str(data)]).exit_code == 0
    client = authorised(fresh_app)
    versions = client.get("/v1/catalog/versions").get_json()
    assert [v["id"] for v in versions] == [1, 2]
    region = regions["regions"][0]["id"]
    server = regions["regions"][0]["stock"][0]["server"]
    old = client.get(f"/v1/catalog/regions/{region}?version=1").get_json()
    new = client.get(f"/v1/catalog/regions/{region}").get_json()
    stock = {v: {s["server"]: s["available_nodes"] for s in r["stock"]} for v, r in (("old", old), ("new", new))}
    assert stock["new"][server] == stock["old"][server] + 1
    assert client.get("/v1/catalog/regions?version=9").status_code == 404


def test_price_and_stock_changes_need_admin_and_make_a_version(tmp_path):
    from tests.conftest import build_app, new_key

    app = build_app(f"sqlite:///{tmp_path / 'admin.sqlite3'}")
    change = {"note": "H100 price rise", "server_prices": [
        {"server": "hgx-h100-8", "region": "us-east", "monthly_usd": "16000.00"}],
        "stock": [{"region": "us-east", "server": "hgx-h100-8", "available_nodes": 10}]}
    reader = authorised(app, new_key(app))
    assert reader.post("/v1/catalog/changes", json=change).status_code == 403
    admin = authorised(app)
    created = admin.post("/v1/catalog/changes", json=change)
    assert created.status_code == 201 and created.get_json()["id"] == 2
    region = admin.get("/v1/catalog/regions/us-east").get_json()
    assert {s["server"]: s["available_nodes"] for s in region["stock"]}["hgx-h100-8"] == 10
    bad = admin.post("/v1/catalog/changes", json={"note": "x", "server_prices": [
        {"server": "nope", "region": "us-east", "hourly_usd": "1"}]})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["pointer"] == "/server_prices/0"


@pytest.mark.parametrize("name, entry", [
    ("stock", {"region": "us-east", "server": "hgx-h100-8", "available_nodes": 10}),
    ("server_prices", {"server": "hgx-h100-8", "region": "us-east", "monthly_usd": "16000.00"}),
])
def test_a_change_that_names_one_entry_twice_is_refused(tmp_path, name, entry):
    from tests.conftest import build_app

    app = build_app(f"sqlite:///{tmp_path / 'twice.sqlite3'}")
    admin = authorised(app)
    other = {"region": "eu-central", "server": "hgx-h100-8"}
    second = {**entry, **({"available_nodes": 11} if name == "stock" else {"monthly_usd": "17000.00"})}
    response = admin.post("/v1/catalog/changes", json={"note": "twice", name: [
        entry, {**entry, **other}, second]})
    assert response.status_code == 422, response.get_json()
    assert response.mimetype == "application/problem+json"
    assert [e["pointer"] for e in response.get_json()["errors"]] == [f"/{name}/2"]
    assert "index 0" in response.get_json()["errors"][0]["detail"]
    assert [v["id"] for v in admin.get("/v1/catalog/versions").get_json()] == [1]


@pytest.mark.parametrize("field, amount, status", [
    ("monthly_usd", "0", 422), ("hourly_usd", "0.00", 422), ("setup_fee_usd", "0", 201),
    ("monthly_usd", "-1", 422),
    # in cents, as the catalog files: a millionth of a dollar bills as 0.00
    ("monthly_usd", "0.000001", 422), ("hourly_usd", "99.999", 422), ("hourly_usd", "99.99", 201),
])
def test_a_rate_must_be_above_zero_and_a_setup_fee_may_be_zero(tmp_path, field, amount, status):
    from tests.conftest import build_app

    app = build_app(f"sqlite:///{tmp_path / 'free.sqlite3'}")
    response = authorised(app).post("/v1/catalog/changes", json={
        "note": "free H100", "server_prices": [
            {"server": "hgx-h100-8", "region": "us-east", field: amount}]})
    assert response.status_code == status, response.get_json()
    if status == 422:
        assert [e["pointer"] for e in response.get_json()["errors"]] == [
            f"/server_prices/0/{field}"]
