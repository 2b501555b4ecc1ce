"""A pinned layout is refused at creation (422 naming a field) or searched: never a failed run."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from sizing.workload import (
    ATTENTION_KERNELS,
    FRAMEWORKS,
    OFFLOAD,
    RECIPE_FRAMEWORKS,
    RECOMPUTE,
    ZERO_STAGES,
)
from tests.conftest import NO_RATE_LIMITS, authorised, build_app

# Each field of the sizing's `layout` with values a client may state: every option of the
# enumerated fields, both booleans, and degrees that do and do not suit one or two 8-GPU nodes.
# `precision` is the request's, beside them, because fp8_param_gather is read with it.
PINNED_VALUES: dict[str, tuple] = {
    "framework": FRAMEWORKS + RECIPE_FRAMEWORKS,
    "dp": (4, 8, 16),
    "tp": (2, 8),
    "pp": (2, 4),
    "cp": (2,),
    "ep": (2, 8),
    "virtual_stages": (2,),
    "zero_stage": ZERO_STAGES,
    "shard_group": (2, 3),
    "sequence_parallel": (False, True),
    "recompute": RECOMPUTE,
    "recompute_layers": (2,),
    "offload": OFFLOAD[1:],
    "flash_attention": (False, True),
    "attention_kernel": ATTENTION_KERNELS,
    "fused_cross_entropy": (True,),
    "embedding_in_pipeline_split": (True,),
    "overlap_grad_reduce": (False, True),
    "grad_reduce_in_fp32": (False, True),
    "overlap_param_gather": (False, True),
    "fp8_param_gather": (True,),
    "tp_comm_overlap": (True,),
    "micro_batch": (2,),
    "precision": ("fp8",),
}
# Small enough that most layouts fit one H100 node, so the ranked list is built and shown.
DENSE = {"layers": 16, "hidden": 2048, "heads": 16, "kv_heads": 8, "vocab": 32000,
         "seq_len": 4096}
MOE = {**DENSE, "experts": 8, "top_k": 2}


def pinned_layouts() -> list[dict]:
    """Every field alone and every pair of fields, each with every value listed."""
    out = [{name: value} for name, values in PINNED_VALUES.items() for value in values]
    for a, b in combinations(PINNED_VALUES, 2):
        out += [{a: x, b: y} for x, y in product(PINNED_VALUES[a], PINNED_VALUES[b])]
    return out


def body(pinned: dict) -> dict:
    layout = {k: v for k, v in pinned.items() if k != "precision"}
    # Expert parallelism needs experts to split; every other field runs on the dense model.
    model = MOE if "ep" in layout else DENSE
    return {"workload": {"transformer": model}, "tokens": 1e9, "nodes": {"min": 1, "max": 2},
            "gpu_models": ["h100-sxm"], "fabrics_include": ["ib-ndr-400"],
            "precision": pinned.get("precision", "bf16"), "layout": layout}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return build_app(f"sqlite:///{tmp_path_factory.mktemp('pin') / 'pinned.sqlite3'}",
                     **NO_RATE_LIMITS)


def test_every_pinned_field_alone_and_in_pairs_is_refused_or_searched(app):
    client = authorised(app)
    failed, refused, shown = [], 0, 0
    for pinned in pinned_layouts():
        response = client.post("/v1/sizings", json=body(pinned), headers={"Prefer": "wait=30"})
        doc = response.get_json()
        if response.status_code == 422:
            assert all(p["pointer"].startswith(("/layout/", "/precision"))
                       for p in doc["errors"]), (pinned, doc)
            refused += 1
        elif response.status_code == 201 and doc["status"] == "succeeded":
            shown += bool(doc["result"]["configurations"])
        else:
            failed.append((pinned, response.status_code, doc.get("status"), doc.get("error")))
    assert not failed, failed[:20]
    # The check means something only if both outcomes are common (it is not all refusals).
    assert refused > 100 and shown > 500, (refused, shown)
