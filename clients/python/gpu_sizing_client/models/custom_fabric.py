from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.custom_fabric_kind import CustomFabricKind
from ..types import UNSET, Unset






T = TypeVar("T", bound="CustomFabric")



@_attrs_define
class CustomFabric:
    """ 
        Attributes:
            kind (CustomFabricKind):
            line_rate_gbps (float): Per port, Gb/s (bits)
            lossless (bool): PFC + ECN configured
            rdma (bool):
            achievable_fraction (float | Unset):
            adaptive_routing (bool | Unset): Switches spread packets over paths (no ECMP hash collisions) Default: False.
            jitter_cv (float | Unset):
            latency_us (float | Unset):
            loss_rate (float | Unset):
            name (str | Unset):  Default: 'custom fabric'.
            nodes_per_leaf (int | Unset):
            selective_repeat (bool | Unset): NICs resend only lost packets (not go-back-N) Default: False.
            sharp (bool | Unset): In-network reduction (SHARP) for NCCL CollNet; RDMA fabrics only Default: False.
     """

    kind: CustomFabricKind
    line_rate_gbps: float
    lossless: bool
    rdma: bool
    achievable_fraction: float | Unset = UNSET
    adaptive_routing: bool | Unset = False
    jitter_cv: float | Unset = UNSET
    latency_us: float | Unset = UNSET
    loss_rate: float | Unset = UNSET
    name: str | Unset = 'custom fabric'
    nodes_per_leaf: int | Unset = UNSET
    selective_repeat: bool | Unset = False
    sharp: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        line_rate_gbps = self.line_rate_gbps

        lossless = self.lossless

        rdma = self.rdma

        achievable_fraction = self.achievable_fraction

        adaptive_routing = self.adaptive_routing

        jitter_cv = self.jitter_cv

        latency_us = self.latency_us

        loss_rate = self.loss_rate

        name = self.name

        nodes_per_leaf = self.nodes_per_leaf

        selective_repeat = self.selective_repeat

        sharp = self.sharp


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
            "line_rate_gbps": line_rate_gbps,
            "lossless": lossless,
            "rdma": rdma,
        })
        if achievable_fraction is not UNSET:
            field_dict["achievable_fraction"] = achievable_fraction
        if adaptive_routing is not UNSET:
            field_dict["adaptive_routing"] = adaptive_routing
        if jitter_cv is not UNSET:
            field_dict["jitter_cv"] = jitter_cv
        if latency_us is not UNSET:
            field_dict["latency_us"] = latency_us
        if loss_rate is not UNSET:
            field_dict["loss_rate"] = loss_rate
        if name is not UNSET:
            field_dict["name"] = name
        if nodes_per_leaf is not UNSET:
            field_dict["nodes_per_leaf"] = nodes_per_leaf
        if selective_repeat is not UNSET:
            field_dict["selective_repeat"] = selective_repeat
        if sharp is not UNSET:
            field_dict["sharp"] = sharp

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = CustomFabricKind(d.pop("kind"))




        line_rate_gbps = d.pop("line_rate_gbps")

        lossless = d.pop("lossless")

        rdma = d.pop("rdma")

        achievable_fraction = d.pop("achievable_fraction", UNSET)

        adaptive_routing = d.pop("adaptive_routing", UNSET)

        jitter_cv = d.pop("jitter_cv", UNSET)

        latency_us = d.pop("latency_us", UNSET)

        loss_rate = d.pop("loss_rate", UNSET)

        name = d.pop("name", UNSET)

        nodes_per_leaf = d.pop("nodes_per_leaf", UNSET)

        selective_repeat = d.pop("selective_repeat", UNSET)

        sharp = d.pop("sharp", UNSET)

        custom_fabric = cls(
            kind=kind,
            line_rate_gbps=line_rate_gbps,
            lossless=lossless,
            rdma=rdma,
            achievable_fraction=achievable_fraction,
            adaptive_routing=adaptive_routing,
            jitter_cv=jitter_cv,
            latency_us=latency_us,
            loss_rate=loss_rate,
            name=name,
            nodes_per_leaf=nodes_per_leaf,
            selective_repeat=selective_repeat,
            sharp=sharp,
        )

        return custom_fabric

