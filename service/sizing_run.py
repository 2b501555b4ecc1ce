"""The work of one sizing: the offer's candidates through the core, priced, as a typed result.

body -> SizingRequest -> sellable pairs (catalog) -> candidates and model (sizing.search) ->
price tables (catalog.pricing) -> rules and rank (sizing.ranking) -> advice, series, words
(sizing.advice, sizing.series, sizing.explain) -> the shown configurations priced in Decimal by
the same engine -> SizingResult.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

import numpy as np

from catalog import pricing
from catalog.offer import sellable_pairs
from catalog.pricing import Configuration
from catalog.snapshot import Snapshot
from service.sizing_request import SizingRequest
from service.sizing_result import SizingResult
from service.sizing_shown import Nothing, Search, shown_result
from sizing import goodput, ranking, series
from sizing.search import enumerate_candidates, evaluate

Progress = Callable[[float], None]


def run(snap: Snapshot, request: SizingRequest, progress: Progress, today: date) -> SizingResult:
    """Search and rank here, then what the result shows (service.sizing_shown)."""
    found = search(snap, request, progress)
    progress(0.75)
    return shown_result(found, today)


# ------------------------------------------------------------------------------ the search

def search(snap: Snapshot, request: SizingRequest, progress: Progress) -> Search | Nothing:
    """The offer's candidates through the model, priced, ruled on, scored and ranked."""
    policy, model = snap.policy, request.model
    training = request.training(policy)
    max_batch = request.max_global_batch(policy)
    offer = sellable_pairs(snap, request.hardware, request.region)
    pairs, excluded = offer.pairs, dict(offer.excluded)
    progress(0.1)
    clusters = tuple(snap.cluster(s, f, 1) for s, f in pairs)
    cands = enumerate_candidates(clusters, request.node_counts, model, training, request.layout,
                                 request.batch_fixed, max_batch)
    excluded.update({f"layout_{k}": v for k, v in cands.skipped.items() if v})
    if len(cands) == 0:
        return Nothing(snap, request, excluded, "no parallel layout fits these node counts", 0)
    r = evaluate(clusters, cands, model, training, snap.constants,
                 chunk=policy.max_candidates_per_pass)
    progress(0.6)
    rate = series.rate_of(model, r)
    units = request.work.units
    days = request.work.duration_days
    ideal = units / rate / 3600.0 if units else np.full(len(cands), days * 24.0)
    failures = goodput.of_candidates(
        snap.reliability, clusters, cands.hardware, cands.nodes, r["gpus"],
        goodput.checkpoint_bytes(model.params, snap.constants, request.precision), ideal)
    # Billed: the work with checkpoints, interruptions and restarts, or the duration given.
    hours = failures.wall_hours if units else ideal

    # One price per (hardware, node count), from the engine's Decimal lines.
    counts = request.node_counts
    configs = [Configuration(s, f, n, request.region, c.server.nics_per_node,
                             c.fabric.oversubscription)
               for (s, f), c in zip(pairs, clusters) for n in counts]
    book = snap.prices
    rates = pricing.rate_table(book, configs, term=request.term, currency=request.currency)
    cell = cands.hardware * len(counts) + (cands.nodes - counts[0])
    cost, months, on_demand = pricing.training_cost(rates, cell, hours, request.term,
                                                    book.hours_per_month)
    monthly = rates.monthly_net[cell]

    usable = np.array([snap.stock_of(request.region, s).usable(request.max_lead_time_days)
                       for s, _ in pairs])
    rules = [("invalid_layout", r["valid"].astype(bool)),
             ("memory", r["memory_fits"].astype(bool)),
             ("stock", cands.nodes <= usable[cands.hardware])]
    if request.budget_per_month is not None:
        rules.append(("budget", monthly <= float(request.budget_per_month)))
    if request.budget_total is not None:
        rules.append(("budget", cost <= float(request.budget_total)))
    if units and request.work.duration_days is not None:
        rules.append(("deadline", hours <= request.work.duration_days * 24.0))
    eligibility = ranking.sellable(rules)

    if units:
        time_per_unit, cost_per_unit = hours, cost
    else:
        # A fixed duration: rank by time and cost per unit of work done in it, the time lost
        # to failures excluded.
        useful_rate = rate * failures.goodput
        time_per_unit, cost_per_unit = 1.0 / useful_rate, cost / useful_rate
    raw = ranking.objective_score(request.objective, time_per_unit, cost_per_unit)
    fabrics = [snap.fabrics[f] for _, f in pairs]
    lossy = np.array([f.kind == "roce" and not f.lossless for f in fabrics])
    score = raw + ranking.preference_handicap(policy.preference_tolerance, lossy[cands.hardware])
    excluded.update(eligibility.excluded)
    ranked = ranking.rank(cands.hardware, cands.nodes, score, eligibility.eligible,
                          [s for s, _ in pairs], policy.max_results_per_server,
                          request.max_results)
    if not ranked.order:
        return Nothing(snap, request, excluded, "every candidate was ruled out", len(cands))
    return Search(snap, request, training, max_batch, tuple(pairs), clusters, cands, r, rate,
                  hours, cost, months, on_demand, monthly, raw, score, failures, eligibility,
                  excluded, ranked)

