from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="FabricRef")



@_attrs_define
class FabricRef:
    """ 
        Attributes:
            gpudirect_rdma (bool):
            id (str):
            kind (str):
            name (str):
            rdma (bool):
     """

    gpudirect_rdma: bool
    id: str
    kind: str
    name: str
    rdma: bool





    def to_dict(self) -> dict[str, Any]:
        gpudirect_rdma = self.gpudirect_rdma

        id = self.id

        kind = self.kind

        name = self.name

        rdma = self.rdma


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "gpudirect_rdma": gpudirect_rdma,
            "id": id,
            "kind": kind,
            "name": name,
            "rdma": rdma,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        gpudirect_rdma = d.pop("gpudirect_rdma")

        id = d.pop("id")

        kind = d.pop("kind")

        name = d.pop("name")

        rdma = d.pop("rdma")

        fabric_ref = cls(
            gpudirect_rdma=gpudirect_rdma,
            id=id,
            kind=kind,
            name=name,
            rdma=rdma,
        )

        return fabric_ref

