"""The one pricing engine: a configuration, a term, a billed period and a currency to Decimal money.

Sizings and quotes both price through `price()`; the ranking's float tables come from the same
lines, so what a sizing shows is what its quote charges.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

import numpy as np

from sizing.constants import built_once

# The terms a customer can sign and the months each commits to.
TERM_MONTHS = {"monthly": 1, "1y": 12, "3y": 36}
TERMS = tuple(TERM_MONTHS)
SUPPORT_TIERS = ("none", "business", "enterprise")
# On-demand rates per hour carry sub-cent digits, as hourly price lists do.
HOURLY_PLACES = 4
# 10^-n for the decimal places money is rounded to (minor units are 0 to 4; hourly rates 4).
QUANTUM = {n: Decimal(1).scaleb(-n) for n in range(7)}


class PricingError(LookupError):
    """A configuration the price list cannot price (unknown region, currency, pairing)."""


class VatIdMismatch(ValueError):
    """A VAT id that another country than the customer's issued."""


@dataclass(frozen=True)
class Configuration:
    server: str
    fabric: str
    nodes: int
    region: str
    nics_used: int
    oversubscription: float = 1.0
    # Of `nodes`, the hot spares kept ready beside the job's. A spare only takes a failed
    # node's place, so whether the fabric is used follows the job's nodes (`job_nodes`); when
    # it is, every billed node is cabled to it, the spare that may join the job too.
    hot_spare_nodes: int = 0

    @property
    def job_nodes(self) -> int:
        return self.nodes - self.hot_spare_nodes


@dataclass(frozen=True)
class LineItem:
    """One list-price line of a configuration per month (or once), in the base currency."""

    code: str
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    recurring: bool  # monthly when true, one-time otherwise
    discountable: bool
    # The on-demand price per hour of one unit, for recurring lines.
    hourly_price: Decimal | None = None


@dataclass(frozen=True)
class PriceBook:
    """The price side of one catalog version, in its base currency."""

    currency: str
    hours_per_month: int
    term_discounts: dict[str, Decimal]
    support_tiers: dict[str, Decimal]
    servers: dict[tuple[str, str], dict[str, Decimal]]
    fabric_ports: dict[str, dict[str, Decimal]]
    switch_port_month: dict[str, Decimal]
    nodes_below_spine: dict[str, int]  # a leaf, or a rail-optimised unit
    server_names: dict[str, str]
    fabric_names: dict[str, str]
    rates: dict[str, Decimal]
    rates_date: str
    minor_units: dict[str, int]
    # The checkpoint storage offer, per node of a job per month (reliability.yaml: throughput).
    storage_per_node_month: Decimal = Decimal(0)
    tax_rates: dict[str, Decimal] = field(default_factory=dict)  # by customer country
    tax_names: dict[str, str] = field(default_factory=dict)
    reverse_charge_countries: frozenset[str] = frozenset()
    seller_country: str = ""
    vat_id_prefixes: dict[str, str] = field(default_factory=dict)  # where not the country's code

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> PriceBook:
        prices = doc["prices"]
        money = lambda v: Decimal(str(v))
        return cls(
            currency=prices["currency"],
            hours_per_month=int(prices["hours_per_month"]),
            term_discounts={k: money(v) for k, v in prices["term_discounts"].items()},
            support_tiers={k: money(v) for k, v in prices["support_tiers"].items()},
            servers={(p["server"], p["region"]): {k: money(p[k]) for k in
                     ("hourly_usd", "monthly_usd", "setup_fee_usd")} for p in prices["servers"]},
            fabric_ports={f["fabric"]: {"nic_port_usd_month": money(f["nic_port_usd_month"]),
                                        "cable_optics_usd_one_time": money(f["cable_optics_usd_one_time"])}
                          for f in prices["fabric_per_node"]},
            switch_port_month={f["id"]: money(f["switch_port_price_usd_month"]) for f in doc["fabrics"]},
            nodes_below_spine={f["id"]: int(f["nodes_per_unit"] if f.get("topology") == "rail-optimised"
                                         else f["nodes_per_leaf"]) for f in doc["fabrics"]},
            server_names={s["id"]: s["name"] for s in doc["servers"]},
            fabric_names={f["id"]: f["name"] for f in doc["fabrics"]},
            rates={k: money(v) for k, v in doc["currencies"]["rates"].items()},
            rates_date=str(doc["currencies"]["rates_date"]),
            minor_units={k: int(v) for k, v in doc["currencies"]["minor_units"].items()},
            storage_per_node_month=money(prices["storage"]["per_node_usd_month"]),
            tax_rates={c: money(r) for c, r in doc["taxes"]["rates"].items()},
            tax_names=dict(doc["taxes"]["names"]),
            reverse_charge_countries=frozenset(doc["taxes"]["reverse_charge_countries"]),
            seller_country=doc["provider"]["country"],
            # Catalog versions stored before the file had them: none.
            vat_id_prefixes=dict(doc["taxes"].get("vat_id_prefixes") or {}),
        )

    def round(self, amount: Decimal, currency: str, places: int | None = None) -> Decimal:
        digits = self.minor_units.get(currency, 2) if places is None else places
        return amount.quantize(QUANTUM[digits], rounding=ROUND_HALF_UP)

    def fx(self, currency: str) -> Decimal:
        """Units of `currency` per unit of the base currency."""
        if currency not in self.rates:
            raise PricingError(f"no exchange rate for {currency}")
        return self.rates[currency] / self.rates[self.currency]


