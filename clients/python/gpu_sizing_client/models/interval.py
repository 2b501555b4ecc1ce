from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Interval")



@_attrs_define
class Interval:
    """ 
        Attributes:
            p10 (float):
            p90 (float):
     """

    p10: float
    p90: float





    def to_dict(self) -> dict[str, Any]:
        p10 = self.p10

        p90 = self.p90


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "p10": p10,
            "p90": p90,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        p10 = d.pop("p10")

        p90 = d.pop("p90")

        interval = cls(
            p10=p10,
            p90=p90,
        )

        return interval

