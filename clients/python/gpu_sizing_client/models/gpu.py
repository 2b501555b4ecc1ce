from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.gpu_sources import GpuSources





T = TypeVar("T", bound="Gpu")



@_attrs_define
class Gpu:
    """ 
        Attributes:
            bf16_tflops (float): Dense BF16 tensor TFLOPS
            gpudirect_rdma (bool):
            id (str):  Example: h100-sxm.
            intra_bandwidth_gbs (float): Per GPU, one direction, GB/s (bytes)
            intra_link (str): nvlink, xgmi or pcie
            memory_bandwidth_gbs (float): GB/s (bytes)
            memory_gb (float):
            name (str):
            vendor (str):
            fp8_tflops (float | None | Unset): Dense FP8 TFLOPS; null where none
            nvlink_sharp (bool | Unset): NVSwitch with in-switch reduction (NCCL NVLS) Default: False.
            sources (GpuSources | Unset): Field name -> where its figure came from, or 'estimate: why'
            tdp_w (float | Unset):
     """

    bf16_tflops: float
    gpudirect_rdma: bool
    id: str
    intra_bandwidth_gbs: float
    intra_link: str
    memory_bandwidth_gbs: float
    memory_gb: float
    name: str
    vendor: str
    fp8_tflops: float | None | Unset = UNSET
    nvlink_sharp: bool | Unset = False
    sources: GpuSources | Unset = UNSET
    tdp_w: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.gpu_sources import GpuSources # noqa: PLC0415
        bf16_tflops = self.bf16_tflops

        gpudirect_rdma = self.gpudirect_rdma

        id = self.id

        intra_bandwidth_gbs = self.intra_bandwidth_gbs

        intra_link = self.intra_link

        memory_bandwidth_gbs = self.memory_bandwidth_gbs

        memory_gb = self.memory_gb

        name = self.name

        vendor = self.vendor

        fp8_tflops: float | None | Unset
        if isinstance(self.fp8_tflops, Unset):
            fp8_tflops = UNSET
        else:
            fp8_tflops = self.fp8_tflops

        nvlink_sharp = self.nvlink_sharp

        sources: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = self.sources.to_dict()

        tdp_w = self.tdp_w


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "bf16_tflops": bf16_tflops,
            "gpudirect_rdma": gpudirect_rdma,
            "id": id,
            "intra_bandwidth_gbs": intra_bandwidth_gbs,
            "intra_link": intra_link,
            "memory_bandwidth_gbs": memory_bandwidth_gbs,
            "memory_gb": memory_gb,
            "name": name,
            "vendor": vendor,
        })
        if fp8_tflops is not UNSET:
            field_dict["fp8_tflops"] = fp8_tflops
        if nvlink_sharp is not UNSET:
            field_dict["nvlink_sharp"] = nvlink_sharp
        if sources is not UNSET:
            field_dict["sources"] = sources
        if tdp_w is not UNSET:
            field_dict["tdp_w"] = tdp_w

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.gpu_sources import GpuSources # noqa: PLC0415
        d = dict(src_dict)
        bf16_tflops = d.pop("bf16_tflops")

        gpudirect_rdma = d.pop("gpudirect_rdma")

        id = d.pop("id")

        intra_bandwidth_gbs = d.pop("intra_bandwidth_gbs")

        intra_link = d.pop("intra_link")

        memory_bandwidth_gbs = d.pop("memory_bandwidth_gbs")

        memory_gb = d.pop("memory_gb")

        name = d.pop("name")

        vendor = d.pop("vendor")

        def _parse_fp8_tflops(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        fp8_tflops = _parse_fp8_tflops(d.pop("fp8_tflops", UNSET))


        nvlink_sharp = d.pop("nvlink_sharp", UNSET)

        _sources = d.pop("sources", UNSET)
        sources: GpuSources | Unset
        if isinstance(_sources,  Unset):
            sources = UNSET
        else:
            sources = GpuSources.from_dict(_sources)




        tdp_w = d.pop("tdp_w", UNSET)

        gpu = cls(
            bf16_tflops=bf16_tflops,
            gpudirect_rdma=gpudirect_rdma,
            id=id,
            intra_bandwidth_gbs=intra_bandwidth_gbs,
            intra_link=intra_link,
            memory_bandwidth_gbs=memory_bandwidth_gbs,
            memory_gb=memory_gb,
            name=name,
            vendor=vendor,
            fp8_tflops=fp8_tflops,
            nvlink_sharp=nvlink_sharp,
            sources=sources,
            tdp_w=tdp_w,
        )

        return gpu

