"""The work of one sizing: the offer's candidates through the core, priced, as a typed result.

body -> SizingRequest -> sellable pairs (catalog) -> candidates and model (sizing.search) ->
price tables (catalog.pricing) -> rules and rank (sizing.ranking) -> advice, series, words
(sizing.advice, sizing.series, sizing.explain) -> the shown configurations priced in Decimal by
the same engine -> SizingResult.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
from sizing import ranking, series
from sizing.constants import ModelConstants
from sizing.policy import SizingPolicy
from sizing.search import (
    Candidates,
    HardwareTable,
    enumeration,
    feasibility,
    model_on,
    throughput_bound,
)

Progress = Callable[[float], None]
# Rows of best bound per cell timed first: their best true score is what the cell's other rows'
# bounds must beat. More probes prune more rows and cost more of their own (measured on the
# 70B full-catalog search: 1 probe left 133k rows to time, 4 left 126k, 8 left 104k, 16 100k).
PROBES_PER_CELL = 8
# The model's columns the result reads of each (hardware, node count)'s best candidate (the
# advice's options); the ranked configurations themselves are estimated again, one by one.
# Only these are kept per cell, so the kept table stays small however wide the node range.
SHOWN_MODEL_COLUMNS = ("scaling_efficiency", "communication_share", "gpus", "tokens_per_s",
                       "samples_per_s", "step_time_s")


def run(snap: Snapshot, request: SizingRequest, progress: Progress, today: date) -> SizingResult:
    """Search and rank here, then what the result shows (service.sizing_shown)."""
    found = search(snap, request, progress)
    progress(0.75)
    return shown_result(found, today)


# ------------------------------------------------------------------------------ the search

def search(snap: Snapshot, request: SizingRequest, progress: Progress,
           exhaustive: bool = False) -> Search | Nothing:
    """The offer's candidates through the model a chunk at a time, priced, ruled on, scored;
    of each chunk only the best candidate per (hardware, node count) and the counts are kept,
    so memory is bounded by the chunk size whatever the node range.

    `exhaustive` runs every candidate through the whole model in one pass, without ruling out
    invalid or non-fitting layouts first: the reference the tests hold the search to.
    """
    policy, model = snap.policy, request.model
    training = request.training(policy)
    max_batch = request.max_global_batch(policy)
    offer = sellable_pairs(snap, request.hardware, request.region)
    pairs, excluded = offer.pairs, dict(offer.excluded)
    progress(0.1)
    clusters = tuple(snap.cluster(s, f, 1) for s, f in pairs)
    table = HardwareTable.of(clusters)
    space = enumeration([c.gpus_per_node for c in clusters], request.node_counts, model,
                        training, request.layout, request.batch_fixed, max_batch, table.groups)
    excluded.update({f"layout_{k}": v for k, v in space.skipped.items() if v})
    chunks = space.chunks(np.iinfo(np.int64).max if exhaustive else policy.max_candidates_per_pass)
    first = next(chunks, None)
    if first is None:
        return Nothing(snap, request, excluded, "no parallel layout fits these node counts", 0)
    ctx = _Context.of(snap, request, pairs, clusters)
    best = ranking.RunningBest(len(pairs), len(request.node_counts))
    done, total, told = 0, max(space.size, 1), 0
    for cands in chain([first], chunks):
        _rank_chunk(ctx, best, table, cands, exhaustive)
        done += len(cands)
        # Each report is a heartbeat the worker commits: one per tenth of the search is
        # enough to show progress and keep the lease, not one per chunk.
        if (tenth := 10 * done // total) > told:
            told = tenth
            progress(0.1 + 0.5 * done / total)
    excluded.update(best.excluded)
    kept, col = best.kept()
    if kept.size == 0:
        return Nothing(snap, request, excluded, "every candidate was ruled out", best.evaluated)
    counts = len(request.node_counts)
    cands = Candidates(kept // counts, np.asarray(request.node_counts)[kept % counts],
                       {k[len("layout_"):]: v for k, v in col.items() if k.startswith("layout_")},
                       col["global_batch"], node_index=kept % counts)
    r = {k[len("r_"):]: v for k, v in col.items() if k.startswith("r_")}
    ranked = ranking.rank(cands.hardware, cands.nodes, col["score"], np.ones(kept.size, bool),
                          [s for s, _ in pairs], policy.max_results_per_server,
                          request.max_results)
    return Search(snap, request, training, max_batch, tuple(pairs), clusters, cands, r,
                  col["rate"], col["hours"], col["cost"], col["months"], col["on_demand"],
                  col["monthly"], col["raw_score"], col["score"], col["long_large_run"], best,
                  excluded, ranked)


@dataclass(frozen=True)
class _Context:
    """What every chunk's rules and scores read: per cell prices and stock, per pair fabric."""

    request: SizingRequest
    policy: SizingPolicy
    constants: ModelConstants
    rates: pricing.RateTable  # by cell: hardware x node counts
    hours_per_month: int
    usable: np.ndarray  # nodes in stock per hardware pair
    lossy: np.ndarray
    infiniband: np.ndarray

    @classmethod
    def of(cls, snap: Snapshot, request: SizingRequest, pairs, clusters) -> _Context:
        templates = [Configuration(s, f, 1, request.region, c.server.nics_per_node,
                                   c.fabric.oversubscription)
                     for (s, f), c in zip(pairs, clusters)]
        fabrics = [snap.fabrics[f] for _, f in pairs]
        return cls(
            request, snap.policy, snap.constants,
            pricing.rate_grid(snap.prices, templates, request.node_counts, term=request.term,
                              currency=request.currency),
            snap.prices.hours_per_month,
            np.array([snap.stock_of(request.region, s).usable(request.max_lead_time_days)
                      for s, _ in pairs]),
            np.array([f.kind == "roce" and not f.lossless for f in fabrics]),
            np.array([f.kind == "infiniband" for f in fabrics]))

    @property
    def rules_need_the_time(self) -> bool:
        """Whether a rule reads the time to train (a total budget, a deadline)."""
        r = self.request
        return r.budget_total is not None or bool(r.work.units and r.work.duration_days)

    def scored(self, rate: np.ndarray, cell: np.ndarray, hardware: np.ndarray,
               nodes: np.ndarray) -> dict[str, np.ndarray]:
        """Time, money and score of candidates of this throughput. Every figure rises with
        the time to train, so a throughput's upper bound gives each figure's lower bound."""
        request, policy = self.request, self.policy
        units = request.work.units
        hours = (units / rate / 3600.0 if units
                 else np.full(rate.shape, request.work.duration_days * 24.0))
        cost, months, on_demand = pricing.training_cost(self.rates, cell, hours, request.term,
                                                        self.hours_per_month)
        if units:
            time_per_unit, cost_per_unit = hours, cost
        else:
            # A fixed duration: rank by time and cost per unit of work done in it.
            time_per_unit, cost_per_unit = 1.0 / rate, cost / rate
        raw = ranking.objective_score(request.objective, time_per_unit, cost_per_unit)
        long_large = (hours >= policy.long_run_days * 24) & (nodes >= policy.long_run_nodes)
        score = raw + ranking.preference_handicap(policy.preference_tolerance,
                                                  self.lossy[hardware],
                                                  self.infiniband[hardware], long_large)
        return {"rate": rate, "hours": hours, "cost": cost, "months": months,
                "on_demand": on_demand, "monthly": self.rates.monthly_net[cell],
                "raw_score": raw, "score": score, "long_large_run": long_large}


