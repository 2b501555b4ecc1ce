"""What a sizing shows: its ranked configurations, advice and series, priced in Decimal.

Everything here reads the search's arrays and the ranking's table; every amount comes from
the pricing engine (catalog.pricing) for the billing the ranking used.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

import numpy as np

from catalog import pricing
from catalog.offer import delivery
from catalog.pricing import Billing, Configuration
from catalog.snapshot import Snapshot
from service.sizing_request import SizingRequest
from service.sizing_result import (
    Breakdown,
    EfficiencySeries,
    FabricComparison,
    FabricRef,
    FabricVsMoreGpus,
    Memory,
    NetworkAdvice,
    RankedConfiguration,
    ResultLayout,
    ServerRef,
    SizingPrice,
    SizingResult,
    StockView,
    WhatIfOption,
    WorkloadSummary,
)
from sizing import advice, explain, ranking, series
from sizing.hardware import Cluster
from sizing.search import Candidates
from sizing.step import estimate
from sizing.workload import Training, Transformer


@dataclass(frozen=True)
class Search:
    """One request's search: the best candidate of each (hardware, node count) with the
    model's numbers, its price and its score (arrays indexed alike), and what was counted."""

    snap: Snapshot
    request: SizingRequest
    training: Training
    max_global_batch: float  # the largest batch a layout may round the default up to
    hardware: tuple[tuple[str, str], ...]
    clusters: tuple[Cluster, ...]
    cands: Candidates
    r: dict[str, np.ndarray]
    rate: np.ndarray  # tokens/s or samples/s
    hours: np.ndarray  # time to train
    cost: np.ndarray  # what the billed months or hours cost, with one-time fees
    months: np.ndarray
    on_demand_hours: np.ndarray
    monthly: np.ndarray  # the term's net rate per month
    raw_score: np.ndarray  # the objective alone
    score: np.ndarray  # with the policy's fabric preference
    long_large_run: np.ndarray
    tally: ranking.RunningBest  # candidates evaluated, eligible, ruled out by rule and cell
    excluded: dict[str, int]  # by the offer, the layouts and the rules
    ranked: ranking.Ranking

    @property
    def by_work(self) -> bool:
        return self.request.work.units is not None

    def config(self, i: int) -> Configuration:
        server, fabric = self.hardware[int(self.cands.hardware[i])]
        cluster = self.clusters[int(self.cands.hardware[i])]
        return Configuration(server, fabric, int(self.cands.nodes[i]), self.request.region,
                             cluster.server.nics_per_node, cluster.fabric.oversubscription)

    def price(self, i: int) -> pricing.Price:
        """Candidate i priced in Decimal by the engine, for the billing its ranking used."""
        billing = Billing(self.request.term, int(self.months[i]), int(self.on_demand_hours[i]))
        return pricing.price(self.snap.prices, self.config(i), term=self.request.term,
                             currency=self.request.currency, billing=billing)


@dataclass(frozen=True)
class Nothing:
    """A search that found nothing to show, and why."""

    snap: Snapshot
    request: SizingRequest
    excluded: dict[str, int]
    why: str
    evaluated: int


def shown_result(found: Search | Nothing, today: date) -> SizingResult:
    """The typed result: ranked configurations, network advice, series and notes."""
    if isinstance(found, Nothing):
        return empty_result(found.snap, found.request, found.excluded, found.why,
                            found.evaluated, today)
    snap, request, ranked = found.snap, found.request, found.ranked
    references = {server: one_node(found, server) for server in
                  {found.hardware[int(found.cands.hardware[i])][0] for i in ranked.order}}
    network, recommended = network_advice(found, ranked, references)
    configurations = tuple(ranked_configuration(found, rank, i, ranked.order[0], references,
                                                recommended, today)
                           for rank, i in enumerate(ranked.order, start=1))
    return SizingResult(
        catalog_version=snap.version_id, priced_on=today.isoformat(),
        objective=request.objective, currency=request.currency, term=request.term,
        region=request.region, workload=workload_summary(request),
        candidates_evaluated=found.tally.evaluated,
        candidates_eligible=found.tally.eligible, excluded=found.excluded,
        configurations=configurations, network_advice=network,
        efficiency_series=efficiency_series(found, ranked.order[0], references),
        notes=tuple(notes(found, references)),
    )


def one_node(found: Search, server: str) -> series.OneNodeReference | None:
    hw = next(h for h, (s, _) in enumerate(found.hardware) if s == server)
    request = found.request
    return series.one_node_reference(found.clusters[hw], request.model, found.training,
                                     request.layout, request.batch_fixed, found.max_global_batch,
                                     found.snap.constants)


# ------------------------------------------------------------------------------ advice

