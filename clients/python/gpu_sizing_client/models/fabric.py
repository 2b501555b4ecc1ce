from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.fabric_sources import FabricSources





T = TypeVar("T", bound="Fabric")



@_attrs_define
class Fabric:
    """ 
        Attributes:
            achievable_fraction (float): Achievable fraction of line rate
            id (str):  Example: ib-ndr-400.
            jitter_cv (float): Coefficient of variation of communication time
            kind (str): infiniband, roce or ethernet
            latency_us (float): Per-message latency (alpha), µs
            line_rate_gbps (float): Per port, Gb/s (bits)
            loss_rate (float): Packet loss rate assumed
            lossless (bool): PFC + ECN configured
            name (str):
            nodes_per_leaf (int):
            oversubscription_options (list[float]):
            rdma (bool):
            adaptive_routing (bool | Unset): Switches spread packets over paths (no ECMP hash collisions)
            description (str | Unset):
            nodes_below_core (int | Unset): Nodes the spine joins; beyond them traffic crosses a core tier
            nodes_per_unit (int | Unset): Rail-optimised: nodes of one scalable unit, below the spine
            selective_repeat (bool | Unset): NICs resend only lost packets (not go-back-N)
            sharp (bool | Unset): In-network reduction (SHARP) enabled for NCCL CollNet
            sources (FabricSources | Unset): Field name -> where its figure came from, or 'estimate: why'
            switch_port_price_usd_month (Any | Unset): Decimal string, USD
            topology (str | Unset): leaf-spine, or rail-optimised (a leaf per rail in each scalable unit)
     """

    achievable_fraction: float
    id: str
    jitter_cv: float
    kind: str
    latency_us: float
    line_rate_gbps: float
    loss_rate: float
    lossless: bool
    name: str
    nodes_per_leaf: int
    oversubscription_options: list[float]
    rdma: bool
    adaptive_routing: bool | Unset = UNSET
    description: str | Unset = UNSET
    nodes_below_core: int | Unset = UNSET
    nodes_per_unit: int | Unset = UNSET
    selective_repeat: bool | Unset = UNSET
    sharp: bool | Unset = UNSET
    sources: FabricSources | Unset = UNSET
    switch_port_price_usd_month: Any | Unset = UNSET
    topology: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.fabric_sources import FabricSources # noqa: PLC0415
        achievable_fraction = self.achievable_fraction

        id = self.id

        jitter_cv = self.jitter_cv

        kind = self.kind

        latency_us = self.latency_us

        line_rate_gbps = self.line_rate_gbps

        loss_rate = self.loss_rate

        lossless = self.lossless

        name = self.name

        nodes_per_leaf = self.nodes_per_leaf

        oversubscription_options = self.oversubscription_options



        rdma = self.rdma

        adaptive_routing = self.adaptive_routing

        description = self.description

        nodes_below_core = self.nodes_below_core

        nodes_per_unit = self.nodes_per_unit

        selective_repeat = self.selective_repeat

        sharp = self.sharp

        sources: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = self.sources.to_dict()

        switch_port_price_usd_month = self.switch_port_price_usd_month

        topology = self.topology


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "achievable_fraction": achievable_fraction,
            "id": id,
            "jitter_cv": jitter_cv,
            "kind": kind,
            "latency_us": latency_us,
            "line_rate_gbps": line_rate_gbps,
            "loss_rate": loss_rate,
            "lossless": lossless,
            "name": name,
            "nodes_per_leaf": nodes_per_leaf,
            "oversubscription_options": oversubscription_options,
            "rdma": rdma,
        })
        if adaptive_routing is not UNSET:
            field_dict["adaptive_routing"] = adaptive_routing
        if description is not UNSET:
            field_dict["description"] = description
        if nodes_below_core is not UNSET:
            field_dict["nodes_below_core"] = nodes_below_core
        if nodes_per_unit is not UNSET:
            field_dict["nodes_per_unit"] = nodes_per_unit
        if selective_repeat is not UNSET:
            field_dict["selective_repeat"] = selective_repeat
        if sharp is not UNSET:
            field_dict["sharp"] = sharp
        if sources is not UNSET:
            field_dict["sources"] = sources
        if switch_port_price_usd_month is not UNSET:
            field_dict["switch_port_price_usd_month"] = switch_port_price_usd_month
        if topology is not UNSET:
            field_dict["topology"] = topology

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fabric_sources import FabricSources # noqa: PLC0415
        d = dict(src_dict)
        achievable_fraction = d.pop("achievable_fraction")

        id = d.pop("id")

        jitter_cv = d.pop("jitter_cv")

        kind = d.pop("kind")

        latency_us = d.pop("latency_us")

        line_rate_gbps = d.pop("line_rate_gbps")

        loss_rate = d.pop("loss_rate")

        lossless = d.pop("lossless")

        name = d.pop("name")

        nodes_per_leaf = d.pop("nodes_per_leaf")

        oversubscription_options = cast(list[float], d.pop("oversubscription_options"))


        rdma = d.pop("rdma")

        adaptive_routing = d.pop("adaptive_routing", UNSET)

        description = d.pop("description", UNSET)

        nodes_below_core = d.pop("nodes_below_core", UNSET)

        nodes_per_unit = d.pop("nodes_per_unit", UNSET)

        selective_repeat = d.pop("selective_repeat", UNSET)

        sharp = d.pop("sharp", UNSET)

        _sources = d.pop("sources", UNSET)
        sources: FabricSources | Unset
        if isinstance(_sources,  Unset):
            sources = UNSET
        else:
            sources = FabricSources.from_dict(_sources)




        switch_port_price_usd_month = d.pop("switch_port_price_usd_month", UNSET)

        topology = d.pop("topology", UNSET)

        fabric = cls(
            achievable_fraction=achievable_fraction,
            id=id,
            jitter_cv=jitter_cv,
            kind=kind,
            latency_us=latency_us,
            line_rate_gbps=line_rate_gbps,
            loss_rate=loss_rate,
            lossless=lossless,
            name=name,
            nodes_per_leaf=nodes_per_leaf,
            oversubscription_options=oversubscription_options,
            rdma=rdma,
            adaptive_routing=adaptive_routing,
            description=description,
            nodes_below_core=nodes_below_core,
            nodes_per_unit=nodes_per_unit,
            selective_repeat=selective_repeat,
            sharp=sharp,
            sources=sources,
            switch_port_price_usd_month=switch_port_price_usd_month,
            topology=topology,
        )

        return fabric

