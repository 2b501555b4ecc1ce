from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Stock")



@_attrs_define
class Stock:
    """ 
        Attributes:
            arriving_nodes (int): On order
            available_nodes (int): On hand now
            lead_time_days (int): Days from an order until the arriving nodes are delivered
            server (str):
     """

    arriving_nodes: int
    available_nodes: int
    lead_time_days: int
    server: str





    def to_dict(self) -> dict[str, Any]:
        arriving_nodes = self.arriving_nodes

        available_nodes = self.available_nodes

        lead_time_days = self.lead_time_days

        server = self.server


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "arriving_nodes": arriving_nodes,
            "available_nodes": available_nodes,
            "lead_time_days": lead_time_days,
            "server": server,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        arriving_nodes = d.pop("arriving_nodes")

        available_nodes = d.pop("available_nodes")

        lead_time_days = d.pop("lead_time_days")

        server = d.pop("server")

        stock = cls(
            arriving_nodes=arriving_nodes,
            available_nodes=available_nodes,
            lead_time_days=lead_time_days,
            server=server,
        )

        return stock

