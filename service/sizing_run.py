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
from sizing.search import Candidates, enumerate_candidates, evaluate
from sizing.workload import Training

Progress = Callable[[float], None]


def run(snap: Snapshot, request: SizingRequest, progress: Progress, today: date) -> SizingResult:
    """Search and rank here, then what the result shows (service.sizing_shown)."""
    found = search(snap, request, progress)
    progress(0.75)
    return shown_result(found, today)


# ------------------------------------------------------------------------------ the search

def with_oversubscription(snap: Snapshot, pairs, clusters, cands: Candidates, r: dict, model,
                          training: Training):
    """The search's candidates plus each fabric's cheaper oversubscribed spines.

    For every (server, fabric, node count) beyond one leaf, the layout of highest throughput on
    the non-blocking fabric is also evaluated at each higher ratio the fabric is priced at: a
    2:1 spine costs a topology-ordered ring little and all-to-all much (sizing.collectives), and
    the ranking weighs that against the cheaper switch ports. Inside one leaf there is no spine
    to oversubscribe. The variants are appended as hardware of their own.
    """
    rate = series.rate_of(model, r)
    ok = r["valid"].astype(bool) & r["memory_fits"].astype(bool)
    extra_clusters, picks = [], []
    for h, ((server, fabric), cluster) in enumerate(zip(pairs, clusters)):
        higher = [o for o in snap.fabric_oversubscription_options[fabric]
                  if o > cluster.fabric.oversubscription]
        beyond = np.flatnonzero(ok & (cands.hardware == h)
                                & (cands.nodes > cluster.fabric.nodes_below_spine))
        if not higher or beyond.size == 0:
            continue
        best = [at[np.argmax(rate[at])] for n in np.unique(cands.nodes[beyond])
                for at in [beyond[cands.nodes[beyond] == n]]]
        for ratio in higher:
            extra_clusters.append(((server, fabric), snap.cluster(server, fabric, 1, ratio)))
            picks.extend((len(clusters) + len(extra_clusters) - 1, i) for i in best)
    if not picks:
        return pairs, clusters, cands, r
    new_hw, rows = (np.array(x) for x in zip(*picks))
    extra = Candidates(hardware=new_hw, nodes=cands.nodes[rows],
                       layout={k: v[rows] for k, v in cands.layout.items()},
                       global_batch=cands.global_batch[rows])
    all_clusters = clusters + tuple(c for _, c in extra_clusters)
    rx = evaluate(all_clusters, extra, model, training, snap.constants)
    joined = Candidates(hardware=np.concatenate([cands.hardware, extra.hardware]),
                        nodes=np.concatenate([cands.nodes, extra.nodes]),
                        layout={k: np.concatenate([v, extra.layout[k]])
                                for k, v in cands.layout.items()},
                        global_batch=np.concatenate([cands.global_batch, extra.global_batch]),
                        skipped=cands.skipped)
    return (tuple(pairs) + tuple(p for p, _ in extra_clusters), all_clusters, joined,
            {k: np.concatenate([v, rx[k]]) for k, v in r.items()})


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
    pairs, clusters, cands, r = with_oversubscription(snap, pairs, clusters, cands, r, model,
                                                      training)
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

