from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RevisionChange")



@_attrs_define
class RevisionChange:
    """ 
        Attributes:
            grand_total_delta (str):
            monthly_net_delta (str):
            previous_catalog_version (int):
            previous_revision (int):
     """

    grand_total_delta: str
    monthly_net_delta: str
    previous_catalog_version: int
    previous_revision: int





    def to_dict(self) -> dict[str, Any]:
        grand_total_delta = self.grand_total_delta

        monthly_net_delta = self.monthly_net_delta

        previous_catalog_version = self.previous_catalog_version

        previous_revision = self.previous_revision


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "grand_total_delta": grand_total_delta,
            "monthly_net_delta": monthly_net_delta,
            "previous_catalog_version": previous_catalog_version,
            "previous_revision": previous_revision,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grand_total_delta = d.pop("grand_total_delta")

        monthly_net_delta = d.pop("monthly_net_delta")

        previous_catalog_version = d.pop("previous_catalog_version")

        previous_revision = d.pop("previous_revision")

        revision_change = cls(
            grand_total_delta=grand_total_delta,
            monthly_net_delta=monthly_net_delta,
            previous_catalog_version=previous_catalog_version,
            previous_revision=previous_revision,
        )

        return revision_change

