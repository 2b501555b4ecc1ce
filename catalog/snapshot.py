"""Turns one catalog version into the sizing model's value objects, once per version."""

from __future__ import annotations

import dataclasses
import gc
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import select
from sqlalchemy.orm import Session

from catalog import tables
from catalog.pricing import PriceBook
from catalog.queries import version_key
from sizing.constants import ModelConstants
from sizing.goodput import Reliability
from sizing.hardware import GPU, Cluster, Fabric, Server
from sizing.intervals import Calibration
from sizing.policy import SizingPolicy


@dataclass(frozen=True)
class Pairing:
    """How one server joins one fabric, from the RDMA support matrix."""

    server: str
    fabric: str
    supported: bool
    rdma: bool
    gpudirect_rdma: bool
    nics_used: int
    port_rate_gbps: float | None
    nic: str | None
    reason: str | None


@dataclass(frozen=True)
class Stock:
    """Nodes of one server in one region: on hand, and on order with their lead time."""

    available_nodes: int
    arriving_nodes: int
    lead_time_days: int

    def usable(self, max_lead_time_days: int) -> int:
        """The most nodes a configuration may use: on hand, plus on order if they arrive in time."""
        arriving = self.arriving_nodes if self.lead_time_days <= max_lead_time_days else 0
        return self.available_nodes + arriving


NO_STOCK = Stock(0, 0, 0)


@dataclass(frozen=True)
class Provider:
    """Who makes the offer, as a quote prints it, with its terms and conditions."""

    name: str
    address: tuple[str, ...]
    country: str
    vat_id: str
    email: str
    phone: str
    website: str
    terms: tuple[str, ...]


@dataclass(frozen=True)
class Snapshot:
    version_id: int
    gpus: dict[str, GPU]
    servers: dict[str, Server]
    fabrics: dict[str, Fabric]
    fabric_oversubscription_options: dict[str, tuple[float, ...]]
    pairings: dict[tuple[str, str], Pairing]
    stock: dict[tuple[str, str], Stock]  # by (region, server)
    regions: tuple[str, ...]
    constants: ModelConstants
    policy: SizingPolicy
    reliability: Reliability
    calibration: Calibration
    prices: PriceBook
    provider: Provider

    def stock_of(self, region: str, server: str) -> Stock:
        return self.stock.get((region, server), NO_STOCK)

    def cluster(self, server_id: str, fabric_id: str, nodes: int,
                oversubscription: float | None = None) -> Cluster:
        """The cluster a server makes on a fabric, with the NICs the matrix says it uses."""
        pairing = self.pairings[(server_id, fabric_id)]
        server = self.servers[server_id]
        if pairing.supported:
            server = dataclasses.replace(server, nics_per_node=pairing.nics_used,
                                         nic_rate_gbps=pairing.port_rate_gbps or server.nic_rate_gbps)
        fabric = self.fabrics[fabric_id]
        if oversubscription is not None:
            fabric = dataclasses.replace(fabric, oversubscription=oversubscription)
        return Cluster(server=server, fabric=fabric, nodes=nodes, gpudirect=pairing.gpudirect_rdma)


def gpu_of(entry: dict[str, Any]) -> GPU:
    return GPU(id=entry["id"], name=entry["name"], bf16_tflops=float(entry["bf16_tflops"]),
               fp8_tflops=None if entry.get("fp8_tflops") is None else float(entry["fp8_tflops"]),
               memory_gb=float(entry["memory_gb"]),
               memory_bandwidth_gbs=float(entry["memory_bandwidth_gbs"]),
               intra_link=entry["intra_link"], intra_bandwidth_gbs=float(entry["intra_bandwidth_gbs"]),
               nvlink_sharp=bool(entry.get("nvlink_sharp", False)),
               bf16=bool(entry.get("bf16", True)),
               fused_attention=bool(entry.get("fused_attention", True)))


def server_of(entry: dict[str, Any], gpus: dict[str, GPU]) -> Server:
    nics = entry["nics"]
    gpu = gpus[entry["gpu"]]
    return Server(
        id=entry["id"], name=entry["name"], gpu=gpu, gpus_per_node=int(entry["gpus_per_node"]),
        nics_per_node=sum(int(n["count"]) for n in nics),
        nic_rate_gbps=max(float(n["rate_gbps"]) for n in nics),
        pcie_gen=int(entry["pcie_gen"]),
        gpudirect_rdma=bool(entry["nic_gpu_same_switch"]),
        host_memory_gb=float(entry["host_memory_gb"]),
    )


