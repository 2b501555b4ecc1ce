from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ExplicitConfiguration")



@_attrs_define
class ExplicitConfiguration:
    """ 
        Attributes:
            fabric (str):  Example: ib-ndr-400.
            nodes (int):
            region (str):  Example: us-east.
            server (str):  Example: hgx-h100-8.
            oversubscription (float | Unset):
     """

    fabric: str
    nodes: int
    region: str
    server: str
    oversubscription: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        fabric = self.fabric

        nodes = self.nodes

        region = self.region

        server = self.server

        oversubscription = self.oversubscription


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fabric": fabric,
            "nodes": nodes,
            "region": region,
            "server": server,
        })
        if oversubscription is not UNSET:
            field_dict["oversubscription"] = oversubscription

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fabric = d.pop("fabric")

        nodes = d.pop("nodes")

        region = d.pop("region")

        server = d.pop("server")

        oversubscription = d.pop("oversubscription", UNSET)

        explicit_configuration = cls(
            fabric=fabric,
            nodes=nodes,
            region=region,
            server=server,
            oversubscription=oversubscription,
        )

        return explicit_configuration

