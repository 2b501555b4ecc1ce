"""gpu-sizing against a live server: sizing with progress, quote documents, errors, catalog."""

from __future__ import annotations

import csv
import io
import json
import re

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SIZE = ("size", "--preset", "llama-3-70b", "--tokens", "2e12", "--nodes", "8-32", "--term", "1y",
        "--currency", "EUR")


def test_size_follows_progress_to_completion_and_prints_what_a_person_reads(gpu_sizing):
    ran = gpu_sizing(*SIZE)
    assert ran.code == 0, ran.err
    # The progress bar, driven by the API's progress field, ends full on a succeeded sizing.
    assert re.search(r"succeeded\s.*100%", ran.err), ran.err
    title = re.search(r"Ranked configurations \(sizing (" + UUID.pattern + r")\)", ran.out)
    assert title, ran.out
    for header in ("server", "fabric", "nodes", "efficiency", "throughput", "time to train",
                   "total EUR", "per month", "stock", "Network advice", "What if"):
        assert header in ran.out

    document = json.loads(gpu_sizing("sizing", title.group(1), "--json").out)
    assert document["status"] == "succeeded" and document["progress"] == 1.0
    result = document["result"]
    top = result["configurations"][0]
    row = next(line for line in ran.out.splitlines() if re.match(r"\W*1 \W", line))
    # The first row shows rank 1's numbers, rounded for a person.
    assert top["server"]["id"] in row and top["fabric"]["id"] in row
    assert f"{top['nodes']} ({top['gpus']} GPUs)" in row
    assert f"{top['scaling_efficiency'] * 100:.1f}%" in row
    assert f"{round(top['tokens_per_s']):,} tokens/s" in row
    total = top["price"]["total"]
    assert f"{int(total.split('.')[0]):,}.{total.split('.')[1]}" in row
    advice = result["network_advice"]
    assert f"{advice['recommended_fabric']} (recommended)" in ran.out
    assert advice["fabric_vs_more_gpus"]["sentence"].split(";")[0][:60] in " ".join(ran.out.split())


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


def test_estimate_of_one_configuration(gpu_sizing):
    args = ("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "4",
            "--preset", "llama-3-8b", "--tp", "2", "--global-batch", "256")
    ran = gpu_sizing(*args)
    assert ran.code == 0, ran.err
    document = json.loads(gpu_sizing(*args, "--json").out)
    # dp defaults to every GPU: 4 nodes x 8 GPUs / tp 2.
    assert document["gpus"] == 32
    assert f"{document['scaling_efficiency'] * 100:.1f}%" in ran.out
    assert document["bottleneck"] in " ".join(ran.out.split())


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
    sweep = gpu_sizing(*args[:-2], "-b", "8M", "-e", "128M", "-f", "4", "--csv")
    sizes = [int(row["size_bytes"]) for row in csv.DictReader(io.StringIO(sweep.out))]
    assert sizes == [8 * 2**20, 32 * 2**20, 128 * 2**20]


def test_catalog_lists_every_server(gpu_sizing):
    servers = json.loads(gpu_sizing("catalog", "servers", "--json").out)
    shown = gpu_sizing("catalog", "servers")
    assert shown.code == 0 and servers
    assert all(s["id"] in shown.out for s in servers)
    assert gpu_sizing("catalog", "racks").code == 2
