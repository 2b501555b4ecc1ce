from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="NodeRange")



@_attrs_define
class NodeRange:
    """ 
        Attributes:
            max_ (int | Unset):  Default: 16.
            min_ (int | Unset):  Default: 1.
     """

    max_: int | Unset = 16
    min_: int | Unset = 1





    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_

        min_ = self.min_


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if max_ is not UNSET:
            field_dict["max"] = max_
        if min_ is not UNSET:
            field_dict["min"] = min_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_ = d.pop("max", UNSET)

        min_ = d.pop("min", UNSET)

        node_range = cls(
            max_=max_,
            min_=min_,
        )

        return node_range

