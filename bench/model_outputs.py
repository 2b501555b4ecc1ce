"""Every column of estimate_batch on random wide layouts, saved, and two saves compared bit for
bit on their valid rows: the check that a change to the model's evaluation changes no output.

    python bench/model_outputs.py save main.npz --tree /path/to/main's/checkout
    python bench/model_outputs.py save this.npz
    python bench/model_outputs.py compare main.npz this.npz

Layouts of six models and three precisions on every GPU and fabric of the catalog (reference
ones too), valid or not, each batch evaluated whole, in chunks of 997 and of 61 and its first
150 rows one by one (a row's figures must not depend on its batch), and the model bench's
candidates.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

CASES = (("llama-3-70b", "bf16"), ("llama-3-70b", "fp8"), ("mixtral-8x7b", "bf16"),
         ("mixtral-8x7b", "fp8"), ("bert-large", "fp32"), ("llama-3-405b", "bf16"),
         ("resnet-50", "fp32"), ("resnet-50", "bf16"), ("vgg-16", "bf16"))
CHUNKS = (None, 997, 61)


def wide(rng, n: int, transformer: bool, catalog) -> dict:
    from sizing.hardware import Cluster, Server
    from sizing.workload import ATTENTION_KERNELS, FRAMEWORKS

    gpus, fabrics = list(catalog.all_gpus.values()), list(catalog.all_fabrics.values())
    rows = []
    while len(rows) < n:
        gpn = int(rng.choice([1, 2, 4, 8, 8, 8]))
        server = Server("s", "s", gpus[rng.integers(len(gpus))], gpn,
                        int(rng.choice([1, 2, 4, 8])), float(rng.choice([100.0, 200.0, 400.0])),
                        int(rng.integers(3, 6)), bool(rng.integers(0, 2)))
        nodes = int(rng.choice([1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 6, 12]))
        cluster = Cluster(server, fabrics[rng.integers(len(fabrics))], nodes,
                          bool(rng.integers(0, 2)))
        if transformer:
            tp, pp = int(rng.choice([1, 1, 2, 4, 8, 16])), int(rng.choice([1, 1, 2, 4, 8]))
            cp, ep = int(rng.choice([1, 1, 1, 2, 4])), int(rng.choice([1, 1, 2, 4, 8]))
        else:
            tp = pp = cp = ep = 1
        if (gpn * nodes) % (tp * pp * cp):
            continue
        zero = int(rng.integers(0, 4))
        row = cluster.as_arrays()
        figures = {
            "dp": gpn * nodes // (tp * pp * cp), "tp": tp, "pp": pp, "ep": ep, "cp": cp,
            "virtual_stages": 1 if pp == 1 else int(rng.integers(1, 4)), "zero_stage": zero,
            "sequence_parallel": bool(rng.integers(0, 2)), "recompute": int(rng.integers(0, 3)),
            "micro_batch": int(rng.choice([1, 2, 4])),
            "global_batch": int(rng.choice([512, 1024, 2048, 1536])),
            "recompute_layers": int(rng.choice([0, 0, 2])),
            "shard_group": int(rng.choice([0, 0, 0, 2, 4, 8])) if zero >= 1 else 0,
            "offload": int(rng.choice([0, 0, 0, 1, 2])) if zero else 0,
            "framework": int(rng.integers(len(FRAMEWORKS))),
            "flash_attention": bool(rng.integers(0, 4)),
            "attention_kernel": int(rng.integers(len(ATTENTION_KERNELS))),
            "overlap_grad_reduce": bool(rng.integers(0, 2)),
            "grad_reduce_in_fp32": bool(rng.integers(0, 2)),
            "overlap_param_gather": bool(rng.integers(0, 2)),
            "fp8_param_gather": bool(rng.integers(0, 2)),
            "fused_cross_entropy": bool(rng.integers(0, 2)),
        }
        row.update({k: np.array([v]) for k, v in figures.items()})
        rows.append(row)
    return {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}


def evaluate(batch: dict, model, training, constants, chunk: int | None) -> dict:
    from sizing.step import estimate_batch

    if chunk is None:
        return estimate_batch(batch, model, training, constants)
    n = len(batch["dp"])
    parts = [estimate_batch({k: v[i:i + chunk] for k, v in batch.items()}, model, training,
                            constants) for i in range(0, n, chunk)]
    return {k: np.concatenate([np.broadcast_to(p[k], p["valid"].shape) for p in parts])
            for k in parts[0]}


def save(path: str, rows: int) -> None:
    from bench.model_bench import as_batch, random_candidates
    from catalog.shipped import shipped
    from sizing.presets import preset_model
    from sizing.workload import Training, Transformer

    catalog = shipped()
    out = {}
    rng = np.random.default_rng(2026)
    for name, precision in CASES:
        model = preset_model(name)
        batch = wide(rng, rows, isinstance(model, Transformer), catalog)
        training = Training(1024, 1, precision=precision)
        for chunk in CHUNKS:
            for k, v in evaluate(batch, model, training, catalog.constants, chunk).items():
                out[f"{name}|{precision}|{chunk}|{k}"] = np.asarray(v)
        first = {k: v[:150] for k, v in batch.items()}
        for k, v in evaluate(first, model, training, catalog.constants, 1).items():
            out[f"{name}|{precision}|single|{k}"] = np.asarray(v)
    model = preset_model("llama-3-70b")
    bench = as_batch(random_candidates(20_000, np.random.default_rng(7), model, catalog.fabrics))
    for k, v in evaluate(bench, model, Training(1024, 1), catalog.constants, None).items():
        out[f"bench|{k}"] = np.asarray(v)
    np.savez_compressed(path, **out)
    print(f"{path}: {len(out)} columns")


def compare(a_path: str, b_path: str) -> int:
    a, b = np.load(a_path), np.load(b_path)
    if set(a.files) != set(b.files):
        print("columns differ:", sorted(set(a.files) ^ set(b.files)))
        return 1
    groups: dict[str, list[str]] = {}
    for key in a.files:
        groups.setdefault(key.rsplit("|", 1)[0], []).append(key)
    differing, rows = [], 0
    for group, keys in groups.items():
        valid = a[f"{group}|valid"]
        if not np.array_equal(valid, b[f"{group}|valid"]):
            differing.append(f"{group}|valid")
            continue
        rows += int(valid.sum())
        for key in keys:
            x, y = (np.ascontiguousarray(np.broadcast_to(f[key], valid.shape)[valid])
                    for f in (a, b))
            if x.dtype != y.dtype or x.tobytes() != y.tobytes():
                differing.append(key)
    print(f"{len(a.files)} columns, {rows:,} valid row evaluations, {len(differing)} differing")
    for key in differing:
        print("  differs:", key)
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("save")
    s.add_argument("path")
    s.add_argument("--tree", help="the checkout whose model is evaluated (default: this one)")
    s.add_argument("--rows", type=int, default=6000, help="random layouts per case")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = parser.parse_args()
    if args.command == "compare":
        return compare(args.a, args.b)
    tree = Path(args.tree).resolve() if args.tree else Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(tree))
    save(args.path, args.rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
