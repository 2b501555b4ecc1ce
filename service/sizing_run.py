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
from sizing.policy import SizingPolicy
from sizing.search import (
    Candidates,
    Evaluated,
    HardwareTable,
    enumeration,
    evaluate_all,
    evaluate_feasible,
)

Progress = Callable[[float], None]


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
    space = enumeration([c.gpus_per_node for c in clusters], request.node_counts, model,
                        training, request.layout, request.batch_fixed, max_batch)
    excluded.update({f"layout_{k}": v for k, v in space.skipped.items() if v})
    chunks = space.chunks(np.iinfo(np.int64).max if exhaustive else policy.max_candidates_per_pass)
    model_pass = evaluate_all if exhaustive else evaluate_feasible
    first = next(chunks, None)
    if first is None:
        return Nothing(snap, request, excluded, "no parallel layout fits these node counts", 0)
    ctx = _Context.of(snap, request, pairs, clusters)
    table = HardwareTable.of(clusters)
    best = ranking.RunningBest(len(pairs), len(request.node_counts))
    done, total = 0, space.size
    for cands in chain([first], chunks):
        _rank_chunk(ctx, best, cands, model_pass(table, cands, model, training, snap.constants))
        done += len(cands)
        progress(0.1 + 0.5 * done / max(total, 1))
    excluded.update(best.excluded)
    kept = best.kept()
    if kept.size == 0:
        return Nothing(snap, request, excluded, "every candidate was ruled out", best.evaluated)
    col = {key: column[kept] for key, column in best.columns.items()}
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
    rates: pricing.RateTable  # by cell: hardware x node counts
    hours_per_month: int
    usable: np.ndarray  # nodes in stock per hardware pair
    lossy: np.ndarray
    infiniband: np.ndarray

    @classmethod
    def of(cls, snap: Snapshot, request: SizingRequest, pairs, clusters) -> _Context:
        configs = [Configuration(s, f, n, request.region, c.server.nics_per_node,
                                 c.fabric.oversubscription)
                   for (s, f), c in zip(pairs, clusters) for n in request.node_counts]
        fabrics = [snap.fabrics[f] for _, f in pairs]
        return cls(
            request, snap.policy,
            pricing.rate_table(snap.prices, configs, term=request.term, currency=request.currency),
            snap.prices.hours_per_month,
            np.array([snap.stock_of(request.region, s).usable(request.max_lead_time_days)
                      for s, _ in pairs]),
            np.array([f.kind == "roce" and not f.lossless for f in fabrics]),
            np.array([f.kind == "infiniband" for f in fabrics]))


def _rank_chunk(ctx: _Context, best: ranking.RunningBest, cands: Candidates,
                ev: Evaluated) -> None:
    """One chunk's rules and scores; its best candidate per cell goes to `best`."""
    request, policy = ctx.request, ctx.policy
    cell = cands.hardware * len(request.node_counts) + cands.node_index
    kept, r = ev.kept, ev.r
    n = len(cands)
    rate = series.rate_of(request.model, r)
    units = request.work.units
    hours = units / rate / 3600.0 if units else np.full(kept.size, request.work.duration_days * 24.0)
    kept_cell = cell[kept]
    cost, months, on_demand = pricing.training_cost(ctx.rates, kept_cell, hours, request.term,
                                                    ctx.hours_per_month)
    monthly = ctx.rates.monthly_net[kept_cell]

    def spread(values, fill):
        """Figures of the kept candidates on the whole chunk (the rules see every candidate)."""
        out = np.full(n, fill, dtype=np.asarray(values).dtype)
        out[kept] = values
        return out

    rules = [("invalid_layout", ev.valid), ("memory", ev.memory_fits),
             ("stock", cands.nodes <= ctx.usable[cands.hardware])]
    if request.budget_per_month is not None:
        rules.append(("budget", spread(monthly <= float(request.budget_per_month), False)))
    if request.budget_total is not None:
        rules.append(("budget", spread(cost <= float(request.budget_total), False)))
    if units and request.work.duration_days is not None:
        rules.append(("deadline", spread(hours <= request.work.duration_days * 24.0, False)))
    eligibility = ranking.sellable(rules)

    if units:
        time_per_unit, cost_per_unit = hours, cost
    else:
        # A fixed duration: rank by time and cost per unit of work done in it.
        time_per_unit, cost_per_unit = 1.0 / rate, cost / rate
    raw = ranking.objective_score(request.objective, time_per_unit, cost_per_unit)
    hw = cands.hardware[kept]
    long_large = ((hours >= policy.long_run_days * 24) & (cands.nodes[kept] >= policy.long_run_nodes))
    score = raw + ranking.preference_handicap(policy.preference_tolerance, ctx.lossy[hw],
                                              ctx.infiniband[hw], long_large)
    columns = {"rate": rate, "hours": hours, "cost": cost, "months": months,
               "on_demand": on_demand, "monthly": monthly, "raw_score": raw, "score": score,
               "long_large_run": long_large, "global_batch": cands.global_batch[kept],
               **{f"layout_{k}": v[kept] for k, v in cands.layout.items()},
               **{f"r_{k}": v for k, v in r.items()}}
    best.add(cell, spread(score, np.inf), spread(raw, np.inf), eligibility, columns, kept)