def switch_ports_per_host_port(nodes: int, nodes_per_leaf: int, oversubscription: float) -> Decimal:
    """Leaf ports per host port, plus uplink and spine ports once the cluster spans leaves.

    A two-tier leaf-spine with ratio r needs 1/r uplinks per host port and as many spine ports.
    """
    if nodes <= nodes_per_leaf:
        return Decimal(1)
    return Decimal(1) + Decimal(2) / Decimal(str(oversubscription))


# The scale-out fabric's lines: a one-node job's GPUs talk inside the server (NVLink, xGMI or
# PCIe), so it uses no host port, switch port or cable of the fabric and none is billed.
FABRIC_LINES = frozenset({"fabric_nic_ports", "fabric_switch_ports", "cables_optics"})


def uses_fabric(nodes):
    """Whether a job of `nodes` nodes runs over the scale-out fabric (element-wise for an
    array of node counts)."""
    return nodes > 1


def line_items(book: PriceBook, config: Configuration, support: str = "none") -> list[LineItem]:
    """The list-price lines of a configuration in the book's base currency (no fabric lines
    for a one-node job, whatever its hot spares)."""
    items = _all_lines(book, config, support)
    if uses_fabric(config.job_nodes):
        return items
    return [item for item in items if item.code not in FABRIC_LINES]


def _all_lines(book: PriceBook, config: Configuration, support: str) -> list[LineItem]:
    """Every line a configuration of the pair can bill, priced per unit; quantities for
    `config.nodes` (the ranking's tables take theirs from line_quantities)."""
    try:
        server_price = book.servers[(config.server, config.region)]
    except KeyError:
        raise PricingError(f"server {config.server!r} is not sold in region {config.region!r}") from None
    if config.fabric not in book.fabric_ports:
        raise PricingError(f"fabric {config.fabric!r} has no port price")
    if support not in book.support_tiers:
        raise PricingError(f"unknown support tier {support!r}")
    nodes = Decimal(config.nodes)
    host_ports = nodes * config.nics_used
    ports = book.fabric_ports[config.fabric]
    switch_ratio = switch_ports_per_host_port(config.nodes, book.nodes_below_spine[config.fabric],
                                              config.oversubscription)
    server_name = book.server_names[config.server]
    fabric_name = book.fabric_names[config.fabric]
    hours = Decimal(book.hours_per_month)
    items = [
        # On demand the servers go at their hourly price; the fabric pro rata of its month.
        LineItem("servers", f"{server_name}, dedicated", nodes, "node",
                 server_price["monthly_usd"], recurring=True, discountable=True,
                 hourly_price=server_price["hourly_usd"]),
        LineItem("fabric_nic_ports", f"{fabric_name} host ports ({config.nics_used} per node)",
                 host_ports, "port", ports["nic_port_usd_month"], recurring=True,
                 discountable=True, hourly_price=ports["nic_port_usd_month"] / hours),
        LineItem("fabric_switch_ports",
                 f"{fabric_name} switch ports (oversubscription {config.oversubscription:g}:1)",
                 (host_ports * switch_ratio).quantize(Decimal("0.01")), "port",
                 book.switch_port_month[config.fabric], recurring=True, discountable=True,
                 hourly_price=book.switch_port_month[config.fabric] / hours),
        LineItem("cables_optics", f"{fabric_name} cables and optics", host_ports, "port",
                 ports["cable_optics_usd_one_time"], recurring=False, discountable=False),
        LineItem("setup", "Node provisioning and burn-in", nodes, "node",
                 server_price["setup_fee_usd"], recurring=False, discountable=False),
    ]
    rate = book.support_tiers[support]
    if rate:
        items.append(LineItem("support", f"{support.title()} support ({rate * 100:g}% of servers)",
                              nodes, "node", server_price["monthly_usd"] * rate,
                              recurring=True, discountable=True,
                              hourly_price=server_price["hourly_usd"] * rate))
    return items


