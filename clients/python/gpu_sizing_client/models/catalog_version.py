from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CatalogVersion")



@_attrs_define
class CatalogVersion:
    """ 
        Attributes:
            created_at (datetime.datetime):
            id (int):
            origin (str):
            note (str | Unset):
     """

    created_at: datetime.datetime
    id: int
    origin: str
    note: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        origin = self.origin

        note = self.note


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "created_at": created_at,
            "id": id,
            "origin": origin,
        })
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        origin = d.pop("origin")

        note = d.pop("note", UNSET)

        catalog_version = cls(
            created_at=created_at,
            id=id,
            origin=origin,
            note=note,
        )

        return catalog_version

