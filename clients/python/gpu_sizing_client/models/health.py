from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.health_checks import HealthChecks





T = TypeVar("T", bound="Health")



@_attrs_define
class Health:
    """ 
        Attributes:
            status (str):  Example: ok.
            checks (HealthChecks | Unset):
     """

    status: str
    checks: HealthChecks | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.health_checks import HealthChecks # noqa: PLC0415
        status = self.status

        checks: dict[str, Any] | Unset = UNSET
        if not isinstance(self.checks, Unset):
            checks = self.checks.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "status": status,
        })
        if checks is not UNSET:
            field_dict["checks"] = checks

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.health_checks import HealthChecks # noqa: PLC0415
        d = dict(src_dict)
        status = d.pop("status")

        _checks = d.pop("checks", UNSET)
        checks: HealthChecks | Unset
        if isinstance(_checks,  Unset):
            checks = UNSET
        else:
            checks = HealthChecks.from_dict(_checks)




        health = cls(
            status=status,
            checks=checks,
        )

        return health

