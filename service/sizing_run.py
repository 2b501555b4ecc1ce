"""The work of one sizing: the offer's candidates through the core, priced, as a typed result.

body -> SizingRequest -> sellable pairs (catalog) -> candidates and model (sizing.search) ->
price tables (catalog.pricing) -> failures (sizing.goodput) -> rules and rank (sizing.ranking)
-> advice, series, words (sizing.advice, sizing.series, sizing.explain) -> the shown
configurations priced in Decimal by the same engine -> SizingResult.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from datetime import date
from itertools import chain

import numpy as np

from catalog import pricing
from catalog.offer import sellable_pairs
from catalog.pricing import Configuration
from catalog.snapshot import Snapshot
from service.sizing_request import SizingRequest
from service.sizing_result import SizingResult
from service.sizing_shown import Nothing, Search, shown_result
from sizing import goodput, ranking, series
from sizing.constants import ModelConstants
from sizing.hardware import Cluster
from sizing.policy import SizingPolicy
from sizing.search import (
    RULE_INVALID,
    RULE_MEMORY,
    RULE_STOCK,
    Candidates,
    Feasibility,
    HardwareTable,
    RunnableChunk,
    enumeration,
    feasibility,
    joined,
    model_on,
    throughput_bound,
    throughput_floor,
)

Progress = Callable[[float], None]
# Rows of best bound per cell timed first: their best true score is what the cell's other rows'
# bounds must beat. More probes prune more rows and cost more of their own (measured with the
# bound of compute and the layers' collectives, rows timed in all, probes included: the 70B
# full-catalog search at 1-128 nodes 2 probes 40.3k, 4 24.9k, 6 28.2k, 8 33.5k, 12 43.6k, 16
# 54.1k, fastest at 4-6, 8 within 5-10% of them; mixtral-8x7b at 1-48 nodes 3 probes 158k,
# 4 116k, 6 86.8k, 8 82.2k, fastest at 8, 4 25% slower). 8 holds both within 10%.
PROBES_PER_CELL = 8
# Screened chunks bounded and timed together at most (sizing_run._Pool); with the rows they
# bring, at most one chunk's size.
POOLED_CHUNKS = 16
# The model's columns the result reads of each (hardware, node count)'s best candidate (the
# advice's options, the intervals of the ranked ones with the bubble that bounds their
# efficiency); the ranked configurations themselves are estimated again, all in one pass
# (sizing_shown.ranked_estimates), for the breakdown, memory and words. Only
# these are kept per cell, so the kept table stays small however wide the node range.
SHOWN_MODEL_COLUMNS = ("scaling_efficiency", "communication_share", "gpus", "tokens_per_s",
                       "samples_per_s", "step_time_s", "mfu", "bubble_s")
FAILURE_FIELDS = tuple(f.name for f in fields(goodput.CandidateGoodput))
# What a chunk's ranking reads of the model's columns of its rows run (`_ranked`): whether
# the row runs at all, and what is kept per cell (the throughput among it). The pool joins
# only these of its passes, not the model's every column, and each once.
RANKED_MODEL_COLUMNS = ("valid", "memory_fits", *SHOWN_MODEL_COLUMNS)


def run(snap: Snapshot, request: SizingRequest, progress: Progress, today: date) -> SizingResult:
    """Search and rank here, then what the result shows (service.sizing_shown)."""
    found = search(snap, request, progress)
    progress(0.75)
    return shown_result(found, today)


# ------------------------------------------------------------------------------ the search

def search(snap: Snapshot, request: SizingRequest, progress: Progress,
           exhaustive: bool = False) -> Search | Nothing:
    """The offer's candidates through the model a chunk at a time, priced with and without hot
    spares, ruled on, scored; of each chunk only the best candidate per (hardware, node count)
    and the counts are kept, so memory is bounded by the chunk size whatever the node range.
    Beyond one leaf, each cell's fastest layout is then evaluated on the fabric's oversubscribed
    spines (`Variants`), ranked as hardware of its own. Unless a rule reads the time to train,
    the rows of several chunks that reach the bounds are bounded and timed together (`_Pool`).

    `exhaustive` runs every candidate through the whole model in one pass, without ruling out
    invalid or non-fitting layouts first: the reference the tests hold the search to.
    """
    policy, model = snap.policy, request.model
    training = request.training(policy)
    max_batch = request.max_global_batch(policy)
    offer = sellable_pairs(snap, request.hardware, request.region)
    pairs, excluded = tuple(offer.pairs), dict(offer.excluded)
    progress(0.1)
    clusters, variants, table = _offer_hardware(snap, pairs, max(request.node_counts))
    all_pairs, all_clusters = pairs + variants.pairs, clusters + variants.clusters
    space = enumeration([c.gpus_per_node for c in clusters], request.node_counts, model,
                        training, request.layout, request.batch_fixed, max_batch,
                        table.groups[:len(clusters)])
    excluded.update({f"layout_{k}": v for k, v in space.skipped.items() if v})
    ctx = _Context.of(snap, request, all_pairs, all_clusters,
                      variants.leaf_of(len(all_pairs)))
    if exhaustive:
        chunks = (RunnableChunk(c, np.zeros(0, np.intp), {}, len(c))
                  for c in space.chunks(np.iinfo(np.int64).max))
    else:
        # Only what can run within stock is built; the rest of each chunk is counted.
        chunks = space.runnable_chunks(
            policy.max_candidates_per_pass,
            lambda sets: feasibility(table, sets, model, training, ctx.constants), ctx.usable)
    first = next(chunks, None)
    if first is None:
        return Nothing(snap, request, excluded, "no parallel layout fits these node counts", 0)
    # Only cells within their pair's stock can be sold, so only those are kept per cell.
    held = np.searchsorted(np.asarray(request.node_counts), ctx.usable, side="right")
    best = ranking.RunningBest(len(all_pairs), len(request.node_counts), held)
    fastest = _Fastest(best, len(pairs))
    done, total, told = 0, max(space.size, 1), 0
    pool = (None if exhaustive or ctx.rules_need_the_time
            else _Pool(ctx, best, table, fastest, policy.max_candidates_per_pass))
    for chunk in chain([first], chunks):
        if pool is None:
            _rank_chunk(ctx, best, table, chunk, exhaustive, fastest)
        else:
            pool.add(_screened(ctx, table, chunk, False, fastest))
        done += chunk.size
        # A report may be a heartbeat the worker commits (tasks.sizing: at most one per
        # second or tenth of the lease); one per tenth of the search is
        # enough to show progress and keep the lease, not one per chunk.
        if (tenth := 10 * done // total) > told:
            told = tenth
            progress(0.1 + 0.5 * done / total)
    if pool is not None:
        pool.flush()
    extra = variants.candidates(fastest, request.node_counts)
    step = policy.max_candidates_per_pass
    for start in range(0, len(extra) if extra is not None else 0, step):
        # One row per cell and ratio, each a cell of its own: the whole model on each, nothing
        # pruned by a bound, a chunk at a time. Each is its pair's runnable layout on the same
        # server, so it runs here too (validity and memory read no fabric): it is built.
        rows = extra.rows(slice(start, start + step))
        _rank_chunk(ctx, best, table, RunnableChunk(rows, np.zeros(0, np.intp), {}, len(rows)),
                    exhaustive, None)
    excluded.update(best.excluded)
    kept, col = best.kept()
    if kept.size == 0:
        return Nothing(snap, request, excluded, "every candidate was ruled out", best.evaluated)
    counts = len(request.node_counts)
    cands = Candidates(kept // counts, np.asarray(request.node_counts)[kept % counts],
                       {k[len("layout_"):]: v for k, v in col.items() if k.startswith("layout_")},
                       col["global_batch"], node_index=kept % counts)
    r = {k[len("r_"):]: v for k, v in col.items() if k.startswith("r_")}
    failures = goodput.CandidateGoodput(**{name: col[f"f_{name}"] for name in FAILURE_FIELDS})
    ranked = ranking.rank(cands.hardware, cands.nodes, col["score"], np.ones(kept.size, bool),
                          all_pairs, policy.max_results_per_server,
                          request.max_results)
    return Search(snap, request, training, max_batch, all_pairs, all_clusters, cands, r,
                  col["rate"], col["hours"], col["cost"], col["months"], col["on_demand"],
                  col["monthly"], col["raw_score"], col["score"], failures, best, excluded,
                  ranked, col["spares"].astype(int), table)


# The hardware of the searches run last: a worker sizes request after request on one catalog
# version and a few offers, whose clusters, variants and columns never change (the full
# catalog's 103 pairs and 183 variants at 1-128 nodes: 5.9 ms of CPU to build, 0.01 ms
# kept). Keyed by the snapshot (kept in the entry, so that its id is not reused while the
# entry lives), the pairs and which of them pass one leaf; bounded, so that a process that
# sees many offers does not grow without limit.
_HARDWARE_KEPT = 8
_HARDWARE: OrderedDict = OrderedDict()
_HARDWARE_LOCK = threading.Lock()


def _offer_hardware(snap: Snapshot, pairs: tuple[tuple[str, str], ...], most_nodes: int,
              ) -> tuple[tuple[Cluster, ...], Variants, HardwareTable]:
    """The pairs' clusters, their oversubscribed variants at up to `most_nodes` nodes, and the
    columns of both (the variants after the pairs)."""
    past_leaf = tuple(most_nodes > snap.fabrics[f].nodes_below_spine for _, f in pairs)
    key = (id(snap), pairs, past_leaf)
    with _HARDWARE_LOCK:
        hit = _HARDWARE.get(key)
        if hit is not None and hit[0] is snap:
            _HARDWARE.move_to_end(key)
            return hit[1]
    clusters = tuple(snap.cluster(s, f, 1) for s, f in pairs)
    variants = Variants.of(snap, pairs, clusters, most_nodes)
    built = clusters, variants, HardwareTable.of(clusters + variants.clusters)
    with _HARDWARE_LOCK:  # a race builds the same hardware twice, which is harmless
        _HARDWARE[key] = (snap, built)
        _HARDWARE.move_to_end(key)
        while len(_HARDWARE) > _HARDWARE_KEPT:
            _HARDWARE.popitem(last=False)
    return built


@dataclass(frozen=True)
class Variants:
    """Each fabric's priced oversubscribed spines, as hardware of their own after the pairs.

    For every (server, fabric, node count) beyond one leaf, the layout of highest throughput on
    the non-blocking fabric is also evaluated at each higher ratio the fabric is priced at: a
    2:1 spine costs a topology-ordered ring little and all-to-all much (sizing.collectives), and
    the ranking weighs that against the cheaper switch ports. Inside one leaf there is no spine
    to oversubscribe; a cell out of stock has no variant (it shares the server's stock, so it
    could not be sold either).
    """

    pairs: tuple[tuple[str, str], ...]
    clusters: tuple[Cluster, ...]
    origin: tuple[int, ...]  # the pair each variant oversubscribes
    below_spine: tuple[int, ...]  # nodes of one leaf, per variant

    @classmethod
    def of(cls, snap: Snapshot, pairs, clusters, most_nodes: int) -> Variants:
        """The variants of the pairs whose `clusters` pass one leaf at `most_nodes` nodes."""
        rows = []
        for h, ((server, fabric), cluster) in enumerate(zip(pairs, clusters)):
            leaf = cluster.fabric.nodes_below_spine
            if most_nodes <= leaf:
                continue
            rows.extend(((server, fabric), snap.cluster(server, fabric, 1, ratio), h, leaf)
                        for ratio in snap.fabric_oversubscription_options[fabric]
                        if ratio > cluster.fabric.oversubscription)
        return cls(*(tuple(x) for x in zip(*rows))) if rows else cls((), (), (), ())

    def leaf_of(self, pairs: int) -> np.ndarray:
        """Per hardware, the node count past which the variants read its fastest layout per
        cell (none: past every count)."""
        above = np.full(pairs, np.iinfo(np.int64).max)
        for h, leaf in zip(self.origin, self.below_spine):
            above[h] = leaf
        return above

    def candidates(self, fastest: _Fastest, node_counts) -> Candidates | None:
        """Per variant and node count beyond its leaf, its pair's fastest runnable layout."""
        counts = len(node_counts)
        nodes = np.asarray(node_counts)
        # Per variant, then node count: its pair's cells past one leaf, one pass for all.
        variant, node_index = np.nonzero(nodes > np.asarray(self.below_spine)[:, None])
        rows_a = np.asarray(self.origin, np.int64)[variant] * counts + node_index
        found = np.isfinite(fastest.rate_of(rows_a))
        if not found.any():
            return None
        rows_a, node_index = rows_a[found], node_index[found]
        hardware = fastest.pairs + variant[found]
        slots = fastest.slot[fastest.best.stored(rows_a)]
        cols = {k: v[slots] for k, v in fastest.columns.items()}
        return Candidates(hardware, nodes[node_index],
                          {k[len("layout_"):]: v for k, v in cols.items()
                           if k.startswith("layout_")},
                          cols["global_batch"], node_index=node_index)


