"""What one revision of a quote says: seller, configuration, priced lines, tax, performance, terms.

A quote of a sizing's ranked configuration is priced by the same engine, at the sizing's catalog
version, for the same billed period as the sizing, so its net total before tax is the sizing's
total. Stock and tax rules are always the current version's: what can be delivered now, and
the law on the day a revision is issued.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal

from catalog import pricing
from catalog.offer import delivery
from catalog.pricing import Billing, Configuration, PricedLine, PricingError
from catalog.snapshot import Provider, Snapshot, Stock
from service.failures import Invalid
from service.sizing_result import (
    INTERVALS_TEXT,
    ONE_NODE_MEANS,
    Interval,
    NetworkAdvice,
    RankedConfiguration,
    ResultLayout,
    ServerRef,
    WorkloadSummary,
)
from service.term_warning import term_warning
from service.total_range import total_range
from sizing.advice import ROCE_CHECKLIST, ChecklistItem
from sizing.step import SCALING_EFFICIENCY_MEANS


def described(text: str) -> dict:
    return {"metadata": {"description": text}}


@dataclass(frozen=True)
class QuoteTotals:
    monthly_list: Decimal = field(**described("The term's monthly rate, list"))
    monthly_discount: Decimal
    monthly_net: Decimal
    term_months: int = field(**described("Months the term commits to"))
    months_billed: int = field(**described("Months the monthly lines bill; 0 when billed by the hour"))
    hours_billed: int = field(**described("On-demand hours billed; 0 when billed by the month"))
    recurring: Decimal = field(**described("The billed months or hours"))
    one_time: Decimal
    term_net: Decimal = field(**described(
        "Net before tax: recurring + one_time; for a sizing's configuration, its total"))
    tax_label: str = field(**described('The tax line as printed, e.g. "VAT 19% (DE)"'))
    tax_rate: Decimal | None
    tax: Decimal
    grand_total: Decimal


@dataclass(frozen=True)
class QuoteConfiguration:
    server: ServerRef
    fabric: ServerRef
    nodes: int
    gpus: int
    gpu: str
    region: str
    oversubscription: float
    nics_per_node: int
    # A quote stored before it kept them: none.
    hot_spare_nodes: int = field(default=0, **described(
        "Of the nodes, the hot spares kept ready beside the job's (from its sizing): billed as "
        "nodes, and on the fabric only when the job itself spans nodes"))


@dataclass(frozen=True)
class QuoteStock:
    available_now: int
    from_deliveries: int
    lead_time_days: int
    delivery_date: str
    undeliverable: int = field(**described(
        "Nodes beyond stock and nodes on order: 0 when created (more is refused); a later "
        "revision shows it when the stock dropped, and such a quote is not sent or accepted"))
    warning: str | None


@dataclass(frozen=True)
class QuotePerformance:
    """Frozen from the sizing the quote came from; the total's range priced as the quote is."""

    scaling_efficiency: float = field(**described(SCALING_EFFICIENCY_MEANS))
    efficiency_vs_one_node: float | None = field(**described(ONE_NODE_MEANS))
    tokens_per_s: float | None
    samples_per_s: float
    mfu: float
    step_time_s: float
    communication_share: float
    time_to_train_hours: float
    bottleneck: str
    layout: ResultLayout
    sizing_catalog_version: int
    goodput: float = field(**described("Useful training time over wall clock, failures counted"))
    expected_interruptions: float
    intervals: dict[str, Interval] = field(**described(INTERVALS_TEXT))
    calibration: str = field(**described("calibrated or extrapolated (see the sizing)"))
    # Kept exactly, for the idle-term warning of a re-priced revision. Quotes stored before: None.
    training_hours: float | None = field(default=None, metadata={
        "description": "The sizing's training_hours: the wall clock billed, unrounded",
        "digits": 0})
    mfu_causal: float | None = field(default=None, metadata={
        "description": "The sizing's mfu_causal (half the score matrix of a causal model); "
                       "null for quotes or sizings stored before it"})


@dataclass(frozen=True)
class QuoteNetworkAdvice:
    """The sizing's network advice as it bears on the quoted fabric."""

    fabric: str
    fabric_name: str
    recommended_fabric: str
    recommended_fabric_name: str
    recommended: bool = field(**described("The quoted fabric is the one the advice recommends"))
    fabric_class: str
    reason: str
    note: str
    roce_checklist: tuple[ChecklistItem, ...] = field(**described(
        "The lossless-Ethernet checklist, when the quoted fabric is RoCEv2"))