# ------------------------------------------------------------------------------ billing

@dataclass(frozen=True)
class Billing:
    """What is billed: whole months at the term's rate, or hours on demand (monthly term only)."""

    term: str
    months: int  # 0 when billed by the hour
    hours: int  # on-demand hours billed; 0 when billed by the month

    @property
    def on_demand(self) -> bool:
        return self.hours > 0

    @classmethod
    def for_term(cls, term: str) -> Billing:
        """The term's commitment and nothing more: a quote that names no duration."""
        return cls(term, TERM_MONTHS[term], 0)


def billing_plans(term: str, training_hours, hours_per_month: int, monthly_net, hourly_net):
    """The billing rule, on arrays (ranking) or scalars (a quote): (months, on-demand hours).

    Hours are billed per started hour. A term bills at least its months, more if the training
    runs longer. On the monthly term the training is billed by the hour on demand when that is
    cheaper than its whole months.
    """
    hours = np.maximum(np.ceil(np.asarray(training_hours, float) - 1e-9), 1)
    months = np.maximum(TERM_MONTHS[term], np.ceil(hours / hours_per_month - 1e-12))
    on_demand = np.zeros(np.shape(hours), bool)
    if term == "monthly":
        on_demand = hours * np.asarray(hourly_net, float) < months * np.asarray(monthly_net, float)
    return (np.where(on_demand, 0, months).astype(int), np.where(on_demand, hours, 0).astype(int))


# ------------------------------------------------------------------------------ Decimal prices

@dataclass(frozen=True)
class PricedLine:
    code: str
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    list_amount: Decimal
    discount_rate: Decimal
    discount: Decimal
    net: Decimal
    billing: Literal["monthly", "hourly", "one_time"]


@dataclass(frozen=True)
class Price:
    """A configuration priced for a billed period, before tax, in the quote's currency."""

    currency: str
    exchange_rate: Decimal
    rates_date: str
    term: str
    support: str
    hours_per_month: int
    billing: Billing
    lines: tuple[PricedLine, ...]
    monthly_list: Decimal  # the term's monthly rate, whether or not months are billed
    monthly_discount: Decimal
    monthly_net: Decimal
    hourly_net: Decimal  # the on-demand rate per hour
    recurring: Decimal  # what the billed months or hours cost
    one_time: Decimal
    total: Decimal  # recurring + one_time: the quote's net before tax
    notes: tuple[str, ...]


def _line(book: PriceBook, item: LineItem, quantity: Decimal, unit: str, unit_price: Decimal,
          rate: Decimal, currency: str, billing: str) -> PricedLine:
    list_amount = book.round(quantity * unit_price, currency)
    discount = book.round(list_amount * rate, currency)
    return PricedLine(item.code, item.description, quantity.normalize(), unit, unit_price,
                      list_amount, rate, discount, list_amount - discount, billing)


