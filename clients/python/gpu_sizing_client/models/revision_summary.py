from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RevisionSummary")



@_attrs_define
class RevisionSummary:
    """ 
        Attributes:
            catalog_version (int):
            created_at (datetime.datetime):
            grand_total (str):
            reason (str): created, repriced or customer_country_changed
            revision (int):
     """

    catalog_version: int
    created_at: datetime.datetime
    grand_total: str
    reason: str
    revision: int





    def to_dict(self) -> dict[str, Any]:
        catalog_version = self.catalog_version

        created_at = self.created_at.isoformat()

        grand_total = self.grand_total

        reason = self.reason

        revision = self.revision


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "catalog_version": catalog_version,
            "created_at": created_at,
            "grand_total": grand_total,
            "reason": reason,
            "revision": revision,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        catalog_version = d.pop("catalog_version")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        grand_total = d.pop("grand_total")

        reason = d.pop("reason")

        revision = d.pop("revision")

        revision_summary = cls(
            catalog_version=catalog_version,
            created_at=created_at,
            grand_total=grand_total,
            reason=reason,
            revision=revision,
        )

        return revision_summary