@dataclass(frozen=True)
class RevisionChange:
    previous_revision: int
    previous_catalog_version: int
    grand_total_delta: Decimal
    monthly_net_delta: Decimal


@dataclass(frozen=True)
class QuoteDocument:
    """One frozen revision of a quote."""

    catalog_version: int = field(**described("Prices frozen at this version"))
    issued_on: str = field(**described("ISO 8601 date"))
    valid_until: str = field(**described("ISO 8601 date"))
    seller: Provider
    currency: str
    exchange_rate: Decimal
    rates_date: str
    term: str
    support: str
    hours_per_month: int
    configuration: QuoteConfiguration
    lines: tuple[PricedLine, ...]
    totals: QuoteTotals
    stock: QuoteStock
    workload: WorkloadSummary | None
    performance: QuotePerformance | None = field(**described(
        "Frozen from the sizing: scaling efficiency, throughput, time to train"))
    network_advice: QuoteNetworkAdvice | None
    notes: tuple[str, ...]
    change_from_previous: RevisionChange | None


@dataclass(frozen=True)
class Terms:
    term: str
    currency: str
    support: str
    valid_days: int
    country: str | None
    vat_id: str | None


@dataclass(frozen=True)
class FromSizing:
    """What a quote keeps of the sizing it came from."""

    ranked: RankedConfiguration
    workload: WorkloadSummary
    advice: NetworkAdvice | None
    catalog_version: int

    def training_hours(self, term: str) -> float:
        """The wall clock the quote bills at `term`: the sizing's own, unrounded.

        At the sizing's term its billed period is reused as it is; at another the hours are
        billed again, which a result stored before it kept them unrounded cannot do exactly.
        """
        price = self.ranked.price
        if price.training_hours is not None:
            return price.training_hours
        if term == price.term:
            return self.ranked.time_to_train_hours
        raise Invalid.at("/term", "this sizing was stored before it kept its training's hours "
                         f"unrounded: quote it at its own term ({price.term}) or submit the "
                         "questionnaire again", "sizing_outdated")


def configuration_of(snap: Snapshot, server: str, fabric: str, nodes: int, region: str,
                     oversubscription: float | None, pointer: str = "/configuration",
                     hot_spare_nodes: int = 0) -> Configuration:
    """A configuration the catalog can sell (`nodes` with `hot_spare_nodes` of them spares),
    or Invalid naming the field."""
    if server not in snap.servers:
        raise Invalid.at(f"{pointer}/server", f"no server {server!r} in the catalog")
    if fabric not in snap.fabrics:
        raise Invalid.at(f"{pointer}/fabric", f"no fabric {fabric!r} in the catalog")
    pairing = snap.pairings[(server, fabric)]
    if not pairing.supported:
        raise Invalid.at(f"{pointer}/fabric", f"{server} cannot join {fabric}: {pairing.reason}")
    if region not in snap.regions:
        raise Invalid.at(f"{pointer}/region", f"unknown region; choose one of {', '.join(snap.regions)}")
    options = snap.fabric_oversubscription_options[fabric]
    ratio = oversubscription or min(options)
    if ratio not in options:
        raise Invalid.at(f"{pointer}/oversubscription", f"{fabric} offers {list(options)}")
    return Configuration(server, fabric, nodes, region, pairing.nics_used, ratio, hot_spare_nodes)


def check_deliverable(stock: Stock, nodes: int, max_lead_time_days: int | None,
                      pointer: str, what: str = "") -> None:
    """A 422 naming the field when the region cannot deliver `nodes`: those on hand, and those
    on order if they arrive within `max_lead_time_days` (None: whenever they arrive). `what`
    opens the detail with what the request chose without sending it (a default rank)."""
    usable = (stock.available_nodes + stock.arriving_nodes if max_lead_time_days is None
              else stock.usable(max_lead_time_days))
    if nodes <= usable:
        return
    within = ("" if max_lead_time_days is None
              else f" within the sizing's max_lead_time_days ({max_lead_time_days})")
    raise Invalid.at(pointer, f"{what}{nodes} nodes cannot be delivered: the region can deliver "
                     f"{usable}{within} ({stock.available_nodes} in stock, "
                     f"{stock.arriving_nodes} on order in {stock.lead_time_days} days)",
                     "undeliverable")