def price(book: PriceBook, config: Configuration, *, term: str, currency: str,
          support: str = "none", billing: Billing) -> Price:
    """Line items and totals of `config` for `billing`; each amount is rounded, then summed."""
    if term not in book.term_discounts:
        raise PricingError(f"unknown term {term!r}")
    fx = book.fx(currency)
    items = line_items(book, config, support)
    discount_rate = book.term_discounts[term]
    monthly = [_line(book, i, i.quantity, f"{i.unit}-month", book.round(i.unit_price * fx, currency),
                     discount_rate if i.discountable else Decimal(0), currency, "monthly")
               for i in items if i.recurring]
    hourly_rates = [book.round(i.hourly_price * fx, currency, HOURLY_PLACES)
                    for i in items if i.recurring]
    once = [_line(book, i, i.quantity, i.unit, book.round(i.unit_price * fx, currency), Decimal(0),
                  currency, "one_time") for i in items if not i.recurring]
    monthly_net = sum((line.net for line in monthly), Decimal(0))
    hourly_net = book.round(sum((i.quantity * r for i, r in zip(
        (i for i in items if i.recurring), hourly_rates)), Decimal(0)), currency, HOURLY_PLACES)
    if billing.on_demand:
        hours = Decimal(billing.hours)
        billed = [_line(book, i, i.quantity * hours, f"{i.unit}-hour", r, Decimal(0), currency,
                        "hourly")
                  for i, r in zip((i for i in items if i.recurring), hourly_rates)]
        recurring = sum((line.net for line in billed), Decimal(0))
    else:
        billed = monthly
        recurring = monthly_net * billing.months
    one_time = sum((line.net for line in once), Decimal(0))
    notes = [f"A month is {book.hours_per_month} hours."]
    if billing.on_demand:
        notes.append(f"Billed on demand for {billing.hours:,} hours (per started hour), cheaper "
                     "than whole months for this run.")
    else:
        notes.append(f"Monthly lines bill for {billing.months} month{'s' if billing.months > 1 else ''}"
                     f" ({term} term).")
        notes.append(f"Term discount {(discount_rate * 100).normalize():f}% on recurring lines "
                     f"({term}).")
    if currency != book.currency:
        notes.append(f"Converted from {book.currency} at {book.rates[currency]} {currency} per "
                     f"{book.currency} (rates of {book.rates_date}).")
    return Price(currency=currency, exchange_rate=book.rates[currency], rates_date=book.rates_date,
                 term=term, support=support, hours_per_month=book.hours_per_month, billing=billing,
                 lines=tuple(billed + once),
                 monthly_list=sum((line.list_amount for line in monthly), Decimal(0)),
                 monthly_discount=sum((line.discount for line in monthly), Decimal(0)),
                 monthly_net=monthly_net, hourly_net=hourly_net, recurring=recurring,
                 one_time=one_time, total=recurring + one_time, notes=tuple(notes))


def billing_for(book: PriceBook, config: Configuration, *, term: str, currency: str,
                training_hours: float, support: str = "none") -> Billing:
    """The billing the rule gives a training of `training_hours` on `config`."""
    return billing_at(price(book, config, term=term, currency=currency, support=support,
                            billing=Billing.for_term(term)), training_hours)


def billing_at(rates: Price, training_hours: float) -> Billing:
    """The billing the rule gives a training of `training_hours` at a price's rates (its
    monthly and hourly net, whatever its billing): billing_for's, for a caller that bills
    several trainings of one configuration."""
    months, hours = billing_plans(rates.term, training_hours, rates.hours_per_month,
                                  float(rates.monthly_net), float(rates.hourly_net))
    return Billing(rates.term, int(months), int(hours))


# ------------------------------------------------------------------------------ tax

@dataclass(frozen=True)
class Tax:
    label: str  # e.g. "VAT 19% (DE)" or "VAT reverse charge (FR)"
    rate: Decimal | None  # None: no rate on file
    amount: Decimal
    note: str | None


