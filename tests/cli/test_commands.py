"""gpu-sizing against a live server: sizing with progress, quote documents, errors, catalog."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from gpu_sizing_cli.numbers import figure, money
from tests.cli.conftest import environment

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SIZE = ("size", "--preset", "llama-3-70b", "--tokens", "2e12", "--nodes", "8-32", "--term", "1y",
        "--currency", "EUR")


def three_digits(value: float) -> str:
    """A range end as a person reads it: three significant digits, thousands grouped."""
    return f"{float(f'{value:.3g}'):,.0f}"


def test_size_follows_progress_to_completion_and_prints_what_a_person_reads(gpu_sizing):
    ran = gpu_sizing(*SIZE)
    assert ran.code == 0, ran.err
    # The progress bar, driven by the API's progress field, ends full on a succeeded sizing.
    assert re.search(r"succeeded\s.*100%", ran.err), ran.err
    title = re.search(r"Ranked configurations \(sizing (" + UUID.pattern + r")\)", ran.out)
    assert title, ran.out
    for header in ("server", "fabric", "nodes", "efficiency", "tokens/s", "goodput",
                   "interruptions", "checkpoint every", "time to train", "total EUR",
                   "per month", "stock", "Network advice", "What if"):
        assert header in ran.out

    document = json.loads(gpu_sizing("sizing", title.group(1), "--json").out)
    assert document["status"] == "succeeded" and document["progress"] == 1.0
    result = document["result"]
    top = result["configurations"][0]
    row = next(line for line in ran.out.splitlines() if re.match(r"\W*1 \W", line))
    # The first row shows rank 1's numbers, rounded for a person: throughput and time to train
    # as the model's p10-p90, not as one figure to many digits.
    assert top["server"]["id"] in row and top["fabric"]["id"] in row
    assert f"{top['nodes']} ({top['gpus']} GPUs)" in row
    assert f"{top['scaling_efficiency'] * 100:.1f}%" in row
    tokens, hours = top["intervals"]["tokens_per_s"], top["intervals"]["time_to_train_hours"]
    assert f"{three_digits(tokens['p10'])}–{three_digits(tokens['p90'])}" in row
    assert f"{round(top['tokens_per_s']):,}" not in row
    assert f"{three_digits(hours['p10'] / 24)}–{three_digits(hours['p90'] / 24)} days" in row
    assert f"{top['goodput']['goodput'] * 100:.1f}%" in row
    total = top["price"]["total"]
    assert f"{int(total.split('.')[0]):,}.{total.split('.')[1]}" in row
    # A run this long is interrupted: rank 1's interruptions and checkpoint interval are shown.
    assert top["goodput"]["expected_interruptions"] > 1
    said = " ".join(ran.out.split())
    assert f"{top['goodput']['expected_interruptions']:.0f} interruptions expected" in said
    assert f"{top['goodput']['checkpoint_interval_hours']:.1f} h" in row
    assert result["rank_stability"] in said
    advice = result["network_advice"]
    assert f"{advice['recommended_fabric']} (recommended)" in ran.out
    assert advice["fabric_vs_more_gpus"]["sentence"].split(";")[0][:60] in said


def test_a_week_on_four_nodes_shows_goodput_without_the_long_run_columns(gpu_sizing):
    ran = gpu_sizing("size", "--preset", "llama-3-8b", "--duration-days", "7", "--nodes", "4",
                     "--max-results", "3")
    assert ran.code == 0, ran.err
    header = next(line for line in ran.out.splitlines() if "goodput" in line and "#" in line)
    assert "interruptions" not in header and "checkpoint every" not in header
    assert "7.0 days" in ran.out and "the 7 days given" in " ".join(ran.out.split())
    assert "interruptions expected over the run" not in ran.out


def test_csv_is_one_table_of_the_api_values(gpu_sizing):
    ran = gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11", "--nodes", "1-4",
                     "--max-results", "5", "--csv")
    assert ran.code == 0, ran.err
    rows = list(csv.reader(io.StringIO(ran.out)))
    header, body = rows[0], rows[1:]
    assert header[:4] == ["rank", "server", "fabric", "nodes"] and len(body) == 5
    assert {len(r) for r in body} == {len(header)}
    assert [int(r[0]) for r in body] == [1, 2, 3, 4, 5]
    assert all(float(r[header.index("scaling_efficiency")]) <= 1.0 for r in body)


def test_csv_gives_the_intervals_and_goodput_as_the_api_does(gpu_sizing):
    sizing = json.loads(gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11",
                                   "--nodes", "1-2", "--json").out)
    ran = gpu_sizing("sizing", sizing["id"], "--csv")
    assert ran.code == 0, ran.err
    rows = list(csv.DictReader(io.StringIO(ran.out)))
    for row, c in zip(rows, sizing["result"]["configurations"], strict=True):
        tokens, hours = c["intervals"]["tokens_per_s"], c["intervals"]["time_to_train_hours"]
        assert float(row["throughput"]) == c["tokens_per_s"]
        assert (float(row["throughput_p10"]), float(row["throughput_p90"])) == (
            tokens["p10"], tokens["p90"])
        assert (float(row["time_to_train_hours_p10"]), float(row["time_to_train_hours_p90"])) == (
            hours["p10"], hours["p90"])
        assert float(row["goodput"]) == c["goodput"]["goodput"]
        assert float(row["expected_interruptions"]) == c["goodput"]["expected_interruptions"]
        assert row["calibration"] == c["calibration"]


def test_json_is_the_api_document(gpu_sizing):
    ran = gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11", "--nodes", "1-2",
                     "--json")
    assert ran.code == 0, ran.err
    document = json.loads(ran.out)
    assert document["status"] == "succeeded"
    assert document["request"]["nodes"] == {"min": 1, "max": 2}
    assert document["result"]["configurations"][0]["rank"] == 1


def test_quote_saves_its_pdf_and_csv_and_says_where(gpu_sizing, tmp_path):
    sizing = json.loads(gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11",
                                   "--nodes", "1-2", "--json").out)
    ran = gpu_sizing("quote", sizing["id"], "--rank", "1", "--customer-name", "Ada Lovelace",
                     "--country", "DE", "--output-dir", str(tmp_path / "quotes"))
    assert ran.code == 0, ran.err
    pdf, table = (tmp_path / "quotes").glob("Q-*.pdf"), (tmp_path / "quotes").glob("Q-*.csv")
    pdf, table = next(pdf), next(table)
    assert ran.out.split() == [str(pdf), str(table)]
    assert pdf.read_bytes().startswith(b"%PDF")
    assert pdf.stem == table.stem and table.read_text().startswith("quote_number,")
    assert "VAT 19% (DE)" in ran.err

    as_json = gpu_sizing("quote", sizing["id"], "--customer-name", "Ada Lovelace", "--json",
                         "--output-dir", str(tmp_path / "again"))
    document = json.loads(as_json.out)
    assert (tmp_path / "again" / f"{document['number']}.pdf").exists()
    assert f"{document['number']}.pdf" in as_json.err

    listed = json.loads(gpu_sizing("quotes", "--json").out)
    assert pdf.stem in [q["number"] for q in listed["items"]]
    assert pdf.stem in gpu_sizing("quotes").out


def test_a_bad_flag_is_a_usage_error(gpu_sizing):
    ran = gpu_sizing("size", "--preset", "llama-3-70b", "--tokens", "2e12", "--nodes", "eight")
    assert ran.code == 2
    assert "Invalid value for '--nodes'" in ran.err and "Usage: gpu-sizing size" in ran.err
    unknown = gpu_sizing("size", "--preset", "llama-3-70b", "--tokenz", "2e12")
    assert unknown.code == 2 and "No such option '--tokenz'. Did you mean '--tokens'?" in unknown.err


def test_a_bad_field_is_the_api_problem_on_one_line_naming_the_flag(gpu_sizing):
    ran = gpu_sizing("size", "--preset", "llama-3-70b", "--tokens", "10")
    assert ran.code == 1
    assert ran.error_lines() == [
        ("Error: --tokens: Must be greater than or equal to 1000.0 and less than or equal to "
        "1e+16. (422 validation_failed)")]
    assert "Traceback" not in ran.err and ran.out == ""
    nested = gpu_sizing("size", "--preset", "llama-3-70b", "--tokens", "2e12", "--nodes", "9-3")
    assert nested.code == 1
    assert nested.error_lines() == [("Error: --nodes (nodes.min): must not exceed max "
                                    "(422 validation_failed)")]


def test_an_unknown_sizing_is_the_api_404(gpu_sizing):
    ran = gpu_sizing("sizing", "00000000-0000-4000-8000-000000000000")
    assert ran.code == 1
    assert ran.error_lines() == [("Error: No sizing 00000000-0000-4000-8000-000000000000 "
                                 "(404 not_found)")]


def printed_and_document(gpu_sizing, *args):
    """A command's printed answer and, run again with --json, the API's document."""
    ran = gpu_sizing(*args)
    assert ran.code == 0, ran.err
    return ran, json.loads(gpu_sizing(*args, "--json").out)


def test_estimate_of_one_configuration(gpu_sizing):
    args = ("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "4",
            "--preset", "llama-3-8b", "--tp", "2", "--global-batch", "256")
    ran, document = printed_and_document(gpu_sizing, *args)
    # dp defaults to every GPU: 4 nodes x 8 GPUs / tp 2.
    assert document["gpus"] == 32
    assert f"{document['scaling_efficiency'] * 100:.1f}%" in ran.out
    # the figure is said to be a share of the step, not a ratio against one node
    assert "share of each step spent on GPU work" in " ".join(ran.out.split())
    assert document["bottleneck"] in " ".join(ran.out.split())
    tokens = document["intervals"]["tokens_per_s"]
    assert f"(p10–p90 {three_digits(tokens['p10'])}–{three_digits(tokens['p90'])})" in ran.out
    assert document["calibration"] in ran.out and "goodput" not in ran.out


@pytest.mark.parametrize("recompute", ["full", "none"])
def test_estimate_prints_both_mfu_conventions_and_each_rate_by_what_it_counts(gpu_sizing,
                                                                              recompute):
    args = ("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "4",
            "--preset", "llama-3-8b", "--tp", "2", "--global-batch", "256",
            "--recompute", recompute)
    ran, e = printed_and_document(gpu_sizing, *args)
    model, causal, executed, counted = (figure(e[name]) for name in (
        "model_tflops_per_gpu", "model_tflops_per_gpu_causal", "executed_tflops_per_gpu",
        "achieved_tflops_per_gpu"))
    lines = ran.out.splitlines()
    mfu = next(line for line in lines if "MFU" in line)
    assert (f"{e['mfu'] * 100:.1f}%" in mfu and "(full attention matrix)" in mfu
            and f"{e['mfu_causal'] * 100:.1f}% causal" in mfu), mfu
    rates = next(line for line in lines if "TFLOPS" in line)
    assert f"{model} (full attention matrix), {causal} causal model TFLOPS per GPU" in rates
    # The GPUs' own rate: the causal kernel's skipped half out, recomputation in.
    assert f"; {executed} hardware TFLOPS (executed by the kernels)" in rates
    if recompute == "full":
        assert counted != model
        assert f"{counted} as Narayanan et al. 2021 count them (full matrix, with recomputation)" in rates
    else:
        assert counted == model and "Megatron" not in rates
    row = next(csv.DictReader(io.StringIO(gpu_sizing(*args, "--csv").out)))
    assert float(row["model_tflops_per_gpu"]) == e["model_tflops_per_gpu"]


def test_estimate_over_a_duration_prints_its_goodput(gpu_sizing):
    args = ("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "4",
            "--preset", "llama-3-8b", "--tp", "2", "--global-batch", "256",
            "--duration-days", "30")
    ran, document = printed_and_document(gpu_sizing, *args)
    g = document["goodput"]
    assert f"goodput over 30 days │ {g['goodput'] * 100:.1f}%" in ran.out
    assert f"{g['checkpoint_size_gb']:.0f} GB every" in ran.out
    row = next(csv.DictReader(io.StringIO(gpu_sizing(*args, "--csv").out)))
    assert float(row["goodput"]) == g["goodput"] and float(row["work_done"]) == g["work_done"]


def test_collective_prints_what_nccl_tests_would(gpu_sizing):
    args = ("collective", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "2",
            "--size", "1G")
    ran = gpu_sizing(*args)
    assert ran.code == 0, ran.err
    lines = ran.out.splitlines()
    assert lines[2].split() == ["#", "size", "count", "type", "redop", "root", "time", "algbw",
                                "busbw"]
    document = json.loads(gpu_sizing(*args, "--json").out)
    measured = lines[4].split()
    assert measured[:5] == ["1073741824", "268435456", "float", "sum", "-1"]
    assert float(measured[5]) == round(document["time_s"] * 1e6, 1)
    assert measured[6:] == [f"{document['algbw_gbs']:.2f}", f"{document['busbw_gbs']:.2f}"]
    # The model's p10-p90 follow as comments, so a parser of nccl-tests' lines reads them past.
    busbw = document["intervals"]["busbw_gbs"]
    ranges = next(line for line in lines if line.startswith("# ") and "1073741824" in line)
    assert ranges.split()[-1] == f"{busbw['p10']:.2f}–{busbw['p90']:.2f}"
    assert all(line.startswith("#") for line in lines[5:])
    sweep = gpu_sizing(*args[:-2], "-b", "8M", "-e", "128M", "-f", "4", "--csv")
    rows = list(csv.DictReader(io.StringIO(sweep.out)))
    assert [int(row["size_bytes"]) for row in rows] == [8 * 2**20, 32 * 2**20, 128 * 2**20]
    assert all(float(r["busbw_gbs_p10"]) < float(r["busbw_gbs_p90"]) for r in rows)


def test_a_size_of_part_of_a_byte_is_a_usage_error_naming_its_flag(gpu_sizing):
    cluster = ("collective", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "2")
    for flags, named in [(("--size", "1.5"), "--size"), (("-b", "0.5", "-e", "8M"), "-b' / '--begin"),
                         (("-b", "1K", "-e", "2.5"), "-e' / '--end")]:
        ran = gpu_sizing(*cluster, *flags)
        assert ran.code == 2, ran.out
        assert f"Invalid value for '{named}'" in ran.err and "not a whole number" in ran.err
        assert ran.out == ""
    exact = gpu_sizing(*cluster, "--size", "1.5K", "--json")
    assert exact.code == 0, exact.err
    assert json.loads(exact.out)["size_bytes"] == 1536


def test_catalog_lists_every_server(gpu_sizing):
    servers = json.loads(gpu_sizing("catalog", "servers", "--json").out)
    shown = gpu_sizing("catalog", "servers")
    assert shown.code == 0 and servers
    assert all(s["id"] in shown.out for s in servers)
    assert gpu_sizing("catalog", "racks").code == 2


def test_hot_spares_the_ranking_keeps_are_shown_beside_the_nodes(gpu_sizing):
    pinned = ("size", "--preset", "llama-3-405b", "--tokens", "5e11", "--nodes", "64",
              "--gpu", "h100-sxm", "--fabric", "ib-ndr-400", "--max-results", "1")
    free = json.loads(gpu_sizing(*pinned, "--json").out)["result"]["configurations"][0]
    spares = free["goodput"]["hot_spares"]
    # A deadline only the configuration with spares meets.
    days = (spares["time_to_train_hours"] + free["time_to_train_hours"]) / 2 / 24
    ran = gpu_sizing(*pinned, "--duration-days", f"{days:.4f}")
    assert ran.code == 0, ran.err
    row = next(line for line in ran.out.splitlines() if re.match(r"\W*1 \W", line))
    assert f"64 (512 GPUs) + {spares['spare_nodes']} spare" in row
    assert "the ranking keeps them" in " ".join(ran.out.split())
    table = gpu_sizing(*pinned, "--duration-days", f"{days:.4f}", "--csv").out
    assert next(csv.DictReader(io.StringIO(table)))["hot_spare_nodes"] == str(
        spares["spare_nodes"])


def test_layout_flags_pin_the_layout_the_sizing_searches(gpu_sizing):
    ran = gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11", "--nodes", "1-2",
                     "--tp", "2", "--zero-stage", "1", "--recompute", "selective",
                     "--no-flash-attention", "--micro-batch", "2", "--max-results", "3", "--json")
    assert ran.code == 0, ran.err
    document = json.loads(ran.out)
    asked = {"tp": 2, "zero_stage": 1, "recompute": "selective", "flash_attention": False,
             "micro_batch": 2}
    assert {k: document["request"]["layout"][k] for k in asked} == asked
    configurations = document["result"]["configurations"]
    assert configurations and all({k: c["layout"][k] for k in asked} == asked
                                  for c in configurations)
    # With no layout flag no layout is sent: the search chooses it.
    free = json.loads(gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11",
                                 "--nodes", "1-2", "--json").out)
    assert free["request"]["layout"] is None


def test_a_layout_the_model_cannot_take_is_the_api_problem_naming_its_flag(gpu_sizing):
    ran = gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e11", "--nodes", "1-2",
                     "--tp", "3")
    assert ran.code == 1 and ran.out == ""
    assert ran.error_lines() == [
        ("Error: --tp (layout.tp): tp=3 does not divide 32 heads and 8 key/value heads "
             "(422 impossible_request)")]


@pytest.mark.parametrize("flags, named", [
    (("size", "--preset", "llama-3-70b", "--tokens", "nan", "--nodes", "8-32"), "--tokens"),
    (("size", "--preset", "llama-3-70b", "--tokens", "inf", "--nodes", "8-32"), "--tokens"),
    (("size", "--preset", "llama-3-70b", "--duration-days", "-inf"), "--duration-days"),
    (("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "2",
      "--preset", "llama-3-8b", "--global-batch", "64", "--duration-days", "nan"),
     "--duration-days"),
    (("collective", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "2",
      "--size", "8M", "--oversubscription", "nan"), "--oversubscription"),
    (("size", "--preset", "llama-3-70b", "--tokens", "2e12", "--grad-bucket-mb", "inf"),
     "--grad-bucket-mb"),
])
def test_a_number_that_is_not_finite_is_a_usage_error_naming_its_flag(gpu_sizing, flags, named):
    ran = gpu_sizing(*flags)
    assert ran.code == 2, ran.err
    assert f"Invalid value for '{named}'" in ran.err and "not a finite number" in ran.err
    assert "Traceback" not in ran.err and ran.out == ""


@pytest.mark.parametrize("nodes", ["8-", "-8", "8-x", "8-16-32"])
def test_a_node_range_missing_an_end_is_a_usage_error(gpu_sizing, nodes):
    ran = gpu_sizing("size", "--preset", "llama-3-70b", "--tokens", "2e12", "--nodes", nodes)
    assert ran.code == 2, ran.err
    assert "Invalid value for '--nodes'" in ran.err and "e.g. 8 or 8-32" in ran.err


def test_gpus_that_do_not_divide_into_the_layout_are_a_usage_error_naming_the_flags(gpu_sizing):
    # 4 nodes x 8 GPUs = 32 GPUs; tp 8 x pp 3 = 24 does not divide them, and no --dp was given.
    ran = gpu_sizing("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes",
                     "4", "--preset", "llama-3-70b", "--global-batch", "256", "--tp", "8",
                     "--pp", "3")
    assert ran.code == 2, ran.err
    said = " ".join(ran.err.split())
    assert "32 GPUs (4 nodes x 8) are not divisible by --tp 8 x --pp 3 = 24" in said
    assert "--dp" in said and "dp*tp*pp*cp" not in said


def test_a_narrow_terminal_folds_the_words_and_keeps_every_number_whole(gpu_sizing, live_api):
    sizing = json.loads(gpu_sizing(*SIZE, "--json").out)
    narrow = environment(gpu_sizing.home, GPU_SIZING_URL=live_api.url,
                         GPU_SIZING_KEY=live_api.key)
    narrow["COLUMNS"] = "80"
    ran = gpu_sizing("sizing", sizing["id"], env=narrow)
    assert ran.code == 0, ran.err
    lines = ran.out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in ran.out, "a cell was cut short"
    # Every figure of every row is on one line, whole, as the API's value reads for a person.
    for c in sizing["result"]["configurations"]:
        for amount in (c["price"]["total"], c["price"]["monthly"]):
            assert any(money(amount) in line for line in lines), amount
        assert any(f"{c['scaling_efficiency'] * 100:.1f}%" in line for line in lines)
        assert any(f"{c['goodput']['goodput'] * 100:.1f}%" in line for line in lines)
    advice = sizing["result"]["network_advice"]
    for option in advice["comparison"]:
        assert any(money(option["monthly"]) in line for line in lines), option["monthly"]


def test_estimate_with_offload_says_what_the_host_holds(gpu_sizing):
    """With offload the host's memory is a second limit: its own line, and the GPU's verdict
    stays the GPU's (fits reads both)."""
    args = ("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "1",
            "--preset", "llama-3-8b", "--zero-stage", "3", "--offload", "optimizer",
            "--global-batch", "64")
    ran, document = printed_and_document(gpu_sizing, *args)
    memory = document["memory"]
    assert memory["host_offload_gb"] > 0
    out = " ".join(ran.out.split())
    assert "host memory per node" in out
    assert (f"{figure(memory['host_offload_gb'])} GB offloaded of "
            f"{figure(memory['host_capacity_gb'])} GB usable: fits") in out, out
