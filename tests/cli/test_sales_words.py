"""What a sales engineer reads: one-node rows, dominated rows, both MFU conventions, the
estimate's layout flags, the one-node collective, the size cap and the quote's streams."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import httpx

from gpu_sizing_cli.sizing_view import DOMINATED_MARK, ONE_NODE
from tests.conftest import REPO_ROOT

RESNET = ("size", "--preset", "resnet-50", "--epochs", "90", "--nodes", "1-8", "--term",
          "monthly", "--currency", "USD")


def table_rows(out: str) -> dict[int, str]:
    """The ranked table's rows by rank (the # column, its mark stripped)."""
    rows = {}
    for line in out.splitlines():
        match = re.match(r"│\s*(\d+)( †)?\s*│", line)
        if match:
            rows[int(match.group(1))] = line
    return rows


def test_one_node_rows_show_no_fabric_and_dominated_rows_are_marked(gpu_sizing):
    ran = gpu_sizing(*RESNET)
    assert ran.code == 0, ran.err
    sizing_id = re.search(r"sizing ([0-9a-f-]{36})", ran.out).group(1)
    result = json.loads(gpu_sizing("sizing", sizing_id, "--json").out)["result"]
    ranked = result["configurations"]
    rows = table_rows(ran.out)
    assert sorted(rows) == [c["rank"] for c in ranked]
    first = ranked[0]

    def dominated(c):
        return (c["rank"] != 1 and c["time_to_train_hours"] > first["time_to_train_hours"]
                and Decimal(c["price"]["total"]) > Decimal(first["price"]["total"]))

    assert any(dominated(c) for c in ranked)  # the case this test is about
    assert any(c["nodes"] == 1 for c in ranked)
    for c in ranked:
        row = rows[c["rank"]]
        assert (ONE_NODE in row) == (c["nodes"] == 1), row
        assert (c["fabric"]["id"] in row) == (c["nodes"] > 1), row
        assert (DOMINATED_MARK.strip() in row) == dominated(c), row
        assert c["why"].startswith("Slower and dearer than rank 1") == dominated(c), c["why"]
    assert f"{DOMINATED_MARK.strip()} slower and dearer than rank 1." in ran.out


def test_a_one_node_collective_runs_over_nvlink_only(gpu_sizing):
    ran = gpu_sizing("collective", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400",
                     "--nodes", "1", "--size", "1G")
    assert ran.code == 0, ran.err
    assert ran.out.splitlines()[0].startswith(
        "# all_reduce on 1 node of hgx-h100-8 (NVLink only): 8 ranks"), ran.out
    two = gpu_sizing("collective", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400",
                     "--nodes", "2", "--size", "1G")
    assert two.out.startswith("# all_reduce on 2 nodes of hgx-h100-8 over ib-ndr-400:"), two.out