def tax(book: PriceBook, net: Decimal, currency: str, country: str | None,
        vat_id: str | None) -> Tax:
    """The tax line of a quote for a customer in `country` (a business when it gives a VAT id).

    A business customer's service is supplied where it is established (taxes.yaml): from a
    seller in the reverse-charge area, one with a VAT id of another country of the area is
    invoiced without VAT and accounts for it (reverse charge); one outside the area is charged
    no VAT of the seller's country and accounts for any tax of its own. Raises VatIdMismatch
    for a VAT id of a member state of the area whose prefix is not that state's; elsewhere the
    id is the business's own identifier in its country's format (Japan's "T" and 13 digits,
    Singapore's GST number, none at all in the US) and only marks the customer a business.
    """
    zero = book.round(Decimal(0), currency)
    if not country:
        return Tax("Tax (no customer country given)", None, zero,
                   "No customer country: tax is not included; it is added at invoicing.")
    # Directive 2006/112/EC Art. 215 prefixes the VAT ids of EU member states only.
    prefix = book.vat_id_prefixes.get(country, country)
    if vat_id and country in book.reverse_charge_countries and not vat_id.startswith(prefix):
        raise VatIdMismatch(f"a VAT id of {country} starts with {prefix}, not {vat_id[:2]}: "
                            "give the VAT id the customer's country issued")
    seller = book.seller_country
    if vat_id and country != seller and seller in book.reverse_charge_countries:
        if country in book.reverse_charge_countries:
            name = book.tax_names.get(country, "VAT")
            return Tax(f"{name} reverse charge ({country})", Decimal(0), zero,
                       f"Reverse charge: the customer ({vat_id}) accounts for {name} "
                       "(Council Directive 2006/112/EC, Articles 44 and 196).")
        seller_tax = book.tax_names.get(seller, "VAT")
        local_tax = book.tax_names.get(country, "tax")
        return Tax(f"Outside the scope of {seller} {seller_tax} ({country})", Decimal(0), zero,
                   f"Supplied to a business established in {country} ({vat_id}): the place of "
                   f"supply is {country}, so no {seller} {seller_tax} is charged (Council "
                   "Directive 2006/112/EC, Article 44); the customer accounts for any "
                   f"{local_tax} due in {country}.")
    rate = book.tax_rates.get(country)
    if rate is None:
        return Tax(f"Tax ({country})", None, zero,
                   f"No tax rate on file for {country}: tax not included; finance confirms it at "
                   "invoicing.")
    name = book.tax_names.get(country, "Tax")
    percent = (rate * 100).normalize()
    return Tax(f"{name} {percent:f}% ({country})", rate, book.round(net * rate, currency), None)


# ------------------------------------------------------------------------------ ranking tables

@dataclass(frozen=True)
class RateTable:
    """Net rates of many configurations in one currency, as floats for ranking arrays.

    Each figure is the engine's unit prices (Decimal, converted and rounded once per server and
    fabric) times each line's quantity, every line rounded half up as `price()` rounds it, so
    a shown configuration re-priced by `price()` has the same money (a test checks every pair
    of the catalog at every node count).
    """

    monthly_net: np.ndarray  # the term's rate per month
    hourly_net: np.ndarray  # on demand, per hour
    one_time: np.ndarray


def _round_half_up(amount: np.ndarray, places: int) -> np.ndarray:
    # The float error of a product of cents is far below 1e-6 of the last place kept.
    scale = 10.0 ** places
    return np.floor(np.asarray(amount, float) * scale + 0.5 + 1e-6) / scale


def line_quantities(book: PriceBook, configs: Sequence[Configuration], nodes: np.ndarray,
                    job_nodes: np.ndarray) -> dict[str, np.ndarray]:
    """Each line's quantity per configuration (rows) and billed node count (columns), the
    job's nodes among them given alike, as `line_items` counts them."""
    nodes = np.asarray(nodes, float)[None, :]
    nics = np.array([c.nics_used for c in configs], float)[:, None]
    below_spine = np.array([book.nodes_below_spine[c.fabric] for c in configs], float)[:, None]
    ratio = np.array([c.oversubscription for c in configs], float)[:, None]
    host_ports = np.where(uses_fabric(np.asarray(job_nodes))[None, :], nodes * nics, 0.0)
    switch_ratio = np.where(nodes <= below_spine, 1.0, 1.0 + 2.0 / ratio)
    servers = np.broadcast_to(nodes, host_ports.shape)
    return {"servers": servers, "fabric_nic_ports": host_ports,
            "fabric_switch_ports": _round_half_up(host_ports * switch_ratio, 2),
            "cables_optics": host_ports, "setup": servers, "support": servers}


