from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.problem_field import ProblemField





T = TypeVar("T", bound="Problem")



@_attrs_define
class Problem:
    """ 
        Attributes:
            code (str): Stable machine-readable code
            detail (str):
            status (int):
            title (str):
            type_ (str): URI naming the kind of problem
            errors (list[ProblemField] | Unset): One entry per invalid field (validation problems only)
            instance (str | Unset): The request path
     """

    code: str
    detail: str
    status: int
    title: str
    type_: str
    errors: list[ProblemField] | Unset = UNSET
    instance: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.problem_field import ProblemField # noqa: PLC0415
        code = self.code

        detail = self.detail

        status = self.status

        title = self.title

        type_ = self.type_

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)



        instance = self.instance


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "code": code,
            "detail": detail,
            "status": status,
            "title": title,
            "type": type_,
        })
        if errors is not UNSET:
            field_dict["errors"] = errors
        if instance is not UNSET:
            field_dict["instance"] = instance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.problem_field import ProblemField # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("code")

        detail = d.pop("detail")

        status = d.pop("status")

        title = d.pop("title")

        type_ = d.pop("type")

        _errors = d.pop("errors", UNSET)
        errors: list[ProblemField] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = ProblemField.from_dict(errors_item_data)



                errors.append(errors_item)


        instance = d.pop("instance", UNSET)

        problem = cls(
            code=code,
            detail=detail,
            status=status,
            title=title,
            type_=type_,
            errors=errors,
            instance=instance,
        )

        return problem

