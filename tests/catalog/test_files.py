"""Tests that the shipped catalog files load and that broken copies are refused by address."""

from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from catalog.files import (
    FILES,
    REFERENCE_FILE,
    CatalogFileError,
    read_catalog,
    read_reference_systems,
)
from catalog.shipped import shipped

DATA_DIR = Path(__file__).resolve().parents[2] / "catalog" / "data"

# (id, kind, line rate Gb/s, rdma, lossless): the fabric SKUs rdma.yaml and prices.yaml refer to.
FABRIC_IDS = [
    ("ib-qdr-40", "infiniband", 40, True, True),
    ("ib-hdr-200", "infiniband", 200, True, True),
    ("ib-ndr-400", "infiniband", 400, True, True),
    ("roce-100-lossless", "roce", 100, True, True),
    ("roce-200-lossless", "roce", 200, True, True),
    ("roce-400-lossless", "roce", 400, True, True),
    ("roce-100-lossy", "roce", 100, True, False),
    ("eth-tcp-10", "ethernet", 10, False, False),
    ("eth-tcp-25", "ethernet", 25, False, False),
    ("eth-tcp-100", "ethernet", 100, False, False),
]


def _fabrics_fixture() -> dict:
    fabrics = []
    for fabric_id, kind, rate, rdma, lossless in FABRIC_IDS:
        fabrics.append({
            "id": fabric_id,
            "name": fabric_id.upper(),
            "kind": kind,
            "line_rate_gbps": rate,
            "latency_us": 2.0 if rdma else 30.0,
            "achievable_fraction": 0.8 if rdma else 0.3,
            "rdma": rdma,
            "lossless": lossless,
            "jitter_cv": 0.05,
            "loss_rate": 0.0 if lossless else 0.001,
            "oversubscription_options": [1, 2],
            "nodes_per_leaf": 16,
            "switch_port_price_usd_month": "50.00",
            "description": f"test fabric {fabric_id}",
            "sources": {name: "estimate: test fixture" for name in (
                "latency_us", "achievable_fraction", "jitter_cv", "loss_rate",
                "switch_port_price_usd_month")},
        })
    return {"fabrics": fabrics}


def _model_fixture() -> dict:
    return {"constants": {
        "mfu_ceiling": {"value": 0.55, "unit": "fraction", "source": "estimate: test fixture"},
        "alpha_us": {"value": {"infiniband": 2.0, "roce": 3.0}, "unit": "us",
                     "source": "estimate: test fixture"},
    }}


@pytest.fixture
def catalog_dir(tmp_path: Path) -> Path:
    """A writable copy of the shipped catalog, completed with fixtures for files not written yet."""
    for name in FILES:
        if (DATA_DIR / name).exists():
            shutil.copy(DATA_DIR / name, tmp_path / name)
    if not (tmp_path / "fabrics.yaml").exists():
        _write(tmp_path, "fabrics.yaml", _fabrics_fixture())
    if not (tmp_path / "model.yaml").exists():
        _write(tmp_path, "model.yaml", _model_fixture())
    return tmp_path


def _read(directory: Path, name: str) -> dict:
    return yaml.safe_load((directory / name).read_text(encoding="utf-8"))


def _write(directory: Path, name: str, document: dict) -> None:
    (directory / name).write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True),
                                  encoding="utf-8")


def _refused(directory: Path) -> CatalogFileError:
    with pytest.raises(CatalogFileError) as caught:
        read_catalog(directory)
    return caught.value


# --- the shipped files ------------------------------------------------------------------------


def test_shipped_catalog_loads(catalog_dir: Path) -> None:
    catalog = read_catalog(catalog_dir)

    gpu_ids = {gpu["id"] for gpu in catalog["gpus"]}
    assert {"h200", "h100-sxm", "h100-pcie", "a100-80gb-sxm", "a100-80gb-pcie", "l40s",
            "rtx-6000-ada", "rtx-4090", "b200", "mi300x"} <= gpu_ids
    assert len(catalog["servers"]) >= 8
    assert len(catalog["regions"]) >= 3
    assert len(catalog["rdma"]) == len(catalog["servers"]) * len(catalog["fabrics"])
    assert len(catalog["prices"]["servers"]) == len(catalog["servers"]) * len(catalog["regions"])