def network_advice(found: Search, ranked: ranking.Ranking,
                   references: dict) -> tuple[NetworkAdvice, str]:
    """The advice for rank 1's server and node count, from the ranking's own table."""
    snap, request, cands, r = found.snap, found.request, found.cands, found.r
    top = ranked.order[0]
    top_hw, nodes = int(cands.hardware[top]), int(cands.nodes[top])
    server = found.hardware[top_hw][0]
    same_server = {h for h, (s, _) in enumerate(found.hardware) if s == server}
    at_nodes = {h: i for h, i in ranked.options_at(nodes).items() if h in same_server}
    options = []
    for h, i in at_nodes.items():
        fabric = snap.fabrics[found.hardware[h][1]]
        options.append(advice.FabricOption(
            candidate=i, fabric_id=fabric.id, fabric_name=fabric.name, kind=fabric.kind,
            rdma=fabric.rdma, lossless=fabric.lossless, line_rate_gbps=fabric.line_rate_gbps,
            throughput=float(found.rate[i]),
            scaling_efficiency=float(r["scaling_efficiency"][i]),
            communication_share=float(r["communication_share"][i]),
            objective_score=float(found.raw_score[i]), score=float(found.score[i])))
    rec = advice.recommend(options, request.objective, snap.policy.preference_tolerance,
                           bool(found.long_large_run[top]))
    if rec.pick.fabric_id != found.hardware[top_hw][1]:
        raise AssertionError("the advice and the ranking disagree on rank 1's fabric")
    reference = references.get(server)
    unit = throughput_unit(request)
    comparison = tuple(FabricComparison(
        fabric=o.fabric_id, fabric_name=o.fabric_name, scaling_efficiency=o.scaling_efficiency,
        efficiency_vs_one_node=series.vs_one_node(o.throughput, int(r["gpus"][o.candidate]),
                                                  reference),
        throughput=o.throughput, throughput_unit=unit,
        communication_share=o.communication_share,
        monthly=found.price(o.candidate).monthly_net, recommended=o is rec.pick)
        for o in rec.options)
    ruled_out = found.tally.ruled_out_of(top_hw, int(cands.node_index[top]))
    what_if = advice.fabric_or_more_gpus(
        top, at_nodes, ranked.options_of(top_hw), nodes, max(request.node_counts), found.rate,
        found.monthly, ruled_out)
    roce = any(snap.fabrics[found.hardware[int(cands.hardware[i])][1]].kind == "roce"
               for i in ranked.order)
    return NetworkAdvice(
        server=server, server_name=snap.servers[server].name, nodes=nodes,
        recommended_fabric=rec.pick.fabric_id, recommended_fabric_name=rec.pick.fabric_name,
        fabric_class=rec.fabric_class, reason=rec.reason, comparison=comparison,
        fabric_vs_more_gpus=fabric_vs_more_gpus(found, what_if),
        roce_checklist=advice.ROCE_CHECKLIST if roce else (),
    ), rec.pick.fabric_id


def fabric_vs_more_gpus(found: Search, what_if: advice.WhatIf) -> FabricVsMoreGpus:
    """The what-if with its money re-priced in Decimal; gains per 1,000 of the currency."""
    current = found.price(what_if.current).monthly_net
    book, currency = found.snap.prices, found.request.currency

    def option(i: int | None) -> WhatIfOption | None:
        if i is None:
            return None
        monthly = found.price(i).monthly_net
        extra = monthly - current
        gain = float(found.rate[i] / found.rate[what_if.current] - 1)
        fabric = found.snap.fabrics[found.hardware[int(found.cands.hardware[i])][1]]
        per_1000 = (float(found.rate[i] - found.rate[what_if.current]) / float(extra) * 1000
                    if extra > 0 else None)
        return WhatIfOption(fabric.id, fabric.name, int(found.cands.nodes[i]), monthly, extra,
                            float(found.rate[i]), gain, per_1000)

    upgrade, more = option(what_if.upgrade), option(what_if.more_nodes)
    unit = throughput_unit(found.request)

    def words(o: WhatIfOption | None, label: str) -> advice.Option | None:
        return o and advice.Option(label, o.throughput_gain, money_text(book, o.extra_monthly,
                                                                        currency),
                                   o.throughput_gain_per_1000, unit)

    sentence = advice.fabric_or_more_gpus_sentence(
        words(upgrade, f"Upgrading to {upgrade.fabric_name}" if upgrade else ""),
        words(more, f"{more.nodes} nodes" if more else ""),
        what_if.no_upgrade, what_if.no_more_nodes)
    return FabricVsMoreGpus(currency, upgrade, more, what_if.no_upgrade, what_if.no_more_nodes,
                            sentence)


def money_text(book: pricing.PriceBook, amount: Decimal, currency: str) -> str:
    """An amount as a sentence writes it: signed, thousands separated, with the currency."""
    return f"{book.round(amount, currency):+,} {currency}"


