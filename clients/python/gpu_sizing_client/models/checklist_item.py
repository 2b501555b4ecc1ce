from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ChecklistItem")



@_attrs_define
class ChecklistItem:
    """ 
        Attributes:
            item (str):
            source (str):
            why (str):
     """

    item: str
    source: str
    why: str





    def to_dict(self) -> dict[str, Any]:
        item = self.item

        source = self.source

        why = self.why


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "item": item,
            "source": source,
            "why": why,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        item = d.pop("item")

        source = d.pop("source")

        why = d.pop("why")

        checklist_item = cls(
            item=item,
            source=source,
            why=why,
        )

        return checklist_item

