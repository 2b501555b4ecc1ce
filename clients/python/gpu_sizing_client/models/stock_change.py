from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="StockChange")



@_attrs_define
class StockChange:
    """ 
        Attributes:
            region (str):
            server (str):
            arriving_nodes (int | Unset):
            available_nodes (int | Unset):
            lead_time_days (int | Unset):
     """

    region: str
    server: str
    arriving_nodes: int | Unset = UNSET
    available_nodes: int | Unset = UNSET
    lead_time_days: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        region = self.region

        server = self.server

        arriving_nodes = self.arriving_nodes

        available_nodes = self.available_nodes

        lead_time_days = self.lead_time_days


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "region": region,
            "server": server,
        })
        if arriving_nodes is not UNSET:
            field_dict["arriving_nodes"] = arriving_nodes
        if available_nodes is not UNSET:
            field_dict["available_nodes"] = available_nodes
        if lead_time_days is not UNSET:
            field_dict["lead_time_days"] = lead_time_days

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        region = d.pop("region")

        server = d.pop("server")

        arriving_nodes = d.pop("arriving_nodes", UNSET)

        available_nodes = d.pop("available_nodes", UNSET)

        lead_time_days = d.pop("lead_time_days", UNSET)

        stock_change = cls(
            region=region,
            server=server,
            arriving_nodes=arriving_nodes,
            available_nodes=available_nodes,
            lead_time_days=lead_time_days,
        )

        return stock_change

