"""Enumerates clusters x node counts x parallel layouts as arrays and evaluates them in one pass."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from sizing.hardware import Cluster
from sizing.step import estimate_batch, layout_arrays
from sizing.workload import FRAMEWORKS, RECOMPUTE, Layout, Training, Transformer


@dataclass(frozen=True)
class LayoutSpace:
    """Which layouts `auto` tries; a fixed Layout pins every degree instead."""

    tp: Sequence[int] = (1, 2, 4, 8, 16)
    pp: Sequence[int] = (1, 2, 4, 8, 16)
    ep: Sequence[int] = (1, 2, 4, 8)
    zero_stage: Sequence[int] = (1, 3)
    micro_batch: Sequence[int] = (1, 2)
    # Sample-based models (CNNs) train at tens to hundreds of samples per GPU: 256 per A100 in
    # DeepLearningExamples' ResNet-50 configs, 400 per H100 in MLPerf.
    sample_micro_batch: Sequence[int] = (16, 32, 64, 128, 256)
    recompute: Sequence[str] = ("selective", "full")
    # Context parallelism for long sequences (Megatron-Core and NeMo run 32k-1M with CP 2-32).
    cp: Sequence[int] = (1, 2, 4, 8)
    long_sequence: int = 32768  # sequence length from which cp > 1 is tried
    fixed: Layout | None = None


@dataclass
class Candidates:
    """One element per candidate: which hardware, how many nodes, which layout."""

    hardware: np.ndarray  # index into the clusters list
    nodes: np.ndarray
    layout: dict[str, np.ndarray]
    global_batch: np.ndarray
    skipped: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.hardware.shape[0])

    def layout_at(self, i: int) -> Layout:
        return Layout.from_mapping({name: column[i] for name, column in self.layout.items()})

    def micro_batch_at(self, i: int) -> int:
        return int(self.layout["micro_batch"][i])


def layout_grid(model, space: LayoutSpace) -> dict[str, np.ndarray]:
    """Every combination of the free degrees (dp follows from the GPU count)."""
    is_tf = isinstance(model, Transformer)
    if space.fixed is not None:
        # Every field of the pinned layout, as the one-configuration estimate carries it.
        per_mb = [layout_arrays(space.fixed, Training(1, mb)) for mb in space.micro_batch]
        return {n: np.concatenate([p[n] for p in per_mb]).astype(float)
                for n in per_mb[0] if n != "dp"}
    else:
        tps = [t for t in space.tp if model.tp_divides_heads(t)] if is_tf else [1]
        pps = [p for p in space.pp if p <= model.layers] if is_tf else [1]
        eps = [e for e in space.ep if model.ep_divides_experts(e)] if is_tf and model.experts > 1 else [1]
        rcs = [RECOMPUTE.index(r) for r in space.recompute] if is_tf else [1]
        long = is_tf and model.seq_len >= space.long_sequence
        cps = [c for c in space.cp if model.seq_len % (2 * c) == 0] if long else [1]
        mbs = space.micro_batch if is_tf else space.sample_micro_batch
        # The most efficient framework of each kind: Megatron-Core for transformers, PyTorch
        # DDP for data-parallel sample-based models.
        framework = FRAMEWORKS.index("megatron" if is_tf else "ddp")
        rows = [(t, p, e, z, mb, rc, 1, t > 1, c, framework)
                for t, p, e, z, mb, rc, c in product(tps, pps, eps, space.zero_stage, mbs, rcs,
                                                      cps)]
    cols = np.array(rows, dtype=float).T
    names = ("tp", "pp", "ep", "zero_stage", "micro_batch", "recompute", "virtual_stages",
             "sequence_parallel", "cp", "framework")
    return {n: cols[i] for i, n in enumerate(names)}


def search_size(hardware: int, node_counts: int, model, space: LayoutSpace) -> int:
    """How many candidates a search builds before any rule drops one: hardware pairs x node
    counts x layouts. Known before the search runs, it bounds both the memory the candidate
    arrays take and the work of the model (which evaluates at most these)."""
    return hardware * node_counts * int(layout_grid(model, space)["tp"].shape[0])


def enumerate_candidates(clusters: Sequence[Cluster], node_counts: Sequence[int], model,
                         training: Training, space: LayoutSpace, batch_fixed: bool,
                         max_global_batch: float = np.inf) -> Candidates:
    """Cross hardware x node counts x layouts; keep those whose degrees multiply to the GPUs.

    With a fixed global batch, dp x micro_batch must divide it; otherwise the batch is rounded to
    the nearest multiple per candidate (reported with each result), and a layout whose data
    parallelism would push the batch past `max_global_batch` is ruled out: past the critical
    batch size more samples per step no longer shorten training, so the speed it shows is not
    real.
    """
    grid = layout_grid(model, space)
    k = grid["tp"].shape[0]
    gpn = np.array([c.gpus_per_node for c in clusters], float)
    hw, nodes = np.meshgrid(np.arange(len(clusters)), np.asarray(node_counts), indexing="ij")
    hw, nodes = hw.ravel(), nodes.ravel()
    pairs = hw.shape[0]
    gpus = np.repeat(gpn[hw] * nodes, k)
    lay = {n: np.tile(v, pairs) for n, v in grid.items()}
    model_parallel = lay["tp"] * lay["pp"] * lay["cp"]
    dp = gpus / model_parallel
    ok = (dp == np.floor(dp)) & (dp >= 1)
    if space.fixed is not None and space.fixed.dp:
        ok &= dp == space.fixed.dp
    if space.fixed is not None and space.fixed.shard_group:
        ok &= dp % space.fixed.shard_group == 0  # hybrid-sharding groups tile dp
    ok &= (dp % lay["ep"] == 0)
    skipped = {"degrees": int((~ok).sum())}
    unit = dp * lay["micro_batch"]
    if batch_fixed:
        fits_batch = np.fmod(training.global_batch, np.where(unit > 0, unit, 1)) == 0
        gb = np.full(dp.shape, float(training.global_batch))
    else:
        gb = np.maximum(np.round(training.global_batch / np.where(unit > 0, unit, 1)), 1) * unit
        fits_batch = gb <= max_global_batch
    skipped["batch"] = int((ok & ~fits_batch).sum())
    ok &= fits_batch
    lay["dp"] = dp
    keep = np.flatnonzero(ok)
    return Candidates(
        hardware=np.repeat(hw, k)[keep], nodes=np.repeat(nodes, k)[keep],
        layout={n: v[keep] for n, v in lay.items()}, global_batch=gb[keep], skipped=skipped,
    )


def hardware_arrays(clusters: Sequence[Cluster]) -> dict[str, np.ndarray]:
    """Columns of every cluster's figures, to be indexed by candidate."""
    rows = [c.as_arrays() for c in clusters]
    return {key: np.concatenate([r[key] for r in rows]) for key in rows[0] if key != "nodes"}


def evaluate(clusters: Sequence[Cluster], cands: Candidates, model, training: Training,
             constants, chunk: int | None = None) -> dict[str, np.ndarray]:
    """All candidates through the model, vectorised, at most `chunk` per pass.

    Chunking bounds the memory of the intermediate arrays of a very large search; the
    results are the same as one pass.
    """
    hw = hardware_arrays(clusters)
    batch = {key: col[cands.hardware] for key, col in hw.items()}
    batch["nodes"] = cands.nodes
    batch.update(cands.layout)
    batch["global_batch"] = cands.global_batch
    for key in ("tp", "pp", "ep", "dp", "zero_stage", "recompute", "virtual_stages", "micro_batch",
                "cp", "framework"):
        batch[key] = batch[key].astype(int)
    batch["sequence_parallel"] = batch["sequence_parallel"].astype(bool)
    n = len(cands)
    if not chunk or n <= chunk:
        return estimate_batch(batch, model, training, constants)
    parts = [estimate_batch({k: v[start:start + chunk] for k, v in batch.items()}, model, training,
                            constants) for start in range(0, n, chunk)]
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
