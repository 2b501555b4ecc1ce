"""Prices a configuration (servers, fabric, nodes, region) as line items in Decimal money."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

TERMS = ("monthly", "1y", "3y")
TERM_MONTHS = {"monthly": 1, "1y": 12, "3y": 36}


class PricingError(LookupError):
    """A configuration the price list cannot price (unknown region, currency, pairing)."""


@dataclass(frozen=True)
class Configuration:
    server: str
    fabric: str
    nodes: int
    region: str
    nics_used: int
    oversubscription: float = 1.0


@dataclass(frozen=True)
class LineItem:
    code: str
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    recurring: bool  # monthly when true, one-time otherwise
    discountable: bool

    def list_amount(self) -> Decimal:
        return self.quantity * self.unit_price


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
    nodes_per_leaf: dict[str, int]
    server_names: dict[str, str]
    fabric_names: dict[str, str]
    rates: dict[str, Decimal]
    rates_date: str
    minor_units: dict[str, int]
    tax_rates: dict[str, Decimal] = field(default_factory=dict)  # by customer country

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
            nodes_per_leaf={f["id"]: int(f["nodes_per_leaf"]) for f in doc["fabrics"]},
            server_names={s["id"]: s["name"] for s in doc["servers"]},
            fabric_names={f["id"]: f["name"] for f in doc["fabrics"]},
            rates={k: money(v) for k, v in doc["currencies"]["rates"].items()},
            rates_date=str(doc["currencies"]["rates_date"]),
            minor_units={k: int(v) for k, v in doc["currencies"]["minor_units"].items()},
            tax_rates={c: money(r) for c, r in doc["taxes"]["rates"].items()},
        )

    def round(self, amount: Decimal, currency: str) -> Decimal:
        exponent = Decimal(1).scaleb(-self.minor_units.get(currency, 2))
        return amount.quantize(exponent, rounding=ROUND_HALF_UP)

    def convert(self, amount: Decimal, currency: str) -> Decimal:
        if currency not in self.rates:
            raise PricingError(f"no exchange rate for {currency}")
        return amount * self.rates[currency] / self.rates[self.currency]


def switch_ports_per_host_port(nodes: int, nodes_per_leaf: int, oversubscription: float) -> Decimal:
    """Leaf ports per host port, plus uplink and spine ports once the cluster spans leaves.

    A two-tier leaf-spine with ratio r needs 1/r uplinks per host port and as many spine ports.
    """
    if nodes <= nodes_per_leaf:
        return Decimal(1)
    return Decimal(1) + Decimal(2) / Decimal(str(oversubscription))


def line_items(book: PriceBook, config: Configuration, support: str = "none") -> list[LineItem]:
    """The list-price lines of a configuration in the book's base currency."""
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
    switch_ratio = switch_ports_per_host_port(config.nodes, book.nodes_per_leaf[config.fabric],
                                              config.oversubscription)
    server_name = book.server_names[config.server]
    fabric_name = book.fabric_names[config.fabric]
    items = [
        LineItem("servers", f"{server_name}, dedicated", nodes, "node-month",
                 server_price["monthly_usd"], recurring=True, discountable=True),
        LineItem("fabric_nic_ports", f"{fabric_name} host ports ({config.nics_used} per node)",
                 host_ports, "port-month", ports["nic_port_usd_month"], recurring=True,
                 discountable=True),
        LineItem("fabric_switch_ports",
                 f"{fabric_name} switch ports (oversubscription {config.oversubscription:g}:1)",
                 (host_ports * switch_ratio).quantize(Decimal("0.01")), "port-month",
                 book.switch_port_month[config.fabric], recurring=True, discountable=True),
        LineItem("cables_optics", f"{fabric_name} cables and optics", host_ports, "port",
                 ports["cable_optics_usd_one_time"], recurring=False, discountable=False),
        LineItem("setup", "Node provisioning and burn-in", nodes, "node",
                 server_price["setup_fee_usd"], recurring=False, discountable=False),
    ]
    rate = book.support_tiers[support]
    if rate:
        items.append(LineItem("support", f"{support.title()} support ({rate * 100:g}% of servers)",
                              nodes, "node-month", server_price["monthly_usd"] * rate,
                              recurring=True, discountable=True))
    return items


def list_totals(book: PriceBook, config: Configuration) -> tuple[Decimal, Decimal]:
    """(recurring monthly, one-time) list prices of a configuration in the base currency."""
    items = line_items(book, config)
    recurring = sum((i.list_amount() for i in items if i.recurring), Decimal(0))
    return recurring, sum((i.list_amount() for i in items if not i.recurring), Decimal(0))