# ------------------------------------------------------------------------------ configurations

def ranked_configuration(found: Search, rank: int, i: int, first: int, references: dict,
                         recommended: str, today: date) -> RankedConfiguration:
    snap, request, cands = found.snap, found.request, found.cands
    hw = int(cands.hardware[i])
    server_id, fabric_id = found.hardware[hw]
    nodes = int(cands.nodes[i])
    layout, micro_batch = cands.layout_at(i), cands.micro_batch_at(i)
    cluster = snap.cluster(server_id, fabric_id, nodes)
    training = Training(global_batch=int(cands.global_batch[i]), micro_batch=micro_batch,
                        precision=request.precision)
    est = estimate(cluster, request.model, training, layout, snap.constants)
    pairing = snap.pairings[(server_id, fabric_id)]
    fabric = snap.fabrics[fabric_id]
    by_work = found.by_work
    return RankedConfiguration(
        rank=rank,
        server=ServerRef(server_id, snap.servers[server_id].name),
        fabric=FabricRef(fabric_id, fabric.name, fabric.kind, pairing.rdma,
                         pairing.gpudirect_rdma),
        gpu=cluster.gpu.id, region=request.region, nodes=nodes, gpus=cluster.gpus,
        nics_per_node=cluster.server.nics_per_node,
        oversubscription=cluster.fabric.oversubscription,
        layout=ResultLayout.of(layout, micro_batch), global_batch=training.global_batch,
        step_time_s=est.step_time_s, breakdown=Breakdown(**est.breakdown),
        tokens_per_s=est.tokens_per_s if isinstance(request.model, Transformer) else None,
        samples_per_s=est.samples_per_s, mfu=est.mfu,
        scaling_efficiency=est.scaling_efficiency,
        efficiency_vs_one_node=series.vs_one_node(float(found.rate[i]), cluster.gpus,
                                                  references.get(server_id)),
        communication_share=est.communication_share,
        time_to_train_hours=float(found.hours[i]),
        price=sizing_price(found, i, cluster.gpus),
        memory=Memory(**est.memory), bottleneck=est.bottleneck,
        assumptions=tuple(est.assumptions),
        stock=stock_view(found, server_id, nodes, today),
        network_note=network_note(fabric, recommended, snap.fabrics[recommended].name),
        why=explain.why_rank(rank, request.objective, by_work, *per_unit(found, i),
                             *per_unit(found, first),
                             scaling_efficiency=est.scaling_efficiency,
                             preferred=preferred_note(found, i) if rank == 1 else None),
    )


def per_unit(found: Search, i: int) -> tuple[float, float]:
    """(time, cost) per unit of work, as the score weighs them."""
    if found.by_work:
        return float(found.hours[i]), float(found.cost[i])
    return 1.0 / float(found.rate[i]), float(found.cost[i] / found.rate[i])


def preferred_note(found: Search, i: int) -> str | None:
    """Said of rank 1 when the fabric preference, not the objective alone, put it first."""
    if not found.tally.best_raw_score < found.raw_score[i]:
        return None
    return (f"the policy prefers its fabric within {found.snap.policy.preference_tolerance:.0%} "
            "of a better score (see the network advice)")


def sizing_price(found: Search, i: int, gpus: int) -> SizingPrice:
    """The engine's Decimal price for the training, and what follows from it."""
    book, request = found.snap.prices, found.request
    currency = request.currency
    price = found.price(i)
    billing = price.billing
    per_gpu_hour = (price.hourly_net / gpus if billing.on_demand
                    else price.monthly_net / (gpus * book.hours_per_month))
    work = request.work.units or float(found.rate[i]) * float(found.hours[i]) * 3600.0
    per_million = book.round(price.total / Decimal(repr(work)) * Decimal(1_000_000), currency)
    is_tf = isinstance(request.model, Transformer)
    warning = None
    if request.term != "monthly":
        monthly_term = pricing.price(
            book, found.config(i), term="monthly", currency=currency,
            billing=pricing.billing_for(book, found.config(i), term="monthly", currency=currency,
                                        training_hours=float(found.hours[i])))
        warning = explain.term_warning(request.term, billing.months, float(found.hours[i]),
                                       book.hours_per_month,
                                       found.snap.policy.idle_term_warning_share,
                                       f"{monthly_term.total:,} {currency}")
    return SizingPrice(
        currency=currency, term=request.term, billed_by="hour" if billing.on_demand else "month",
        months_billed=billing.months, hours_billed=billing.hours,
        monthly=price.monthly_net, hourly=price.hourly_net, one_time=price.one_time,
        total=price.total, price_per_gpu_hour=book.round(per_gpu_hour, currency),
        cost_per_million_tokens=per_million if is_tf else None,
        cost_per_million_samples=None if is_tf else per_million,
        warning=warning)