def fabric_of(entry: dict[str, Any]) -> Fabric:
    return Fabric(
        id=entry["id"], name=entry["name"], kind=entry["kind"],
        line_rate_gbps=float(entry["line_rate_gbps"]), latency_us=float(entry["latency_us"]),
        achievable_fraction=float(entry["achievable_fraction"]), rdma=bool(entry["rdma"]),
        lossless=bool(entry["lossless"]), jitter_cv=float(entry["jitter_cv"]),
        loss_rate=float(entry["loss_rate"]),
        oversubscription=float(min(entry["oversubscription_options"])),
        nodes_per_leaf=int(entry["nodes_per_leaf"]),
        topology=entry.get("topology", "leaf-spine"),
        nodes_per_unit=int(entry.get("nodes_per_unit", 0)),
        nodes_below_core=int(entry.get("nodes_below_core", 0)),
        sharp=bool(entry.get("sharp", False)),
        adaptive_routing=bool(entry.get("adaptive_routing", False)),
        selective_repeat=bool(entry.get("selective_repeat", False)),
        ring_latency_us=(float(entry["ring_latency_us"]) if "ring_latency_us" in entry
                         else None),
    )


def provider_of(entry: dict[str, Any]) -> Provider:
    return Provider(name=entry["name"], address=tuple(entry["address"]), country=entry["country"],
                    vat_id=entry["vat_id"], email=entry["email"], phone=entry["phone"],
                    website=entry["website"], terms=tuple(entry["terms"]))


# The catalog files this build ships: where a stored version predates a model constant or a
# policy figure the code now reads, the version takes the shipped one (the figure a new version
# would carry), so that a sizing made on it can still be quoted and re-priced.
SHIPPED_DATA = Path(__file__).resolve().parent / "data"


def _table(section: dict[str, Any]) -> dict[str, Any]:
    return section.get("constants", section)


@lru_cache(maxsize=1)
def _shipped_tables() -> tuple[dict[str, Any], dict[str, Any]]:
    return tuple(_table(yaml.safe_load((SHIPPED_DATA / f"{name}.yaml").read_text()))
                 for name in ("model", "policy"))


def constants_tables(document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The version's model constants and policy tables, each entry it lacks taken from the
    shipped files; its own entries kept as stored."""
    shipped_model, shipped_policy = _shipped_tables()
    return ({**shipped_model, **_table(document["model"])},
            {**shipped_policy, **_table(document["policy"])})


def build(version_id: int, document: dict[str, Any]) -> Snapshot:
    gpus = {g["id"]: gpu_of(g) for g in document["gpus"]}
    model, policy = constants_tables(document)
    return Snapshot(
        version_id=version_id,
        gpus=gpus,
        servers={s["id"]: server_of(s, gpus) for s in document["servers"]},
        fabrics={f["id"]: fabric_of(f) for f in document["fabrics"]},
        fabric_oversubscription_options={
            f["id"]: tuple(float(x) for x in f["oversubscription_options"]) for f in document["fabrics"]},
        pairings={(r["server"], r["fabric"]): Pairing(
            server=r["server"], fabric=r["fabric"], supported=bool(r["supported"]),
            rdma=bool(r["rdma"]), gpudirect_rdma=bool(r["gpudirect_rdma"]),
            nics_used=int(r.get("nics_used") or 0),
            port_rate_gbps=None if r.get("port_rate_gbps") is None else float(r["port_rate_gbps"]),
            nic=r.get("nic"), reason=r.get("reason"),
        ) for r in document["rdma"]},
        stock={(region["id"], s["server"]): Stock(int(s["available_nodes"]),
                                                  int(s["arriving_nodes"]), int(s["lead_time_days"]))
               for region in document["regions"] for s in region.get("stock", [])},
        regions=tuple(r["id"] for r in document["regions"]),
        constants=ModelConstants.from_mapping(model, policy),
        policy=SizingPolicy.from_mapping(policy),
        reliability=Reliability.from_mapping(document["reliability"]),
        calibration=Calibration.from_mapping(document["uncertainty"]),
        prices=PriceBook.from_document(document),
        provider=provider_of(document["provider"]),
    )


_cache: dict[tuple[int, str], Snapshot] = {}
_lock = threading.Lock()


def snapshot(session: Session, version_id: int) -> Snapshot:
    """The snapshot of a version; versions never change, so each is built once per process.

    Keyed by id and content hash too, since one process may talk to several databases.
    """
    digest = session.scalar(
        select(tables.CatalogVersion.content_sha256).where(tables.CatalogVersion.id == version_id))
    if digest is None:
        raise LookupError(f"catalog version {version_id} does not exist")
    return _cached(session, version_id, digest)


def current_snapshot(session: Session, version_id: int | None = None) -> Snapshot:
    """The snapshot of a version, or of the latest one, in one small query per call: the id
    and hash of the version (`version_key`, which begins no transaction of the session's),
    never its document once it is cached. Asking each time is what makes a newly loaded
    version seen by the next request of every process."""
    return _cached(session, *version_key(session, version_id))


def _cached(session: Session, version_id: int, digest: str) -> Snapshot:
    key = (version_id, digest)
    with _lock:
        cached = _cache.get(key)
    if cached is not None:
        return cached
    built = build(version_id, session.get(tables.CatalogVersion, version_id).document)
    with _lock:
        _cache[key] = built
    # A version's snapshot lives as long as the process, as do the modules and the app before
    # it: what is alive now is moved out of the cycle collector's generations, which each full
    # collection would otherwise walk (some 190,000 objects: about 110 ms, in whichever request
    # triggers it). Reference counting still frees them; only cycles alive now are kept.
    gc.freeze()
    return built
