"""Enumerates clusters x node counts x parallel layouts in chunks of bounded size, and evaluates them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product

import numpy as np

from sizing.constants import GpuCodes, built_once
from sizing.hardware import Cluster
from sizing.step import (
    FLOOR_COMPUTE,
    compute_bound_batch,
    estimate_batch,
    feasibility_batch,
    layer_collectives_batch,
    layers_bound,
    layout_arrays,
    step_floor_batch,
)
from sizing.topology import Links
from sizing.workload import (
    FRAMEWORKS,
    MEGATRON_FSDP_FROM_STAGE,
    RECOMPUTE,
    Layout,
    Training,
    Transformer,
)

LAYOUT_NAMES = ("tp", "pp", "ep", "zero_stage", "micro_batch", "recompute", "virtual_stages",
                "sequence_parallel", "cp", "framework")
INTEGER_COLUMNS = ("tp", "pp", "ep", "dp", "zero_stage", "recompute", "virtual_stages",
                   "micro_batch", "cp", "framework")


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
    # No recompute, and full recompute for what does not fit without it. Selective recompute
    # is left out: the grid's layouts run fused attention (LAYOUT_DEFAULTS), which keeps no
    # score matrix, so selective saves no memory over none (activation_bytes_by_recompute in
    # sizing/memory.py) and only re-runs attention: every selective layout is dominated,
    # exactly, by the same layout without recompute.
    recompute: Sequence[str] = ("none", "full")
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
    # Index into the search's node counts, so that (hardware, node_index) names a cell.
    node_index: np.ndarray | None = None
    # Candidates that differ only in the fabric have the same validity, memory and compute:
    # `shared_first` holds one row of each such set, `shared_of` maps every row to its set.
    shared_first: np.ndarray | None = None
    shared_of: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.hardware.shape[0])

    def layout_at(self, i: int) -> Layout:
        return Layout.from_mapping({name: column[i] for name, column in self.layout.items()})

    def micro_batch_at(self, i: int) -> int:
        return int(self.layout["micro_batch"][i])

    def rows(self, rows: slice) -> Candidates:
        """Some candidates, as candidates of their own (the sharing of fabrics not kept)."""
        node_index = None if self.node_index is None else self.node_index[rows]
        return Candidates(self.hardware[rows], self.nodes[rows],
                          {k: v[rows] for k, v in self.layout.items()}, self.global_batch[rows],
                          node_index=node_index)

    def layout_of(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """The layout columns of some candidates."""
        if isinstance(self.layout, LayoutColumns):
            return self.layout.at(rows)
        return {k: v[rows] for k, v in self.layout.items()}


def joined(parts: Sequence[tuple[Candidates, np.ndarray]]) -> Candidates:
    """Some rows of several chunks (each chunk's candidates and its rows) as candidates of
    their own, in that order, the sharing of fabrics kept: each chunk's sets numbered apart."""
    def cat(pick) -> np.ndarray:
        return np.concatenate([pick(c, rows) for c, rows in parts])

    grids = {id(c.layout.grid) if isinstance(c.layout, LayoutColumns) else None
             for c, _ in parts}
    if len(grids) == 1 and None not in grids:
        # Chunks of one grid: their rows' grid rows, gathered only for the rows read.
        layout: Mapping[str, np.ndarray] = LayoutColumns(
            parts[0][0].layout.grid, cat(lambda c, rows: c.layout.rows[rows]),
            cat(lambda c, rows: c.layout.dp[rows]))
    else:
        layouts = [c.layout_of(rows) for c, rows in parts]
        layout = {k: np.concatenate([part[k] for part in layouts]) for k in layouts[0]}
    offsets = np.cumsum([0, *(len(c) for c, _ in parts)])
    ids = np.concatenate([
        (c.shared_of[rows] if c.shared_of is not None else rows) + offset
        for (c, rows), offset in zip(parts, offsets)])
    # Numbered 0, 1, ... as in a chunk (shared_of indexes shared_first), for every reader.
    shared_first, shared_of = distinct_ints(ids)
    return Candidates(cat(lambda c, rows: c.hardware[rows]), cat(lambda c, rows: c.nodes[rows]),
                      layout, cat(lambda c, rows: c.global_batch[rows]),
                      node_index=cat(lambda c, rows: c.node_index[rows]),
                      shared_first=shared_first, shared_of=shared_of)


def distinct_ints(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(ids, return_index=True, return_inverse=True)[1:] of non-negative integers
    whose largest is of the order of their count (the rows of a chunk, a pool): where each
    distinct value is first, ascending, and each id's number among them, in linear time
    rather than by a sort (a pool's 30,000 set ids: 0.1 ms against 2)."""
    present = np.zeros(int(ids.max(initial=-1)) + 1, bool)
    present[ids] = True
    inverse = (np.cumsum(present) - 1)[ids]
    first = np.full(int(np.count_nonzero(present)), ids.size, np.intp)
    np.minimum.at(first, inverse, np.arange(ids.size))
    return first, inverse


class LayoutColumns(Mapping):
    """A chunk's layouts as grid rows: columns are gathered only for the candidates that need
    them (most are ruled out on validity and memory, computed once per server)."""

    def __init__(self, grid: dict[str, np.ndarray], rows: np.ndarray, dp: np.ndarray):
        self.grid, self.rows, self.dp = grid, rows, dp

    def at(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        picked = self.rows[rows]
        out = {k: v[picked] for k, v in self.grid.items()}
        out["dp"] = self.dp[rows]
        return out

    def __getitem__(self, name: str) -> np.ndarray:
        return self.dp if name == "dp" else self.grid[name][self.rows]

    def __iter__(self):
        return iter((*self.grid, "dp"))

    def __len__(self) -> int:
        return len(self.grid) + 1


def layout_grid(model, space: LayoutSpace) -> dict[str, np.ndarray]:
    """Every combination of the free degrees (dp follows from the GPU count)."""
    is_tf = isinstance(model, Transformer)
    if space.fixed is not None:
        # Every field of the pinned layout, as the one-configuration estimate carries it, typed
        # as layout_arrays types them (the model reads them so).
        per_mb = [layout_arrays(space.fixed, Training(1, mb)) for mb in space.micro_batch]
        return {n: np.concatenate([p[n] for p in per_mb]) for n in per_mb[0] if n != "dp"}
    else:
        tps = [t for t in space.tp if model.tp_divides_heads(t)] if is_tf else [1]
        pps = [p for p in space.pp if p <= model.layers] if is_tf else [1]
        eps = [e for e in space.ep if model.ep_divides_experts(e)] if is_tf and model.experts > 1 else [1]
        rcs = [RECOMPUTE.index(r) for r in space.recompute] if is_tf else [1]
        long = is_tf and model.seq_len >= space.long_sequence
        # Context parallelism splits the sequence into 2 x cp chunks (load-balanced causal
        # attention), so cp > 1 needs a length they divide; cp 1 splits nothing.
        cps = [c for c in space.cp if c == 1 or model.seq_len % (2 * c) == 0] if long else [1]
        mbs = space.micro_batch if is_tf else space.sample_micro_batch
        # The API's default framework of each kind: Megatron-Core for transformers, PyTorch
        # DDP for data-parallel sample-based models (not MXNet, faster on ResNet-50 but
        # retired by Apache in 2023).
        framework = FRAMEWORKS.index("megatron" if is_tf else "ddp")
        # Megatron-LM shards gradients or weights with Megatron-FSDP, which runs without
        # pipeline parallelism (step.layout_rules; source at MEGATRON_FSDP_FROM_STAGE).
        rows = [(t, p, e, z, mb, rc, 1, t > 1, c, framework)
                for t, p, e, z, mb, rc, c in product(tps, pps, eps, space.zero_stage, mbs, rcs,
                                                      cps)
                if not (is_tf and z >= MEGATRON_FSDP_FROM_STAGE and p > 1)]
    cols = np.array(rows, dtype=float).T
    # Typed once here, as the model reads them, rather than per chunk.
    dtypes = {n: int for n in INTEGER_COLUMNS} | {"sequence_parallel": bool}
    return {n: cols[i].astype(dtypes.get(n, float)) for i, n in enumerate(LAYOUT_NAMES)}


# Node counts whose layouts are worked out together: one pass over the grid for all their
# GPU counts rather than one per GPU count, holding at most this many counts' layouts (a few
# hundred rows each) at a time.
NODE_COUNTS_PER_BLOCK = 64


@dataclass(frozen=True)
class CellLayouts:
    """The layouts of one GPU count: grid rows whose degrees divide it, with their dp and batch."""

    rows: np.ndarray  # into the layout grid
    dp: np.ndarray
    global_batch: np.ndarray
    degrees: int  # grid rows whose degrees do not divide the GPU count (never built)
    batch: int  # rows built, then ruled out by the batch rule


@dataclass(frozen=True)
class ChunkCells:
    """Cells that build a candidate, in candidate order, as columns: which hardware, which node
    count (its index), the layouts of its GPU count and how many they are."""

    hardware: np.ndarray
    node_index: np.ndarray
    layouts: np.ndarray  # of CellLayouts (objects), per cell
    sizes: np.ndarray

    def at(self, cells: slice) -> ChunkCells:
        return ChunkCells(self.hardware[cells], self.node_index[cells], self.layouts[cells],
                          self.sizes[cells])

    def then(self, more: ChunkCells) -> ChunkCells:
        """These cells, then `more`."""
        return ChunkCells(*(np.concatenate([a, b]) for a, b in
                            ((self.hardware, more.hardware), (self.node_index, more.node_index),
                             (self.layouts, more.layouts), (self.sizes, more.sizes))))


# The rules a candidate can fail before the time model, in the order the ranking applies them
# (service.sizing_run's known rules): the layout's validity, memory, then the stock.
RULE_INVALID, RULE_MEMORY, RULE_STOCK = "invalid_layout", "memory", "stock"


@dataclass(frozen=True)
class RunnableChunk:
    """A chunk's candidates that can run and are within their pair's stock, built; the others
    of its cells only counted, by the first rule they fail."""

    cands: Candidates
    cells: np.ndarray  # the chunk's cells, hardware x node counts + node index
    ruled_out: dict[str, np.ndarray]  # per rule, candidates not built per cell of `cells`
    size: int  # candidates of the chunk, built or counted


@dataclass(frozen=True)
class Enumeration:
    """The candidates of one search, built a chunk at a time.

    A cell is one hardware pair at one node count; its candidates are the grid's layouts
    whose degrees divide the cell's GPU count, and those depend on the GPU count alone, so
    they are worked out once per GPU count at each node count (and counted, for the search
    size, without being kept). Cells come node counts ascending, then
    hardware pairs, layouts in grid order: the order of the candidates is fixed, whatever the
    chunk size, and the pairs of one server at one node count share a chunk, so what does not
    depend on the fabric is computed once for them.
    """

    gpus_per_node: tuple[int, ...]  # per hardware pair
    node_counts: tuple[int, ...]
    grid: dict[str, np.ndarray]
    training: Training
    fixed_dp: int
    batch_fixed: bool
    max_global_batch: float
    # Pairs of one group have the same server-side figures (GPU, GPUs per node, PCIe, host
    # memory).
    groups: tuple[int, ...] = ()
    # A pinned hybrid-sharding group keeps only data-parallel sizes it divides (0: none).
    shard_group: int = 0

    def _tables(self, gpus: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """For each GPU count (rows) and grid layout (columns): built (degrees divide it),
        kept by the batch rule, dp and the global batch."""
        grid = self.grid
        model_parallel = (grid["tp"] * grid["pp"] * grid["cp"]).astype(np.int64)
        g = np.asarray(gpus, np.int64)[:, None]
        dp = g // np.maximum(model_parallel, 1)
        built = (g % model_parallel == 0) & (dp >= 1) & (dp % grid["ep"].astype(np.int64) == 0)
        if self.fixed_dp:
            built &= dp == self.fixed_dp
        if self.shard_group:
            built &= dp % self.shard_group == 0  # hybrid-sharding groups tile dp
        unit = np.maximum(dp * grid["micro_batch"], 1).astype(float)
        batch = float(self.training.global_batch)
        if self.batch_fixed:
            kept = built & (np.fmod(batch, unit) == 0)
            gb = np.full(unit.shape, batch)
        else:
            gb = np.maximum(np.round(batch / unit), 1) * unit
            kept = built & (gb <= self.max_global_batch)
        return built, kept, dp, gb

    def _layouts(self, gpus: np.ndarray) -> dict[int, CellLayouts]:
        """The layouts of each of these GPU counts, from one pass over the grid for all."""
        built, kept, dp, gb = self._tables(gpus)
        of, rows = np.nonzero(kept)  # by GPU count, then grid row: each count's rows ascending
        dp, gb = dp[of, rows], gb[of, rows]
        n_built, n_kept = built.sum(axis=1), kept.sum(axis=1)
        ends = np.cumsum(n_kept)
        out = {}
        for g, a, b, nb in zip(gpus.tolist(), (ends - n_kept).tolist(), ends.tolist(),
                               n_built.tolist()):
            out[g] = CellLayouts(rows[a:b], dp[a:b], gb[a:b], built.shape[1] - nb, nb - (b - a))
        return out

    @cached_property
    def _counts(self) -> tuple[int, int, int]:
        """(built, never built, built then ruled out by the batch rule) over every cell,
        counted per distinct GPU count a block at a time, without keeping any layout."""
        cells = np.multiply.outer(np.asarray(self.gpus_per_node, np.int64),
                                  np.asarray(self.node_counts, np.int64)).ravel()
        gpus, times = np.unique(cells, return_counts=True)
        built = never = batch = 0
        for start in range(0, gpus.size, 256):
            b, k, _, _ = self._tables(gpus[start:start + 256])
            weight = times[start:start + 256]
            built += int(b.sum(axis=1) @ weight)
            never += int((~b).sum(axis=1) @ weight)
            batch += int((b & ~k).sum(axis=1) @ weight)
        return built, never, batch

    def cells(self) -> Iterator[ChunkCells]:
        """The cells that build a candidate, in candidate order, a block of node counts at a
        time; the layouts of a GPU count are kept only while a block is walked (worked out
        together, in one pass over the grid) and by the cells that hold them, so memory does
        not grow with the range."""
        per_node = np.asarray(self.gpus_per_node, np.int64)
        pairs = per_node.size
        for start in range(0, len(self.node_counts), NODE_COUNTS_PER_BLOCK):
            counts = np.asarray(self.node_counts[start:start + NODE_COUNTS_PER_BLOCK], np.int64)
            # Node counts ascending, then hardware pairs: the candidates' order.
            gpus = np.multiply.outer(counts, per_node).ravel()
            distinct, of = np.unique(gpus, return_inverse=True)
            here = self._layouts(distinct)
            layouts = np.empty(distinct.size, object)
            layouts[:] = [here[g] for g in distinct.tolist()]
            sizes = np.array([cell.rows.size for cell in layouts], np.int64)[of]
            keep = np.flatnonzero(sizes > 0)  # a cell of no layout builds nothing
            yield ChunkCells(np.tile(np.arange(pairs), counts.size)[keep],
                             np.repeat(np.arange(start, start + counts.size), pairs)[keep],
                             layouts[of[keep]], sizes[keep])

    @property
    def skipped(self) -> dict[str, int]:
        """Layouts of the grid never built (degrees) or built and ruled out by the batch rule."""
        _, never, batch = self._counts
        return {"degrees": never, "batch": batch}

    @property
    def size(self) -> int:
        """Candidates built, before the batch rule: the work a search may do."""
        return self._counts[0]

    def chunks(self, chunk: int) -> Iterator[Candidates]:
        """The candidates, at most about `chunk` at a time (whole cells; one cell holds at most
        the grid's rows)."""
        for parts in self._parts(chunk):
            yield self._build(parts)

    def _parts(self, chunk: int, weight: Callable[[ChunkCells], np.ndarray] | None = None,
               ) -> Iterator[ChunkCells]:
        """The cells of each chunk of about `chunk` candidates (whole cells), in order: a chunk
        takes cells while they fit and at least one. `weight`: what each of some cells costs
        a chunk, if not its candidates."""
        held: ChunkCells | None = None
        for block in self.cells():
            held = block if held is None else held.then(block)
            if held.sizes.size == 0:
                continue  # no cell of these node counts builds a layout
            *full, last = _cuts(held.sizes if weight is None else weight(held), chunk)
            for cells in full:
                yield held.at(cells)
            held = held.at(last)  # the next block's cells may fit in this chunk too
        if held is not None and held.sizes.size:
            yield held

    def runnable_chunks(self, chunk: int, feasible: Callable[[Candidates], Feasibility],
                        usable: np.ndarray) -> Iterator[RunnableChunk]:
        """The candidates of `chunks`, in chunks of their own, with only those that can run
        (valid, fitting in memory) and are within their pair's stock (`usable` nodes per
        hardware) built; the others are counted per cell by the first of those rules they
        fail. Validity and memory depend on the server's side and the layout, not the fabric,
        so `feasible` sees one row per (server group, node count, layout), and the rest is
        never built (70B on the shipped catalog at 1-128 nodes: 144,232 such rows for
        1,447,008 candidates, of which 188,189 are built).

        A chunk holds about `chunk` of what it builds, not of its candidates: its sets' rows
        are worked out about `chunk` at a time (a pass's cells), and each pass's candidates
        built are cut into chunks of at most `chunk` (whole cells). Most candidates are never
        built, so chunks of `chunk` candidates would pay each pass's fixed costs on a tenth of
        that (the full catalog's 70B at 1-128 nodes: 27 chunks of about 3,300 candidates
        built, against 3 passes and 5 chunks in this way; a worker's peak RSS growth at 1-512
        nodes 35 MiB rather than 28, the chunks being full)."""
        groups = np.asarray(self.groups or range(len(self.gpus_per_node)))
        counts, node_counts = len(self.node_counts), np.asarray(self.node_counts)

        def set_rows(cells: ChunkCells) -> np.ndarray:
            """Per cell, its set's rows if it is the first of its set here, else none (a set
            split between two passes is worked out in each: within one set's rows)."""
            _, first = np.unique(groups[cells.hardware] * counts + cells.node_index,
                                 return_index=True)
            out = np.zeros(cells.sizes.size, np.int64)
            out[first] = cells.sizes[first]
            return out

        for parts in self._parts(chunk, set_rows):
            hw_of, j_of = parts.hardware, parts.node_index
            # One set per (server group, node count), numbered in the order of its first cell,
            # whose layouts stand for every cell of the set.
            _, first, key_of = np.unique(groups[hw_of] * counts + j_of, return_index=True,
                                         return_inverse=True)
            order = np.argsort(first)
            set_of = np.argsort(order)[key_of]
            heads = first[order]
            layouts = parts.layouts[heads].tolist()
            sizes = parts.sizes[heads]
            grid_rows = np.concatenate([c.rows for c in layouts])
            dp = np.concatenate([c.dp for c in layouts])
            global_batch = np.concatenate([c.global_batch for c in layouts])
            head_j = np.repeat(j_of[heads], sizes)
            found = feasible(Candidates(np.repeat(hw_of[heads], sizes), node_counts[head_j],
                                        LayoutColumns(self.grid, grid_rows, dp), global_batch,
                                        node_index=head_j))
            runs = found.valid & found.memory_fits
            start = np.cumsum(sizes) - sizes
            per_set = {rule: np.add.reduceat(mask.astype(np.int64), start)
                       for rule, mask in ((RULE_INVALID, ~found.valid),
                                          (RULE_MEMORY, found.valid & ~found.memory_fits),
                                          (RULE_STOCK, runs))}
            in_stock = node_counts[j_of] <= usable[hw_of]
            ruled_out = {rule: n[set_of] for rule, n in per_set.items()}
            ruled_out[RULE_STOCK] = np.where(in_stock, 0, ruled_out[RULE_STOCK])
            # Each set's runnable rows (among the sets' rows), built for its cells in stock:
            # the set's run of `runnable` (sets lie in order, each its rows ascending).
            runnable = np.flatnonzero(runs)
            per_run = per_set[RULE_STOCK]
            run_start = np.cumsum(per_run) - per_run
            row_set = np.repeat(np.arange(per_run.size), per_run)  # of each runnable row
            cell_code = hw_of * counts + j_of
            per_cell = np.where(in_stock, per_run[set_of], 0)  # candidates each cell builds
            for cells in _cuts(per_cell, chunk):
                built = cells.start + np.flatnonzero(per_cell[cells] > 0)
                n_built = per_run[set_of[built]]
                built_start = np.cumsum(n_built) - n_built  # of each built cell, in the chunk
                at = (np.repeat(run_start[set_of[built]] - built_start, n_built)
                      + np.arange(int(n_built.sum())))  # into `runnable`
                picked = runnable[at]
                hardware = np.repeat(hw_of[built], n_built)
                node_index = np.repeat(j_of[built], n_built)
                # Rows of one set row differ only in the fabric: they share validity, memory
                # and compute (numbered 0, 1, ... as `_build` numbers them): as
                # np.unique(picked) numbers them, the set rows built in ascending order, each
                # first built in the first cell built of its set.
                used = np.zeros(runnable.size, bool)
                used[at] = True
                shared_of = (np.cumsum(used) - 1)[at]
                sets_built, first_built = np.unique(set_of[built], return_index=True)
                first_cell = np.zeros(per_run.size, np.int64)
                first_cell[sets_built] = built_start[first_built]
                used_at = np.flatnonzero(used)
                shared_first = (first_cell[row_set[used_at]]
                                + used_at - run_start[row_set[used_at]])
                cands = Candidates(hardware, node_counts[node_index],
                                   LayoutColumns(self.grid, grid_rows[picked], dp[picked]),
                                   global_batch[picked], node_index=node_index,
                                   shared_first=shared_first, shared_of=shared_of)
                yield RunnableChunk(cands, cell_code[cells],
                                    {rule: n[cells] for rule, n in ruled_out.items()},
                                    int(sizes[set_of[cells]].sum()))

    def _build(self, parts: ChunkCells) -> Candidates:
        hw, j, sizes = parts.hardware, parts.node_index, parts.sizes
        layouts = parts.layouts.tolist()
        rows = np.concatenate([c.rows for c in layouts])
        node_index = np.repeat(j, sizes)
        layout = LayoutColumns(self.grid, rows, np.concatenate([c.dp for c in layouts]))
        # One set of rows per (group, node count): the first part of each is its set, and its
        # sets are numbered in the order of their first parts (parts of one set have the same
        # GPU count, so the same rows).
        groups = np.asarray(self.groups or range(len(self.gpus_per_node)))
        _, first_part, set_of = np.unique(groups[hw] * len(self.node_counts) + j,
                                          return_index=True, return_inverse=True)
        is_first = np.zeros(hw.size, bool)
        is_first[first_part] = True
        first_sizes = np.where(is_first, sizes, 0)
        set_start = (np.cumsum(first_sizes) - first_sizes)[first_part[set_of]]
        part_start = np.cumsum(sizes) - sizes
        offset = np.repeat(set_start - part_start, sizes)
        return Candidates(
            hardware=np.repeat(hw, sizes),
            nodes=np.asarray(self.node_counts)[node_index], layout=layout,
            global_batch=np.concatenate([c.global_batch for c in layouts]),
            node_index=node_index,
            shared_first=np.flatnonzero(np.repeat(is_first, sizes)),
            shared_of=np.arange(rows.size) + offset)


def _cuts(weight: np.ndarray, limit: int) -> Iterator[slice]:
    """Consecutive runs of items whose weights add up to at most `limit`, each at least one
    item, covering every item in order."""
    ends = np.cumsum(weight)
    start, taken = 0, 0
    while start < weight.size:
        # The limit held within the last end, which all fit below, so that no sum passes
        # int64 (the exhaustive search's chunk is int64's largest).
        end = max(int(np.searchsorted(ends, min(taken + limit, int(ends[-1])), side="right")),
                  start + 1)
        yield slice(start, end)
        start, taken = end, int(ends[end - 1])


def enumeration(gpus_per_node: Sequence[int], node_counts: Sequence[int], model,
                training: Training, space: LayoutSpace, batch_fixed: bool,
                max_global_batch: float = np.inf, groups: Sequence[int] = ()) -> Enumeration:
    """The search's candidates: per cell, the layouts whose degrees divide its GPU count.

    With a fixed global batch, dp x micro_batch must divide it; otherwise the batch is rounded to
    the nearest multiple per candidate (reported with each result), and a layout whose data
    parallelism would push the batch past `max_global_batch` is ruled out: past the critical
    batch size more samples per step no longer shorten training, so the speed it shows is not
    real.
    """
    fixed = space.fixed
    return Enumeration(tuple(int(g) for g in gpus_per_node), tuple(int(n) for n in node_counts),
                       layout_grid(model, space), training, fixed.dp if fixed else 0,
                       batch_fixed, max_global_batch, tuple(groups),
                       fixed.shard_group if fixed else 0)


def search_size(gpus_per_node: Sequence[int], node_counts: Sequence[int], model,
                space: LayoutSpace) -> int:
    """How many candidates a search builds: per hardware pair and node count, the layouts whose
    degrees divide the GPU count. Known before the search runs, it bounds the work of the
    model (which evaluates at most these, and then one layout per cell past a leaf for each
    oversubscribed spine the fabric is priced at, a few per cell); memory is bounded by the
    chunk size instead."""
    return enumeration(gpus_per_node, node_counts, model, Training(1, 1), space, True).size


def enumerate_candidates(clusters: Sequence[Cluster], node_counts: Sequence[int], model,
                         training: Training, space: LayoutSpace, batch_fixed: bool,
                         max_global_batch: float = np.inf) -> Candidates:
    """Every candidate of a small search at once (a series, one node): one chunk of all."""
    e = enumeration([c.gpus_per_node for c in clusters], node_counts, model, training, space,
                    batch_fixed, max_global_batch, HardwareTable.of(clusters).groups)
    parts = list(e.chunks(np.iinfo(np.int64).max))
    if parts:
        out = parts[0]
    else:
        empty = np.zeros(0)
        out = Candidates(empty.astype(int), empty.astype(int),
                         {k: empty for k in (*LAYOUT_NAMES, "dp")}, empty,
                         node_index=empty.astype(int))
    out.skipped = e.skipped
    return out


# The hardware columns (Cluster.as_arrays) of the server's side: the GPU, GPUs per node, the
# PCIe generation (the host link) and host memory.
SERVER_SIDE = ("gpu_", "gpus_per_node", "pcie_gen", "host_memory_gb")


@dataclass(frozen=True)
class HardwareTable:
    """Every hardware pair's figures as columns, built once per search and indexed by integer
    (the GPU ids as codes, so no chunk sorts strings)."""

    columns: dict[str, np.ndarray]
    gpu_codes: np.ndarray
    gpu_ids: tuple[str, ...]
    # Per pair: which pairs have the same server-side figures. Validity, memory and compute
    # read only the GPU, GPUs per node, PCIe generation (the host link) and host memory (what
    # offload fills), never the fabric or the NICs.
    groups: tuple[int, ...]
    # Per constants object (sizing.constants.built_once: by id, with the object kept so the id
    # is not reused, for the few used last): the links of every pair, built once, not once per
    # pass of the floor or the model.
    _links: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, clusters: Sequence[Cluster]) -> HardwareTable:
        rows = [c.as_arrays() for c in clusters]
        columns = {key: np.concatenate([r[key] for r in rows]) for key in rows[0]
                   if key not in ("nodes", "gpu_id")}
        ids = tuple(sorted({c.gpu.id for c in clusters}))
        codes = np.array([ids.index(c.gpu.id) for c in clusters], dtype=np.intp)
        # The first pair of each side, found by hashing (list.index compared every GPU's
        # dataclass fields pair by pair: quadratic in the pairs).
        first: dict[tuple, int] = {}
        sides = [first.setdefault((c.gpu, c.gpus_per_node, c.server.pcie_gen,
                                   c.server.host_memory_gb), i)
                 for i, c in enumerate(clusters)]
        return cls(columns, codes, ids, tuple(sides))

    def links(self, constants, cands: Candidates, rows: np.ndarray) -> Links:
        """The links of some rows of `cands`: those of their pairs, which read only the pair's
        columns (Links.of, as `estimate()` builds them once per cluster), never the node count
        or the layout."""
        def build() -> Links:
            return Links.of({**self.columns, "gpu_id": GpuCodes(self.gpu_codes, self.gpu_ids)},
                            constants)
        # Bounded (built_once), as the prior's draws of the constants are priced here too.
        return built_once(self._links, constants, "links", build).rows(cands.hardware[rows])

    @cached_property
    def server_columns(self) -> dict[str, np.ndarray]:
        """The columns of the server's side (`groups`): all that validity and memory read."""
        return {key: col for key, col in self.columns.items() if key.startswith(SERVER_SIDE)}

    def batch(self, cands: Candidates, rows: np.ndarray | None = None,
              server_side: bool = False) -> dict:
        """The model's input columns for `cands` (or some rows of them); `server_side`: of
        the hardware, only the server's side (feasibility_batch's, which reads no fabric)."""
        if rows is None:
            rows = np.arange(len(cands))
        hw = cands.hardware[rows]
        columns = self.server_columns if server_side else self.columns
        batch = {key: col[hw] for key, col in columns.items()}
        batch["gpu_id"] = GpuCodes(self.gpu_codes[hw], self.gpu_ids)
        batch["nodes"] = cands.nodes[rows]
        batch.update(cands.layout_of(rows))
        batch["global_batch"] = cands.global_batch[rows]
        for key in INTEGER_COLUMNS:
            batch[key] = batch[key].astype(int, copy=False)
        batch["sequence_parallel"] = batch["sequence_parallel"].astype(bool, copy=False)
        return batch


def evaluate(clusters: Sequence[Cluster] | HardwareTable, cands: Candidates, model,
             training: Training, constants) -> dict[str, np.ndarray]:
    """All candidates through the model, vectorised, in one pass."""
    table = clusters if isinstance(clusters, HardwareTable) else HardwareTable.of(clusters)
    return estimate_batch(table.batch(cands), model, training, constants)


@dataclass(frozen=True)
class Feasibility:
    """Which candidates of a chunk can run at all, known before the time model."""

    valid: np.ndarray
    memory_fits: np.ndarray
    # The whole model's columns when it already ran on every candidate (exhaustive).
    full: dict[str, np.ndarray] | None = None

    @property
    def runnable(self) -> np.ndarray:
        return self.valid & self.memory_fits


def feasibility(table: HardwareTable, cands: Candidates, model, training: Training, constants,
                exhaustive: bool = False) -> Feasibility:
    """Validity and memory of a chunk, once per set of rows that differ only in the fabric;
    `exhaustive` runs the whole model on every candidate instead (the reference the pruned
    search is held to). Either way the figures agree: the model is element-wise, so a
    candidate's figures do not depend on the others in its pass."""
    if exhaustive:
        r = estimate_batch(table.batch(cands), model, training, constants)
        return Feasibility(r["valid"].astype(bool), r["memory_fits"].astype(bool), r)
    first, shared_of = _sharing(cands)
    # The server's side of the hardware alone: half the columns to gather and prepare.
    pre = feasibility_batch(table.batch(cands, first, server_side=True), model, training,
                            constants)
    return Feasibility(pre["valid"].astype(bool)[shared_of],
                       pre["memory_fits"].astype(bool)[shared_of])


def _sharing(cands: Candidates) -> tuple[np.ndarray, np.ndarray]:
    if cands.shared_first is None:
        rows = np.arange(len(cands))
        return rows, rows
    return cands.shared_first, cands.shared_of


def model_on(table: HardwareTable, cands: Candidates, rows: np.ndarray, model,
             training: Training, constants,
             found: Feasibility | None = None, runnable: bool = False) -> dict[str, np.ndarray]:
    """The whole model on some rows of a chunk (taken from `found` if it already ran);
    `runnable`: the rows are known valid and fitting (Enumeration.runnable_chunks built only
    those), so their validity and memory are not worked out again (estimate_batch)."""
    if found is not None and found.full is not None:
        return {k: v[rows] for k, v in found.full.items()}
    return estimate_batch(table.batch(cands, rows), model, training, constants,
                          table.links(constants, cands, rows), runnable)


def throughput_bound(table: HardwareTable, cands: Candidates, rows: np.ndarray, model,
                     training: Training, constants) -> dict[str, np.ndarray]:
    """Upper bounds of the throughput of some rows of a chunk: their compute (once per set of
    rows that differ only in the fabric) with each micro-batch's exposed tensor-parallel
    all-reduces and expert all-to-alls on top (once per pair and the layout's degrees they
    read: step.layer_collectives_batch). The compute's columns and the layers' collectives are
    kept for the floor."""
    _, shared_of = _sharing(cands)
    firsts, back = distinct_ints(shared_of[rows])
    first = rows[firsts]  # any row of each set will do: they share the figures
    bound = compute_bound_batch(table.batch(cands, first, server_side=True), model, training,
                                constants)
    out = {k: v[back] for k, v in bound.items()}
    if rows.size == 0:
        return out
    key = _layers_key(cands, first)[back] * len(table.gpu_codes) + cands.hardware[rows]
    # Each key once (any row of it will do: they share the collectives), as dense codes.
    ones, code = distinct_ints(key)
    one = rows[ones]
    layers = layer_collectives_batch(table.batch(cands, one), model, training, constants,
                                     table.links(constants, cands, one))
    per_row = {k: v[code] for k, v in layers.items()}
    tighter = layers_bound(out, per_row, cands.global_batch[rows], model)
    # The layers' collectives of each row kept too: the floor prices them as they are priced.
    return {**out, **tighter, **per_row}


# The layout's degrees a layer's collectives read (step.layer_collectives_batch).
_LAYERS_KEY = ("tp", "ep", "cp", "micro_batch", "sequence_parallel")


def _layers_key(cands: Candidates, rows: np.ndarray) -> np.ndarray:
    """Per row, a code of its _LAYERS_KEY degrees, equal for rows of equal degrees: 0, 1, ...
    in the order of the distinct degrees, so that codes stay as few as the layouts."""
    layout = cands.layout_of(rows)
    columns = [np.asarray(layout[k]).astype(np.int64) for k in _LAYERS_KEY]
    flat = np.ravel_multi_index(columns, [int(c.max(initial=0)) + 1 for c in columns])
    return np.unique(flat, return_inverse=True)[1]


def throughput_floor(table: HardwareTable, cands: Candidates, rows: np.ndarray, model,
                     training: Training, constants,
                     bound: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """Upper bounds of the throughput of some rows of a chunk from compute and the part of
    their communication the model never hides (step_floor_batch): tighter than
    throughput_bound's, and per row, since the network's share depends on the fabric.
    `bound`: throughput_bound's columns of these rows, whose compute the floor then reads."""
    compute = None if bound is None else {k: bound[k] for k in FLOOR_COMPUTE}
    layers = None if bound is None or "tp_s" not in bound else {k: bound[k] for k in
                                                                ("tp_s", "ep_s")}
    return step_floor_batch(table.batch(cands, rows), model, training, constants, compute,
                            table.links(constants, cands, rows), layers)