def test_shipped_files_load_as_they_are_when_all_present() -> None:
    if not all((DATA_DIR / name).exists() for name in FILES):
        pytest.skip("fabrics.yaml or model.yaml is not in catalog/data yet")
    catalog = read_catalog(DATA_DIR)
    assert catalog["gpus"]


def test_figures_a_sales_engineer_would_check(catalog_dir: Path) -> None:
    catalog = read_catalog(catalog_dir)
    gpus = {gpu["id"]: gpu for gpu in catalog["gpus"]}
    assert gpus["h100-sxm"]["bf16_tflops"] == 989.4
    assert gpus["h100-sxm"]["intra_bandwidth_gbs"] == 450
    assert gpus["a100-80gb-sxm"]["fp8_tflops"] is None
    assert gpus["rtx-4090"]["gpudirect_rdma"] is False

    hgx_h100 = next(p for p in catalog["prices"]["servers"]
                    if p["server"] == "hgx-h100-8" and p["region"] == "us-east")
    assert hgx_h100["hourly_usd"] == Decimal("23.92")
    assert isinstance(hgx_h100["monthly_usd"], Decimal)
    assert catalog["prices"]["term_discounts"]["3y"] == Decimal("0.30")
    assert catalog["currencies"]["minor_units"]["JPY"] == 0


def test_every_committed_month_is_cheaper_than_on_demand(catalog_dir: Path) -> None:
    catalog = read_catalog(catalog_dir)
    hours = catalog["prices"]["hours_per_month"]
    for price in catalog["prices"]["servers"]:
        assert price["monthly_usd"] < price["hourly_usd"] * hours, price


def test_rdma_matrix_follows_nics_and_gpus(catalog_dir: Path) -> None:
    catalog = read_catalog(catalog_dir)
    servers = {server["id"]: server for server in catalog["servers"]}
    gpus = {gpu["id"]: gpu for gpu in catalog["gpus"]}
    fabrics = {fabric["id"]: fabric for fabric in catalog["fabrics"]}
    for pair in catalog["rdma"]:
        server = servers[pair["server"]]
        fabric = fabrics[pair["fabric"]]
        if not gpus[server["gpu"]]["gpudirect_rdma"]:
            assert pair["gpudirect_rdma"] is False
        if fabric["kind"] == "ethernet" and pair["supported"]:
            assert pair["rdma"] is False
        if fabric["kind"] == "infiniband":
            speaks_ib = any("infiniband" in nic["protocols"] for nic in server["nics"])
            if not speaks_ib:
                assert pair["supported"] is False and "InfiniBand" in pair["reason"]

    rtx = [pair for pair in catalog["rdma"] if pair["server"] == "pcie-rtx-4090-8"]
    roce = next(pair for pair in rtx if pair["fabric"] == "roce-100-lossless")
    assert roce["rdma"] is True and roce["gpudirect_rdma"] is False
    assert "RTX 4090 does not support GPUDirect RDMA" in roce["reason"]


# --- broken copies ------------------------------------------------------------------------------


def test_unknown_field_is_refused(catalog_dir: Path) -> None:
    gpus = _read(catalog_dir, "gpus.yaml")
    gpus["gpus"][0]["boost_clock_mhz"] = 1980
    _write(catalog_dir, "gpus.yaml", gpus)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == ("gpus.yaml", "gpus[0] (id 'h200')",
                                                      "boost_clock_mhz")
    assert str(error) == "gpus.yaml: gpus[0] (id 'h200'): boost_clock_mhz: unknown field"


def test_negative_tflops_is_refused(catalog_dir: Path) -> None:
    gpus = _read(catalog_dir, "gpus.yaml")
    gpus["gpus"][1]["bf16_tflops"] = -989.4
    _write(catalog_dir, "gpus.yaml", gpus)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == ("gpus.yaml", "gpus[1] (id 'h100-sxm')",
                                                      "bf16_tflops")
    assert "greater than 0" in error.reason


def test_tflops_written_as_text_is_refused(catalog_dir: Path) -> None:
    gpus = _read(catalog_dir, "gpus.yaml")
    gpus["gpus"][1]["bf16_tflops"] = "989.4"
    _write(catalog_dir, "gpus.yaml", gpus)

    error = _refused(catalog_dir)
    assert (error.field, error.reason) == ("bf16_tflops", "must be a number, got '989.4'")