def _rank_chunk(ctx: _Context, best: ranking.RunningBest, table: HardwareTable,
                cands: Candidates, exhaustive: bool) -> None:
    """One chunk's rules and scores; its best candidate per cell goes to `best`.

    The time model runs only on candidates that pass every rule known without it (valid,
    fits in memory, in stock, within the monthly budget) and, unless a rule reads the time to
    train, only on those whose compute-only bound could still beat their cell's best: both
    exact, since a candidate left out could be neither eligible-and-unseen nor a cell's best.
    """
    request, model, training = ctx.request, ctx.request.model, ctx.request.training(ctx.policy)
    cell = cands.hardware * len(request.node_counts) + cands.node_index
    found = feasibility(table, cands, model, training, ctx.constants, exhaustive)
    rules = [("invalid_layout", found.valid), ("memory", found.memory_fits),
             ("stock", cands.nodes <= ctx.usable[cands.hardware])]
    if request.budget_per_month is not None:
        rules.append(("budget", ctx.rates.monthly_net[cell] <= float(request.budget_per_month)))
    passing = np.logical_and.reduce([allowed for _, allowed in rules])
    run = np.arange(len(cands)) if exhaustive else np.flatnonzero(passing)
    if not exhaustive and run.size and not ctx.rules_need_the_time:
        run, r = _undominated(ctx, best, table, cands, cell, run)
    else:
        r = model_on(table, cands, run, model, training, ctx.constants, found)
    figures = ctx.scored(series.rate_of(model, r), cell[run], cands.hardware[run],
                         cands.nodes[run])
    n = len(cands)

    def spread(values, fill):
        """Figures of the candidates the model ran on, on the whole chunk."""
        out = np.full(n, fill, dtype=np.asarray(values).dtype)
        out[run] = values
        return out

    units = request.work.units
    if request.budget_total is not None:
        rules.append(("budget", spread(figures["cost"] <= float(request.budget_total), False)))
    if units and request.work.duration_days is not None:
        rules.append(("deadline", spread(figures["hours"] <= request.work.duration_days * 24.0,
                                         False)))
    eligibility = ranking.sellable(rules)
    columns = {**figures, "global_batch": cands.global_batch[run],
               **{f"layout_{k}": v for k, v in cands.layout_of(run).items()},
               **{f"r_{k}": r[k] for k in SHOWN_MODEL_COLUMNS}}
    best.add(cell, spread(figures["score"], np.inf), spread(figures["raw_score"], np.inf),
             eligibility, columns, run)


