"""The prediction intervals' derivation (quantiles, the shipped file, coverage) and the reliability rows."""
from __future__ import annotations

import pytest

from bench.accuracy.evaluate import evaluate
from bench.accuracy.intervals import FILE, conformal, coverage, document


@pytest.fixture(scope="module")
def ev():
    return evaluate()


def test_conformal_bounds_are_order_statistics_of_the_residuals():
    values = list(range(1, 20))  # n = 19: floor(0.1 x 20) = 2nd, ceil(0.9 x 20) = 18th
    assert conformal(values) == (2, 18)
    assert conformal([0.5, 1.0]) == (0.5, 1.0)  # too few rows: the sample's ends


def test_the_shipped_quantiles_are_what_the_harness_derives(ev):
    """catalog/data/uncertainty.yaml is stale after a change to the model: `make intervals`."""
    assert FILE.read_text() == document(ev)


def test_out_of_source_coverage_is_near_the_80_percent_asked(ev):
    # Quantiles derived without each row's own source: neither overconfident (far below 80%)
    # nor uselessly wide (all rows inside).
    overall = coverage(ev)["overall"]["loso"]
    assert 0.65 <= overall.inside / overall.rows <= 0.95


def test_reliability_rows_run_through_the_goodput_model(ev):
    from bench.accuracy.reliability import evaluate_reliability
    from catalog.shipped import shipped

    results = {r.row: r for r in evaluate_reliability(shipped(), ev.measurements)}
    assert results[226].split == "fit" and abs(results[226].error_pct) < 2
    assert results[225].split == "check"  # OPT's checkpoint size was never fitted on