def stock_view(found: Search, server: str, nodes: int, today: date) -> StockView:
    d = delivery(found.snap.stock_of(found.request.region, server), nodes, today)
    return StockView(d.available_now, d.from_deliveries, d.lead_time_days,
                     d.delivery_date.isoformat(), d.warning)


def network_note(fabric, recommended: str, recommended_name: str) -> str:
    if fabric.id == recommended:
        note = "The network advice recommends this fabric."
    else:
        note = f"The network advice recommends {recommended_name} for rank 1's server and scale."
    if fabric.kind == "roce" and not fabric.lossless:
        note += (" Without PFC/ECN a lost packet resends the whole window (go-back-N): plan the "
                 "lossless-Ethernet checklist or a lossless fabric.")
    elif fabric.kind == "roce":
        note += " RoCEv2 is lossless only as configured: see the lossless-Ethernet checklist."
    return note


# ------------------------------------------------------------------------------ series and words

def throughput_unit(request: SizingRequest) -> str:
    return "tokens/s" if isinstance(request.model, Transformer) else "samples/s"


def efficiency_series(found: Search, top: int, references: dict) -> EfficiencySeries | None:
    """Rank 1's layout family on rank 1's server, on every fabric it can be sold with."""
    request, snap, cands = found.request, found.snap, found.cands
    top_hw = int(cands.hardware[top])
    server = found.hardware[top_hw][0]
    clusters = [c for c, (s, _) in zip(found.clusters, found.hardware) if s == server]
    layout, micro_batch = cands.layout_at(top), cands.micro_batch_at(top)
    reference = references.get(server)
    lines = series.fabric_lines(
        clusters, series.node_counts(min(request.node_counts), max(request.node_counts)),
        request.model, found.training, layout, micro_batch, request.batch_fixed,
        found.max_global_batch, snap.constants, reference)
    return EfficiencySeries(
        server=server, server_name=snap.servers[server].name,
        layout_family=ResultLayout.of(layout, micro_batch),
        layout_family_description=explain.layout_family(layout, micro_batch),
        throughput_unit=throughput_unit(request),
        one_node_throughput_per_gpu=reference.throughput_per_gpu if reference else None,
        one_node_fits_memory=bool(reference and reference.fits_memory), lines=tuple(lines))


def workload_summary(request: SizingRequest) -> WorkloadSummary:
    model, work = request.model, request.work
    return WorkloadSummary(
        name=model.name, kind="transformer" if isinstance(model, Transformer) else "generic",
        params=float(model.params), tokens=work.tokens, samples_per_epoch=work.samples_per_epoch,
        epochs=work.epochs if work.samples_per_epoch is not None else None,
        duration_days=work.duration_days, precision=request.precision)


def notes(found: Search, references: dict) -> list[str]:
    request, snap = found.request, found.snap
    book = snap.prices
    out = [(f"Prices in {request.currency} at the catalog's exchange rates of {book.rates_date}; "
           f"a month is {book.hours_per_month} hours."),
           (f"Configurations use at most the nodes in stock plus those arriving within "
           f"{request.max_lead_time_days} days (max_lead_time_days)."),
           (f"Fits in memory means with {snap.constants.memory_headroom_share:.0%} of each GPU's "
           "memory kept free (catalog policy memory_headroom_share).")]
    if not request.batch_fixed:
        out.append(f"Global batch about {found.training.global_batch} samples per step, rounded "
                   "per layout to a multiple of dp x micro-batch, at most "
                   f"{found.max_global_batch:g}: layouts whose data parallelism needs "
                   "a larger batch are ruled out (excluded.layout_batch).")
    if request.work.units is None:
        out.append(f"No amount of work given: configurations are priced for "
                   f"{request.work.duration_days:g} days and ranked by work done.")
    for server, reference in sorted(references.items()):
        if reference is not None and not reference.fits_memory:
            out.append(f"The model does not fit on one node of {snap.servers[server].name}: "
                       "efficiency_vs_one_node compares with one node's throughput per GPU as "
                       "if memory allowed it.")
    return out


def empty_result(snap: Snapshot, request: SizingRequest, excluded: dict[str, int], why: str,
                 evaluated: int, today: date) -> SizingResult:
    return SizingResult(
        catalog_version=snap.version_id, priced_on=today.isoformat(),
        objective=request.objective, currency=request.currency, term=request.term,
        region=request.region, workload=workload_summary(request),
        candidates_evaluated=evaluated, candidates_eligible=0, excluded=excluded,
        configurations=(), network_advice=None, efficiency_series=None,
        notes=((f"No configuration: {why}. Widen the node range, the budget, the deadline or the "
               "lead time, or allow more GPU models and fabrics."),))
