from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.collective_request_algorithm import CollectiveRequestAlgorithm
from ..models.collective_request_operation import CollectiveRequestOperation
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.cluster import Cluster





T = TypeVar("T", bound="CollectiveRequest")



@_attrs_define
class CollectiveRequest:
    """ 
        Attributes:
            cluster (Cluster):
            operation (CollectiveRequestOperation):
            size_bytes (int): Message size S in whole bytes (nccl-tests), at most 2^40 (1T as nccl-tests counts it)
            algorithm (CollectiveRequestAlgorithm | Unset): NCCL algorithm: auto (NCCL's own choice by message size, as its
                tuning model makes it), ring, tree (all_reduce), nvls (NVLink SHARP, one NVSwitch node), nvls_tree (NVLink SHARP
                inside each node, a tree between nodes) or collnet (InfiniBand SHARP). An algorithm the hardware cannot run is
                refused (422). Default: CollectiveRequestAlgorithm.AUTO.
            catalog_version (int | Unset):
     """

    cluster: Cluster
    operation: CollectiveRequestOperation
    size_bytes: int
    algorithm: CollectiveRequestAlgorithm | Unset = CollectiveRequestAlgorithm.AUTO
    catalog_version: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.cluster import Cluster # noqa: PLC0415
        cluster = self.cluster.to_dict()

        operation = self.operation.value

        size_bytes = self.size_bytes

        algorithm: str | Unset = UNSET
        if not isinstance(self.algorithm, Unset):
            algorithm = self.algorithm.value


        catalog_version = self.catalog_version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "cluster": cluster,
            "operation": operation,
            "size_bytes": size_bytes,
        })
        if algorithm is not UNSET:
            field_dict["algorithm"] = algorithm
        if catalog_version is not UNSET:
            field_dict["catalog_version"] = catalog_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cluster import Cluster # noqa: PLC0415
        d = dict(src_dict)
        cluster = Cluster.from_dict(d.pop("cluster"))




        operation = CollectiveRequestOperation(d.pop("operation"))




        size_bytes = d.pop("size_bytes")

        _algorithm = d.pop("algorithm", UNSET)
        algorithm: CollectiveRequestAlgorithm | Unset
        if isinstance(_algorithm,  Unset):
            algorithm = UNSET
        else:
            algorithm = CollectiveRequestAlgorithm(_algorithm)




        catalog_version = d.pop("catalog_version", UNSET)

        collective_request = cls(
            cluster=cluster,
            operation=operation,
            size_bytes=size_bytes,
            algorithm=algorithm,
            catalog_version=catalog_version,
        )

        return collective_request