def _undominated(ctx: _Context, best: ranking.RunningBest, table: HardwareTable,
                 cands: Candidates, cell: np.ndarray,
                 run: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The rows of `run` (all eligible: no rule reads the time) that could be their cell's
    best, and the model's columns of those rows.

    Each cell's rows of best compute-only bound run first; a row whose bound is worse than
    the best true score among them cannot be the cell's best, and with its bound's raw score no better
    than the best raw score seen it cannot lower that either, so it is counted as eligible
    without running the time model on it.
    """
    model, training = ctx.request.model, ctx.request.training(ctx.policy)
    cells, hw, nodes = cell[run], cands.hardware[run], cands.nodes[run]
    bound = ctx.scored(series.rate_of(model, throughput_bound(table, cands, run, model,
                                                              training, ctx.constants)),
                       cells, hw, nodes)
    first = ranking.lowest_per_group(cells, bound["score"], PROBES_PER_CELL)
    r = model_on(table, cands, run[first], model, training, ctx.constants)
    true = ctx.scored(series.rate_of(model, r), cells[first], hw[first], nodes[first])
    beat = np.full(best.score.shape, np.inf)
    np.minimum.at(beat, cells[first], true["score"])
    raw_floor = min(best.best_raw_score, float(np.nanmin(true["raw_score"], initial=np.inf)))
    dominated = (bound["score"] > beat[cells]) & (bound["raw_score"] >= raw_floor)
    # The probes' figures are kept: only the other rows left are timed now.
    probed = np.zeros(run.size, bool)
    probed[first] = True
    rest = np.flatnonzero(~dominated & ~probed)
    r_rest = model_on(table, cands, run[rest], model, training, ctx.constants)
    kept = np.flatnonzero(~dominated)
    order = np.argsort(np.concatenate([first, rest]), kind="stable")
    at = np.searchsorted(np.concatenate([first, rest])[order], kept)
    merged = {k: np.concatenate([r[k], r_rest[k]])[order][at] for k in r}
    return run[kept], merged
