"""The model against published measurements (catalog/validation.py)."""
import pytest

from catalog.validation import DEFAULT_MEASUREMENTS, summary, validation_rows

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