def test_dangling_gpu_id_is_refused(catalog_dir: Path) -> None:
    servers = _read(catalog_dir, "servers.yaml")
    servers["servers"][0]["gpu"] = "h100-sxmm"
    _write(catalog_dir, "servers.yaml", servers)

    error = _refused(catalog_dir)
    assert str(error) == "servers.yaml: servers[0] (id 'hgx-h100-8'): gpu: unknown GPU 'h100-sxmm'"
    assert error.reason == "unknown GPU 'h100-sxmm'"


def test_figure_without_a_source_is_refused(catalog_dir: Path) -> None:
    gpus = _read(catalog_dir, "gpus.yaml")
    del gpus["gpus"][2]["sources"]["tdp_w"]
    _write(catalog_dir, "gpus.yaml", gpus)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == ("gpus.yaml", "gpus[2] (id 'h100-pcie')",
                                                      "tdp_w")
    assert "no source" in error.reason


def test_entry_without_sources_is_refused(catalog_dir: Path) -> None:
    servers = _read(catalog_dir, "servers.yaml")
    del servers["servers"][1]["sources"]
    _write(catalog_dir, "servers.yaml", servers)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == ("servers.yaml",
                                                      "servers[1] (id 'hgx-h200-8')", "sources")
    assert error.reason == "missing required field"


def test_source_for_a_field_the_entry_lacks_is_refused(catalog_dir: Path) -> None:
    gpus = _read(catalog_dir, "gpus.yaml")
    gpus["gpus"][0]["sources"]["boost_clock_mhz"] = "brief §1.1"
    _write(catalog_dir, "gpus.yaml", gpus)

    error = _refused(catalog_dir)
    assert (error.entry, error.field) == ("gpus[0] (id 'h200')", "sources.boost_clock_mhz")


def test_estimate_without_a_reason_is_refused(catalog_dir: Path) -> None:
    gpus = _read(catalog_dir, "gpus.yaml")
    gpus["gpus"][0]["sources"]["tdp_w"] = "estimate"
    _write(catalog_dir, "gpus.yaml", gpus)

    error = _refused(catalog_dir)
    assert error.field == "sources.tdp_w"


