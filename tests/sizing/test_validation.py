"""The model against published measurements (catalog/validation.py)."""
import csv

import pytest

from catalog.validation import (
    DEFAULT_HOLDOUT,
    DEFAULT_MEASUREMENTS,
    holdout_rows,
    summary,
    validation_rows,
)

pytestmark = pytest.mark.skipif(not DEFAULT_MEASUREMENTS.exists(),
                                reason="measurements.csv not found next to the repository")

# Bounds chosen after seeing the numbers, with some room; they fail if the model drifts.
MEDIAN_BOUND_PCT = {"a_nccl_busbw": 10.0, "b_cnn_dp_scaling": 15.0, "c_llm_throughput": 20.0}


@pytest.fixture(scope="module")
def rows():
    return validation_rows()


def test_each_category_median_error_stays_bounded(rows):
    s = summary(rows)
    assert set(s) == set(MEDIAN_BOUND_PCT)
    for cat, bound in MEDIAN_BOUND_PCT.items():
        assert s[cat]["median_abs_error_pct"] < bound, cat


def test_calibration_rows_are_reproduced(rows):
    for r in rows:
        if not r["skipped"] and r["calibration"]:
            assert abs(r["error_pct"]) < 10, r


def test_skipped_rows_give_a_reason(rows):
    skipped = [r for r in rows if r["skipped"]]
    assert skipped and all(len(r["skipped"]) > 10 for r in skipped)
    assert len([r for r in rows if not r["skipped"]]) >= 35


# --------------------------------------------------------------------------- hold-out set

HOLDOUT_MEDIAN_BOUND_PCT = {"b_cnn_dp_scaling": 15.0, "c_llm_throughput": 12.0}


@pytest.fixture(scope="module")
def holdout():
    return holdout_rows()


def test_holdout_rows_are_sourced_and_never_calibrated(holdout):
    expressed = [r for r in holdout if not r["skipped"]]
    assert 12 <= len(expressed) <= 25
    assert not any(r["calibration"] for r in expressed)
    with open(DEFAULT_HOLDOUT, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            assert row["source"] and row["url_or_path"] and row["evidence"], row["id"]


def test_holdout_ids_do_not_collide_with_measurements(holdout):
    with open(DEFAULT_MEASUREMENTS, newline="", encoding="utf-8") as fh:
        ids = {int(r["id"]) for r in csv.DictReader(fh)}
    assert not ids & {r["id"] for r in holdout}


def test_holdout_median_error_stays_bounded(holdout):
    s = summary(holdout)
    assert set(s) == set(HOLDOUT_MEDIAN_BOUND_PCT)
    for cat, bound in HOLDOUT_MEDIAN_BOUND_PCT.items():
        assert s[cat]["median_abs_error_pct"] < bound, cat


def test_holdout_fsdp_and_megatron_weak_scaling_within_15_percent(holdout):
    """llm-foundry FSDP MFU (114-118) and Narayanan 2021 Table 1 with tensor parallelism
    (103-110): the physics must carry to measurements it was not fitted on."""
    by_id = {r["id"]: r for r in holdout}
    for row in [*range(103, 111), *range(114, 119)]:
        assert abs(by_id[row]["error_pct"]) < 15, by_id[row]
