from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="WhatIfOption")



@_attrs_define
class WhatIfOption:
    """ 
        Attributes:
            extra_monthly (str): Over rank 1, per month
            fabric (str):
            fabric_name (str):
            monthly (str):
            nodes (int):
            oversubscription (float): The spine's ratio (n:1)
            throughput (float):
            throughput_gain (float): Over rank 1, a fraction
            throughput_gain_per_1000 (float | None): Throughput gained (tokens/s or samples/s) per 1,000 of the currency
                spent per month
     """

    extra_monthly: str
    fabric: str
    fabric_name: str
    monthly: str
    nodes: int
    oversubscription: float
    throughput: float
    throughput_gain: float
    throughput_gain_per_1000: float | None





    def to_dict(self) -> dict[str, Any]:
        extra_monthly = self.extra_monthly

        fabric = self.fabric

        fabric_name = self.fabric_name

        monthly = self.monthly

        nodes = self.nodes

        oversubscription = self.oversubscription

        throughput = self.throughput

        throughput_gain = self.throughput_gain

        throughput_gain_per_1000: float | None
        throughput_gain_per_1000 = self.throughput_gain_per_1000


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "extra_monthly": extra_monthly,
            "fabric": fabric,
            "fabric_name": fabric_name,
            "monthly": monthly,
            "nodes": nodes,
            "oversubscription": oversubscription,
            "throughput": throughput,
            "throughput_gain": throughput_gain,
            "throughput_gain_per_1000": throughput_gain_per_1000,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        extra_monthly = d.pop("extra_monthly")

        fabric = d.pop("fabric")

        fabric_name = d.pop("fabric_name")

        monthly = d.pop("monthly")

        nodes = d.pop("nodes")

        oversubscription = d.pop("oversubscription")

        throughput = d.pop("throughput")

        throughput_gain = d.pop("throughput_gain")

        def _parse_throughput_gain_per_1000(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        throughput_gain_per_1000 = _parse_throughput_gain_per_1000(d.pop("throughput_gain_per_1000"))


        what_if_option = cls(
            extra_monthly=extra_monthly,
            fabric=fabric,
            fabric_name=fabric_name,
            monthly=monthly,
            nodes=nodes,
            oversubscription=oversubscription,
            throughput=throughput,
            throughput_gain=throughput_gain,
            throughput_gain_per_1000=throughput_gain_per_1000,
        )

        return what_if_option

