"""Numbers as a person reads them, and a problem document as one line naming the flag."""

from __future__ import annotations

import json

import click
import pytest

from gpu_sizing_cli.numbers import (
    bytes_size,
    duration,
    duration_range,
    figure,
    figure_range,
    microseconds,
    money,
    percent,
    percent_range,
    scientific,
)
from gpu_sizing_cli.problems import field_name, from_body


def test_figures_keep_four_significant_digits_with_separators():
    assert [figure(v) for v in (67090.0, 1_346_432.0, 8.189, 0.003082, None)] == [
        "67,090", "1,346,432", "8.189", "0.003082", "-"]
    assert percent(0.9625) == "96.2%" and percent(1.0) == "100.0%"


def test_ranges_keep_three_significant_digits_and_one_unit():
    assert figure_range(42500.0, 73410.0) == "42,500–73,400"
    assert figure_range(5.188, 8.961) == "5.19–8.96"
    assert percent_range(0.688, 1.0) == "69–100%"
    # The unit is the one the longer end reads in.
    assert [duration_range(*h) for h in ((3.0, 5.5), (31.0, 77.0), (7624.0, 13170.0))] == [
        "3.0–5.5 h", "1.3–3.2 days", "318–549 days"]


def test_money_is_grouped_as_given_never_through_a_float():
    assert money("939620.16", "EUR") == "939,620.16 EUR"
    assert money("133.8840") == "133.8840"
    assert money("12345678901234567.89") == "12,345,678,901,234,567.89"


def test_durations_and_nccl_times():
    assert [duration(h) for h in (31.5, 77.0, 8281.0)] == ["31.5 h", "3.2 days", "345 days"]
    # A small run's time in a unit that shows it, never "0.0 h".
    assert [duration(h) for h in (0.84, 3.14e-6)] == ["50 min", "0.011 s"]
    assert duration_range(2.8e-6, 3.5e-6) == "0.010–0.013 s"
    assert scientific(1000.0) == "1,000" and scientific(2e12) == "2.00e12"
    assert [microseconds(s) for s in (5.627e-3, 3.39e-4, 2.599e-5, 0.012)] == [
        "5627.0", "339.0", "25.99", "12000"]


def test_sizes_count_in_powers_of_1024_as_nccl_tests_does():
    assert [bytes_size(s) for s in ("8388608", "8M", "1G", "1.5K", "256MiB")] == [
        8388608, 8 * 2**20, 2**30, 1536, 256 * 2**20]
    with pytest.raises(click.BadParameter):
        bytes_size("a lot")


@pytest.mark.parametrize("text", ["1.5", "0.5", "1.0001K", "2.5e0"])
def test_a_size_that_is_no_whole_number_of_bytes_is_refused_not_rounded(text):
    with pytest.raises(click.BadParameter, match="not a whole number"):
        bytes_size(text)


def test_a_field_is_named_by_its_flag():
    flags = {"tokens": "--tokens", "nodes": "--nodes", "workload.preset": "--preset"}
    assert field_name("/tokens", flags) == "--tokens"
    assert field_name("/nodes/min", flags) == "--nodes (nodes.min)"
    assert field_name("/workload/preset", flags) == "--preset (workload.preset)"
    assert field_name("/layout/dp", flags) == "layout.dp"
    assert field_name("", flags) == "request"


def test_an_answer_that_is_no_problem_document_is_still_one_line():
    problem = json.dumps({"status": 404, "code": "not_found", "detail": "No quote q1"}).encode()
    assert from_body(404, problem, {}) == "No quote q1 (404 not_found)"
    assert from_body(502, b"<html>\nBad Gateway</html>", {}) == "HTTP 502: <html>"
