from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.field_error import FieldError





T = TypeVar("T", bound="SizingError")



@_attrs_define
class SizingError:
    """ 
        Attributes:
            code (str):
            detail (str):
            errors (list[FieldError]):
     """

    code: str
    detail: str
    errors: list[FieldError]





    def to_dict(self) -> dict[str, Any]:
        from ..models.field_error import FieldError # noqa: PLC0415
        code = self.code

        detail = self.detail

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "code": code,
            "detail": detail,
            "errors": errors,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field_error import FieldError # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        detail = d.pop("detail")

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in (_errors):
            errors_item = FieldError.from_dict(errors_item_data)



            errors.append(errors_item)


        sizing_error = cls(
            code=code,
            detail=detail,
            errors=errors,
        )

        return sizing_error