def offered_currency(book: pricing.PriceBook, currency: str) -> None:
    """A 422 naming the field for a currency the price book has no exchange rate for."""
    if currency not in book.rates:
        raise Invalid.at("/currency", f"not offered; choose one of {', '.join(sorted(book.rates))}")


def billing_of(snap: Snapshot, config: Configuration, terms: Terms,
               sizing: FromSizing | None) -> Billing:
    """The sizing's billed period when the term is the sizing's; else the training's duration
    under the quote's term; without a sizing, the term's commitment."""
    offered_currency(snap.prices, terms.currency)  # before any price is converted into it
    if sizing is None:
        return Billing.for_term(terms.term)
    price = sizing.ranked.price
    if terms.term == price.term:
        return Billing(price.term, price.months_billed, price.hours_billed)
    return pricing.billing_for(snap.prices, config, term=terms.term, currency=terms.currency,
                               training_hours=sizing.training_hours(terms.term))


def quote_term_warning(snap: Snapshot, config: Configuration, terms: Terms, billing: Billing,
                      training_hours: float,
                      ranges: dict[str, Interval] | None = None) -> str | None:
    """The sizing's warning of a committed term that does not match the training (billed well
    beyond it, or run past it, at the model's point or its p90), at the quote's own term,
    currency and support; `ranges` are the quote's priced intervals."""
    hours, total = ((ranges or {}).get(name) for name in ("time_to_train_hours", "total"))
    return term_warning(snap.prices, snap.policy, config, term=terms.term,
                        months_billed=billing.months, training_hours=training_hours,
                        currency=terms.currency, support=terms.support,
                        p90_training_hours=hours and hours.p90, p90_total=total and total.p90)


def revision(snap: Snapshot, config: Configuration, terms: Terms, billing: Billing, today: date,
             sizing: FromSizing | None, change: RevisionChange | None = None, *,
             stock: Stock, tax_rules: pricing.PriceBook) -> QuoteDocument:
    """Price `config` for `billing` and write down everything the quote says; `stock` is the
    region's stock of the server now (prices may be a sizing's or an earlier revision's).

    The tax is the law on the day the revision is issued, not a price: it is computed with
    `tax_rules`, the current catalog version's (rates, reverse charge, VAT id prefixes), even
    when the prices are an earlier version's.
    """
    book = snap.prices
    # Again here: a revision of a stored quote reaches this without billing_of, in a currency
    # the current catalog may no longer offer.
    offered_currency(book, terms.currency)
    try:
        priced = pricing.price(book, config, term=terms.term, currency=terms.currency,
                               support=terms.support, billing=billing)
    except PricingError as exc:
        raise Invalid.at("/configuration", str(exc)) from None
    # A VatIdMismatch is the caller's to answer: at the field a request sent, or, for a
    # customer stored earlier, as a conflict with what the quote holds.
    tax = pricing.tax(tax_rules, priced.total, terms.currency, terms.country, terms.vat_id)
    server, fabric = snap.servers[config.server], snap.fabrics[config.fabric]
    notes = list(priced.notes)
    if tax.note:
        notes.append(tax.note)
    if sizing is not None and sizing.ranked.hot_spare_nodes:
        notes.append(f"{config.nodes} nodes: {sizing.ranked.nodes} for the job and "
                     f"{sizing.ranked.hot_spare_nodes} hot spare nodes kept ready, so a failure "
                     "waits for no replacement (the sizing's goodput counts them).")
    if sizing is not None:
        warning = quote_term_warning(snap, config, terms, billing, sizing.training_hours(terms.term),
                                     priced_intervals(book, config, terms, sizing.ranked.intervals))
        if warning:
            notes.append(warning)
    handed_over = delivery(stock, config.nodes, today)
    return QuoteDocument(
        catalog_version=snap.version_id, issued_on=today.isoformat(),
        valid_until=(today + timedelta(days=terms.valid_days)).isoformat(),
        seller=snap.provider,
        currency=terms.currency, exchange_rate=priced.exchange_rate, rates_date=priced.rates_date,
        term=terms.term, support=terms.support, hours_per_month=priced.hours_per_month,
        configuration=QuoteConfiguration(
            ServerRef(server.id, server.name), ServerRef(fabric.id, fabric.name), config.nodes,
            config.nodes * server.gpus_per_node, server.gpu.id, config.region,
            config.oversubscription, config.nics_used, config.hot_spare_nodes),
        lines=priced.lines,
        totals=QuoteTotals(
            monthly_list=priced.monthly_list, monthly_discount=priced.monthly_discount,
            monthly_net=priced.monthly_net, term_months=pricing.TERM_MONTHS[terms.term],
            months_billed=billing.months, hours_billed=billing.hours,
            recurring=priced.recurring, one_time=priced.one_time, term_net=priced.total,
            tax_label=tax.label, tax_rate=tax.rate, tax=tax.amount,
            grand_total=priced.total + tax.amount),
        stock=QuoteStock(handed_over.available_now, handed_over.from_deliveries,
                         handed_over.lead_time_days, handed_over.delivery_date.isoformat(),
                         handed_over.undeliverable, handed_over.warning),
        workload=sizing.workload if sizing else None,
        performance=performance_of(sizing, book, config, terms) if sizing else None,
        network_advice=advice_for(sizing, fabric.id, fabric.name, fabric.kind) if sizing else None,
        notes=tuple(notes), change_from_previous=change)


