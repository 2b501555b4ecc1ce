from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.custom_gpu import CustomGpu





T = TypeVar("T", bound="CustomServer")



@_attrs_define
class CustomServer:
    """ 
        Attributes:
            gpu (CustomGpu):
            gpus_per_node (int):
            nic_rate_gbps (float): Per NIC, Gb/s (bits)
            nics_per_node (int):
            gpudirect_rdma (bool | Unset): NICs under the GPUs' PCIe switch Default: True.
            host_memory_gb (float | Unset): Host memory of one node, GB: what offload must fit in (not checked when left
                out)
            name (str | Unset):  Default: 'custom server'.
            pcie_gen (int | Unset): PCIe generation of the x16 links between GPUs, NICs and host Default: 5.
     """

    gpu: CustomGpu
    gpus_per_node: int
    nic_rate_gbps: float
    nics_per_node: int
    gpudirect_rdma: bool | Unset = True
    host_memory_gb: float | Unset = UNSET
    name: str | Unset = 'custom server'
    pcie_gen: int | Unset = 5





    def to_dict(self) -> dict[str, Any]:
        from ..models.custom_gpu import CustomGpu # noqa: PLC0415
        gpu = self.gpu.to_dict()

        gpus_per_node = self.gpus_per_node

        nic_rate_gbps = self.nic_rate_gbps

        nics_per_node = self.nics_per_node

        gpudirect_rdma = self.gpudirect_rdma

        host_memory_gb = self.host_memory_gb

        name = self.name

        pcie_gen = self.pcie_gen


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "gpu": gpu,
            "gpus_per_node": gpus_per_node,
            "nic_rate_gbps": nic_rate_gbps,
            "nics_per_node": nics_per_node,
        })
        if gpudirect_rdma is not UNSET:
            field_dict["gpudirect_rdma"] = gpudirect_rdma
        if host_memory_gb is not UNSET:
            field_dict["host_memory_gb"] = host_memory_gb
        if name is not UNSET:
            field_dict["name"] = name
        if pcie_gen is not UNSET:
            field_dict["pcie_gen"] = pcie_gen

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.custom_gpu import CustomGpu # noqa: PLC0415
        d = dict(src_dict)
        gpu = CustomGpu.from_dict(d.pop("gpu"))




        gpus_per_node = d.pop("gpus_per_node")

        nic_rate_gbps = d.pop("nic_rate_gbps")

        nics_per_node = d.pop("nics_per_node")

        gpudirect_rdma = d.pop("gpudirect_rdma", UNSET)

        host_memory_gb = d.pop("host_memory_gb", UNSET)

        name = d.pop("name", UNSET)

        pcie_gen = d.pop("pcie_gen", UNSET)

        custom_server = cls(
            gpu=gpu,
            gpus_per_node=gpus_per_node,
            nic_rate_gbps=nic_rate_gbps,
            nics_per_node=nics_per_node,
            gpudirect_rdma=gpudirect_rdma,
            host_memory_gb=host_memory_gb,
            name=name,
            pcie_gen=pcie_gen,
        )

        return custom_server

