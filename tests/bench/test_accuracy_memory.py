"""The memory rows (bench/accuracy/memory_measurements.csv): published runs known to run out of
memory and runs with a published peak, run through the memory model and reported."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from bench.accuracy import MEASUREMENT_FILES, MEMORY_FILE
from bench.accuracy.evaluate import evaluate
from bench.accuracy.memory import MemoryResult, evaluate_memory, load_memory_rows
from bench.accuracy.report import memory_words, print_memory, summary_line
from bench.accuracy.specs import load_specs

REPO = Path(__file__).resolve().parents[2]
# The runs the BLOOM chronicles prequel's tables mark OOM (chronicles-prequel.md @9e64edec
# lines 793, 806, 807, 917, 918 and 957).
KNOWN_OUT_OF_MEMORY = {605, 612, 613, 616, 617, 625}


@pytest.fixture(scope="module")
def ev():
    return evaluate()


@pytest.fixture(scope="module")
def memory(ev):
    return evaluate_memory(ev)


def test_the_memory_file_has_the_columns_of_the_measurement_files_and_ids_of_its_own() -> None:
    with open(MEASUREMENT_FILES[-1], newline="", encoding="utf-8") as fh:
        columns = next(csv.reader(fh))
    with open(MEMORY_FILE, newline="", encoding="utf-8") as fh:
        assert next(csv.reader(fh)) == columns
    rows = load_memory_rows()
    assert all(600 <= r <= 699 for r in rows)
    specs = load_specs().specs
    assert all(specs[r].kind == "memory" for r in rows)
    assert all(rows[r].raw["evidence"] and rows[r].raw["url_or_path"] for r in rows)


def test_every_known_out_of_memory_run_is_run_not_skipped(memory) -> None:
    oom = {m.row for m in memory if m.out_of_memory}
    assert oom == KNOWN_OUT_OF_MEMORY
    for m in memory:
        assert m.skipped is None, (m.row, m.skipped)
        assert m.predicted_gb > 0 and m.capacity_gb == 80, m.row


def test_the_summary_says_how_many_known_out_of_memory_runs_the_model_puts_over_capacity(
        ev, memory) -> None:
    line = summary_line(ev, memory)
    over = sum(1 for m in memory if m.out_of_memory and m.over_capacity)
    assert f"{over} of {len(KNOWN_OUT_OF_MEMORY)} known out-of-memory runs over capacity" in line
    fitted = [m.row for m in memory if m.out_of_memory and not m.over_capacity]
    if fitted:
        assert f"(fits rows {', '.join(map(str, fitted))})" in line
    peaks = [m for m in memory if not m.out_of_memory]
    assert "runs with a published peak over capacity" in line
    assert "peak |error| " in line and f"(n={len(peaks)}," in line


def test_the_report_lists_every_memory_row_with_its_verdict(memory) -> None:
    lines: list[str] = []
    print_memory(memory, lines.append)
    for m in memory:
        row = next(line for line in lines if line.startswith(f"{m.row:>4} "))
        assert ("over capacity" if m.over_capacity else "fits") in row, row
        assert ("WRONG" in row) == m.wrong, row
        assert ("OOM" in row) == m.out_of_memory, row
        if not m.out_of_memory:
            assert f"{m.error_pct:+.0f}%" in row, row


def test_a_run_is_out_of_memory_in_the_model_past_capacity_not_past_the_policys_headroom() -> None:
    """Capacity decides, as for the performance rows; the headroom is a selling margin, whose
    verdict (what a sizing would offer) the words give beside it."""
    inside_headroom = MemoryResult(1, "check", None, predicted_gb=75.0, capacity_gb=80.0,
                                   fits_policy=False)
    over = MemoryResult(2, "check", None, predicted_gb=80.5, capacity_gb=80.0, fits_policy=False)
    ran_over = MemoryResult(3, "check", 70.0, predicted_gb=81.0, capacity_gb=80.0,
                            fits_policy=False)
    ran = MemoryResult(4, "check", 70.0, predicted_gb=63.0, capacity_gb=80.0, fits_policy=True)
    offered = MemoryResult(5, "check", None, predicted_gb=60.0, capacity_gb=80.0,
                           fits_policy=True)
    ran_inside = MemoryResult(6, "check", 70.0, predicted_gb=75.0, capacity_gb=80.0,
                              fits_policy=False)
    assert not inside_headroom.over_capacity and inside_headroom.wrong
    assert over.over_capacity and not over.wrong
    assert ran_over.wrong and not ran.wrong and ran.error_pct == pytest.approx(-10.0)
    assert not ran_inside.wrong
    words = memory_words([inside_headroom, over, ran_over, ran, offered, ran_inside])
    assert words == ("1 of 3 known out-of-memory runs over capacity (fits rows 1, 5), 2 of 3 "
                     "refused with the policy's headroom (offers rows 5); 1 of 3 runs with a "
                     "published peak over capacity (rows 3), 1 more inside the policy's "
                     "headroom (rows 6), peak |error| 10.0%/15.7% (n=3, worst row 3)"), words


def test_the_readmes_quote_the_memory_rows_as_the_command_prints_them(memory) -> None:
    readme = " ".join((REPO / "README.md").read_text().split())
    assert f"`{memory_words(memory)}`" in readme
    assert f"`bench/accuracy/memory_measurements.csv`, {len(memory)} BLOOM prequel runs" in readme
    harness = " ".join((REPO / "bench/accuracy/README.md").read_text().split())
    said = re.search(r"`memory_measurements\.csv` \| (\d+) \(ids (\d+)-(\d+)\)", harness)
    assert said and tuple(map(int, said.groups())) == (
        len(memory), memory[0].row, memory[-1].row)


def test_the_row_option_prints_a_memory_row_in_full(capsys) -> None:
    from bench.accuracy.__main__ import main

    assert main(["--row", "613"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("row 613 (memory_measurements.csv): ")
    assert "run.grad_reduce_in_fp32 = False: " in out and "predicted peak " in out
