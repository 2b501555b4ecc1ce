"""What the offer can sell a request: server and fabric pairs, and the stock each may draw on."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from catalog.snapshot import Snapshot, Stock


@dataclass(frozen=True)
class HardwareFilter:
    """The customer's choice of hardware; empty means any."""

    gpu_models: tuple[str, ...] = ()
    gpus_per_node: int | None = None
    fabrics_include: tuple[str, ...] = ()
    fabrics_exclude: tuple[str, ...] = ()
    rdma_required: bool = False
    precision: str = "bf16"


@dataclass(frozen=True)
class Sellable:
    pairs: tuple[tuple[str, str], ...]  # (server, fabric), sorted
    excluded: dict[str, int]  # pairs the customer's choice allowed but the offer cannot sell


def sellable_pairs(snap: Snapshot, wanted: HardwareFilter, region: str) -> Sellable:
    """(server, fabric) pairs the customer's filter, the region and the RDMA matrix allow."""
    include = wanted.fabrics_include or tuple(snap.fabrics)
    excluded: dict[str, int] = {}
    pairs = []

    def out(reason: str) -> None:
        excluded[reason] = excluded.get(reason, 0) + 1

    for (server_id, fabric_id), pairing in sorted(snap.pairings.items()):
        server = snap.servers[server_id]
        if wanted.gpu_models and server.gpu.id not in wanted.gpu_models:
            continue
        if wanted.gpus_per_node and server.gpus_per_node != wanted.gpus_per_node:
            continue
        if fabric_id not in include or fabric_id in wanted.fabrics_exclude:
            continue
        if (server_id, region) not in snap.prices.servers:
            out("not_sold_in_region")
        elif not pairing.supported:
            out("rdma_matrix")
        elif wanted.rdma_required and not pairing.rdma:
            out("rdma_required")
        elif server.gpu.peak_tflops(wanted.precision) is None:
            out("precision")
        else:
            pairs.append((server_id, fabric_id))
    return Sellable(tuple(pairs), excluded)


# What each of the request's hardware choices is when it narrows nothing, in the order a
# refusal names them (precision narrows to the GPUs that have it; bf16 is on every one).
UNNARROWED = {"fabrics_exclude": (), "fabrics_include": (), "gpus_per_node": None,
              "gpu_models": (), "rdma_required": False, "precision": "bf16"}


def emptying_filters(snap: Snapshot, wanted: HardwareFilter, region: str) -> tuple[str, ...]:
    """The choices whose removal alone leaves pairs to sell: what to change when none is."""
    return tuple(name for name, free in UNNARROWED.items() if getattr(wanted, name) != free
                 and sellable_pairs(snap, replace(wanted, **{name: free}), region).pairs)


@dataclass(frozen=True)
class Delivery:
    """When a configuration's nodes can be handed over."""

    available_now: int  # nodes of the server on hand in the region
    from_deliveries: int  # nodes of this configuration that come from stock on order
    lead_time_days: int  # 0 when every node is on hand
    delivery_date: date  # when the last node can be handed over
    undeliverable: int  # nodes beyond what is on hand and on order

    @property
    def warning(self) -> str | None:
        if self.undeliverable:
            return (f"only {self.available_now + self.from_deliveries} of the nodes can be "
                    f"delivered: {self.available_now} in stock now and {self.from_deliveries} on "
                    f"order, by {self.delivery_date.isoformat()}")
        if not self.from_deliveries:
            return None
        return (f"{self.available_now} nodes are in stock now; the other {self.from_deliveries} "
                f"arrive by {self.delivery_date.isoformat()} ({self.lead_time_days} days)")


def delivery(stock: Stock, nodes: int, ordered_on: date) -> Delivery:
    """How `nodes` nodes are delivered from `stock` when ordered on `ordered_on`.

    The ranking never shows a configuration beyond what is on hand and arrives in time, and no
    quote is made or sent for one; a quote revised after the stock dropped says how many nodes
    cannot be delivered.
    """
    short = max(nodes - stock.available_nodes, 0)
    from_deliveries = min(short, stock.arriving_nodes)
    lead = stock.lead_time_days if short else 0
    return Delivery(stock.available_nodes, from_deliveries, lead,
                    ordered_on + timedelta(days=lead), short - from_deliveries)