class _Fastest:
    """Per cell of the pairs within their stock (the cells of `best`), the runnable layout of
    highest throughput (ties: first seen), for the oversubscribed variants. Each cell lies in
    one chunk, so a chunk sets its cells once."""

    def __init__(self, best: ranking.RunningBest, pairs: int):
        self.best, self.pairs = best, pairs
        cells = int(best.base[pairs]) if pairs < best.base.size else best.score.size
        self.rate = np.full(cells, -np.inf)
        self.slot = np.full(cells, -1, np.intp)
        self._rows: dict[str, list[np.ndarray]] = {}
        self._used = 0

    def rate_of(self, cell: np.ndarray) -> np.ndarray:
        """The fastest runnable layout's throughput per cell (-inf: none, or past the stock)."""
        at = self.best.stored(cell)
        out = np.full(at.shape, -np.inf)
        held = at >= 0  # with nothing in stock, no cell is stored and `rate` is empty
        out[held] = self.rate[at[held]]
        return out

    @property
    def columns(self) -> dict[str, np.ndarray]:
        """The kept rows' columns, joined once when read (after the chunks), not per chunk."""
        return {k: np.concatenate(v) for k, v in self._rows.items()}

    def add(self, cell: np.ndarray, rate: np.ndarray,
            columns: Callable[[np.ndarray], dict[str, np.ndarray]]) -> None:
        """Some runnable rows: their cells, throughputs and what is kept of some of them
        (`columns` of their positions)."""
        if cell.size == 0:
            return
        top = ranking.lowest_per_group(cell, -rate, 1)
        at = self.best.stored(cell[top])  # a cell that wants the fastest is in stock
        if (at < 0).any():
            raise ValueError("a fastest layout past its pair's stock")
        self.rate[at] = rate[top]
        self.slot[at] = np.arange(self._used, self._used + top.size)
        self._used += top.size
        for k, v in columns(top).items():
            self._rows.setdefault(k, []).append(np.asarray(v))