# The unit prices of each pair, region and currency, per price book (sizing.constants.built_once).
_UNIT_PRICES: dict = {}


def _unit_prices(book: PriceBook, config: Configuration, currency: str,
                 support: str) -> tuple[tuple[str, float, float, bool, bool], ...]:
    """(code, unit price, hourly unit price, recurring, discountable) of each line of the
    pair, in `currency`: rounded in Decimal as `price()` rounds them."""
    fx = book.fx(currency)
    return tuple((item.code, float(book.round(item.unit_price * fx, currency)),
             float(book.round(item.hourly_price * fx, currency, HOURLY_PLACES))
             if item.recurring else 0.0, item.recurring, item.discountable)
            for item in _all_lines(book, config, support))


def rate_grid(book: PriceBook, templates: Sequence[Configuration], node_counts: Sequence[int],
              *, term: str, currency: str, job_nodes: Sequence[int] | None = None) -> RateTable:
    """The rates of each template at each billed node count, template-major (a search's
    cells); `job_nodes`, alike, the job's nodes of each count (the rest hot spares; default
    all). Every template is priced at once, one line at a time: the same float operations
    per cell, in the same order, as one template alone."""
    if term not in book.term_discounts:
        raise PricingError(f"unknown term {term!r}")
    nodes = np.asarray(node_counts, float)
    jobs = nodes if job_nodes is None else np.asarray(job_nodes, float)
    if jobs.shape != nodes.shape:
        raise ValueError("job_nodes gives one count per node count")
    book.fx(currency)  # an unknown currency is refused before anything is priced
    if not templates:
        return RateTable(np.zeros(0), np.zeros(0), np.zeros(0))
    places = book.minor_units.get(currency, 2)
    rate = float(book.term_discounts[term])
    quantity = line_quantities(book, templates, nodes, jobs)
    # Unit prices depend on the server, fabric and region, not on the oversubscription or the
    # NICs used: the fabric's priced spines share them. A catalog version's never change, so
    # they are rounded in Decimal once per book, not once per search (a worker sizes request
    # after request on one version, the full catalog's 103 pairs each time).
    lines = [built_once(_UNIT_PRICES, book, (t.server, t.fabric, t.region, currency),
                        lambda t=t: _unit_prices(book, t, currency, "none"))
             for t in templates]
    if len({tuple((code, rec, disc) for code, _, _, rec, disc in ls) for ls in lines}) != 1:
        raise ValueError("the templates bill different lines")
    monthly = hourly = once = np.zeros(quantity["servers"].shape)
    for k, (code, _, _, recurring, discountable) in enumerate(lines[0]):
        q = quantity[code]
        unit = np.array([ls[k][1] for ls in lines])[:, None]
        amount = _round_half_up(q * unit, places)
        if not recurring:
            once = once + amount
            continue
        discount = _round_half_up(amount * rate, places) if discountable else 0.0
        monthly = monthly + amount - discount
        hourly = hourly + q * np.array([ls[k][2] for ls in lines])[:, None]
    # Sums of whole cents, rounded again only to drop the floats' noise.
    return RateTable(_round_half_up(monthly, places).ravel(),
                     _round_half_up(hourly, HOURLY_PLACES).ravel(),
                     _round_half_up(once, places).ravel())


def training_cost(rates: RateTable, index: np.ndarray, training_hours: np.ndarray, term: str,
                  hours_per_month: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cost, months billed, on-demand hours) per candidate, by the same rule as `billing_for`.

    On-demand amounts round per line in Decimal; the float here can differ from the shown
    price by a few cents, which never matters for the order.
    """
    monthly, hourly = rates.monthly_net[index], rates.hourly_net[index]
    months, hours = billing_plans(term, training_hours, hours_per_month, monthly, hourly)
    cost = np.where(hours > 0, hours * hourly, months * monthly) + rates.one_time[index]
    return cost, months, hours

