from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Nic")



@_attrs_define
class Nic:
    """ 
        Attributes:
            count (int):
            model (str):
            protocols (list[str]):
            rate_gbps (float): Line rate per NIC, Gb/s (bits)
     """

    count: int
    model: str
    protocols: list[str]
    rate_gbps: float





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        model = self.model

        protocols = self.protocols



        rate_gbps = self.rate_gbps


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "count": count,
            "model": model,
            "protocols": protocols,
            "rate_gbps": rate_gbps,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        model = d.pop("model")

        protocols = cast(list[str], d.pop("protocols"))


        rate_gbps = d.pop("rate_gbps")

        nic = cls(
            count=count,
            model=model,
            protocols=protocols,
            rate_gbps=rate_gbps,
        )

        return nic