def test_malformed_yaml_is_refused(catalog_dir: Path) -> None:
    path = catalog_dir / "servers.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "  - id: [unclosed\n", encoding="utf-8")

    error = _refused(catalog_dir)
    assert error.file == "servers.yaml"
    assert error.reason.startswith("not valid YAML: line ")


def test_key_written_twice_is_refused(catalog_dir: Path) -> None:
    path = catalog_dir / "currencies.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "base: EUR\n", encoding="utf-8")

    error = _refused(catalog_dir)
    assert error.file == "currencies.yaml"
    assert "'base' appears twice" in error.reason


def test_missing_file_is_refused(catalog_dir: Path) -> None:
    (catalog_dir / "regions.yaml").unlink()

    error = _refused(catalog_dir)
    assert error.file == "regions.yaml" and "not found" in error.reason


def test_money_as_float_is_refused(catalog_dir: Path) -> None:
    prices = _read(catalog_dir, "prices.yaml")
    prices["servers"][0]["hourly_usd"] = 23.92
    _write(catalog_dir, "prices.yaml", prices)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == (
        "prices.yaml", "servers[0] (server 'hgx-h100-8', region 'us-east')", "hourly_usd")


def test_committed_month_dearer_than_on_demand_is_refused(catalog_dir: Path) -> None:
    prices = _read(catalog_dir, "prices.yaml")
    prices["servers"][0]["monthly_usd"] = "99999.00"
    _write(catalog_dir, "prices.yaml", prices)

    error = _refused(catalog_dir)
    assert error.field == "monthly_usd" and "above hours_per_month x hourly_usd" in error.reason


def test_unknown_currency_code_is_refused(catalog_dir: Path) -> None:
    currencies = _read(catalog_dir, "currencies.yaml")
    currencies["rates"]["EUD"] = "0.9"
    _write(catalog_dir, "currencies.yaml", currencies)

    error = _refused(catalog_dir)
    assert error.file == "currencies.yaml" and error.field == "rates.EUD"
    assert "ISO 4217" in error.reason


@pytest.mark.parametrize("rule", ["business_outside_reverse_charge_area", "vat_id_prefixes"])
def test_a_tax_rule_without_a_source_is_refused(catalog_dir: Path, rule: str) -> None:
    taxes = _read(catalog_dir, "taxes.yaml")
    del taxes["sources"][rule]
    _write(catalog_dir, "taxes.yaml", taxes)

    error = _refused(catalog_dir)
    assert error.file == "taxes.yaml" and f"sources.{rule}" in error.reason


def test_a_region_in_no_country_is_refused(catalog_dir: Path) -> None:
    # well formed, but not an assigned ISO 3166-1 code: quotes would be refused for it
    regions = _read(catalog_dir, "regions.yaml")
    regions["regions"][0]["country"] = "XX"
    _write(catalog_dir, "regions.yaml", regions)

    error = _refused(catalog_dir)
    assert error.file == "regions.yaml" and error.field == "country"
    assert "ISO 3166-1" in error.reason


def test_gpudirect_claimed_for_rtx_4090_is_refused(catalog_dir: Path) -> None:
    rdma = _read(catalog_dir, "rdma.yaml")
    index, pair = next((i, p) for i, p in enumerate(rdma["support"])
                       if p["server"] == "pcie-rtx-4090-8" and p["fabric"] == "roce-100-lossless")
    pair["gpudirect_rdma"] = True
    _write(catalog_dir, "rdma.yaml", rdma)

    error = _refused(catalog_dir)
    assert error.entry == (f"support[{index}] (server 'pcie-rtx-4090-8', "
                           "fabric 'roce-100-lossless')")
    assert error.field == "gpudirect_rdma"
    assert error.reason == "GPU 'rtx-4090' does not support GPUDirect RDMA"


def test_missing_rdma_pair_is_refused(catalog_dir: Path) -> None:
    rdma = _read(catalog_dir, "rdma.yaml")
    dropped = rdma["support"].pop()
    _write(catalog_dir, "rdma.yaml", rdma)

    error = _refused(catalog_dir)
    assert error.file == "rdma.yaml" and error.field == "support"
    assert f"'{dropped['server']}' on fabric '{dropped['fabric']}'" in error.reason


def test_stock_of_unknown_server_is_refused(catalog_dir: Path) -> None:
    regions = _read(catalog_dir, "regions.yaml")
    regions["regions"][2]["stock"][0]["server"] = "hgx-h900-8"
    _write(catalog_dir, "regions.yaml", regions)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == (
        "regions.yaml", "regions[2] (id 'ap-southeast')", "stock[0].server")


def test_fabric_fraction_above_one_is_refused(catalog_dir: Path) -> None:
    fabrics = _read(catalog_dir, "fabrics.yaml")
    fabrics["fabrics"][0]["achievable_fraction"] = 1.2
    _write(catalog_dir, "fabrics.yaml", fabrics)

    error = _refused(catalog_dir)
    assert error.file == "fabrics.yaml" and error.field == "achievable_fraction"
    assert error.entry.startswith("fabrics[0] (id ")


def test_model_constant_that_is_not_a_number_is_refused(catalog_dir: Path) -> None:
    model = _read(catalog_dir, "model.yaml")
    name = next(iter(model["constants"]))
    model["constants"][name]["value"] = "fast"
    _write(catalog_dir, "model.yaml", model)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == ("model.yaml", f"constants.{name}", "value")


# --- fitted figures and the reference systems of published measurements ------------------------


def test_a_fitted_fabric_figure_must_be_a_figure_of_the_entry(catalog_dir: Path) -> None:
    fabrics = _read(catalog_dir, "fabrics.yaml")
    fabrics["fabrics"][1]["fitted_on"] = {"description": [2, 4]}
    _write(catalog_dir, "fabrics.yaml", fabrics)

    error = _refused(catalog_dir)
    assert (error.file, error.field) == ("fabrics.yaml", "fitted_on.description")


def test_a_fitted_figure_cannot_call_itself_an_estimate(catalog_dir: Path) -> None:
    fabrics = _read(catalog_dir, "fabrics.yaml")
    entry = fabrics["fabrics"][1]
    entry["fitted_on"] = {"latency_us": [2]}
    entry["sources"]["latency_us"] = "estimate: a guess"
    _write(catalog_dir, "fabrics.yaml", fabrics)

    error = _refused(catalog_dir)
    assert (error.file, error.field) == ("fabrics.yaml", "sources.latency_us")


def test_constant_rows_are_named_per_key_of_a_keyed_value(catalog_dir: Path) -> None:
    model = _read(catalog_dir, "model.yaml")
    model["constants"]["matmul_efficiency"]["fitted_on"] = {"no-such-gpu": [43]}
    _write(catalog_dir, "model.yaml", model)

    error = _refused(catalog_dir)
    assert (error.file, error.entry, error.field) == (
        "model.yaml", "constants.matmul_efficiency", "fitted_on.no-such-gpu")


def test_measurement_rows_are_whole_numbers(catalog_dir: Path) -> None:
    model = _read(catalog_dir, "model.yaml")
    model["constants"]["matmul_knee_us"]["fitted_on"] = [43, "44"]
    _write(catalog_dir, "model.yaml", model)

    error = _refused(catalog_dir)
    assert (error.entry, error.field) == ("constants.matmul_knee_us", "fitted_on")


@pytest.fixture
def reference_dir(catalog_dir: Path) -> Path:
    shutil.copy(DATA_DIR / REFERENCE_FILE, catalog_dir / REFERENCE_FILE)
    return catalog_dir


def _reference_refused(directory: Path) -> CatalogFileError:
    with pytest.raises(CatalogFileError) as caught:
        read_reference_systems(directory)
    return caught.value


def test_shipped_reference_systems_load(reference_dir: Path) -> None:
    reference = read_reference_systems(reference_dir)
    systems = {s["id"]: s for s in reference["systems"]}
    assert systems["dgx-a100"]["nics_per_node"] == 8 and systems["dgx-a100"]["gpu"] == "a100-80gb-sxm"
    assert {g["id"] for g in reference["gpus"]} >= {"a100-40gb-sxm", "v100-sxm3-32gb"}
    assert "efa-v4-400" in {f["id"] for f in reference["fabrics"]}


def test_a_reference_gpu_may_not_shadow_a_catalog_gpu(reference_dir: Path) -> None:
    reference = _read(reference_dir, REFERENCE_FILE)
    reference["gpus"][0]["id"] = "h100-sxm"
    _write(reference_dir, REFERENCE_FILE, reference)

    error = _reference_refused(reference_dir)
    assert (error.file, error.field) == (REFERENCE_FILE, "id")
    assert error.entry.startswith("gpus[0]")


def test_a_reference_system_must_name_a_known_fabric(reference_dir: Path) -> None:
    reference = _read(reference_dir, REFERENCE_FILE)
    reference["systems"][0]["fabric"] = "ib-xdr-800"
    _write(reference_dir, REFERENCE_FILE, reference)

    error = _reference_refused(reference_dir)
    assert (error.file, error.field) == (REFERENCE_FILE, "fabric") and "ib-xdr-800" in error.reason


def test_a_reference_system_figure_needs_a_source(reference_dir: Path) -> None:
    reference = _read(reference_dir, REFERENCE_FILE)
    del reference["systems"][0]["sources"]["nics_per_node"]
    _write(reference_dir, REFERENCE_FILE, reference)

    error = _reference_refused(reference_dir)
    assert (error.file, error.field) == (REFERENCE_FILE, "nics_per_node")


def test_a_sold_gpu_cannot_be_said_to_lack_bf16(catalog_dir: Path) -> None:
    """Only reference GPUs (V100, P100) may lack BF16 or FlashAttention: the search's
    vectorised validity takes both for granted on every GPU the provider sells."""
    gpus = _read(catalog_dir, "gpus.yaml")
    gpus["gpus"][0]["bf16"] = False
    _write(catalog_dir, "gpus.yaml", gpus)

    error = _refused(catalog_dir)
    assert (error.file, error.field) == ("gpus.yaml", "bf16")


def test_reference_gpus_without_bf16_say_so() -> None:
    reference = shipped().reference_gpus
    assert not reference["v100-sxm3-32gb"].bf16 and not reference["v100-sxm3-32gb"].fused_attention
    assert reference["a100-40gb-sxm"].bf16 and reference["a100-40gb-sxm"].fused_attention
    assert all(gpu.bf16 and gpu.fused_attention for gpu in shipped().gpus.values())