@dataclass(frozen=True)
class _Context:
    """What every chunk's rules and scores read: per billed cell prices, per pair stock and
    fabric, the hot spares of each node count."""

    request: SizingRequest
    policy: SizingPolicy
    constants: ModelConstants
    # The failures without and with hot spares of each kind of pair (`failing_as`: its
    # fabric's kind and losslessness, NICs and GPUs per node, all that failures read) at each
    # node count: every candidate of a cell has its pair's, whatever its layout, so they are
    # worked out once per search, for the few kinds rather than every pair, and picked per row.
    failures: tuple[goodput.RunFailures, goodput.RunFailures]
    failing_as: np.ndarray  # per hardware, its kind
    rates: pricing.RateTable  # by billed cell: hardware x node counts billed (spares included)
    billed_counts: int  # billed cells per hardware
    # Whether each hardware's last billed cell is a one-node job with its spares, which bills
    # no fabric line (a spare only takes the node's place), unlike a job of as many nodes.
    one_node_spared: bool
    hours_per_month: int
    usable: np.ndarray  # nodes in stock per hardware pair
    lossy: np.ndarray
    spares_at: np.ndarray  # the hot-spare option's spare nodes per node index
    # Per hardware: the node count past which its fastest runnable layout per cell is kept.
    fastest_above: np.ndarray

    @classmethod
    def of(cls, snap: Snapshot, request: SizingRequest, pairs, clusters,
           fastest_above: np.ndarray) -> _Context:
        counts = request.node_counts
        spares_at = goodput.hot_spares(snap.reliability, np.asarray(counts)).astype(int)
        usable = np.array([snap.stock_of(request.region, s).usable(request.max_lead_time_days)
                           for s, _ in pairs])
        # Billed node counts: up to the largest that some pair has in stock (a candidate past
        # its stock is never sold, so its price is never read for a result), and on past it to
        # bill its spares; memory then follows the stock, not the range asked for.
        last = min(counts[-1], max(int(usable.max(initial=0)), counts[0]))
        billed = list(range(counts[0], last + int(spares_at[last - counts[0]]) + 1))
        jobs = list(billed)
        one_node_spared = counts[0] == 1 and bool(spares_at[0])
        if one_node_spared:
            billed.append(1 + int(spares_at[0]))
            jobs.append(1)
        templates = [Configuration(s, f, 1, request.region, c.server.nics_per_node,
                                   c.fabric.oversubscription)
                     for (s, f), c in zip(pairs, clusters)]
        fabrics = [snap.fabrics[f] for _, f in pairs]
        failing = goodput.PairFailures.of(clusters)
        per_node = np.array([c.gpus_per_node for c in clusters], np.int64)
        _, kinds, failing_as = np.unique(
            np.stack([failing.fabric_kind, failing.lossless, failing.nics_per_node, per_node],
                     axis=1), axis=0, return_index=True, return_inverse=True)
        hardware = np.repeat(kinds, len(counts))  # a pair of each kind stands for the kind
        nodes = np.tile(np.asarray(counts), kinds.size)
        size = goodput.checkpoint_bytes(request.model.params, snap.constants, request.precision)
        failures = tuple(goodput.failures_of(snap.reliability, failing, hardware, nodes,
                                             nodes * per_node[hardware], size, hot_spare=spared)
                         for spared in (False, True))
        return cls(
            request, snap.policy, snap.constants, failures, failing_as.reshape(-1),
            pricing.rate_grid(snap.prices, templates, billed, term=request.term,
                              currency=request.currency, job_nodes=jobs),
            len(billed), one_node_spared, snap.prices.hours_per_month, usable,
            np.array([f.kind == "roce" and not f.lossless for f in fabrics]),
            spares_at, fastest_above)

    @property
    def rules_need_the_time(self) -> bool:
        """Whether a rule reads the time to train (a total budget, a deadline)."""
        r = self.request
        return r.budget_total is not None or bool(r.work.units and r.work.duration_days)

    def spares(self, cands: Candidates, with_spares: bool) -> np.ndarray:
        return self.spares_at[cands.node_index] if with_spares else np.zeros(len(cands), int)

    def billed_cell(self, cands: Candidates, spares: np.ndarray,
                    rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """The rate-table cell of each candidate (of `rows`, `spares` being theirs)."""
        counts = self.request.node_counts
        nodes = cands.nodes[rows]
        by_count = self.billed_counts - 1 - int(self.one_node_spared)
        # Past every pair's stock the last billed count stands in: such a row is ruled out by
        # the stock rule, which comes first, so its price is never shown or ranked.
        billed = np.minimum(nodes + spares - counts[0], by_count)
        if self.one_node_spared:
            billed = np.where((nodes == 1) & (spares > 0), self.billed_counts - 1, billed)
        return cands.hardware[rows] * self.billed_counts + billed

    def known_rules(self, cands: Candidates, valid: np.ndarray, fits: np.ndarray,
                    with_spares: bool) -> list[tuple[str, np.ndarray]]:
        """The rules known before the time model, for the candidates as asked or with spares."""
        spares = self.spares(cands, with_spares)
        rules = [(RULE_INVALID, valid), (RULE_MEMORY, fits),
                 (RULE_STOCK, cands.nodes + spares <= self.usable[cands.hardware])]
        if self.request.budget_per_month is not None:
            monthly = self.rates.monthly_net[self.billed_cell(cands, spares)]
            rules.append(("budget", monthly <= float(self.request.budget_per_month)))
        return rules

    def scored(self, rate: np.ndarray, cands: Candidates, rows: np.ndarray,
               with_spares: bool, figures: bool = True) -> dict[str, np.ndarray]:
        """Failures, billed time, money and score of some rows of a chunk at this throughput,
        as asked or with hot spares. Every figure rises with the time to train (the wall clock
        with failures is linear in it), so a throughput's upper bound gives each figure's lower
        bound. `figures`: False for the score and objective alone (a bound's, `bound`)."""
        request = self.request
        units, hardware = request.work.units, cands.hardware[rows]
        ideal = (units / rate / 3600.0 if units
                 else np.full(rate.shape, request.work.duration_days * 24.0))
        cells = self.failing_as[hardware] * len(request.node_counts) + cands.node_index[rows]
        if figures:
            failures = self.failures[with_spares].at(cells).of_work(ideal)
            wall_hours, useful = failures.wall_hours, failures.goodput
        else:
            wall_hours, useful, _ = self.failures[with_spares].wall_clock_of(ideal, cells)
        # Billed: the work with checkpoints, interruptions and restarts, or the duration given.
        hours = wall_hours if units else ideal
        spares = self.spares(cands, with_spares)[rows]
        cell = self.billed_cell(cands, spares, rows)
        cost, months, on_demand = pricing.training_cost(self.rates, cell, hours, request.term,
                                                        self.hours_per_month)
        if units:
            time_per_unit, cost_per_unit = hours, cost
        else:
            # A fixed duration: rank by time and cost per unit of work done in it, the time
            # lost to failures excluded.
            useful_rate = rate * useful
            time_per_unit, cost_per_unit = 1.0 / useful_rate, cost / useful_rate
        raw = ranking.objective_score(request.objective, time_per_unit, cost_per_unit)
        # The preference is about the fabric's traffic: a one-node job sends none over it.
        score = raw + ranking.preference_handicap(self.policy.preference_tolerance,
                                                  self.lossy[hardware] & (cands.nodes[rows] > 1))
        if not figures:
            return {"raw_score": raw, "score": score}
        return {"rate": rate, "hours": hours, "cost": cost, "months": months,
                "on_demand": on_demand, "monthly": self.rates.monthly_net[cell],
                "raw_score": raw, "score": score, "spares": spares,
                **{f"f_{name}": getattr(failures, name) for name in FAILURE_FIELDS}}

    def time_rules(self, figures: dict[str, np.ndarray]) -> list[tuple[str, np.ndarray]]:
        """The rules that read the time to train, on the rows the model ran on."""
        request, rules = self.request, []
        if request.budget_total is not None:
            rules.append(("budget", figures["cost"] <= float(request.budget_total)))
        if request.work.units and request.work.duration_days is not None:
            rules.append(("deadline", figures["hours"] <= request.work.duration_days * 24.0))
        return rules

    def bound(self, rate: np.ndarray, cands: Candidates,
              rows: np.ndarray) -> dict[str, np.ndarray]:
        """Lower bounds of the score and objective of rows whose throughput is at most `rate`,
        whichever option (with or without spares) the ranking takes for them."""
        a, b = (self.scored(rate, cands, rows, s, figures=False) for s in (False, True))
        return {k: np.minimum(a[k], b[k]) for k in ("score", "raw_score")}

    def taken(self, options: list[dict[str, np.ndarray]],
              ok: tuple[np.ndarray, np.ndarray]) -> dict[str, np.ndarray]:
        """Score and objective of some rows with the option the ranking takes, when no rule
        reads the time (`options`: their figures as asked and with spares, `ok`: their known
        rules as asked, with spares)."""
        a, b = options
        take = ranking.worth_adding(self.policy.preference_tolerance, a["raw_score"],
                                    b["raw_score"], ok[0], ok[1])
        return {k: np.where(take, b[k], a[k]) for k in ("score", "raw_score")}


def _chosen(ctx: _Context, screened: _Screened, run: np.ndarray, r: dict,
            options: list[dict[str, np.ndarray]] | None = None,
            ) -> tuple[Callable[..., dict[str, np.ndarray]], ranking.Eligibility]:
    """Both options of the rows `run` (the model's figures `r`), the one the ranking takes per
    row, and the chunk's eligibility under it. The figures of the option taken are given by
    a function of some of the rows run (positions among them; default all) and the names of
    the figures (default all), so that those kept of a few rows only are picked for those
    alone. Rows not run take the option without spares
    (they fail a rule known before the time model either way, or were left out by their
    bound, and are then eligible): the chunk's eligibility is that option's, the rules known
    before the time model applied once to the whole chunk (`_screened`), with the rows run
    that take the spares ruled on as that option rules them. `options`: both options' figures
    of the rows run, when already scored (`_Pool`)."""
    cands = screened.cands
    n = len(cands)
    if options is None:
        rate = series.rate_of(ctx.request.model, r)
        options = [ctx.scored(rate, cands, run, s) for s in (False, True)]

    def expanded(rules):  # rules of the rows run, as rules of the chunk (the others pass)
        out = []
        for name, ok in rules:
            allowed = np.ones(n, bool)
            allowed[run] = ok
            out.append((name, allowed))
        return out

    without = ranking.also(screened.without, expanded(ctx.time_rules(options[0])))
    spared = ranking.sellable([(name, ok[run]) for name, ok in screened.spared_rules]
                              + ctx.time_rules(options[1]))
    take = ranking.worth_adding(ctx.policy.preference_tolerance, options[0]["raw_score"],
                                options[1]["raw_score"], without.eligible[run],
                                spared.eligible)
    def figures(at: np.ndarray | slice = slice(None),
                names: Sequence[str] | None = None) -> dict[str, np.ndarray]:
        taken = take[at]
        return {k: np.where(taken, options[1][k][at], options[0][k][at])
                for k in (options[0] if names is None else names)}
    if not take.any():
        return figures, without
    # A candidate is ruled out by one rule at most in each option, so the chunk's masks are
    # those without spares with the rows that take them replaced by theirs.
    rows = run[take]
    eligible = without.eligible.copy()
    eligible[rows] = spared.eligible[take]
    ruled_out, excluded = {}, {}
    for name in dict.fromkeys([*without.ruled_out, *spared.ruled_out]):
        mask = (without.ruled_out[name].copy() if name in without.ruled_out
                else np.zeros(n, bool))
        mask[rows] = spared.ruled_out[name][take] if name in spared.ruled_out else False
        ruled_out[name] = mask
        if count := int(np.count_nonzero(mask)):
            excluded[name] = count
    return figures, ranking.Eligibility(eligible, excluded, ruled_out)


@dataclass(frozen=True)
class _Screened:
    """A chunk on the rules known without the time model, and the rows the model must see."""

    cands: Candidates
    cell: np.ndarray
    found: Feasibility
    chunk: RunnableChunk  # with the counts of the chunk's candidates not built
    # Rows that pass every rule known without the time model as asked or with spares, or that
    # could be their cell's fastest runnable layout (exhaustive: all).
    run: np.ndarray
    known: tuple[np.ndarray, np.ndarray]  # of `run`: those rules passed as asked, with spares
    wants_fastest: np.ndarray  # of `run`
    without: ranking.Eligibility  # of the chunk, on those rules as asked
    spared_rules: list[tuple[str, np.ndarray]]  # of the chunk, those rules with spares


def _screened(ctx: _Context, table: HardwareTable, chunk: RunnableChunk, exhaustive: bool,
              fastest: _Fastest | None) -> _Screened:
    """The rules of a chunk known before the time model: validity, memory, stock and the
    monthly budget as asked or with spares; and which runnable rows could be their cell's
    fastest, for the pairs with oversubscribed variants.

    The time model runs only on candidates that pass every rule known without it or that
    could be their cell's fastest runnable layout, and, unless a rule reads the time to train,
    only on those whose bounds could still beat their cell's best (or its fastest, _Pool and
    _undominated): both exact, since a candidate left out could be neither eligible-and-unseen,
    nor a cell's best, nor a cell's fastest."""
    request, model, training = ctx.request, ctx.request.model, ctx.request.training(ctx.policy)
    cands = chunk.cands
    cell = cands.hardware * len(request.node_counts) + cands.node_index
    if exhaustive:
        found = feasibility(table, cands, model, training, ctx.constants, exhaustive)
    else:  # what was built runs (Enumeration.runnable_chunks)
        found = Feasibility(np.ones(len(cands), bool), np.ones(len(cands), bool))
    runnable = found.valid & found.memory_fits
    without = ranking.sellable(ctx.known_rules(cands, found.valid, found.memory_fits, False))
    spared_rules = ctx.known_rules(cands, found.valid, found.memory_fits, True)
    known = (without.eligible, np.logical_and.reduce([ok for _, ok in spared_rules]))
    passing = known[0] | known[1]
    # A variant shares its pair's server and so its stock: out of stock as asked, it is out
    # of stock with spares too and could not be sold; its layout is not looked for.
    wants_fastest = (runnable & (cands.nodes > ctx.fastest_above[cands.hardware])
                     & (cands.nodes <= ctx.usable[cands.hardware]))
    if fastest is None:
        wants_fastest[:] = False
    run = np.arange(len(cands)) if exhaustive else np.flatnonzero(passing | wants_fastest)
    return _Screened(cands, cell, found, chunk, run, (known[0][run], known[1][run]),
                     wants_fastest[run], without, spared_rules)


def _rank_chunk(ctx: _Context, best: ranking.RunningBest, table: HardwareTable,
                chunk: RunnableChunk, exhaustive: bool, fastest: _Fastest | None) -> None:
    """One chunk with the whole model on every row that passes the rules known without it
    (exhaustive: on every row): where a rule reads the time to train, no bound can leave a
    row out."""
    screened = _screened(ctx, table, chunk, exhaustive, fastest)
    r = model_on(table, chunk.cands, screened.run, ctx.request.model,
                 ctx.request.training(ctx.policy), ctx.constants, screened.found,
                 runnable=not exhaustive)
    _ranked(ctx, best, screened, screened.run, r, fastest)


def _ranked(ctx: _Context, best: ranking.RunningBest, screened: _Screened, run: np.ndarray,
            r: dict[str, np.ndarray], fastest: _Fastest | None,
            options: list[dict[str, np.ndarray]] | None = None) -> None:
    """A chunk's rules and scores, the model's figures `r` of its rows `run` given; its best
    candidate per cell goes to `best`, and, for the pairs with oversubscribed variants, its
    fastest runnable layout per cell to `fastest`. Rows not run are ruled out by a rule known
    without the model or were left out by their bound (sizing_run._undominated)."""
    model, cands, cell = ctx.request.model, screened.cands, screened.cell
    figures, eligibility = _chosen(ctx, screened, run, r, options)
    n = len(cands)
    score, raw = np.full(n, np.inf), np.full(n, np.inf)
    scores = figures(names=("score", "raw_score"))
    score[run], raw[run] = scores["score"], scores["raw_score"]

    def columns(at: np.ndarray) -> dict[str, np.ndarray]:
        """What is kept of the rows run at `at` (positions among them): the winners'."""
        rows = run[at]
        return {**figures(at), "global_batch": cands.global_batch[rows],
                **{f"layout_{k}": v for k, v in cands.layout_of(rows).items()},
                **{f"r_{k}": r[k][at] for k in SHOWN_MODEL_COLUMNS}}
    # The chunk's candidates never built first: the counts by rule then come in the order
    # one chunk's rules give them (validity, memory, stock, then budget and the time's).
    best.count(screened.chunk.cells, screened.chunk.ruled_out)
    best.add(cell, score, raw, eligibility, columns, run)
    if fastest is not None:
        # Of the rows run (exhaustive: all), those the whole model finds valid and fitting.
        wants = np.zeros(n, bool)
        wants[screened.run] = screened.wants_fastest
        mine = np.flatnonzero(wants[run] & r["valid"].astype(bool)
                              & r["memory_fits"].astype(bool))
        rows = run[mine]
        fastest.add(cell[rows], series.rate_of(model, r)[mine],
                    lambda at: {"global_batch": cands.global_batch[rows[at]],
                                **{f"layout_{k}": v
                                   for k, v in cands.layout_of(rows[at]).items()}})


class _Pool:
    """Screened chunks whose rows are bounded and timed together: each cell's probes, then the
    rows they leave, in one pass of the model for several chunks rather than one per chunk
    (numpy's calls, not the rows, are most of a pass of a few thousand: 1.6 ms for 100 rows of
    the full catalog's 70B, 2.9 ms for 3,000). Exact as one chunk at a time: the bound rules
    on each cell alone (a cell lies in one chunk), and the chunks are then ranked in their
    order. At most `rows` rows of at most POOLED_CHUNKS chunks wait, with those chunks'
    screened columns: memory stays bounded by POOLED_CHUNKS chunks (about 40 MB), whatever
    the node range."""

    def __init__(self, ctx: _Context, best: ranking.RunningBest, table: HardwareTable,
                 fastest: _Fastest, rows: int):
        self.ctx, self.best, self.table, self.fastest, self.limit = ctx, best, table, fastest, rows
        self.pending: list[_Screened] = []
        self.rows = 0

    def add(self, screened: _Screened) -> None:
        if self.pending and (self.rows + screened.run.size > self.limit
                             or len(self.pending) == POOLED_CHUNKS):
            self.flush()
        self.pending.append(screened)
        self.rows += screened.run.size

    def flush(self) -> None:
        pending, self.pending, self.rows = self.pending, [], 0
        if not pending:
            return
        ctx, table = self.ctx, self.table
        both = joined([(s.cands, s.run) for s in pending])
        # Both options of every row timed, scored for the pool's chunks at once rather than
        # per chunk (the figures are element-wise, so each row's are its chunk's).
        if len(both):
            cell = both.hardware * len(ctx.request.node_counts) + both.node_index
            kept, r, options = _undominated(
                ctx, self.best, table, both, cell, np.arange(len(both)),
                tuple(np.concatenate([s.known[i] for s in pending]) for i in (0, 1)),
                np.concatenate([s.wants_fastest for s in pending]))
        else:
            kept = np.zeros(0, np.intp)
            r = model_on(table, both, kept, ctx.request.model, ctx.request.training(ctx.policy),
                         ctx.constants)
            rate = series.rate_of(ctx.request.model, r)
            options = [ctx.scored(rate, both, kept, s) for s in (False, True)]
        starts = np.cumsum([0, *(s.run.size for s in pending)])
        cut = np.searchsorted(kept, starts)
        for k, s in enumerate(pending):
            part = slice(cut[k], cut[k + 1])
            _ranked(ctx, self.best, s, s.run[kept[part] - starts[k]],
                    {key: v[part] for key, v in r.items()}, self.fastest,
                    [{key: v[part] for key, v in o.items()} for o in options])


def _undominated(ctx: _Context, best: ranking.RunningBest, table: HardwareTable,
                 cands: Candidates, cell: np.ndarray, run: np.ndarray,
                 known: tuple[np.ndarray, np.ndarray], wants_fastest: np.ndarray,
                 ) -> tuple[np.ndarray, dict[str, np.ndarray], list[dict[str, np.ndarray]]]:
    """The rows of `run` that could be their cell's best or its fastest, the model's columns
    of those rows and their figures as asked and with spares (_Context.scored: the probes'
    scored once, for their test and their ranking). Every passing row is eligible here (no
    rule reads the time, and a row that passes the known rules of one option is sold with
    that one at least).

    Each cell's rows of highest bound (compute and its layers' exposed collectives) run
    first, its probes (of score among them, the passing rows, of throughput, those that want
    the fastest); a passing row whose bound is worse than the best true score among them
    cannot be the cell's best, and with its bound's raw score no better than the best raw
    score seen it cannot lower that either, so it is counted as eligible without running the
    time model on it. A row whose throughput bound is below the fastest probe's true throughput cannot be the
    cell's fastest. The rows that bound leaves (its compute once per set of fabrics, its
    collectives once per pair and the degrees they read: cheap) are held to the same test
    with the tighter floor of compute and unhidden communication (per row, and cheaper than
    the model), and only those it leaves too are timed.
    """
    model, training = ctx.request.model, ctx.request.training(ctx.policy)
    # Every row run here is within its pair's stock (it passes the known rules of one option
    # or wants its cell's fastest), so each cell has a stored index.
    cells = best.stored(cell[run])
    if cells.size and cells.min() < 0:
        raise ValueError("a row past its pair's stock reached the bound")
    upper = throughput_bound(table, cands, run, model, training, ctx.constants)
    rate_bound = series.rate_of(model, upper)
    inf = np.inf
    passing = known[0] | known[1]
    # A cell's rows share its hardware, node count and prices, so the lower its rows' bound
    # of throughput, the higher their bound of score (but for ties): the rows of highest
    # bound are the probes of both kinds, chosen in one pass, without scoring every row's
    # bound first. Which rows are probes decides only what is timed, never the answer.
    first = ranking.lowest_per_group(cells, -rate_bound, PROBES_PER_CELL)  # ascending
    by_score, by_rate = first[passing[first]], first[wants_fastest[first]]
    probed = np.zeros(run.size, bool)
    probed[first] = True
    r = model_on(table, cands, run[first], model, training, ctx.constants, runnable=True)
    true_rate = series.rate_of(model, r)
    probe_options = [ctx.scored(true_rate, cands, run[first], s) for s in (False, True)]
    beat = np.full(best.score.shape, inf)
    raw_floor = best.best_raw_score
    if by_score.size:
        at = np.searchsorted(first, by_score)
        true = ctx.taken([{k: o[k][at] for k in ("score", "raw_score")} for o in probe_options],
                         (known[0][by_score], known[1][by_score]))
        np.minimum.at(beat, cells[by_score], true["score"])
        raw_floor = min(raw_floor, float(np.nanmin(true["raw_score"], initial=inf)))
    fastest = np.full(best.score.shape, -inf)
    if by_rate.size:
        at = np.searchsorted(first, by_rate)
        ok = r["valid"][at].astype(bool) & r["memory_fits"][at].astype(bool)
        np.maximum.at(fastest, cells[by_rate][ok], true_rate[at][ok])

    def dominated(rows: np.ndarray, rate: np.ndarray, scores: dict[str, np.ndarray]) -> np.ndarray:
        """Of `rows` (into `run`) whose throughput is at most `rate` (scores: its bound's),
        those that could be neither their cell's best nor its fastest."""
        out = ~passing[rows] | ((scores["score"] > beat[cells[rows]])
                                & (scores["raw_score"] >= raw_floor))
        return out & ~(wants_fastest[rows] & (rate >= fastest[cells[rows]]))

    # The probes' figures are kept: only the other rows left are timed now, those the
    # communication's floor cannot rule out either.
    rest = np.flatnonzero(~probed)
    rest = rest[~dominated(rest, rate_bound[rest], ctx.bound(rate_bound[rest], cands, run[rest]))]
    if rest.size:
        floor = series.rate_of(model, throughput_floor(
            table, cands, run[rest], model, training, ctx.constants,
            bound={k: v[rest] for k, v in upper.items()}))
        rest = rest[~dominated(rest, floor, ctx.bound(floor, cands, run[rest]))]
    r_rest = model_on(table, cands, run[rest], model, training, ctx.constants, runnable=True)
    rest_rate = series.rate_of(model, r_rest)
    rest_options = [ctx.scored(rest_rate, cands, run[rest], s) for s in (False, True)]
    both = np.concatenate([first, rest])
    order = np.argsort(both, kind="stable")
    merged = {k: np.concatenate([r[k], r_rest[k]])[order] for k in RANKED_MODEL_COLUMNS}
    options = [{k: np.concatenate([p[k], q[k]])[order] for k in p}
               for p, q in zip(probe_options, rest_options)]
    kept = both[order]
    return run[kept], merged, options