def performance_of(sizing: FromSizing, book: pricing.PriceBook, config: Configuration,
                   terms: Terms) -> QuotePerformance:
    r = sizing.ranked
    return QuotePerformance(r.scaling_efficiency, r.efficiency_vs_one_node, r.tokens_per_s,
                            r.samples_per_s, r.mfu, r.step_time_s, r.communication_share,
                            r.time_to_train_hours, r.bottleneck, r.layout, sizing.catalog_version,
                            r.goodput.goodput, r.goodput.expected_interruptions,
                            priced_intervals(book, config, terms, r.intervals), r.calibration,
                            r.price.training_hours, r.mfu_causal)


def priced_intervals(book: pricing.PriceBook, config: Configuration, terms: Terms,
                     intervals: dict[str, Interval]) -> dict[str, Interval]:
    """The sizing's intervals with the total's priced at the quote's term, currency, support
    and prices: the sizing's range is in its own currency and term, at its catalog version."""
    kept = {name: interval for name, interval in intervals.items() if name != "total"}
    hours = intervals.get("time_to_train_hours")
    if hours is None:  # a run of a given duration: no time range, no total's
        return kept
    return {**kept, "total": total_range(book, config, hours, term=terms.term,
                                         currency=terms.currency, support=terms.support)}


def advice_for(sizing: FromSizing, fabric: str, fabric_name: str,
               kind: str) -> QuoteNetworkAdvice | None:
    """The advice that matches the quoted fabric: the checklist only for RoCEv2."""
    advice = sizing.advice
    if advice is None:
        return None
    return QuoteNetworkAdvice(
        fabric=fabric, fabric_name=fabric_name, recommended_fabric=advice.recommended_fabric,
        recommended_fabric_name=advice.recommended_fabric_name,
        recommended=fabric == advice.recommended_fabric, fabric_class=advice.fabric_class,
        reason=advice.reason, note=sizing.ranked.network_note,
        roce_checklist=ROCE_CHECKLIST if kind == "roce" else ())


def repriced(snap: Snapshot, old: QuoteDocument, old_revision: int, old_catalog_version: int,
             country: str | None, vat_id: str | None, today: date, *,
             stock: Stock, tax_rules: pricing.PriceBook) -> QuoteDocument:
    """The same configuration, billed period and terms at `snap`'s prices (the total's range
    too), with the region's stock and `tax_rules` now."""
    c = old.configuration
    config = configuration_of(snap, c.server.id, c.fabric.id, c.nodes, c.region,
                              c.oversubscription, hot_spare_nodes=c.hot_spare_nodes)
    billing = Billing(old.term, old.totals.months_billed, old.totals.hours_billed)
    valid_days = max((date.fromisoformat(old.valid_until) - date.fromisoformat(old.issued_on)).days, 1)
    terms = Terms(old.term, old.currency, old.support, valid_days, country, vat_id)
    new = revision(snap, config, terms, billing, today, None, stock=stock, tax_rules=tax_rules)
    change = RevisionChange(old_revision, old_catalog_version,
                         new.totals.grand_total - old.totals.grand_total,
                         new.totals.monthly_net - old.totals.monthly_net)
    performance = old.performance and replace(old.performance, intervals=priced_intervals(
        snap.prices, config, terms, old.performance.intervals))
    notes = new.notes
    if performance and performance.training_hours is not None:
        warning = quote_term_warning(snap, config, terms, billing, performance.training_hours,
                                     performance.intervals)
        notes += (warning,) if warning else ()
    return replace(new, workload=old.workload, performance=performance,
                   network_advice=old.network_advice, notes=notes, change_from_previous=change)
