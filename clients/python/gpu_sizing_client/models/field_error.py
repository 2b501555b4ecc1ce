from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="FieldError")



@_attrs_define
class FieldError:
    """ 
        Attributes:
            detail (str):
            pointer (str):
     """

    detail: str
    pointer: str





    def to_dict(self) -> dict[str, Any]:
        detail = self.detail

        pointer = self.pointer


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "detail": detail,
            "pointer": pointer,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        detail = d.pop("detail")

        pointer = d.pop("pointer")

        field_error = cls(
            detail=detail,
            pointer=pointer,
        )

        return field_error