def test_a_collective_of_1t_as_nccl_tests_counts_it_is_taken_and_one_byte_more_refused(gpu_sizing):
    cluster = ("collective", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes", "2")
    ran = gpu_sizing(*cluster, "--size", "1T", "--json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["size_bytes"] == 2**40
    over = gpu_sizing(*cluster, "--size", str(2**40 + 1))
    assert over.code == 1 and over.error_lines()[0].startswith("Error: --size "), over.err


def test_estimate_takes_the_fixed_layout_flags_size_takes(gpu_sizing, live_api, tmp_path):
    from gpu_sizing_cli import layouts
    from gpu_sizing_cli.estimates import estimate
    from gpu_sizing_cli.sizings import size

    def flags_of(command):
        return {o for p in command.params if p.name in layouts.OPTIONS
                for o in p.opts + p.secondary_opts}

    assert flags_of(size) == flags_of(estimate) and flags_of(size)
    workload = {"preset": "llama-3-8b", "seq_len": 8192}
    (tmp_path / "workload.json").write_text(json.dumps(workload))
    layout = {"tp": 2, "cp": 2, "dp": 4, "framework": "megatron", "attention_kernel": "flash2",
              "recompute": "full", "recompute_layers": 2, "shard_group": 2,
              "grad_bucket_mb": 50.0, "sequence_parallel": False}
    ran = gpu_sizing("estimate", "--server", "hgx-h100-8", "--fabric", "ib-ndr-400", "--nodes",
                     "2", "--workload-file", str(tmp_path / "workload.json"), "--global-batch",
                     "64", "--tp", "2", "--cp", "2", "--framework", "megatron",
                     "--attention-kernel", "flash2", "--recompute", "full", "--recompute-layers",
                     "2", "--shard-group", "2", "--grad-bucket-mb", "50",
                     "--no-sequence-parallel", "--micro-batch", "1", "--json")
    assert ran.code == 0, ran.err
    body = {"cluster": {"server": "hgx-h100-8", "fabric": "ib-ndr-400", "nodes": 2},
            "workload": workload, "training": {"global_batch": 64, "micro_batch": 1},
            "layout": layout}
    asked = httpx.post(f"{live_api.url}/v1/estimates", json=body, timeout=120,
                       headers={"Authorization": f"Bearer {live_api.key}"})
    assert asked.status_code == 200, asked.text
    printed, stated = json.loads(ran.out), asked.json()
    assert printed["step_time_s"] == stated["step_time_s"]
    assert printed["memory"] == stated["memory"]
    # Each flag counts: without the context-parallel split the answer differs.
    plain = httpx.post(f"{live_api.url}/v1/estimates", timeout=120,
                       json={**body, "layout": {**layout, "cp": 1, "dp": 8}},
                       headers={"Authorization": f"Bearer {live_api.key}"}).json()
    assert plain["step_time_s"] != printed["step_time_s"]


def test_the_readme_says_which_stream_each_line_of_a_quote_goes_to(gpu_sizing, tmp_path):
    readme = (REPO_ROOT / "README.md").read_text()
    block = re.search(r"```sh\n(\.venv/bin/gpu-sizing quote <sizing id>.*?)```", readme,
                      re.DOTALL).group(1)
    said = [re.match(r"# (stdout|stderr): (.*)", line).groups()
            for line in block.splitlines() if line.startswith("# ")]
    sizing = gpu_sizing("size", "--preset", "llama-3-8b", "--tokens", "1e10", "--nodes", "1-2",
                        "--json")
    sizing_id = json.loads(sizing.out)["id"]
    ran = gpu_sizing("quote", sizing_id, "--rank", "1", "--customer-name", "Ada Lovelace",
                     "--country", "DE", "--output-dir", str(tmp_path))
    assert ran.code == 0, ran.err
    printed = {"stdout": ran.out.splitlines(), "stderr": ran.err.splitlines()}
    for stream in ("stdout", "stderr"):
        shown = [text for which, text in said if which == stream]
        assert len(shown) == len(printed[stream]), (stream, shown, printed[stream])
        for text, line in zip(shown, printed[stream], strict=True):
            # Numbers, names and paths differ; the shape of each line does not.
            assert line.split(" ")[0].rstrip(":") == text.split(" ")[0].rstrip(":") or (
                text.startswith("/") and line.startswith("/")), (text, line)


def test_a_one_node_quote_names_no_fabric(gpu_sizing, tmp_path):
    sizing = json.loads(gpu_sizing(*RESNET, "--json").out)
    one = next(c for c in sizing["result"]["configurations"] if c["nodes"] == 1)
    ran = gpu_sizing("quote", sizing["id"], "--rank", str(one["rank"]), "--customer-name", "Ada",
                     "--output-dir", str(tmp_path))
    assert ran.code == 0, ran.err
    assert f"1 x {one['server']['id']} one node, no fabric" in ran.err
    assert one["fabric"]["id"] not in ran.err.splitlines()[0]
    listed = gpu_sizing("quotes")
    assert "one node, no fabric" in " ".join(listed.out.split())
